// `npm run bench -- --against <git-ref>`: this checkout and another commit, served at once and
// measured in alternating slices, so a slowdown shows as a ratio that the shared machine's load
// cannot hide (docs/decisions/017-quote-path-regression.md). The other commit is built in a
// temporary git worktree beside this one (node_modules hard-link copied when the lock files match,
// `npm ci` otherwise) and removed afterwards. Both run their production bundle as `npm start`
// does, with NODE_ENV=production, logging at info to /dev/null and QUOTE_RATE_LIMIT=0.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { demoQuoteJson } from './demo-quote';
import { runLoad, type LoadRequest, type LoadSettings } from './load';
import { pairsCsvPostcodes } from './postcode-sample';
import { REPO_ROOT, spawnServer, type ServerProcess } from './server-process';

export const AGAINST_LOAD: LoadSettings = { connections: 32, durationSeconds: 5 };
export const AGAINST_ROUNDS = 4;
const WARM_UP: LoadSettings = { connections: 32, durationSeconds: 3 };
/** Random pairs (a fixed seed) of real unit postcodes: nearly all new to the distance cache on the first pass. */
const PAIRS = 1000;
const INBOX_QUOTES = 200;
/** The real unit postcodes of the routed pairs in the repository (api/engine/distance/testdata). */
const UNIT_POSTCODES = pairsCsvPostcodes();
const SECRET = 'bench-against-secret-bench-against-secret';

const git = (args: string[], cwd = REPO_ROOT) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}`);
}

export interface Checkout {
  root: string;
  label: string;
  remove(): void;
}

/**
 * The other commit, checked out beside this one and built. `linkModules` hard-links this
 * checkout's node_modules even when the lock files differ: `npm ci` may have to compile
 * better-sqlite3 from source, which takes a loaded 2-core machine longer than the whole
 * measurement. Only sound when the packages the server loads are at the same versions in both.
 */
export function checkOut(ref: string, linkModules = false): Checkout {
  const sha = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const short = sha.slice(0, 7);
  // Beside this checkout, so node_modules can be hard-linked (one file system).
  const root = mkdtempSync(path.join(path.dirname(REPO_ROOT), `.bench-against-${short}-`));
  rmSync(root, { recursive: true });
  git(['worktree', 'add', '--detach', root, sha]);
  const remove = () => {
    spawnSync('git', ['worktree', 'remove', '--force', root], { cwd: REPO_ROOT, stdio: 'ignore' });
    if (existsSync(root)) rmSync(root, { recursive: true, force: true });
  };
  try {
    const sameLock = readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8') === readFileSync(path.join(root, 'package-lock.json'), 'utf8');
    if (sameLock || linkModules) {
      console.log(`${short}: ${sameLock ? 'same package-lock.json' : 'its package-lock.json differs, but --link-modules'}: node_modules hard-linked`);
      run('cp', ['-al', path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules')], REPO_ROOT);
    } else {
      console.log(`${short}: its package-lock.json differs, npm ci`);
      run('npm', ['ci', '--no-audit', '--no-fund'], root);
    }
    console.log(`${short}: npm run build`);
    run('npm', ['run', 'build'], root);
  } catch (error) {
    remove();
    throw error;
  }
  return { root, label: `${short} (${ref})`, remove };
}

/** Serves one checkout's production bundle as production runs it, on a fresh database. */
export const serveCheckout = (root: string) =>
  spawnServer({ script: 'dist/server.mjs', root, env: { NODE_ENV: 'production', BILLING_MODE: 'local', LOG_LEVEL: 'info', SESSION_SECRET: SECRET } });

/** `count` quote requests for `companyId` on random pairs (from `seed`) of the repository's real unit postcodes. */
export function quoteRequests(companyId: number, count: number, seed: number, headers?: Record<string, string>): LoadRequest[] {
  const postcodes = UNIT_POSTCODES;
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) >>> 0) % postcodes.length;
  const requests: LoadRequest[] = [];
  while (requests.length < count) {
    const [pickup, destination] = [postcodes[next()], postcodes[next()]];
    if (pickup === destination) continue;
    const body = JSON.parse(demoQuoteJson(pickup, destination)) as Record<string, unknown>;
    requests.push({ method: 'POST', path: '/api/quotes/calculate', body: JSON.stringify({ ...body, companyId }), headers });
  }
  return requests;
}

/** A signed-up operator of one server: the headers of their session. Undefined when the commit's sign-up differs. */
async function benchOperator(server: ServerProcess): Promise<{ headers: Record<string, string>; companyId: number } | undefined> {
  const signup = await fetch(`${server.url}/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ name: 'Bench Operator', email: 'bench@example.com', password: 'bench-password', companyName: 'Bench Recovery' }),
  });
  if (signup.status !== 201) return undefined;
  const { authToken, companyId } = (await signup.json()) as { authToken?: string; companyId?: number };
  if (!authToken || !companyId) return undefined;
  return { headers: { 'x-auth-token': authToken, origin: server.url }, companyId };
}

