// The bookings' routes (declared in the route contract, api/contract/bookings.ts): the motorist's
// booking, what it pays, status page, live stream, cancel and review opt-out; the driver's page,
// live stream, steps, balance and position; the operator's jobs, answers, balances and settings.
// The rules are api/bookings/service.ts's.
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { currentUser } from '../auth/session';
import { TooManyRequests } from '../platform/errors';
import type { AppEnv } from '../platform/http/context';
import { clientAddress } from '../platform/http/rate-limit';
import { addressGroup } from '../platform/http/connection-guard';
import { isFinished } from '#shared/bookings';
import { jobPageDone } from '#shared/payments';
import { contract } from '../contract';
import { serve, type AppParts } from '../routes';
import { actorOf } from '../team/audit';
import type { Audience } from './live';

/** A comment line this often keeps proxies and phones from closing a quiet stream. */
export const HEARTBEAT_MS = 20_000;
export const STREAMS_FULL = 'Too many live pages are open. This page will refresh by itself.';

export function bookingRoutes(parts: AppParts) {
  const { deps, bookings, live, payments } = parts;

  /** A page's stream of its job: its view now, then each change the service publishes to its audience, until the job is done with. */
  function liveStream(c: Context<AppEnv>, id: number, view: unknown, audience: Audience, done: boolean) {
    const address = clientAddress(c, deps.config.trustProxy);
    let end: () => void = () => {};
    const ended = new Promise<void>((resolve) => (end = resolve));
    let write: (frame: Uint8Array) => void = () => {};
    const admission = live.join(id, addressGroup(address), { send: (frame) => write(frame), close: () => end() }, audience);
    if (!admission.ok) throw new TooManyRequests(STREAMS_FULL, admission.reason === 'total' ? 30 : 60, 'STREAMS_FULL');
    c.header('Cache-Control', 'no-store');
    // Some proxies buffer a response they may compress; this one must flow as it is written.
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(
      c,
      async (stream) => {
        stream.onAbort(() => end());
        write = (frame) => void stream.write(frame).catch(() => end());
        await stream.writeSSE({ event: 'job', data: JSON.stringify(view) });
        if (done) end();
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

  return serve(parts, contract.bookings, {
    book: async (c) => {
      // A browser names the page's origin; a program sends none and is left to the rate limits (decision 033).
      const { created, result } = await bookings.book(c.req.valid('json'), { origin: c.req.header('origin'), ownOrigin: new URL(c.req.url).origin });
      c.header('Cache-Control', 'no-store');
      return created ? c.json(result, 201) : c.json(result, 200);
    },
    due: (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(bookings.due(c.req.param('quoteId')), 200);
    },
    list: (c) => c.json(bookings.list(currentUser(c).companyId), 200),
    accept: async (c) => c.json(await bookings.accept(currentUser(c).companyId, c.req.param('reference'), c.req.valid('json'), actorOf(c)), 200),
    balance: async (c) =>
      c.json(await bookings.operatorBalance(currentUser(c).companyId, c.req.param('reference'), c.req.valid('json').method, actorOf(c)), 200),
    decline: async (c) => c.json(await bookings.decline(currentUser(c).companyId, c.req.param('reference'), c.req.valid('json'), actorOf(c)), 200),
    refund: async (c) => {
      const user = currentUser(c);
      return c.json(await bookings.refund(user.companyId, c.req.param('reference'), c.req.valid('json'), { who: actorOf(c), role: user.role }), 200);
    },
    settings: (c) => c.json(bookings.settings(currentUser(c).companyId), 200),
    updateSettings: async (c) => c.json(await bookings.updateSettings(currentUser(c).companyId, c.req.valid('json')), 200),
    sendSmsCode: async (c) => c.json(await bookings.smsCodes.sendCode(currentUser(c).companyId), 200),
    confirmSmsCode: async (c) => c.json(await bookings.smsCodes.confirmCode(currentUser(c).companyId, c.req.valid('json').code), 200),
    job: async (c) => {
      c.header('Cache-Control', 'no-store');
      const { id, view } = bookings.job(c.req.param('token'));
      // Back from checkout before its webhook: the provider is asked, and a paid booking shows as requested.
      if (view.status !== 'awaiting_payment' || !payments) return c.json(view, 200);
      await payments.confirm(id);
      return c.json(bookings.jobById(id) ?? view, 200);
    },
    cancel: async (c) => c.json(await bookings.cancel(c.req.param('token')), 200),
    reviewOptOut: async (c) => c.json(await bookings.reviewOptOut(c.req.param('token')), 200),
    driver: (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(bookings.driver(c.req.param('token')), 200);
    },
    driverEvents: (c) => {
      const { id, view } = bookings.driverJob(c.req.param('token'));
      return liveStream(c, id, view, 'driver', isFinished(view.status));
    },
    driverStatus: async (c) => {
      const body = c.req.valid('json');
      return c.json(await bookings.driverStep(c.req.param('token'), body.status, body.balanceMethod, body.queuedPhotos), 200);
    },
    driverBalance: async (c) => c.json(await bookings.driverBalance(c.req.param('token'), c.req.valid('json').method), 200),
    driverPayLink: async (c) => c.json(await bookings.driverPayLink(c.req.param('token')), 200),
    payLink: async (c) => c.json(await bookings.operatorPayLink(currentUser(c).companyId, c.req.param('reference')), 200),
    driverPosition: async (c) => c.json(await bookings.driverPosition(c.req.param('token'), c.req.valid('json')), 200),
    jobEvents: (c) => {
      const { id, view } = bookings.job(c.req.param('token'));
      // A job that will change no more (finished, its money followed, its balance recorded): its last state is all the page is sent.
      return liveStream(c, id, view, 'motorist', jobPageDone(view));
    },
  });
}
