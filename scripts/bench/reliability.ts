// The data-size budgets (docs/budgets.md), measured against the real server on real-sized databases:
// a backup of a 1 M-quote database while quotes are written at 100/s, and quote p99 with 5 M
// quotes across 5,000 companies against the same companies with no quotes.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { fillDatabase } from './fill-database';
import { runLoad, type LoadRequest, type LoadSettings } from './load';
import { REPO_ROOT, spawnServer, type ServerProcess } from './server-process';

export const BACKUP_QUOTES = 1_000_000;
export const BACKUP_RATE = 100;
export const LARGE_QUOTES = 5_000_000;
export const LARGE_COMPANIES = 5_000;
/**
 * Real postcodes in customer spelling, resolved by the built-in data alone: these sections need
 * nothing from outside the repository.
 */
export const CITY_POSTCODES = [
  'M1 1AE',
  'LS1 4AP',
  'SW1A 1AA',
  'EC1A 1BB',
  'B1 1BB',
  'G1 1XQ',
  'CF10 1EP',
  'BS1 4DJ',
  'L1 8JQ',
  'NE1 7RU',
  'S1 2HE',
  'NG1 5FS',
  'EH1 1YZ',
  'BT1 5GS',
  'OX1 2JD',
  'CB2 1TN',
  'PL1 2AA',
  'NR2 1TF',
  'EX1 1HS',
  'AB10 1AB',
  'IV1 1AA',
  'LE1 5WW',
  'CV1 5FB',
  'SO14 7DY',
  'BN1 1AA',
];
/** Rounds of one slice per database, alternating, for the large-database comparison. */
const LARGE_ROUNDS = 3;
const LARGE_SLICE: LoadSettings = { connections: 10, durationSeconds: 5 };

export interface Sample {
  startedMs: number;
  latencyMs: number;
  /** Answered 2xx. */
  ok: boolean;
  /** The answer's status; 0 when the request failed without one (connection error). */
  status: number;
}

/** The samples that were not answered 2xx, as the sections count them: answers with another status, and requests that got none. */
export function unanswered(samples: Sample[]): { non2xx: number; errors: number } {
  let non2xx = 0;
  let errors = 0;
  for (const s of samples) {
    if (s.status === 0) errors++;
    else if (!s.ok) non2xx++;
  }
  return { non2xx, errors };
}

export const p99 = (samples: Sample[]) => {
  if (samples.length === 0) return NaN;
  const sorted = samples.map((s) => s.latencyMs).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)];
};

/**
 * `ratePerSecond` quotes a second, each on its own schedule whatever the answers take (an open
 * model, as customers arrive), until `stop()`; resolves with every request's start and latency.
 * Its own keep-alive connections, closed by `stop()`: a server paused between two runs (SIGSTOP)
 * closes idle connections as it wakes, and a pooled one reused at that moment would fail a
 * request that never reached it.
 */
export function pacedQuotes(server: ServerProcess, requests: LoadRequest[], ratePerSecond: number) {
  const samples: Sample[] = [];
  const inFlight = new Set<Promise<void>>();
  const agent = new http.Agent({ keepAlive: true });
  const origin = performance.now();
  let sent = 0;
  const post = (request: LoadRequest) =>
    new Promise<number>((resolve, reject) => {
      const body = request.body ?? '';
      const req = http.request(
        `${server.url}${request.path}`,
        { method: request.method, agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.once('end', () => resolve(res.statusCode ?? 0));
          res.once('error', reject);
        },
      );
      req.once('error', reject);
      req.end(body);
    });
  const send = () => {
    const request = requests[sent % requests.length];
    sent++;
    const startedMs = performance.now() - origin;
    const done = post(request)
      .then((status) => {
        samples.push({ startedMs, latencyMs: performance.now() - origin - startedMs, ok: status >= 200 && status < 300, status });
      })
      .catch(() => {
        samples.push({ startedMs, latencyMs: performance.now() - origin - startedMs, ok: false, status: 0 });
      })
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  };
  // Catches up after a late timer rather than drifting below the rate.
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - origin) / 1000) * ratePerSecond);
    while (sent < due) send();
  }, 5);
  return {
    now: () => performance.now() - origin,
    async stop(): Promise<Sample[]> {
      clearInterval(timer);
      await Promise.all(inFlight);
      agent.destroy();
      return samples;
    },
  };
}