/**
 * The operator's quotes in the inbox: they quote their own page (a signed-in operator may,
 * whatever the subscription). Gives the inbox's first page, and the find by reference of each
 * quote on it (`GET /api/quotes/TQ-…`, as the Quotes tab's search does). Undefined when the commit
 * has no inbox.
 */
async function inboxRequests(
  server: ServerProcess,
  operator: { headers: Record<string, string>; companyId: number },
): Promise<{ page: LoadRequest[]; find: LoadRequest[] } | undefined> {
  const { headers, companyId } = operator;
  for (const quote of quoteRequests(companyId, INBOX_QUOTES, 7, headers)) {
    const res = await fetch(`${server.url}${quote.path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: quote.body });
    await res.arrayBuffer();
    if (res.status !== 200) return undefined;
  }
  const page = await fetch(`${server.url}/api/quotes`, { headers });
  const rows = page.status === 200 ? ((await page.json()) as { quotes?: { reference?: string }[] }).quotes : undefined;
  if (!rows || rows.length === 0) return undefined;
  const find = rows.flatMap(({ reference }) => (reference ? [{ method: 'GET' as const, path: `/api/quotes/TQ-${reference}`, headers }] : []));
  return { page: [{ method: 'GET', path: '/api/quotes', headers }], find };
}

/** Distinct call-out fees the price changes go through in turn (shared by all connections): each changes the price, so each writes its audit row. */
const PRICE_STEPS = 1000;

/**
 * An audited write: the operator's price change (`PUT /api/pricing`), a different call-out fee each
 * time, so where the commit keeps an audit log every request also inserts its row (old and new
 * value) in the change's transaction. Side by side with a commit before the log, the ratio is the
 * insert's cost. Undefined when the commit refuses the change.
 */
async function auditedWriteRequests(server: ServerProcess, operator: { headers: Record<string, string> }): Promise<LoadRequest[] | undefined> {
  const bodyOf = (n: number) => JSON.stringify({ callOutFee: 50 + (n % PRICE_STEPS) / 100 });
  const first = await fetch(`${server.url}/api/pricing`, {
    method: 'PUT',
    headers: { ...operator.headers, 'content-type': 'application/json' },
    body: bodyOf(PRICE_STEPS - 1),
  });
  await first.arrayBuffer();
  return first.status === 200 ? [{ method: 'PUT', path: '/api/pricing', bodyOf, headers: operator.headers }] : undefined;
}

export interface RouteFigures {
  route: string;
  /** undefined: the other commit does not serve it. */
  sides?: [SideFigures, SideFigures];
}

export interface SideFigures {
  requestsPerSecond: number;
  /** Median of the slices' p99. */
  p99Ms: number;
  /** Server CPU (user + system, every thread) per answered request. */
  cpuUs: number;
  failures: number;
}

export interface AgainstFigures {
  labels: [string, string];
  routes: RouteFigures[];
  loadAtStart: string;
  loadAtEnd: string;
  rounds: number;
}

const loadNow = () =>
  `${os
    .loadavg()
    .slice(0, 2)
    .map((n) => n.toFixed(2))
    .join(' (1 min), ')} (5 min)`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Both servers answer each route in turn, one slice each, round after round, the order swapped
 * every round: a busier spell of the shared machine falls on both alike.
 */
export async function measureSideBySide(servers: [ServerProcess, ServerProcess], labels: [string, string], rounds = AGAINST_ROUNDS): Promise<AgainstFigures> {
  const quotes = quoteRequests(1, PAIRS, 2);
  const operators = await Promise.all(servers.map(benchOperator));
  const inbox = await Promise.all(servers.map((server, i) => (operators[i] ? inboxRequests(server, operators[i]) : undefined)));
  const audited = await Promise.all(servers.map((server, i) => (operators[i] ? auditedWriteRequests(server, operators[i]) : undefined)));
  const routes: [string, [LoadRequest[], LoadRequest[]] | undefined][] = [
    [`POST /api/quotes/calculate (${PAIRS.toLocaleString('en-GB')} random pairs of unit postcodes)`, [quotes, quotes]],
    ['GET /healthz', [[{ method: 'GET', path: '/healthz' }], [{ method: 'GET', path: '/healthz' }]]],
    [`GET /api/quotes, the lead inbox's first page (${INBOX_QUOTES} quotes)`, inbox[0] && inbox[1] ? [inbox[0].page, inbox[1].page] : undefined],
    [
      `GET /api/quotes/TQ-…, find by reference (the first page's quotes in turn)`,
      inbox[0]?.find.length && inbox[1]?.find.length ? [inbox[0].find, inbox[1].find] : undefined,
    ],
    [`PUT /api/pricing, an audited write (a price change, a new call-out fee each time)`, audited[0] && audited[1] ? [audited[0], audited[1]] : undefined],
  ];
  const loadAtStart = loadNow();
  // Warm-up on other pairs first, so the measured slices meet uncached pairs too.
  for (const i of [0, 1]) await runLoad(servers[i], quoteRequests(1, PAIRS, 1), WARM_UP);
  for (const [, requests] of routes) if (requests) for (const i of [0, 1]) await runLoad(servers[i], requests[i], WARM_UP);
  const figures: RouteFigures[] = [];
  for (const [route, requests] of routes) {
    if (!requests) {
      figures.push({ route });
      continue;
    }
    const totals = [0, 1].map(() => ({ requests: 0, failures: 0, cpuMs: 0, p99: [] as number[] }));
    for (let round = 0; round < rounds; round++) {
      for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
        const cpuBefore = servers[i].cpuMs() ?? 0;
        const slice = await runLoad(servers[i], requests[i], AGAINST_LOAD);
        totals[i].cpuMs += (servers[i].cpuMs() ?? 0) - cpuBefore;
        totals[i].requests += slice.total;
        totals[i].failures += slice.failures;
        totals[i].p99.push(slice.p99Ms);
      }
      process.stdout.write(`  ${route.split(' (')[0]}: round ${round + 1} of ${rounds}, load ${os.loadavg()[0].toFixed(2)}\n`);
    }
    const side = (i: number): SideFigures => ({
      requestsPerSecond: totals[i].requests / (rounds * AGAINST_LOAD.durationSeconds),
      p99Ms: median(totals[i].p99),
      cpuUs: (1000 * totals[i].cpuMs) / Math.max(1, totals[i].requests),
      failures: totals[i].failures,
    });
    figures.push({ route, sides: [side(0), side(1)] });
  }
  return { labels, routes: figures, loadAtStart, loadAtEnd: loadNow(), rounds };
}

