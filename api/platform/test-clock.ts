// The browser journeys' clock control: with TEST_CLOCK_CONTROL=1 (refused when NODE_ENV=production,
// api/platform/config.ts) the server's clock (`deps.now`) runs this many milliseconds ahead of the
// real one, and `POST /__test/clock` with `{ "advanceMs": n }` moves it on, so a journey sees a
// booking's response time run out without waiting it out. Forward only, as real time goes: a
// journey running beside it sees no more than a slow machine would show it. Served by
// api/server.ts in front of the app only when switched on; it is no route of the product.
import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '#shared/error-codes';

export const TEST_CLOCK_PATH = '/__test/clock';
/** The furthest one request may move the clock: a week covers every period a journey lets run out. */
export const MAX_ADVANCE_MS = 7 * 24 * 60 * 60 * 1000;

export interface TestClock {
  /** The server's time: the real time plus every advance so far. */
  now(): Date;
  /** Moves the clock `ms` milliseconds on; answers the new time. */
  advance(ms: number): Date;
}

export function createTestClock(realNow: () => number = Date.now): TestClock {
  let aheadMs = 0;
  return {
    now: () => new Date(realNow() + aheadMs),
    advance(ms) {
      if (!Number.isSafeInteger(ms) || ms < 1 || ms > MAX_ADVANCE_MS) throw new RangeError(`advance of ${ms} ms`);
      aheadMs += ms;
      return new Date(realNow() + aheadMs);
    },
  };
}

const json = (body: unknown, status: number) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The one error shape (docs/architecture.md §4). */
const refuse = (status: number, message: string, code: ErrorCode) => json({ message, code, requestId: randomUUID() }, status);

/**
 * The control's requests: answers them, or undefined for every other path (the app's). `moved`
 * runs after each advance and before the answer (the server runs its background jobs at once), so
 * what fell due is done by the time the journey reads the answer.
 */
export function testClockRequests(clock: TestClock, moved: () => Promise<void>) {
  return (request: Request): Promise<Response> | undefined => {
    if (new URL(request.url).pathname !== TEST_CLOCK_PATH) return undefined;
    return answer(request);
  };

  async function answer(request: Request): Promise<Response> {
    if (request.method === 'GET') return json({ now: clock.now().toISOString() }, 200);
    // As the app answers a method no route serves.
    if (request.method !== 'POST') return refuse(404, 'Not found', 'NOT_FOUND');
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return refuse(400, 'The body must be JSON: { "advanceMs": milliseconds }', 'BAD_REQUEST');
    }
    const advanceMs = typeof body === 'object' && body !== null ? (body as { advanceMs?: unknown }).advanceMs : undefined;
    if (typeof advanceMs !== 'number' || !Number.isSafeInteger(advanceMs) || advanceMs < 1 || advanceMs > MAX_ADVANCE_MS) {
      return refuse(400, `advanceMs must be a whole number of milliseconds from 1 to ${MAX_ADVANCE_MS}`, 'VALIDATION_FAILED');
    }
    const now = clock.advance(advanceMs);
    await moved();
    return json({ now: now.toISOString() }, 200);
  }
}