/** `npm run backup` as an operator runs it, in a process of its own. */
export function runBackupCommand(databasePath: string, destination: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', destination], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', BILLING_MODE: 'local', DATABASE_PATH: databasePath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

export interface BackupFigures {
  quotes: number;
  fillSeconds: number;
  /** From starting `npm run backup` to its exit, Node's start-up included. */
  seconds: number;
  /** What `npm run backup` printed: its copy and check times. */
  report: string;
  integrity: string;
  copiedQuotes: number;
  p99WithoutMs: number;
  p99DuringMs: number;
  requestsDuring: number;
  failures: number;
  /** Every quote sent while measuring, and those not answered 2xx. */
  sent: number;
  non2xx: number;
}

export async function measureBackupUnderLoad(script: string, requests: LoadRequest[]): Promise<BackupFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'recovery-bench-backup-'));
  try {
    const databasePath = path.join(dir, 'recovery.db');
    const filling = performance.now();
    fillDatabase(databasePath, { companies: LARGE_COMPANIES, quotes: BACKUP_QUOTES });
    const fillSeconds = (performance.now() - filling) / 1000;
    const server = await spawnServer({ script, databasePath });
    try {
      await runLoad(server, requests, { connections: 2, durationSeconds: 3 });
      const load = pacedQuotes(server, requests, BACKUP_RATE);
      await new Promise((resolve) => setTimeout(resolve, 6000));
      const backupStart = load.now();
      const destination = path.join(dir, 'backup.db');
      const backup = await runBackupCommand(databasePath, destination);
      const backupEnd = load.now();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const samples = await load.stop();
      if (backup.code !== 0) throw new Error(`npm run backup failed (${backup.code}):\n${backup.output}`);
      const copy = new Database(destination, { readonly: true });
      const integrity = copy.pragma('integrity_check', { simple: true }) as string;
      const copiedQuotes = copy.prepare('select count(*) from quotes').pluck().get() as number;
      copy.close();
      // The first second is left out: connections opening.
      const without = samples.filter((s) => s.startedMs >= 1000 && s.startedMs < backupStart);
      const during = samples.filter((s) => s.startedMs >= backupStart && s.startedMs <= backupEnd);
      return {
        quotes: BACKUP_QUOTES,
        fillSeconds,
        seconds: (backupEnd - backupStart) / 1000,
        report: /copy [\d.]+ s, (?:quick|integrity)_check ok in [\d.]+ s/.exec(backup.output)?.[0] ?? backup.output.trim(),
        integrity,
        copiedQuotes,
        p99WithoutMs: p99(without),
        p99DuringMs: p99(during),
        requestsDuring: during.length,
        failures: samples.filter((s) => !s.ok).length,
        sent: samples.length,
        non2xx: unanswered(samples).non2xx,
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface LargeDatabaseFigures {
  quotes: number;
  companies: number;
  fillSeconds: number;
  databaseBytes: number;
  empty: SliceSummary;
  large: SliceSummary;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Median over the rounds of each slice's p99, requests a second over all slices, and the server's CPU time per request answered. */
export interface SliceSummary {
  p99Ms: number;
  requestsPerSecond: number;
  /** Requests over the measured slices, those that failed (errors, time-outs, non-2xx), and the non-2xx answers among them. */
  total: number;
  failures: number;
  non2xx: number;
  cpuMsPerRequest: number;
}

/**
 * Each server in turn for one slice, round after round, after a warm-up of each (every company's
 * configuration cached, the pairs in the distance cache): a slower spell of a shared machine then
 * falls on every server alike. `before(name)` runs before each of `name`'s slices and warm-up.
 */
export async function alternatingSlices<K extends string>(
  servers: Record<K, ServerProcess>,
  requests: LoadRequest[],
  options: { rounds: number; slice: LoadSettings; before?: (name: K) => void },
): Promise<Record<K, SliceSummary>> {
  const names = Object.keys(servers) as K[];
  for (const name of names) {
    options.before?.(name);
    await runLoad(servers[name], requests, { connections: 10, durationSeconds: 5 });
  }
  type Slice = { p99Ms: number; total: number; failures: number; non2xx: number; cpuMs: number };
  const slices = Object.fromEntries(names.map((name) => [name, [] as Slice[]])) as Record<K, Slice[]>;
  for (let round = 0; round < options.rounds; round++) {
    // Every other round in the opposite order, so neither server always follows the other.
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      options.before?.(name);
      const cpuBefore = servers[name].cpuMs() ?? NaN;
      const result = await runLoad(servers[name], requests, options.slice);
      const cpuMs = (servers[name].cpuMs() ?? NaN) - cpuBefore;
      slices[name].push({ p99Ms: result.p99Ms, total: result.total, failures: result.failures, non2xx: result.non2xx, cpuMs });
    }
  }
  const seconds = options.rounds * options.slice.durationSeconds;
  return Object.fromEntries(
    names.map((name) => [
      name,
      {
        p99Ms: median(slices[name].map((s) => s.p99Ms)),
        requestsPerSecond: slices[name].reduce((sum, s) => sum + s.total, 0) / seconds,
        total: slices[name].reduce((sum, s) => sum + s.total, 0),
        failures: slices[name].reduce((sum, s) => sum + s.failures, 0),
        non2xx: slices[name].reduce((sum, s) => sum + s.non2xx, 0),
        cpuMsPerRequest: slices[name].reduce((sum, s) => sum + s.cpuMs, 0) / slices[name].reduce((sum, s) => sum + s.total, 0),
      },
    ]),
  ) as Record<K, SliceSummary>;
}

export async function measureLargeDatabase(script: string, requests: LoadRequest[]): Promise<LargeDatabaseFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'recovery-bench-large-'));
  try {
    const emptyPath = path.join(dir, 'empty.db');
    const largePath = path.join(dir, 'large.db');
    fillDatabase(emptyPath, { companies: LARGE_COMPANIES, quotes: 0 });
    const filling = performance.now();
    fillDatabase(largePath, { companies: LARGE_COMPANIES, quotes: LARGE_QUOTES });
    const fillSeconds = (performance.now() - filling) / 1000;
    const databaseBytes = (() => {
      const db = new Database(largePath, { readonly: true });
      const bytes = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
      db.close();
      return bytes;
    })();
    const servers = { empty: await spawnServer({ script, databasePath: emptyPath }), large: await spawnServer({ script, databasePath: largePath }) };
    try {
      const { empty, large } = await alternatingSlices(servers, requests, { rounds: LARGE_ROUNDS, slice: LARGE_SLICE });
      return { quotes: LARGE_QUOTES, companies: LARGE_COMPANIES, fillSeconds, databaseBytes, empty, large };
    } finally {
      await Promise.all([servers.empty.stop(), servers.large.stop()]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The demo quote body for each of `companies` companies in turn (bodies otherwise from `base`). */
export function acrossCompanies(base: LoadRequest[], companies: number): LoadRequest[] {
  return base.map((request, i) => {
    const body = JSON.parse(request.body ?? '{}') as Record<string, unknown>;
    return { ...request, body: JSON.stringify({ ...body, companyId: 1 + (i % companies) }) };
  });
}
