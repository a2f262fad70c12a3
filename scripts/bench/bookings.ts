// The bookings budgets (docs/budgets.md, "Bookings"), against the production bundle as a child
// process: the booking request's latency on an idle server; one job's status page open 2,000
// times at once, from as many client addresses (each stream its own 127.x.y.z, since streams are
// capped per address), with the server's RSS growth and how soon a change made on the driver's
// page reaches every stream; and quote throughput with those streams open against none, in
// alternating slices on the same server.
import http from 'node:http';
import { readdirSync } from 'node:fs';
import os from 'node:os';
import { openFileLimit } from '../../api/platform/http/connection-cap';
import { runLoad, type LoadRequest, type LoadResult, type LoadSettings } from './load';
import { spawnServer, type ServerProcess } from './server-process';
import { descriptorsNeeded, loopbackAddresses, percentile, readSseEvents } from './stream-helpers';

export const STREAMS = 2_000;
export const BOOKINGS = 1_000;
const BOOKING_WARM_UP = 100;
/** Streams being opened at once. */
const OPEN_CONCURRENCY = 100;
/** A status change must reach the streams within this. */
export const DELIVERY_BUDGET_MS = 1_000;
/** How long the bench waits for the change on every stream before counting the rest as missed. */
const DELIVERY_WAIT_MS = 10_000;
export const QUOTE_ROUNDS = 4;
export const QUOTE_SLICE: LoadSettings = { connections: 10, durationSeconds: 3 };
const WARM_UP: LoadSettings = { connections: 10, durationSeconds: 3 };
const SECRET = 'bench-bookings-session-secret-0123456789abcdef';
const OPERATOR = { name: 'Bench Operator', email: 'bench-bookings@example.com', password: 'bench-bookings-password', companyName: 'Bench Bookings Recovery' };

export interface Timings {
  count: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface BookingsFigures {
  /** The booking POST alone, one at a time on an otherwise idle server. */
  booking: Timings & { failures: number; cpuMsPerBooking: number };
  /** The soft descriptor limit the bench (and so the server) ran with, and what the streams need. */
  descriptors: { limit: number | undefined; needed: number };
  streams: {
    opened: number;
    refused: Record<string, number>;
    openSeconds: number;
    /** Server RSS just before the streams opened, with them all open, and at its peak while the change went out. */
    rssBeforeBytes: number;
    rssOpenBytes: number;
    rssPeakBytes: number;
    /** Open descriptors of the server with the streams open. */
    serverDescriptors: number;
    /** The driver's POST that moved the job. */
    changeMs: number;
    /** Server CPU time (every thread) from the driver's POST until the change reached every stream. */
    changeCpuMs: number;
    /** From the driver's POST to each stream's event; streams that never got it are not in it. */
    delivery: Timings;
    withinBudget: number;
  };
  quotes: {
    /** Streams open in each "with" slice after they were opened again. */
    reopened: number[];
    withStreams: LoadResult & { cpuMsPerRequest: number };
    without: LoadResult & { cpuMsPerRequest: number };
    rounds: number;
  };
  loadAtStart: string;
  loadAtEnd: string;
}

const loadNow = () =>
  `${os
    .loadavg()
    .slice(0, 2)
    .map((n) => n.toFixed(2))
    .join(' (1 min), ')} (5 min)`;

function timings(samples: number[]): Timings {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    count: sorted.length,
    p50Ms: round(percentile(sorted, 0.5)),
    p90Ms: round(percentile(sorted, 0.9)),
    p99Ms: round(percentile(sorted, 0.99)),
    maxMs: round(sorted.at(-1) ?? NaN),
  };
}

export async function call<T>(
  server: ServerProcess,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as T };
}

export async function expectStatus<T>(what: string, answer: Promise<{ status: number; json: T }>, ...ok: number[]): Promise<T> {
  const { status, json } = await answer;
  if (!ok.includes(status)) throw new Error(`${what} answered ${status}: ${JSON.stringify(json)}`);
  return json;
}

/** A booking form's own key: 22–64 URL-safe characters, one per form. */
const bookingKey = (n: number) => `bench-booking-key-${String(n).padStart(8, '0')}`;

function bookingBody(quoteId: string, n: number) {
  return {
    quoteId,
    bookingKey: bookingKey(n),
    name: 'Alex Driver',
    phone: `07700 9${String(n % 100_000).padStart(5, '0')}`,
    registration: 'AB12 CDE',
    note: 'Hard shoulder, northbound, after junction 18',
  };
}

