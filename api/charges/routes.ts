// The charge lists (docs/product.md §7): private list/create/update/delete scoped to the session's
// company, and public reads of enabled rows by company id. The rules are api/charges/'s; the
// routes are the table's, one group per list.
import { ContractHono } from '../platform/http/contract-hono';
import { currentUser } from '../auth/session';
import { chargeResources, type ChargeResource } from '../charges/resources';
import { chargeService } from '../charges/service';
import type { ChargeKind } from '../charges/store';
import type { AppDeps } from '../platform/deps';
import type { AppEnv } from '../platform/http/context';
import { routes } from '../routes';
import { actorOf } from '../team/audit';

// The lists differ only in their paths, body schema and row JSON, which the table declares per list and
// OpenAPIHono validates per route; the handlers are one shape, written once against the
// vehicle types' types.
type Group = typeof routes.vehicleTypes;
type AnyResource = ChargeResource<ChargeKind, Group['create']['request']['body']['content']['application/json']['schema'], never>;

function listRoutes(deps: AppDeps, table: Partial<Group> & Pick<Group, 'list' | 'publicList'>, resource: AnyResource) {
  const service = chargeService(deps, resource);
  const app = new ContractHono<AppEnv>()
    .openapi(table.list, (c) => c.json(service.list(currentUser(c).companyId), 200))
    .openapi(table.publicList, (c) => c.json(service.listPublic(c.req.param('id')), 200));
  const { create, update, remove } = table;
  if (!create || !update || !remove) return app;
  return app
    .openapi(create, async (c) => c.json(await service.create(currentUser(c).companyId, c.req.valid('json'), actorOf(c)), 201))
    .openapi(update, async (c) => c.json(await service.update(currentUser(c).companyId, c.req.param('id'), c.req.valid('json'), actorOf(c)), 200))
    .openapi(remove, async (c) => {
      await service.remove(currentUser(c).companyId, c.req.param('id'), actorOf(c));
      return c.json({ success: true as const }, 200);
    });
}

export function chargeRoutes(deps: AppDeps) {
  const lists: [Partial<Group> & Pick<Group, 'list' | 'publicList'>, unknown][] = [
    [routes.vehicleTypes, chargeResources['vehicle-types']],
    [routes.gearboxTypes as unknown as Group, chargeResources['gearbox-types']],
    [routes.rollingStatusTypes as unknown as Group, chargeResources['rolling-status-types']],
    [routes.surcharges as unknown as Group, chargeResources.surcharges],
    [routes.passengerCharges as unknown as Group, chargeResources['passenger-charges']],
  ];
  const app = new ContractHono<AppEnv>();
  for (const [table, resource] of lists) app.route('/', listRoutes(deps, table, resource as AnyResource));
  return app;
}
