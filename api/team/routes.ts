// The team and the audit log (docs/product.md §23); the rules are api/team/service.ts's.
import { toCurrentUser } from '../auth/current-user';
import { currentUser } from '../auth/session';
import { contract } from '../contract';
import { NotFound } from '../platform/errors';
import { parseId } from '../platform/http/validate';
import { serve, type AppParts } from '../routes';
import { actorOf } from './audit';
import { auditService } from './audit-service';
import { INVITATION_MISSING, PERSON_MISSING } from './service';

const idOr404 = (raw: string, message: string): number => {
  const id = parseId(raw);
  if (id === undefined) throw new NotFound(message);
  return id;
};

export function teamRoutes(parts: AppParts) {
  const { deps, team } = parts;
  const log = auditService(deps);
  const people = serve(parts, contract.team, {
    overview: (c) => {
      const user = currentUser(c);
      return c.json(team.team(user.companyId, user.id), 200);
    },
    people: (c) => {
      const user = currentUser(c);
      return c.json(team.people(user.companyId, user.id), 200);
    },
    changeRole: async (c) => {
      const id = idOr404(c.req.param('personId'), PERSON_MISSING);
      return c.json(await team.changeRole(currentUser(c), id, c.req.valid('json').role, actorOf(c)), 200);
    },
    remove: async (c) => {
      await team.remove(currentUser(c), idOr404(c.req.param('personId'), PERSON_MISSING), actorOf(c));
      return c.json({ success: true as const }, 200);
    },
    invitations: (c) => c.json(team.invitations(currentUser(c).companyId), 200),
    invite: async (c) => c.json(await team.invite(currentUser(c), c.req.valid('json'), actorOf(c)), 201),
    withdraw: async (c) => {
      await team.withdraw(currentUser(c).companyId, idOr404(c.req.param('id'), INVITATION_MISSING), actorOf(c));
      return c.json({ success: true as const }, 200);
    },
    refundLimit: async (c) => {
      const { dispatcherRefundLimit } = c.req.valid('json');
      return c.json(await team.setRefundLimit(currentUser(c), dispatcherRefundLimit ?? 0, actorOf(c)), 200);
    },
    lookupInvitation: (c) => c.json(team.lookup(c.req.valid('json').token), 200),
    acceptInvitation: async (c) => {
      const user = await team.accept(c.req.valid('json'), c.get('requestId') ?? null);
      const authToken = await deps.sessions.start(c, user);
      return c.json({ ...toCurrentUser(user, deps), authToken }, 200);
    },
  });
  const auditLog = serve(parts, contract.audit, {
    list: (c) => c.json(log.page(currentUser(c).companyId, c.req.valid('query')), 200),
    export: (c) => {
      const csv = log.exportCsv(currentUser(c).companyId, c.req.valid('query'));
      return c.body(csv.body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${csv.filename}"`,
        'Cache-Control': 'no-store',
      });
    },
  });
  people.route('/', auditLog);
  return people;
}