export interface Operator {
  companyId: number;
  headers: Record<string, string>;
}

/**
 * The operator whose company takes the bookings: signed up as a new company is (booking on), with
 * the free trial started at local billing's checkout and a phone number, so its page quotes to anyone.
 */
export async function signUp(server: ServerProcess): Promise<Operator> {
  const origin = { origin: server.url };
  const signedUp = await expectStatus(
    'sign-up',
    call<{ authToken: string; companyId: number; checkoutUrl?: string }>(server, 'POST', '/api/signup', OPERATOR, origin),
    201,
  );
  const headers = { 'x-auth-token': signedUp.authToken, ...origin };
  if (!signedUp.checkoutUrl) throw new Error('sign-up answered no checkout to start the trial at');
  const checkout = await fetch(new URL(signedUp.checkoutUrl, server.url), { method: 'POST', headers, redirect: 'manual' });
  await checkout.arrayBuffer();
  if (checkout.status !== 303) throw new Error(`the trial's checkout answered ${checkout.status}`);
  // The success page the checkout returns to applies it.
  const sessionId = new URL(checkout.headers.get('location') ?? '', server.url).searchParams.get('session_id');
  await expectStatus('the checkout’s return', call(server, 'POST', '/api/process-checkout-success', { sessionId }, headers), 200);
  // A page quotes only with a way to reach the operator (docs/product.md §13).
  await expectStatus('the phone number', call(server, 'PUT', '/api/company', { phone: '07700 900456' }, headers), 200);
  return { companyId: signedUp.companyId, headers };
}

/** One of `quotes` for the operator's company, with its reference. */
async function quoteFor(server: ServerProcess, operator: Operator, quote: LoadRequest): Promise<string> {
  const body = { ...(JSON.parse(quote.body ?? '{}') as Record<string, unknown>), companyId: operator.companyId };
  const { quoteId } = await expectStatus('quote', call<{ quoteId: string }>(server, 'POST', quote.path, body), 200);
  return quoteId;
}

/**
 * Quotes first, then books each of them, one at a time: the booking POST alone is timed, and the
 * server's CPU time over the bookings (every thread) is the figure a busy machine blurs least.
 */
