// The dispatch's routes (declared in the route contract, api/contract/dispatch.ts): trucks and
// what vehicle types need of one, the board and its stream, assignments, jobs for later, and the
// signed-in person's own jobs with their stream. The rules are api/dispatch/service.ts's.
import { streamSSE } from 'hono/streaming';
import type { Context } from 'hono';
import { currentUser } from '../auth/session';
import type { LiveHub, LiveKey } from '../bookings/live';
import { HEARTBEAT_MS, STREAMS_FULL } from '../bookings/routes';
import type { AppDeps } from '../platform/deps';
import { NotFound, TooManyRequests } from '../platform/errors';
import { addressGroup } from '../platform/http/connection-guard';
import type { AppEnv } from '../platform/http/context';
import { ContractHono } from '../platform/http/contract-hono';
import { clientAddress } from '../platform/http/rate-limit';
import { parseId } from '../platform/http/validate';
import { routes } from '../routes';
import { boardKey, personKey } from './live';
import type { DispatchService, Person } from './service';

const person = (c: Context<AppEnv>): Person => {
  const user = currentUser(c);
  return { id: user.id, companyId: user.companyId, role: user.role };
};
const rowId = (raw: string, message: string) => {
  const id = parseId(raw);
  if (id === undefined) throw new NotFound(message);
  return id;
};

export function dispatchRoutes(deps: Pick<AppDeps, 'config'>, dispatch: DispatchService, live: LiveHub) {
  /** A stream of `key`'s changes: a `ready` event now, then one `job` event per change, a comment every 20 s. */
  function changes(c: Context<AppEnv>, key: LiveKey) {
    const address = clientAddress(c, deps.config.trustProxy);
    let end: () => void = () => {};
    const ended = new Promise<void>((resolve) => (end = resolve));
    let write: (frame: Uint8Array) => void = () => {};
    const admission = live.join(key, addressGroup(address), { send: (frame) => write(frame), close: () => end() });
    if (!admission.ok) throw new TooManyRequests(STREAMS_FULL, admission.reason === 'total' ? 30 : 60, 'STREAMS_FULL');
    c.header('Cache-Control', 'no-store');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(
      c,
      async (stream) => {
        stream.onAbort(() => end());
        write = (frame) => void stream.write(frame).catch(() => end());
        await stream.writeSSE({ event: 'ready', data: '{}' });
        const heartbeat = setInterval(() => void stream.write(': heartbeat\n\n').catch(() => end()), HEARTBEAT_MS);
        try {
          await ended;
        } finally {
          clearInterval(heartbeat);
          admission.leave();
        }
      },
      async () => {
        admission.leave();
      },
    );
  }

  const t = routes.trucks;
  const d = routes.dispatch;
  const m = routes.myJobs;
  return (
    new ContractHono<AppEnv>()
      .openapi(t.list, (c) => c.json(dispatch.trucks(currentUser(c).companyId), 200))
      .openapi(t.create, async (c) => c.json(await dispatch.createTruck(currentUser(c).companyId, c.req.valid('json')), 201))
      .openapi(t.update, async (c) =>
        c.json(await dispatch.updateTruck(currentUser(c).companyId, rowId(c.req.param('id'), 'Truck not found'), c.req.valid('json')), 200),
      )
      .openapi(t.remove, async (c) => c.json(await dispatch.deleteTruck(currentUser(c).companyId, rowId(c.req.param('id'), 'Truck not found')), 200))
      .openapi(t.carriage, (c) => c.json(dispatch.carriage(currentUser(c).companyId), 200))
      .openapi(t.setCarriage, async (c) =>
        c.json(
          await dispatch.setCarriage(currentUser(c).companyId, rowId(c.req.param('id'), 'No such vehicle type row of this company'), c.req.valid('json')),
          200,
        ),
      )
      .openapi(d.boardEvents, (c) => changes(c, boardKey(currentUser(c).companyId)))
      .openapi(d.board, (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json(dispatch.board(currentUser(c).companyId), 200);
      })
      .openapi(d.assign, async (c) => c.json(await dispatch.assign(person(c), c.req.param('reference'), c.req.valid('json')), 200))
      .openapi(d.acceptLater, async (c) => c.json(await dispatch.acceptLater(person(c), c.req.param('reference'), c.req.valid('json')), 200))
      .openapi(d.laterSettings, (c) => c.json(dispatch.laterSettings(currentUser(c).companyId), 200))
      .openapi(d.updateLaterSettings, async (c) => c.json(await dispatch.updateLaterSettings(currentUser(c).companyId, c.req.valid('json')), 200))
      // The stream before `{reference}`, so `events` is never read as a reference.
      .openapi(m.events, (c) => changes(c, personKey(currentUser(c).id)))
      .openapi(m.list, (c) => c.json(dispatch.myJobs(person(c)), 200))
      .openapi(m.job, (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json(dispatch.myJob(person(c), c.req.param('reference')), 200);
      })
      .openapi(m.status, async (c) => c.json(await dispatch.myStep(person(c), c.req.param('reference'), c.req.valid('json').status), 200))
      .openapi(m.position, async (c) => c.json(await dispatch.myPosition(person(c), c.req.param('reference'), c.req.valid('json')), 200))
      .openapi(m.phone, async (c) => c.json(await dispatch.setMyPhone(person(c), c.req.valid('json').phone), 200))
  );
}
