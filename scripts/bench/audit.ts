// The audit insert's cost on the accept route (docs/budgets.md "The team"), side by side in one
// run of one build: two apps in this process, the same in all but their audit recorder (the
// app's own, and one that writes nothing, given through AppOptions.audit: decision 056), each on
// its own fresh database with the same operator, driver and requested bookings. Rounds alternate
// (ABBA, so a slow spell of the shared machine falls on both alike); each round accepts
// ACCEPTS_PER_ROUND requested bookings, ACCEPT_CONCURRENCY at a time, through app.request (no
// sockets: what is timed is the route's own work, where the insert weighs most), each app's WAL
// checkpointed on a worker thread as the server's is. Prints each
// round's p50 and p99, the pooled figures and the ratios, and the CPU time an accept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../../api/app';
import { updateUser } from '../../api/auth/store';
import { contract } from '../../api/contract';
import { loadConfig } from '../../api/platform/config';
import { write } from '../../api/platform/db/write';
import { startBackgroundCheckpoints } from '../../api/platform/db/checkpointer';
import { users } from '../../api/platform/db/schema';
import { type AuditRecorder, recordAudit } from '../../api/team/audit';
import { percentile } from './stream-helpers';

export const AUDIT_ROUNDS = 24;
export const ACCEPTS_PER_ROUND = 200;
export const ACCEPT_CONCURRENCY = 8;
/** Accepts on each side before the first measured round, not counted: the JIT and the statements warm. */
const WARM_UP_ACCEPTS = 400;
/** Lines written by the insert alone, to time it apart from the route. */
const INSERTS_ALONE = 5_000;

const ORIGIN = 'http://localhost:3999';
const PASSWORD = 'correct-horse-battery';

export type AuditSide = 'on' | 'off';

export interface AuditRound {
  side: AuditSide;
  p50Ms: number;
  p99Ms: number;
  /** The process's CPU time (user + system) over the round, per accept. */
  cpuMsPerAccept: number;
}

export interface AuditFigures {
  rounds: AuditRound[];
  on: { p50Ms: number; p99Ms: number; cpuMsPerAccept: number };
  off: { p50Ms: number; p99Ms: number; cpuMsPerAccept: number };
  /** on ÷ off, pooled over every round of each side. */
  p50Ratio: number;
  p99Ratio: number;
  cpuRatio: number;
  /** Each adjacent on/off pair's ratios (p99, p50, CPU), in the order run: the spread; the figure is their median. */
  pairP99Ratios: number[];
  pairP50Ratios: number[];
  pairCpuRatios: number[];
  medianP99Ratio: number;
  medianP50Ratio: number;
  medianCpuRatio: number;
  /** One audit line's INSERT, timed alone inside a transaction, in microseconds. */
  insertUs: number;
  /** Audit rows the "on" side wrote for its accepts, and the "off" side's (must be 0). */
  rowsOn: number;
  rowsOff: number;
}

/** A recorder that writes nothing: the "off" side. */
const noAudit: AuditRecorder = () => {};