async function measureBookingLatency(server: ServerProcess, operator: Operator, quotes: LoadRequest[]) {
  const quoteIds: string[] = [];
  for (let n = 0; n < BOOKING_WARM_UP + BOOKINGS; n++) quoteIds.push(await quoteFor(server, operator, quotes[n % quotes.length]));
  const samples: number[] = [];
  let failures = 0;
  let cpuBefore = 0;
  for (const [n, quoteId] of quoteIds.entries()) {
    if (n === BOOKING_WARM_UP) cpuBefore = server.cpuMs() ?? 0;
    const body = JSON.stringify(bookingBody(quoteId, n));
    const started = performance.now();
    const res = await fetch(`${server.url}/api/bookings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.arrayBuffer();
    const elapsed = performance.now() - started;
    if (n < BOOKING_WARM_UP) continue;
    if (res.status === 201) samples.push(elapsed);
    else failures += 1;
  }
  const cpuMsPerBooking = ((server.cpuMs() ?? 0) - cpuBefore) / BOOKINGS;
  return { ...timings(samples), failures, cpuMsPerBooking };
}

/** One open status page: its stream, when each status first arrived on it, and its end. */
interface Stream {
  /** Resolves once the first `job` event arrived; rejects with why the stream was refused. */
  ready: Promise<void>;
  /** performance.now() when each status first arrived. */
  seen: Map<string, number>;
  close(): void;
}

function openStream(server: ServerProcess, path: string, localAddress: string, onStatus: () => void): Stream {
  const seen = new Map<string, number>();
  let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  const request = http.get({ host: '127.0.0.1', port: server.port, path, localAddress, agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
    if (res.statusCode !== 200) {
      res.resume();
      settle?.reject(new Error(String(res.statusCode)));
      return;
    }
    // Closing the stream from this side ends the response with an error: expected, not news.
    res.on('error', () => {});
    res.setEncoding('utf8');
    let rest = '';
    res.on('data', (chunk: string) => {
      const at = performance.now();
      const read = readSseEvents(rest + chunk);
      rest = read.rest;
      for (const event of read.events) {
        if (event.event !== 'job') continue;
        const { status } = JSON.parse(event.data) as { status: string };
        if (!seen.has(status)) {
          seen.set(status, at);
          onStatus();
        }
        settle?.resolve();
      }
    });
  });
  request.on('error', (error) => settle?.reject(error));
  return { ready, seen, close: () => request.destroy() };
}

/** Opens `STREAMS` streams of the job, each from its own address; the refused ones are counted by reason. */
async function openStreams(server: ServerProcess, jobToken: string, addresses: string[], onStatus: () => void) {
  const streams: Stream[] = [];
  const refused: Record<string, number> = {};
  for (let i = 0; i < addresses.length; i += OPEN_CONCURRENCY) {
    const batch = addresses.slice(i, i + OPEN_CONCURRENCY).map((address) => openStream(server, `/api/jobs/${jobToken}/events`, address, onStatus));
    const settled = await Promise.allSettled(batch.map((s) => s.ready));
    settled.forEach((result, j) => {
      if (result.status === 'fulfilled') streams.push(batch[j]);
      else {
        const reason = result.reason instanceof Error ? result.reason.message : String(result.reason);
        refused[reason] = (refused[reason] ?? 0) + 1;
      }
    });
  }
  return { streams, refused };
}

/** The server's open file descriptors (Linux). */
function openDescriptors(server: ServerProcess): number {
  try {
    return readdirSync(`/proc/${server.pid}/fd`).length;
  } catch {
    return 0;
  }
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server's RSS once it has sat idle a moment: the median of a few samples. */
async function settledRss(server: ServerProcess): Promise<number> {
  await pause(1000);
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(server.rssBytes() ?? 0);
    await pause(100);
  }
  return percentile(
    samples.sort((a, b) => a - b),
    0.5,
  );
}

/** Quote load in slices with the streams open and closed, in ABBA order so a trend falls on both alike. */
async function measureQuotesBesideStreams(server: ServerProcess, quotes: LoadRequest[], reopen: () => Promise<void>, closeAll: () => Promise<void>) {
  const totals = { with: [] as LoadResult[], without: [] as LoadResult[] };
  const cpuMs = { with: 0, without: 0 };
  let open = true;
  await runLoad(server, quotes, WARM_UP);
  for (let round = 0; round < QUOTE_ROUNDS; round++) {
    for (const side of round % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const)) {
      if (side === 'with' && !open) await reopen();
      if (side === 'without' && open) await closeAll();
      open = side === 'with';
      const cpuBefore = server.cpuMs() ?? 0;
      totals[side].push(await runLoad(server, quotes, QUOTE_SLICE));
      cpuMs[side] += (server.cpuMs() ?? 0) - cpuBefore;
    }
    process.stdout.write(`  quotes beside the streams: round ${round + 1} of ${QUOTE_ROUNDS}, load ${os.loadavg()[0].toFixed(2)}\n`);
  }
  if (!open) await reopen();
  const combined = (slices: LoadResult[], cpu: number): LoadResult & { cpuMsPerRequest: number } => {
    const p = (key: 'p50Ms' | 'p99Ms') =>
      percentile(
        slices.map((s) => s[key]).sort((a, b) => a - b),
        0.5,
      );
    const total = slices.reduce((sum, s) => sum + s.total, 0);
    return {
      requestsPerSecond: total / (slices.length * QUOTE_SLICE.durationSeconds),
      total,
      p50Ms: p('p50Ms'),
      p99Ms: p('p99Ms'),
      failures: slices.reduce((sum, s) => sum + s.failures, 0),
      non2xx: slices.reduce((sum, s) => sum + s.non2xx, 0),
      peakRssBytes: Math.max(...slices.map((s) => s.peakRssBytes)),
      cpuMsPerRequest: cpu / Math.max(1, total),
    };
  };
  return { withStreams: combined(totals.with, cpuMs.with), without: combined(totals.without, cpuMs.without), rounds: QUOTE_ROUNDS };
}

/**
 * Runs the three measurements on one server started from `script` (the production bundle, with
 * the booking rate limit off through its configuration, BOOKING_RATE_LIMIT=0, as the quote limit is).
 * `nodeFlags` are for a TypeScript `script` (say a wrapper importing the bundle with `--cpu-prof`, to profile).
 */
export async function measureBookings(script: string, quotes: LoadRequest[], nodeFlags?: string[]): Promise<BookingsFigures> {
  const needed = descriptorsNeeded(STREAMS + QUOTE_SLICE.connections);
  const limit = openFileLimit();
  if (limit !== undefined && limit < needed) {
    throw new Error(
      `The open-file limit is ${limit}: ${STREAMS.toLocaleString('en-GB')} open streams need at least ${needed} descriptors in the bench and in the server (one socket each side, plus the server's ${needed - STREAMS - QUOTE_SLICE.connections} reserved and spare). Raise it first, e.g. \`ulimit -n 4096\`, then run the bench again.`,
    );
  }
  const loadAtStart = loadNow();
  const server = await spawnServer({
    script,
    env: { NODE_ENV: 'production', BILLING_MODE: 'local', SESSION_SECRET: SECRET, BOOKING_RATE_LIMIT: '0' },
    nodeFlags,
  });
  let streams: Stream[] = [];
  try {
    const operator = await signUp(server);
    console.log(`  ${BOOKINGS.toLocaleString('en-GB')} bookings, one at a time, each of a fresh quote…`);
    const booking = await measureBookingLatency(server, operator, quotes);

    // The job whose page is open on every stream: booked, accepted by the operator, moved on by the driver.
    const quoteId = await quoteFor(server, operator, quotes[quotes.length - 1]);
    const booked = await expectStatus(
      'booking',
      call<{ jobToken: string; job: { reference: string } }>(server, 'POST', '/api/bookings', bookingBody(quoteId, BOOKING_WARM_UP + BOOKINGS)),
      201,
    );
    const accepted = await expectStatus(
      'accept',
      call<{ driverUrl: string }>(server, 'POST', `/api/bookings/TQ-${booked.job.reference}/accept`, { etaMinutes: 25, driverName: 'Sam' }, operator.headers),
      200,
    );
    const driverToken = accepted.driverUrl.slice(accepted.driverUrl.lastIndexOf('/') + 1);

    const addresses = loopbackAddresses(STREAMS);
    let arrivals = 0;
    const onStatus = () => (arrivals += 1);
    const rssBeforeBytes = await settledRss(server);
    console.log(`  opening ${STREAMS.toLocaleString('en-GB')} status streams of one job, each from its own address…`);
    const openedAt = performance.now();
    const opened = await openStreams(server, booked.jobToken, addresses, onStatus);
    const openSeconds = (performance.now() - openedAt) / 1000;
    streams = opened.streams;
    const rssOpenBytes = await settledRss(server);
    const serverDescriptors = openDescriptors(server);

    console.log(`  ${streams.length.toLocaleString('en-GB')} open: the driver moves the job on…`);
    let rssPeakBytes = rssOpenBytes;
    const sampler = setInterval(() => (rssPeakBytes = Math.max(rssPeakBytes, server.rssBytes() ?? 0)), 50);
    arrivals = 0;
    const cpuBeforeChange = server.cpuMs() ?? 0;
    const changedAt = performance.now();
    await expectStatus('the driver’s step', call(server, 'POST', `/api/driver/${driverToken}/status`, { status: 'on_the_way' }), 200);
    const changeMs = performance.now() - changedAt;
    await until(() => arrivals >= streams.length, DELIVERY_WAIT_MS);
    const changeCpuMs = (server.cpuMs() ?? 0) - cpuBeforeChange;
    clearInterval(sampler);
    const delays = streams.flatMap((s) => {
      const at = s.seen.get('on_the_way');
      return at === undefined ? [] : [at - changedAt];
    });
    const withinBudget = delays.filter((d) => d <= DELIVERY_BUDGET_MS).length;

    // Closed streams are gone from the server once its descriptors are back near where they were.
    const baseDescriptors = serverDescriptors - streams.length;
    const closeAll = async () => {
      for (const stream of streams) stream.close();
      streams = [];
      await until(() => openDescriptors(server) <= baseDescriptors + 50, 10_000);
    };
    const reopened: number[] = [];
    const reopen = async () => {
      const again = await openStreams(server, booked.jobToken, addresses, () => {});
      streams = again.streams;
      reopened.push(streams.length);
    };
    console.log(`  quote throughput with the streams open and without, ${QUOTE_ROUNDS} rounds of ${QUOTE_SLICE.durationSeconds} s slices…`);
    const quoteFigures = await measureQuotesBesideStreams(server, quotes, reopen, closeAll);
    return {
      booking,
      descriptors: { limit, needed },
      streams: {
        opened: opened.streams.length,
        refused: opened.refused,
        openSeconds,
        rssBeforeBytes,
        rssOpenBytes,
        rssPeakBytes,
        serverDescriptors,
        changeMs,
        changeCpuMs,
        delivery: timings(delays),
        withinBudget,
      },
      quotes: { ...quoteFigures, reopened },
      loadAtStart,
      loadAtEnd: loadNow(),
    };
  } finally {
    for (const stream of streams) stream.close();
    await server.stop();
  }
}
