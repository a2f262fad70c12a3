// The dispatch's fan-out (docs/budgets.md "Dispatch"): with DISPATCH_STREAMS open streams, half
// the company's boards and half its driver's "My jobs" screens, one assignment must reach every
// one of them. Measured in one process on the real app (app.request, no sockets): from the assign
// request to each stream's `job` event, so what is timed is the server's own work, the hub's
// framing and the streams' writes, not the network. Prints its figures; the board's first screen
// in Chromium is not measured here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../../api/app';
import { loadConfig } from '../../api/platform/config';
import { contract } from '../../api/contract';
import { BENCH_ORIGIN, benchCompany } from './bench-company';
import { percentile } from './stream-helpers';

export const DISPATCH_STREAMS = 500;
export const DISPATCH_BUDGET_MS = 1000;

export interface DispatchFigures {
  streams: number;
  reached: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export async function measureDispatch(streams = DISPATCH_STREAMS): Promise<DispatchFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-dispatch-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_PATH: path.join(dir, 'bench.db'),
    PUBLIC_URL: BENCH_ORIGIN,
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    LOG_LEVEL: 'silent',
    QUOTE_RATE_LIMIT: '0',
    SIGNUP_RATE_LIMIT: '0',
    LIVE_STREAMS_PER_ADDRESS: String(streams * 2),
  });
  const { app, deps } = createApp({ config });
  try {
    const {
      request,
      companyId,
      ownerToken: owner,
      memberId: driverId,
      memberToken: driverToken,
    } = await benchCompany({ app, deps }, { role: 'driver', name: 'Bench Driver', email: 'bench-driver@example.com' });
    const quoted = await request('POST', '/api/quotes/calculate', {
      body: { ...contract.quotes.calculate.request.body.content['application/json'].example, companySlug: undefined, companyId },
    });
    if (quoted.status !== 200) throw new Error(`quote answered ${quoted.status}: ${await quoted.text()}`);
    const quote = (await quoted.json()) as { quoteId: string };
    const booked = await request('POST', '/api/bookings', {
      body: { quoteId: quote.quoteId, bookingKey: 'bench-dispatch-booking-0001', name: 'Jane Motorist', phone: '07700 900123', registration: 'AB12CDE' },
    });
    if (booked.status !== 201) throw new Error(`booking answered ${booked.status}: ${await booked.text()}`);

    // Half boards, half the driver's screens; each resolves with the time its `job` event for the job arrived.
    const decoder = new TextDecoder();
    const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
    let sentAt = 0;
    const arrivals: Promise<number>[] = [];
    for (let i = 0; i < streams; i += 1) {
      const res = await request('GET', i % 2 === 0 ? '/api/board/events' : '/api/my-jobs/events', { token: i % 2 === 0 ? owner : driverToken });
      if (res.status !== 200 || !res.body) throw new Error(`stream ${i} refused: ${res.status}`);
      const reader = res.body.getReader();
      readers.push(reader);
      arrivals.push(
        (async () => {
          let text = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return Number.NaN;
            text += decoder.decode(value);
            if (sentAt > 0 && text.includes(quote.quoteId)) return performance.now() - sentAt;
          }
        })(),
      );
    }
    // Every stream's first `ready` frame is read before the change goes out.
    await new Promise((resolve) => setTimeout(resolve, 200));
    sentAt = performance.now();
    const assigned = await request('POST', `/api/bookings/${quote.quoteId}/assign`, { token: owner, body: { driverId, truckId: null } });
    if (assigned.status !== 200) throw new Error(`assign answered ${assigned.status}`);
    const timeout = new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), 5_000));
    const times = (await Promise.all(arrivals.map((a) => Promise.race([a, timeout])))).filter((t) => Number.isFinite(t)).sort((a, b) => a - b);
    for (const reader of readers) await reader.cancel().catch(() => undefined);
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      streams,
      reached: times.length,
      p50Ms: round(percentile(times, 0.5)),
      p99Ms: round(percentile(times, 0.99)),
      maxMs: round(times.at(-1) ?? Number.NaN),
    };
  } finally {
    deps.db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
