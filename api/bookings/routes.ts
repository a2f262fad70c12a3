// The bookings' routes (declared in the route contract, api/contract/bookings.ts): the motorist's
// booking, status page, live stream and cancel; the driver's page, steps and position; the
// operator's jobs, answers and settings. The rules are api/bookings/service.ts's.
import { ContractHono } from '../platform/http/contract-hono';
import { streamSSE } from 'hono/streaming';
import { currentUser } from '../auth/session';
import type { AppDeps } from '../platform/deps';
import { TooManyRequests } from '../platform/errors';
import type { AppEnv } from '../platform/http/context';
import { clientAddress } from '../platform/http/rate-limit';
import { addressGroup } from '../platform/http/connection-guard';
import { isFinished } from '#shared/bookings';
import { jobPageDone } from '#shared/payments';
import { routes } from '../routes';
import type { Audience, LiveHub } from './live';
import type { Context } from 'hono';
import type { BookingService } from './service';
import type { PaymentService } from '../payments/service';

/** A comment line this often keeps proxies and phones from closing a quiet stream. */
export const HEARTBEAT_MS = 20_000;
export const STREAMS_FULL = 'Too many live pages are open. This page will refresh by itself.';

export function bookingRoutes(deps: Pick<AppDeps, 'config'>, bookings: BookingService, live: LiveHub, payments?: Pick<PaymentService, 'confirm'>) {
  const client = (c: Parameters<typeof clientAddress>[0]) => clientAddress(c, deps.config.trustProxy);
  const r = routes.bookings;
  return new ContractHono<AppEnv>()
    .openapi(r.book, async (c) => {
      // A browser names the page's origin; a program sends none and is left to the rate limit (decision 033).
      const { created, result } = await bookings.book(c.req.valid('json'), client(c), { origin: c.req.header('origin'), ownOrigin: new URL(c.req.url).origin });
      c.header('Cache-Control', 'no-store');
      return created ? c.json(result, 201) : c.json(result, 200);
    })
    .openapi(r.list, (c) => c.json(bookings.list(currentUser(c).companyId), 200))
    .openapi(r.accept, async (c) => c.json(await bookings.accept(currentUser(c).companyId, c.req.param('reference'), c.req.valid('json')), 200))
    .openapi(r.decline, async (c) => c.json(await bookings.decline(currentUser(c).companyId, c.req.param('reference'), c.req.valid('json')), 200))
    .openapi(r.refund, async (c) => c.json(await bookings.refund(currentUser(c).companyId, c.req.param('reference'), c.req.valid('json')), 200))
    .openapi(r.settings, (c) => c.json(bookings.settings(currentUser(c).companyId), 200))
    .openapi(r.updateSettings, async (c) => c.json(await bookings.updateSettings(currentUser(c).companyId, c.req.valid('json')), 200))
    .openapi(r.sendSmsCode, async (c) => c.json(await bookings.smsCodes.sendCode(currentUser(c).companyId), 200))
    .openapi(r.confirmSmsCode, async (c) => c.json(await bookings.smsCodes.confirmCode(currentUser(c).companyId, c.req.valid('json').code), 200))
    .openapi(r.due, (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(bookings.due(c.req.param('quoteId'), client(c)), 200);
    })
    .openapi(r.job, async (c) => {
      c.header('Cache-Control', 'no-store');
      const address = client(c);
      const { id, view } = bookings.job(c.req.param('token'), address);
      // Back from checkout before its webhook: the provider is asked, and a paid booking shows as requested.
      if (view.status !== 'awaiting_payment' || !payments) return c.json(view, 200);
      await payments.confirm(id);
      return c.json(bookings.jobById(id) ?? view, 200);
    })
    .openapi(r.cancel, async (c) => c.json(await bookings.cancel(c.req.param('token'), client(c)), 200))
    .openapi(r.reviewOptOut, async (c) => c.json(await bookings.reviewOptOut(c.req.param('token'), client(c)), 200))
    .openapi(r.driver, (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(bookings.driver(c.req.param('token'), client(c)), 200);
    })
    .openapi(r.driverStatus, async (c) => {
      const body = c.req.valid('json');
      return c.json(await bookings.driverStep(c.req.param('token'), body.status, client(c), body.balanceMethod), 200);
    })
    .openapi(r.driverBalance, async (c) => c.json(await bookings.driverBalance(c.req.param('token'), c.req.valid('json').method, client(c)), 200))
    .openapi(r.balance, async (c) =>
      c.json(await bookings.operatorBalance(currentUser(c).companyId, c.req.param('reference'), c.req.valid('json').method), 200),
    )
    .openapi(r.driverPosition, async (c) => c.json(await bookings.driverPosition(c.req.param('token'), c.req.valid('json'), client(c)), 200))
    .openapi(r.jobEvents, (c) => {
      const address = client(c);
      const { id, view } = bookings.job(c.req.param('token'), address);
      // A job that will change no more (finished, its money followed, its balance recorded): its last state is all the page is sent.
      return liveStream(c, id, address, view, 'motorist', jobPageDone(view));
    })
    .openapi(r.driverEvents, (c) => {
      const address = client(c);
      const { id, view } = bookings.driverJob(c.req.param('token'), address);
      return liveStream(c, id, address, view, 'driver', isFinished(view.status));
    });

  /** A page's stream of its job: its view now, then each change the service publishes to its audience, until the job is done with. */
  function liveStream(c: Context<AppEnv>, id: number, address: string, view: unknown, audience: Audience, done: boolean) {
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
}
