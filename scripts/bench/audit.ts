// The audit insert's cost on the accept route (docs/budgets.md "The team"), side by side in one
// run of one build: two apps in this process, the same in all but their audit recorder (the
// app's own, and one that writes nothing, given through AppOptions.audit: decision 056), each on
// its own fresh database with the same operator, driver and requested bookings. Rounds are short
// and alternate (ABBA) many times over: a round is one burst of ACCEPT_CONCURRENCY accepts
// through app.request (no sockets: what is timed is the route's own work, where the insert
// weighs most), so a pause of the machine, a collection or a checkpoint falls on both sides alike
// (decision 058). Each app's WAL is checkpointed on a worker thread as the server's is. Prints the
// pooled p50, p99 and CPU time an accept of each side, their ratios, and the same ratios over
// consecutive blocks of rounds, as their spread.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../../api/app';
import { contract } from '../../api/contract';
import { loadConfig } from '../../api/platform/config';
import { write } from '../../api/platform/db/write';
import { startBackgroundCheckpoints } from '../../api/platform/db/checkpointer';
import { type AuditRecorder, recordAudit } from '../../api/team/audit';
import { BENCH_ORIGIN, benchCompany } from './bench-company';
import { percentile } from './stream-helpers';

/** Rounds in all, half a side: each a burst of ACCEPTS_PER_ROUND accepts, all in flight at once. */
export const AUDIT_ROUNDS = 4800;
export const ACCEPT_CONCURRENCY = 8;
export const ACCEPTS_PER_ROUND = ACCEPT_CONCURRENCY;
/** Consecutive blocks of rounds, each with as many of either side, whose ratios show the spread. */
export const AUDIT_BLOCKS = 12;
/** Accepts on each side before the first measured round, not counted: the JIT and the statements warm. */
const WARM_UP_ACCEPTS = 400;
/** Lines written by the insert alone, to time it apart from the route. */
const INSERTS_ALONE = 5_000;

export type AuditSide = 'on' | 'off';

interface SideFigures {
  p50Ms: number;
  p99Ms: number;
  /** The process's CPU time (user + system, the checkpoint workers' included) per accept. */
  cpuMsPerAccept: number;
}

/** One block of consecutive rounds: each side's figures over its rounds in it. */
export interface AuditBlock {
  on: SideFigures;
  off: SideFigures;
}

export interface AuditFigures {
  blocks: AuditBlock[];
  on: SideFigures;
  off: SideFigures;
  /** on ÷ off, pooled over every round of each side. */
  p50Ratio: number;
  p99Ratio: number;
  cpuRatio: number;
  /** Each block's ratios (p99, p50, CPU), in the order run: the spread; their median is reported beside the pooled figure. */
  blockP99Ratios: number[];
  blockP50Ratios: number[];
  blockCpuRatios: number[];
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
    PUBLIC_URL: BENCH_ORIGIN,
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    LOG_LEVEL: 'silent',
    QUOTE_RATE_LIMIT: '0',
    SIGNUP_RATE_LIMIT: '0',
    BOOKING_RATE_LIMIT: '0',
    BOOKING_COMPANY_RATE_LIMIT: '0',
  });
  const built = createApp(name === 'on' ? { config } : { config, audit: noAudit });
  const { deps } = built;
  // As the server runs (api/boot.ts): WAL checkpoints on a worker thread, not inside a commit.
  const checkpoints = startBackgroundCheckpoints(deps.db.$client, config.databasePath);
  // The operator who accepts is a dispatcher of the company, signed in as one.
  const {
    request,
    companyId,
    memberToken: token,
  } = await benchCompany(built, {
    role: 'dispatcher',
    name: 'Bench Dispatcher',
    email: 'bench-dispatcher@example.com',
  });
  const example = contract.quotes.calculate.request.body.content['application/json'].example;
  const references: string[] = [];
  for (let i = 0; i < bookings; i += 1) {
    const quoted = await request('POST', '/api/quotes/calculate', { body: { ...example, companySlug: undefined, companyId } });
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
  return { accept, auditRows, deps, companyId, close };
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
const round3 = (n: number) => Math.round(n * 1000) / 1000;

export async function measureAudit(rounds = AUDIT_ROUNDS, perRound = ACCEPTS_PER_ROUND, blocks = AUDIT_BLOCKS): Promise<AuditFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-audit-'));
  const abba = (length: number): AuditSide[] => Array.from({ length }, (_, i) => (i % 4 === 0 || i % 4 === 3 ? 'on' : 'off'));
  const warmUpRounds = 8;
  const bookings = WARM_UP_ACCEPTS + (warmUpRounds / 2) * perRound + Math.ceil(rounds / 2) * perRound;
  const sides = { on: await side(dir, 'on', bookings), off: await side(dir, 'off', bookings) };
  try {
    await sides.on.accept(WARM_UP_ACCEPTS);
    await sides.off.accept(WARM_UP_ACCEPTS);
    // And a few untimed ABBA rounds: the first rounds after the two warm-ups ran colder than any
    // other, and always on the same side.
    for (const name of abba(warmUpRounds)) await sides[name].accept(perRound);
    const order = abba(rounds);
    const measured: Array<{ side: AuditSide; times: number[]; cpuMs: number }> = [];
    for (const name of order) measured.push({ side: name, ...(await sides[name].accept(perRound)) });
    const figuresOf = (name: AuditSide, of: typeof measured): SideFigures => {
      const mine = of.filter((r) => r.side === name);
      const times = mine.flatMap((r) => r.times).sort((a, b) => a - b);
      const cpu = mine.reduce((sum, r) => sum + r.cpuMs, 0) / (mine.length * perRound);
      return { p50Ms: round1(percentile(times, 0.5)), p99Ms: round1(percentile(times, 0.99)), cpuMsPerAccept: round3(cpu) };
    };
    const on = figuresOf('on', measured);
    const off = figuresOf('off', measured);
    // Consecutive blocks, each a whole number of ABBA groups, so each holds as many rounds of either side.
    const blockRounds = Math.floor(rounds / blocks / 4) * 4;
    const blockFigures: AuditBlock[] = Array.from({ length: blocks }, (_, i) => {
      const slice = measured.slice(i * blockRounds, (i + 1) * blockRounds);
      return { on: figuresOf('on', slice), off: figuresOf('off', slice) };
    });
    const ratios = (of: (r: SideFigures) => number) => blockFigures.map((block) => round1(of(block.on) / of(block.off)));
    const median = (list: number[]) =>
      round1(
        percentile(
          [...list].sort((a, b) => a - b),
          0.5,
        ),
      );
    const blockP99Ratios = ratios((r) => r.p99Ms);
    const blockP50Ratios = ratios((r) => r.p50Ms);
    const blockCpuRatios = ratios((r) => r.cpuMsPerAccept);
    const rowsOn = sides.on.auditRows();
    const rowsOff = sides.off.auditRows();
    const insertUs = round1(await timeInsertAlone(sides.on.deps, sides.on.companyId));
    return {
      blocks: blockFigures,
      on,
      off,
      p50Ratio: round1(on.p50Ms / off.p50Ms),
      p99Ratio: round1(on.p99Ms / off.p99Ms),
      cpuRatio: round1(on.cpuMsPerAccept / off.cpuMsPerAccept),
      blockP99Ratios,
      blockP50Ratios,
      blockCpuRatios,
      medianP99Ratio: median(blockP99Ratios),
      medianP50Ratio: median(blockP50Ratios),
      medianCpuRatio: median(blockCpuRatios),
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
