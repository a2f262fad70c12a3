// The dispatch's routes (declared in the route contract, api/contract/dispatch.ts): trucks and
// what vehicle types need of one, the board and its stream, assignments, jobs for later, and the
// signed-in person's own jobs with their stream. The rules are api/dispatch/service.ts's.
import { compress } from 'hono/compress';
import { streamSSE } from 'hono/streaming';
import type { Context } from 'hono';
import { currentUser } from '../auth/session';
import type { LiveKey } from '../bookings/live';
import { HEARTBEAT_MS, STREAMS_FULL } from '../bookings/routes';
import { NotFound, TooManyRequests } from '../platform/errors';
import { imageBody } from '../platform/http/body-limit';
import { addressGroup } from '../platform/http/connection-guard';
import type { AppEnv } from '../platform/http/context';
import { clientAddress } from '../platform/http/rate-limit';
import { parseId } from '../platform/http/validate';
import { contract } from '../contract';
import { imageAnswer } from '../proof/routes';
import type { Audience } from '../proof/service';
import { serve, type AppParts } from '../routes';
import { actorOf } from '../team/audit';
import { boardKey, personKey } from './live';
import { dispatchLive } from './live';
import { dispatchService, type Person } from './service';

const person = (c: Context<AppEnv>): Person => {
  const user = currentUser(c);
  return { id: user.id, companyId: user.companyId, role: user.role };
};
const rowId = (raw: string, message: string) => {
  const id = parseId(raw);
  if (id === undefined) throw new NotFound(message);
  return id;
};

export function dispatchRoutes(parts: AppParts) {
  const { deps, bookings, live, proof } = parts;
  const dispatch = dispatchService({ ...deps, bookings, live: dispatchLive(live) });
  const myJobId = (c: Context<AppEnv>) => dispatch.myJobId(person(c), c.req.param('reference') ?? '');
  const assignee = (c: Context<AppEnv>): Audience => ({ kind: 'assignee', reference: c.req.param('reference') ?? '' });
  // Every change to a job (booked, answered, moved, cancelled) reaches its company's boards and its driver's screens.
  deps.events.on('job.changed', (change) => dispatch.jobChanged(change.bookingId));

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

  const trucks = serve(parts, contract.trucks, {
    list: (c) => c.json(dispatch.trucks(currentUser(c).companyId), 200),
    create: async (c) => c.json(await dispatch.createTruck(currentUser(c).companyId, c.req.valid('json')), 201),
    update: async (c) => c.json(await dispatch.updateTruck(currentUser(c).companyId, rowId(c.req.param('id'), 'Truck not found'), c.req.valid('json')), 200),
    remove: async (c) => c.json(await dispatch.deleteTruck(currentUser(c).companyId, rowId(c.req.param('id'), 'Truck not found')), 200),
    carriage: (c) => c.json(dispatch.carriage(currentUser(c).companyId), 200),
    setCarriage: async (c) =>
      c.json(
        await dispatch.setCarriage(currentUser(c).companyId, rowId(c.req.param('id'), 'No such vehicle type row of this company'), c.req.valid('json')),
        200,
      ),
  });
  const board = serve(parts, contract.dispatch, {
    board: (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(dispatch.board(currentUser(c).companyId), 200);
    },
    boardEvents: (c) => changes(c, boardKey(currentUser(c).companyId)),
    assign: async (c) => c.json(await dispatch.assign(person(c), c.req.param('reference'), c.req.valid('json'), actorOf(c)), 200),
    acceptLater: async (c) => c.json(await dispatch.acceptLater(person(c), c.req.param('reference'), c.req.valid('json'), actorOf(c)), 200),
    laterSettings: (c) => c.json(dispatch.laterSettings(currentUser(c).companyId), 200),
    updateLaterSettings: async (c) => c.json(await dispatch.updateLaterSettings(currentUser(c).companyId, c.req.valid('json')), 200),
  });
  // The contract lists `events` before `{reference}`, and serve registers in its order.
  const mine = serve(parts, contract.myJobs, {
    list: (c) => c.json(dispatch.myJobs(person(c)), 200),
    events: (c) => changes(c, personKey(currentUser(c).id)),
    job: (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(dispatch.myJob(person(c), c.req.param('reference')), 200);
    },
    status: async (c) => {
      const { status, balanceMethod, queuedPhotos } = c.req.valid('json');
      return c.json(await dispatch.myStep(person(c), c.req.param('reference'), status, balanceMethod, queuedPhotos), 200);
    },
    position: async (c) => c.json(await dispatch.myPosition(person(c), c.req.param('reference'), c.req.valid('json')), 200),
    payLink: async (c) => c.json(await dispatch.myPayLink(person(c), c.req.param('reference')), 200),
    balance: async (c) => c.json(await dispatch.myBalance(person(c), c.req.param('reference'), c.req.valid('json').method, actorOf(c)), 200),
    // Photos, signatures and the checklist: the proof's own rules, on the job found as above.
    proof: (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(proof.view(myJobId(c), assignee(c)), 200);
    },
    condition: async (c) => c.json(await proof.saveCondition(myJobId(c), c.req.valid('json')), 200),
    upload: async (c) => {
      // The uploads' own limit, before the job is looked up or a byte of the body is read.
      proof.checkUploadRate(clientAddress(c, deps.config.trustProxy));
      const { created, file } = await proof.upload(myJobId(c), assignee(c), c.req.query(), c.req.header('content-type'), imageBody(c), currentUser(c).name);
      c.header('Cache-Control', 'no-store');
      return c.json(file, created ? 201 : 200);
    },
    file: async (c) => imageAnswer(c, await proof.file(myJobId(c), c.req.param('fileId') ?? '', assignee(c), c.req.query('size'))),
    phone: async (c) => c.json(await dispatch.setMyPhone(person(c), c.req.valid('json').phone), 200),
  });
  // The board's read is the largest answer a portal page waits for (every job of the day, read
  // again by every portal page's banner): gzipped when the browser accepts it (docs/budgets.md
  // "Dispatch"). It holds no secret for a reflected guess to be measured against.
  return trucks.use(contract.dispatch.board.path, compress()).route('/', board).route('/', mine);
}