async function side(dir: string, name: AuditSide, bookings: number) {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_PATH: path.join(dir, `${name}.db`),
    PUBLIC_URL: ORIGIN,
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    LOG_LEVEL: 'silent',
    QUOTE_RATE_LIMIT: '0',
    SIGNUP_RATE_LIMIT: '0',
    BOOKING_RATE_LIMIT: '0',
    BOOKING_COMPANY_RATE_LIMIT: '0',
  });
  const built = createApp(name === 'on' ? { config } : { config, audit: noAudit });
  const { app, deps } = built;
  // As the server runs (api/boot.ts): WAL checkpoints on a worker thread, not inside a commit.
  const checkpoints = startBackgroundCheckpoints(deps.db.$client, config.databasePath);
  const request = (method: string, url: string, init: { token?: string; body?: unknown } = {}) =>
    app.request(`${ORIGIN}${url}`, {
      method,
      headers: { ...(init.token ? { 'x-auth-token': init.token } : {}), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const signup = (await (
    await request('POST', '/api/signup', { body: { name: 'Bench Owner', email: 'bench-owner@example.com', password: PASSWORD, companyName: 'Bench Recovery' } })
  ).json()) as { authToken: string; companyId: number; id: number };
  const trialEnd = new Date(Date.now() + 30 * 86_400_000).toISOString();
  updateUser(deps.db, signup.id, { subscriptionStatus: 'trialing', trialEndsAt: trialEnd, currentPeriodEnd: trialEnd });
  // The operator who accepts is a dispatcher of the company, signed in as one.
  const hash = deps.db.select({ password: users.password }).from(users).all()[0].password;
  deps.db
    .insert(users)
    .values({
      email: 'bench-dispatcher@example.com',
      password: hash,
      name: 'Bench Dispatcher',
      companyId: signup.companyId,
      role: 'dispatcher',
      emailVerifiedAt: new Date().toISOString(),
    })
    .run();
  const signedIn = await request('POST', '/api/login', { body: { email: 'bench-dispatcher@example.com', password: PASSWORD } });
  const token = ((await signedIn.json()) as { authToken: string }).authToken;
  await request('PUT', '/api/company', { token: signup.authToken, body: { phone: '0161 496 0000' } });
  await request('PUT', '/api/booking-settings', { token: signup.authToken, body: { offerBooking: true } });
  const example = contract.quotes.calculate.request.body.content['application/json'].example;
  const references: string[] = [];
  for (let i = 0; i < bookings; i += 1) {
    const quoted = await request('POST', '/api/quotes/calculate', { body: { ...example, companySlug: undefined, companyId: signup.companyId } });
    if (quoted.status !== 200) throw new Error(`quote answered ${quoted.status}: ${await quoted.text()}`);
    const { quoteId } = (await quoted.json()) as { quoteId: string };
    const booked = await request('POST', '/api/bookings', {
      body: {
        quoteId,
        bookingKey: `bench-audit-booking-${name}-${String(i).padStart(8, '0')}`,
        name: 'Jane Motorist',
        phone: '07700 900123',
        registration: 'AB12CDE',
      },
    });
    if (booked.status !== 201) throw new Error(`booking answered ${booked.status}: ${await booked.text()}`);
    references.push(quoteId);
  }
  let next = 0;
  /** Accepts the next `count` requested bookings, `ACCEPT_CONCURRENCY` at a time: each one's time, ascending, and the CPU time spent. */
  async function accept(count: number): Promise<{ times: number[]; cpuMs: number }> {
    const batch = references.slice(next, next + count);
    if (batch.length < count) throw new Error(`only ${batch.length} requested bookings left on the ${name} side`);
    next += count;
    const times: number[] = [];
    let at = 0;
    const cpu = process.cpuUsage();
    await Promise.all(
      Array.from({ length: ACCEPT_CONCURRENCY }, async () => {
        while (at < batch.length) {
          const reference = batch[at++];
          const started = performance.now();
          const res = await request('POST', `/api/bookings/${reference}/accept`, { token, body: { etaMinutes: 20, driverName: 'Sam' } });
          await res.arrayBuffer();
          times.push(performance.now() - started);
          if (res.status !== 200) throw new Error(`accept answered ${res.status} on the ${name} side`);
        }
      }),
    );
    const used = process.cpuUsage(cpu);
    return { times: times.sort((a, b) => a - b), cpuMs: (used.user + used.system) / 1000 };
  }
  const auditRows = () => (deps.db.$client.prepare(`select count(*) as n from audit_events where kind = 'booking-accepted'`).get() as { n: number }).n;
  const close = async () => {
    // The worker is unref'd (it must not keep a server alive): something must, while it stops.
    const alive = setInterval(() => undefined, 1_000);
    try {
      await checkpoints.stop();
    } finally {
      clearInterval(alive);
    }
    deps.db.$client.close();
  };
  return { accept, auditRows, deps, companyId: signup.companyId, close };
}

/** One audit line's INSERT alone, in µs: INSERTS_ALONE of them in one transaction of the "on" side's database. */
async function timeInsertAlone(deps: Awaited<ReturnType<typeof side>>['deps'], companyId: number): Promise<number> {
  const actor = { person: { id: 1, name: 'Bench Dispatcher' }, requestId: '5b1c6f1e-0000-4000-8000-000000000000' };
  const event = {
    companyId,
    kind: 'booking-accepted' as const,
    subject: 'RQ-BENCH',
    before: { status: 'requested' },
    after: { status: 'accepted', etaMinutes: 20, driverName: 'Sam' },
  };
  const at = new Date();
  return write(deps.db, () => {
    const started = performance.now();
    for (let i = 0; i < INSERTS_ALONE; i += 1) recordAudit(deps.db, actor, event, at);
    return ((performance.now() - started) * 1000) / INSERTS_ALONE;
  });
}

const round1 = (n: number) => Math.round(n * 100) / 100;

export async function measureAudit(rounds = AUDIT_ROUNDS, perRound = ACCEPTS_PER_ROUND): Promise<AuditFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-audit-'));
  const abba = (length: number): AuditSide[] => Array.from({ length }, (_, i) => (i % 4 === 0 || i % 4 === 3 ? 'on' : 'off'));
  const bookings = WARM_UP_ACCEPTS + 2 * perRound + Math.ceil(rounds / 2) * perRound;
  const sides = { on: await side(dir, 'on', bookings), off: await side(dir, 'off', bookings) };
  try {
    await sides.on.accept(WARM_UP_ACCEPTS);
    await sides.off.accept(WARM_UP_ACCEPTS);
    // And one untimed ABBA block: the first round after the two warm-ups ran far colder than any
    // other (about 25 ms at p99 and 1.5 ms of CPU an accept against 6–13 ms and 0.6 ms), and it
    // was always the "on" side's, whose pooled p99 it alone decided.
    for (const name of abba(4)) await sides[name].accept(perRound);
    const order = abba(rounds);
    const measured: Array<AuditRound & { times: number[]; cpuMs: number }> = [];
    for (const name of order) {
      const { times, cpuMs } = await sides[name].accept(perRound);
      measured.push({
        side: name,
        p50Ms: round1(percentile(times, 0.5)),
        p99Ms: round1(percentile(times, 0.99)),
        cpuMsPerAccept: round1(cpuMs / perRound),
        times,
        cpuMs,
      });
    }
    const pooled = (name: AuditSide) => {
      const mine = measured.filter((r) => r.side === name);
      const times = mine.flatMap((r) => r.times).sort((a, b) => a - b);
      const cpu = mine.reduce((sum, r) => sum + r.cpuMs, 0) / (mine.length * perRound);
      return { p50Ms: round1(percentile(times, 0.5)), p99Ms: round1(percentile(times, 0.99)), cpuMsPerAccept: round1(cpu) };
    };
    const on = pooled('on');
    const off = pooled('off');
    // Adjacent pairs in the order run: (1,2), (3,4), … each one "on" and one "off" round.
    const pairs: Array<[AuditRound, AuditRound]> = [];
    for (let i = 0; i + 1 < measured.length; i += 2) {
      const [a, b] = [measured[i], measured[i + 1]];
      pairs.push(a.side === 'on' ? [a, b] : [b, a]);
    }
    const ratios = (of: (r: AuditRound) => number) => pairs.map(([onRound, offRound]) => round1(of(onRound) / of(offRound)));
    const median = (list: number[]) =>
      round1(
        percentile(
          [...list].sort((a, b) => a - b),
          0.5,
        ),
      );
    const pairP99Ratios = ratios((r) => r.p99Ms);
    const pairP50Ratios = ratios((r) => r.p50Ms);
    const pairCpuRatios = ratios((r) => r.cpuMsPerAccept);
    const rowsOn = sides.on.auditRows();
    const rowsOff = sides.off.auditRows();
    const insertUs = round1(await timeInsertAlone(sides.on.deps, sides.on.companyId));
    return {
      rounds: measured.map(({ side: s, p50Ms, p99Ms, cpuMsPerAccept }) => ({ side: s, p50Ms, p99Ms, cpuMsPerAccept })),
      on,
      off,
      p50Ratio: round1(on.p50Ms / off.p50Ms),
      p99Ratio: round1(on.p99Ms / off.p99Ms),
      cpuRatio: round1(on.cpuMsPerAccept / off.cpuMsPerAccept),
      pairP99Ratios,
      pairP50Ratios,
      pairCpuRatios,
      medianP99Ratio: median(pairP99Ratios),
      medianP50Ratio: median(pairP50Ratios),
      medianCpuRatio: median(pairCpuRatios),
      insertUs,
      rowsOn,
      rowsOff,
    };
  } finally {
    await sides.on.close();
    await sides.off.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