const int = (n: number) => Math.round(n).toLocaleString('en-GB');

/** One table: each route's figures on both sides and this checkout's ratio to the other. */
export function renderSideBySide(figures: AgainstFigures): string {
  const [mine, theirs] = figures.labels;
  const rows = figures.routes.map(({ route, sides }) => {
    if (!sides) return `| ${route} | not served by both | – | – | – |`;
    const [a, b] = sides;
    const failures = a.failures + b.failures > 0 ? ` (failures: ${a.failures} vs ${b.failures})` : '';
    return `| ${route}${failures} | ${int(a.requestsPerSecond)} vs ${int(b.requestsPerSecond)} req/s | **${((100 * a.requestsPerSecond) / b.requestsPerSecond).toFixed(0)} %** | ${a.p99Ms} vs ${b.p99Ms} ms (**${(a.p99Ms / b.p99Ms).toFixed(2)}×**) | ${int(a.cpuUs)} vs ${int(b.cpuUs)} µs (${(a.cpuUs / b.cpuUs).toFixed(2)}×) |`;
  });
  return [
    `${mine} against ${theirs}: ${figures.rounds} rounds of a ${AGAINST_LOAD.durationSeconds} s slice per server and route, ${AGAINST_LOAD.connections} connections, order swapped each round; load average ${figures.loadAtStart} at start, ${figures.loadAtEnd} at the end.`,
    '',
    `| route | throughput, this vs other | ratio | p99 (median of slices) | server CPU per request |`,
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}

/** Builds `ref`, serves it beside this checkout's build, measures, and cleans up. */
export async function benchAgainst(ref: string, rounds = AGAINST_ROUNDS, linkModules = false): Promise<AgainstFigures> {
  console.log('This checkout: npm run build');
  run('npm', ['run', 'build'], REPO_ROOT);
  const other = checkOut(ref, linkModules);
  let servers: ServerProcess[] = [];
  try {
    servers = [await serveCheckout(REPO_ROOT), await serveCheckout(other.root)];
    const here = git(['rev-parse', '--short=7', 'HEAD']);
    const dirty = git(['status', '--porcelain', '--untracked-files=no']) === '' ? '' : ' with uncommitted changes';
    return await measureSideBySide([servers[0], servers[1]], [`this checkout (${here}${dirty})`, other.label], rounds);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    other.remove();
  }
}
