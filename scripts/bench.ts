// `npm run bench`: measures every budget of docs/budgets.md that a script can measure, prints one table
// and writes it, with the machine it ran on, to docs/benchmarks.md. Loopback only, bounded
// (about three minutes, plus a few for the real-sized databases of the reliability sections): the
// real server, a trivial Hono server and the bare-handler references run as child processes.
// `npm run bench -- backup` (or `large-db`, `leads`, `alerts`, `bookings`, `dispatch`, `map`, `audit`, `uploads`, or `main`) runs those sections alone
// and rewrites only theirs in docs/benchmarks.md; `logs` and `nearest` alone are printed only.
// `--leads-quotes=N` fills the lead inbox's database with N quotes instead of 5,000,000 (a quicker,
// smaller run). `--against <git-ref>` instead serves this checkout and that commit side by side and
// prints each route's ratio (scripts/bench/against.ts); run it before merging a change to the quote path.
// `--rounds=N` sets its alternating rounds (default 4); `--link-modules` hard-links node_modules even
// when the other commit's lock file differs, instead of `npm ci`.
import { withMainSection, withSection } from './bench/sections';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isValidPostcode } from '#shared/postcode';
import { evaluateDistanceAccuracy } from './distance-accuracy';
import { ALERT_COMPANIES, ALERT_ROUNDS, ALERT_SLICE, measureAlerts, type AlertFigures } from './bench/alerts';
import { demoQuoteJson } from './bench/demo-quote';
import { runLoad, type LoadRequest, type LoadResult, type LoadSettings } from './bench/load';
import type { NearestProbeResult } from './bench/nearest-probe';
import type { PostcodeProbeResult } from './bench/postcode-probe';
import { EXPORT_ROWS, measureLeads, type LeadsFigures } from './bench/leads';
import { PAIRS_CSV, pairsCsvPostcodes, spaced, unitKeys } from './bench/postcode-sample';
import {
  acrossCompanies,
  BACKUP_RATE,
  CITY_POSTCODES,
  LARGE_COMPANIES,
  LARGE_QUOTES,
  measureBackupUnderLoad,
  measureLargeDatabase,
  type BackupFigures,
  type LargeDatabaseFigures,
} from './bench/reliability';
import { REPO_ROOT, spawnServer, startScriptNodeFlags, type ServerProcess } from './bench/server-process';
import {
  DRAIN_CAP_SECONDS,
  DRAIN_RATE,
  DRAIN_SLICE_SECONDS,
  DURABILITY_QUOTES,
  measureRestore,
  measureRetentionDrain,
  type DrainFigures,
  type RestoreFigures,
  type RestoreRun,
} from './bench/durability';
import { WAL_SIZE_LIMIT_BYTES } from '../api/platform/db/checkpointer';
import { AGAINST_ROUNDS, benchAgainst, renderSideBySide } from './bench/against';
import { measureStalledLogReader } from './bench/stalled-log-reader';
import { BOOKINGS, DELIVERY_BUDGET_MS, measureBookings, QUOTE_ROUNDS, QUOTE_SLICE, STREAMS, type BookingsFigures } from './bench/bookings';
import { DISPATCH_BUDGET_MS, DISPATCH_STREAMS, measureDispatch, type DispatchFigures } from './bench/dispatch';
import { ACCEPT_CONCURRENCY, AUDIT_BLOCKS, AUDIT_ROUNDS, measureAudit, type AuditFigures } from './bench/audit';
import { BOARD_BUDGET_MS, BOARD_NETWORK, measureBoardRender, type BoardRenderFigures } from './bench/board-render';
import { MAP_BUDGET_MS, MAP_NETWORK, MAP_RUNS, measureMapRender, type MapRenderFigures } from './bench/map-render';
import { CONCURRENT_UPLOADS, measureUploads, REPORT_PHOTOS, UPLOAD_BYTES, type UploadsFigures } from './bench/uploads';
import {
  adminFirstLoadJs,
  BOARD_ROUTE_BUDGET_BYTES,
  hostedPageWeight,
  isBuilt,
  MAP_CHUNK_BUDGET_BYTES,
  routeJs,
  widgetGzipBytes,
  type PageWeight,
} from './bench/sizes';

const LOAD: LoadSettings = { connections: 10, durationSeconds: 10 };
const WARM_UP: LoadSettings = { connections: 10, durationSeconds: 3 };
/** The ratios come from this many rounds of one slice per route. */
const RATIO_ROUNDS = 4;
const RATIO_SLICE: LoadSettings = { connections: 10, durationSeconds: 3 };
const STALLED_LOG_LOAD: LoadSettings = { connections: 10, durationSeconds: 20 };
const LOG_SECTION_POSTCODES = [
  'SW1A 1AA',
  'EH1 1YZ',
  'BT1 1AA',
  'CF10 1AA',
  'M1 1AA',
  'AB10 1AA',
  'LS1 1AA',
  'B1 1AA',
  'G1 1AA',
  'NE1 1AA',
  'BS1 1AA',
  'L1 1AA',
];
const POSTCODE_COUNT = 200;
const PAIR_COUNT = 2000;

interface Row {
  what: string;
  measured: string;
  budget: string;
  /** undefined: reported, no budget to pass or miss. */
  pass?: boolean;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const int = (n: number) => Math.round(n).toLocaleString('en-GB');

function machine() {
  const cpus = os.cpus();
  const [one, five] = os.loadavg();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    // Anything else running competes for the same cores: the figures are only as quiet as this.
    loadAverage: `${one.toFixed(2)} (1 min), ${five.toFixed(2)} (5 min) at start`,
  };
}

/** Real postcodes in customer spelling: pairs.csv's, topped up with units spread over the country. */
function quotePostcodes(): string[] {
  const fromPairs = pairsCsvPostcodes();
  const extra = unitKeys(POSTCODE_COUNT * 2)
    .map(spaced)
    .filter(isValidPostcode);
  return [...new Set([...fromPairs, ...extra])].slice(0, POSTCODE_COUNT);
}

/** The demo quote over `count` distinct pairs (fixed seed): most are new to the distance cache the first time round. */
function quoteRequests(postcodes: string[], count: number, seed: number): LoadRequest[] {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) >>> 0) % postcodes.length;
  const requests: LoadRequest[] = [];
  while (requests.length < count) {
    const pickup = postcodes[next()];
    const destination = postcodes[next()];
    if (pickup === destination) continue;
    requests.push({ method: 'POST', path: '/api/quotes/calculate', body: demoQuoteJson(pickup, destination) });
  }
  return requests;
}

function ensureBuilt(): boolean {
  if (isBuilt()) return true;
  console.log('dist/ is not built: running npm run build');
  const build = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  return build.status === 0 && isBuilt();
}

function postcodeProbe(): PostcodeProbeResult {
  // A fresh process, so the load is cold and the look-ups are not sharing a heap with autocannon.
  const probe = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench/postcode-probe.ts', '1000000'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (probe.status !== 0) throw new Error(`postcode probe failed:\n${probe.stderr}`);
  return JSON.parse(probe.stdout.trim()) as PostcodeProbeResult;
}

/** `npm run bench -- nearest` runs this section alone. */
function nearestRows(): Row[] {
  // A fresh process with the collector exposed: the load is cold and the memory figure is what stays live.
  const probe = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'scripts/bench/nearest-probe.ts', '1000000'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (probe.status !== 0) throw new Error(`nearest-postcode probe failed:\n${probe.stderr}`);
  const result = JSON.parse(probe.stdout.trim()) as NearestProbeResult;
  return [
    {
      what: `nearest postcode unit to a position (${int(result.lookups)} look-ups near the routed addresses, ${(100 * (1 - result.foundShare)).toFixed(0)} % at sea or abroad)`,
      measured: `${result.perLookupUs.toFixed(2)} µs`,
      budget: '≤ 20 µs',
      pass: result.perLookupUs <= 20,
    },
    {
      what: `postcode data load with the nearest-unit index (fresh process; the index's build ${result.nearestIndexMs.toFixed(0)} ms of it)`,
      measured: `${result.loadMs.toFixed(0)} ms`,
      budget: '≤ 300 ms',
      pass: result.loadMs <= 300,
    },
    {
      what: 'postcode data memory: decoded centroids and the nearest-unit index (array buffers and heap, after a full collection)',
      measured: `${(result.dataBytes / 1e6).toFixed(1)} MB`,
      budget: '≤ 40 MB',
      pass: result.dataBytes <= 40e6,
    },
  ];
}

/** Requests answered by one route over all its ratio slices. */
interface SliceTotals {
  requestsPerSecond: number;
  failures: number;
}

interface LoadFigures {
  quote: LoadResult;
  /** The same routes measured in alternating slices, for the ratios. */
  slices: { quote: SliceTotals; trivial: SliceTotals; echo: SliceTotals; health: SliceTotals; bare: SliceTotals; bareUnstored: SliceTotals };
  hosted?: PageWeight;
}

/**
 * Each route in turn for one short slice, round after round: a slower or faster spell of a shared
 * machine then falls on every route alike, instead of on whichever ran during it.
 */
async function interleaved<K extends string>(routes: Record<K, [ServerProcess, LoadRequest[]]>): Promise<Record<K, SliceTotals>> {
  const names = Object.keys(routes) as K[];
  const totals = Object.fromEntries(names.map((name) => [name, { requests: 0, failures: 0 }])) as Record<K, { requests: number; failures: number }>;
  for (let round = 0; round < RATIO_ROUNDS; round++) {
    for (const name of names) {
      const [server, requests] = routes[name];
      const slice = await runLoad(server, requests, RATIO_SLICE);
      totals[name].requests += slice.total;
      totals[name].failures += slice.failures;
    }
  }
  const seconds = RATIO_ROUNDS * RATIO_SLICE.durationSeconds;
  return Object.fromEntries(names.map((name) => [name, { requestsPerSecond: totals[name].requests / seconds, failures: totals[name].failures }])) as Record<
    K,
    SliceTotals
  >;
}

async function measureLoad(built: boolean): Promise<LoadFigures> {
  // The production bundle, as `npm start` runs it.
  const server = await spawnServer({ script: 'dist/server.mjs' });
  // The references run under npm start's node flags too (its heap limits): a ratio then compares
  // code, not heap settings (docs/decisions/028-the-p99-was-a-set.md).
  const nodeFlags = startScriptNodeFlags();
  const trivial = await spawnServer({ script: 'scripts/bench/trivial-server.ts', readyPath: '/', nodeFlags });
  // The quote's own work behind bare node:http: the ceiling for any framework here.
  const bare = await spawnServer({ script: 'scripts/bench/bare-quote-server.ts', nodeFlags });
  const bareUnstored = await spawnServer({ script: 'scripts/bench/bare-quote-server.ts', env: { STORE: '0' }, nodeFlags });
  try {
    const postcodes = quotePostcodes();
    const quotes = quoteRequests(postcodes, PAIR_COUNT, 2);
    // The smallest route of the same app, through the same middleware: what every request costs here.
    const healthz: LoadRequest[] = [{ method: 'GET', path: '/healthz' }];
    const root: LoadRequest[] = [{ method: 'GET', path: '/' }];
    // The same quote bodies, echoed: what reading and answering JSON costs before any work.
    const echoes = quotes.map((r) => ({ ...r, path: '/echo' }));

    // Warm-up and measured run use different pairs, so the measured run meets uncached pairs too.
    await runLoad(server, quoteRequests(postcodes, PAIR_COUNT, 1), WARM_UP);
    const quote = await runLoad(server, quotes, LOAD);
    for (const [target, requests] of [
      [server, healthz],
      [trivial, root],
      [trivial, echoes],
      [bare, quotes],
      [bareUnstored, quotes],
    ] as const) {
      await runLoad(target, requests, WARM_UP);
    }
    const slices = await interleaved({
      quote: [server, quotes],
      trivial: [trivial, root],
      echo: [trivial, echoes],
      health: [server, healthz],
      bare: [bare, quotes],
      bareUnstored: [bareUnstored, quotes],
    });
    // The widget reads the company (with its vehicle types and problem types) before the form is usable.
    const hosted = built ? await hostedPageWeight(`${server.url}/company/demo`, [`${server.url}/api/company/slug/demo`]) : undefined;
    return { quote, slices, hosted };
  } finally {
    await Promise.all([server.stop(), trivial.stop(), bare.stop(), bareUnstored.stop()]);
  }
}

/** `npm run bench -- logs` runs this section alone. */
async function stalledLogRows(): Promise<Row[]> {
  console.log(`Quote load with a log reader that never reads: ${STALLED_LOG_LOAD.durationSeconds} s…`);
  // Fixed postcodes, so this section runs without the source CSVs: what is measured is the log line per quote.
  const result = await measureStalledLogReader(quoteRequests(LOG_SECTION_POSTCODES, PAIR_COUNT, 3), STALLED_LOG_LOAD, WARM_UP);
  return [
    {
      what: `server RSS growth over ${result.settings.durationSeconds} s of quote load (${int(result.total)} quotes, ${result.failures} failures) logging at info to a reader that never reads`,
      measured: mb(result.rssGrowthBytes),
      budget: '≤ 40 MB, every quote answered',
      pass: result.rssGrowthBytes <= 40e6 && result.failures === 0,
    },
  ];
}

function sizeRows(built: boolean, hosted: PageWeight | undefined): Row[] {
  if (!built || !hosted) {
    return [
      { what: 'widget.js gzip', measured: 'not built', budget: '≤ 85 KB' },
      { what: 'hosted /company/demo before the form is usable', measured: 'not built', budget: '≤ 110 KB gzip, ≤ 3 requests' },
      { what: 'admin first-load JS gzip', measured: 'not built', budget: '≤ 200 KB' },
    ];
  }
  const widget = widgetGzipBytes();
  const admin = adminFirstLoadJs();
  return [
    { what: 'widget.js gzip', measured: kb(widget), budget: '≤ 85 KB', pass: widget <= 85_000 },
    {
      what: 'hosted /company/demo before the form is usable (the page, widget.js, the company read)',
      measured: `${kb(hosted.gzipBytes)} gzip in ${hosted.requests} requests`,
      budget: '≤ 110 KB gzip, ≤ 3 requests',
      pass: hosted.gzipBytes <= 110_000 && hosted.requests <= 3,
    },
    {
      what: `admin first-load JS gzip (${admin.requests} scripts in index.html)`,
      measured: kb(admin.gzipBytes),
      budget: '≤ 200 KB',
      pass: admin.gzipBytes <= 200_000,
    },
  ];
}

function render(rows: Row[]): string {
  const mark = (pass: boolean | undefined) => (pass === undefined ? '–' : pass ? '✅ pass' : '❌ miss');
  return [
    '| what | measured | budget (docs/budgets.md) | result |',
    '| --- | ---: | --- | --- |',
    ...rows.map((r) => `| ${r.what} | ${r.measured} | ${r.budget} | ${mark(r.pass)} |`),
  ].join('\n');
}

/** At most this share of a section's quotes may go unanswered (not 200/201): ~0, a stray error on a loaded machine. */
const UNANSWERED_SHARE = 0.001;

/**
 * The section's count of quotes not answered 2xx, as a row of its own: a section whose quotes were
 * refused (a 400 for a problem the company does not offer) measured refusals, not quotes. Past
 * UNANSWERED_SHARE the row fails and `npm run bench` exits 1.
 */
function answeredRow(section: string, sent: number, non2xx: number, errors = 0): Row {
  const missed = non2xx + errors;
  const pass = sent > 0 && missed <= sent * UNANSWERED_SHARE;
  console.log(
    `${section}: ${int(non2xx)} of ${int(sent)} quotes answered other than 2xx, ${int(errors)} not answered at all${pass ? '' : ' — SECTION FAILED: it measured refusals or errors, not quotes'}`,
  );
  if (!pass) process.exitCode = 1;
  return {
    what: `quotes answered other than 2xx (refused, failed) or not at all, of the ${int(sent)} measured`,
    measured: `${int(non2xx)} non-2xx, ${int(errors)} unanswered`,
    budget: `~0 (≤ ${100 * UNANSWERED_SHARE} %)`,
    pass,
  };
}

/** The main section: everything docs/budgets.md budgets, in the file's header and Results table. */
async function mainSection(host: ReturnType<typeof machine>, built: boolean): Promise<string> {
  console.log('Postcode data: load and look-ups…');
  const probe = postcodeProbe();
  console.log('Distance accuracy…');
  const accuracy = evaluateDistanceAccuracy(PAIRS_CSV);
  console.log(`Quote load: ${LOAD.durationSeconds} s, then ${RATIO_ROUNDS} rounds of ${RATIO_SLICE.durationSeconds} s slices for the ratios…`);
  const { quote, slices, hosted } = await measureLoad(built);
  const { trivial, echo, health, bare, bareUnstored } = slices;
  const ratio = slices.quote.requestsPerSecond / trivial.requestsPerSecond;
  const percentOf = (r: SliceTotals, base: SliceTotals) => `${((100 * r.requestsPerSecond) / base.requestsPerSecond).toFixed(0)} %`;
  const sliceNote = (r: SliceTotals) => `${int(r.requestsPerSecond)} req/s${r.failures > 0 ? `, ${int(r.failures)} failures` : ''}`;

  const rows: Row[] = [
    {
      what: `quote calculation throughput (${LOAD.connections} connections, ${LOAD.durationSeconds} s, ${int(quote.total)} quotes, ${quote.failures} failures)`,
      measured: `${int(quote.requestsPerSecond)} req/s`,
      budget: '≥ 3,000 req/s on 2 cores',
      pass: quote.requestsPerSecond >= 3000 && quote.failures === 0,
    },
    { what: 'quote calculation latency p50', measured: `${quote.p50Ms} ms`, budget: '–' },
    { what: 'quote calculation latency p99', measured: `${quote.p99Ms} ms`, budget: '≤ 25 ms', pass: quote.p99Ms <= 25 },
    {
      what: `quote route (${sliceNote(slices.quote)}) vs trivial Hono route (${sliceNote(trivial)}), in alternating slices`,
      measured: percentOf(slices.quote, trivial),
      budget: '≥ 40 %',
      pass: ratio >= 0.4 && slices.quote.failures === 0,
    },
    {
      what: `for reference: an empty Hono JSON POST, \`c.json(await c.req.json())\` on the same bodies (${sliceNote(echo)}), vs the trivial route`,
      measured: percentOf(echo, trivial),
      budget: 'reported',
    },
    {
      what: `for reference: the same quote work (validation, look-ups, pricing, the committed insert) behind a bare node:http handler, no framework or middleware (${sliceNote(bare)}), vs the trivial route`,
      measured: percentOf(bare, trivial),
      budget: 'reported',
    },
    {
      what: 'the quote route vs that bare handler doing the same work, in the same alternating slices',
      measured: percentOf(slices.quote, bare),
      budget: '≥ 75 %',
      pass: slices.quote.requestsPerSecond >= 0.75 * bare.requestsPerSecond && slices.quote.failures === 0,
    },
    {
      what: `for reference: that bare handler without storing the quote (${sliceNote(bareUnstored)}), vs the trivial route`,
      measured: percentOf(bareUnstored, trivial),
      budget: 'reported',
    },
    {
      what: `for reference: the quote route vs \`GET /healthz\` of the same server, through the same middleware (${sliceNote(health)})`,
      measured: percentOf(slices.quote, health),
      budget: 'reported',
    },
    { what: 'server RSS under quote load (peak)', measured: mb(quote.peakRssBytes), budget: '≤ 200 MB', pass: quote.peakRssBytes <= 200e6 },
    {
      what: `postcode lookup (${int(probe.lookups)} mixed keys: ${Object.entries(probe.keysByLevel)
        .map(([level, n]) => `${n} ${level}`)
        .join(', ')})`,
      measured: `${probe.perLookupUs.toFixed(2)} µs`,
      budget: '≤ 2 µs',
      pass: probe.perLookupUs <= 2,
    },
    { what: 'postcode data load (fresh process)', measured: `${probe.loadMs.toFixed(0)} ms`, budget: '≤ 300 ms', pass: probe.loadMs <= 300 },
    ...nearestRows(),
    ...[{ label: 'all', ...accuracy.overall }, ...accuracy.bands].map(({ label, n, medianPct, p90Pct }) => ({
      what: `distance error vs routed driving distance, ${label === 'all' ? 'all pairs' : `straight line ${label}`} (${n} pairs)`,
      measured: `median ${medianPct.toFixed(1)} %, p90 ${p90Pct.toFixed(1)} %`,
      budget: 'reported (docs/product.md §11)',
    })),
    ...(built ? await stalledLogRows() : []),
    ...sizeRows(built, hosted),
  ];

  const table = render(rows);
  console.log(`\n${table}\n`);
  return `# Benchmarks

Written by \`npm run bench\` (scripts/bench.ts); rerun it rather than editing this file. The
quote figures come from autocannon against the real server (the production bundle \`dist/server.mjs\` as a child process
on 127.0.0.1, a temporary database, \`QUOTE_RATE_LIMIT=0\`, \`LOG_LEVEL=silent\`) after a
${WARM_UP.durationSeconds} s warm-up, posting the demo quote over ${PAIR_COUNT.toLocaleString('en-GB')} pairs of ${POSTCODE_COUNT} real
postcodes; the trivial route is \`new Hono().get('/', (c) => c.text('ok'))\` on the same adapter.
The ratios compare requests answered in ${RATIO_ROUNDS} rounds of ${RATIO_SLICE.durationSeconds} s slices, each route in turn with the
same settings, so a slower spell of a shared machine falls on every route alike. The trivial process also serves
\`POST /echo\`, \`c.json(await c.req.json())\`, measured on the quote bodies: the cost of an idiomatic
JSON POST on this stack before any work, for reading the ratio (docs/decisions/008-quote-path-profile.md). The real server is
also measured on \`GET /healthz\`, its smallest route, after the quote run: the cost every request pays for the app's
middleware (request id and log line, security and CORS headers, session, CSRF). \`scripts/bench/bare-quote-server.ts\` runs the
quote's own work (the same \`createQuoteService\`) behind a bare \`node:http\` handler, with and without storing each quote:
the ceiling any framework could reach on this machine. autocannon shares the machine with the server,
so on 2 cores each gets about one. Distance errors are against \`api/engine/distance/testdata/pairs.csv\`.

## Machine

| | |
| --- | --- |
| CPU | ${host.cpu} |
| cores | ${host.cores} |
| memory | ${host.memory} |
| Node.js | ${host.node} |
| OS | ${host.os} |
| date | ${host.date} |
| load average | ${host.loadAverage} |

## Results

${table}
`;
}

const ms = (n: number) => `${Math.round(n)} ms`;
const ranAt = (host: ReturnType<typeof machine>) => `Run ${host.date}, load average ${host.loadAverage}.`;

function backupSection(host: ReturnType<typeof machine>, figures: BackupFigures, script: string): string {
  const rows: Row[] = [
    {
      what: `\`npm run backup\` of a ${int(figures.quotes)}-quote database (${int(LARGE_COMPANIES)} companies) while quotes are written at ${BACKUP_RATE}/s, from start to exit of its process`,
      measured: `${figures.seconds.toFixed(1)} s (${figures.report}), integrity ${figures.integrity}, ${int(figures.copiedQuotes)} quotes copied`,
      budget: '≤ 10 s',
      pass: figures.seconds <= 10 && figures.integrity === 'ok' && figures.copiedQuotes >= figures.quotes,
    },
    {
      what: `quote p99 at ${BACKUP_RATE}/s during the backup (${int(figures.requestsDuring)} quotes) vs before it${figures.failures > 0 ? ` (${int(figures.failures)} failures)` : ''}`,
      measured: `${ms(figures.p99DuringMs)} vs ${ms(figures.p99WithoutMs)}`,
      budget: 'reported (small)',
    },
    answeredRow('backup', figures.sent, figures.non2xx, figures.failures - figures.non2xx),
  ];
  return `## Backup under load

\`scripts/bench/reliability.ts\`: a database of ${int(figures.quotes)} quotes over ${int(LARGE_COMPANIES)} companies, filled with plain SQL
(${figures.fillSeconds.toFixed(0)} s), served by \`${script}\`; quotes are posted at ${BACKUP_RATE} a second on a fixed schedule
(an open model: a slow answer does not delay the next request), for every company in turn, and \`npm run backup\` runs as its own process after 6 s
(\`NODE_ENV=production\`, no \`SESSION_SECRET\`). p99 "before" is over the quotes sent in the 5 s before the backup,
"during" over those sent while it ran. ${ranAt(host)}

${render(rows)}
`;
}

const ms1 = (n: number) => `${n.toFixed(1)} ms`;

function drainSection(host: ReturnType<typeof machine>, figures: DrainFigures, script: string): string {
  const pooled = figures.p99DuringMs / figures.p99WithoutMs;
  const rate = figures.drained / figures.drainSeconds;
  const failed = figures.non2xx + figures.errors;
  const slices = (values: number[]) => values.map((v) => Math.round(v)).join(', ');
  const rows: Row[] = [
    {
      what: `quote p99 at ${DRAIN_RATE}/s while retention drains a backlog of ${int(figures.quotes)} expired quotes vs the night's run done: the median over ${figures.slices} rounds of the draining ${DRAIN_SLICE_SECONDS} s slice's p99 over the quiet one's (the slices' medians: ${ms1(figures.medianSliceP99DuringMs)} vs ${ms1(figures.medianSliceP99WithoutMs)})`,
      measured: `${figures.pairedRatio.toFixed(2)}×`,
      budget: '≤ 1.5×',
      pass: figures.pairedRatio <= 1.5 && failed === 0,
    },
    {
      what: `for reading it: p99 over every slice's quotes together, draining (${int(figures.requestsDuring)} quotes) vs not (${int(figures.requestsWithout)}); a spell of the shared machine in a few slices weighs on it whole`,
      measured: `${ms1(figures.p99DuringMs)} vs ${ms1(figures.p99WithoutMs)} (${pooled.toFixed(2)}×)`,
      budget: 'reported',
    },
    {
      what: 'the WAL file at its largest while draining (without: its largest with quotes alone)',
      measured: `${mb(figures.peakWalBytes)} (${mb(figures.peakWalWithoutBytes)})`,
      budget: `≤ ${WAL_SIZE_LIMIT_BYTES / 2 ** 20} MiB (${mb(WAL_SIZE_LIMIT_BYTES)}) and a checkpoint's worth`,
      pass: figures.peakWalBytes <= WAL_SIZE_LIMIT_BYTES * 1.5,
    },
    {
      what: `quotes deleted in ${figures.drainSeconds.toFixed(0)} s of the draining server's slices${figures.finished ? ' (the whole backlog)' : `, measured for ${DRAIN_CAP_SECONDS} s at most`}`,
      measured: `${int(figures.drained)} (${int(rate)}/s${figures.finished ? '' : `: the whole backlog in about ${int(figures.quotes / Math.max(rate, 1) / 60)} min`})`,
      budget: 'reported',
    },
    answeredRow('retention', figures.sent, figures.non2xx, figures.errors),
  ];
  return `## Retention backlog under load

\`scripts/bench/durability.ts\`: a database of ${int(figures.quotes)} quotes three years old over ${int(LARGE_COMPANIES)} companies (filled with
plain SQL in ${figures.fillSeconds.toFixed(0)} s) and a copy of it; on the copy the night's retention is marked done, on the other it is
due (\`RETENTION_HOUR=0\`). Both are served by \`${script}\` at once and measured in alternating ${DRAIN_SLICE_SECONDS} s slices, the order
swapped each round, the server not measured paused (SIGSTOP), so the drain (api/platform/jobs/pacer.ts) runs only in its own
server's slices and a spell of the shared machine falls on both slices of a round alike. In each slice quotes for every company in
turn are posted at ${DRAIN_RATE} a second on a fixed schedule (an open model, each slice on connections of its own); the first 250 ms
of each slice is left out on both. After a warm-up slice of each, until no expired quote is left or ${DRAIN_CAP_SECONDS} s of the
draining server's slices have passed. ${ranAt(host)}

${render(rows)}

Each slice's p99 in ms, round by round: quiet ${slices(figures.sliceP99sWithoutMs)}; draining ${slices(figures.sliceP99sDuringMs)}.
`;
}

function restoreSection(host: ReturnType<typeof machine>, figures: RestoreFigures, script: string): string {
  const { drill } = figures;
  const row = (label: string, run: RestoreRun): Row => ({
    what: `\`npm run restore\` from ${label}, start to exit of its process (${int(run.quotes)} quotes restored), then the server's start on it`,
    measured: `${run.seconds.toFixed(1)} s + ${run.startSeconds.toFixed(1)} s`,
    budget: '≤ 60 s + 15 s',
    pass: run.seconds <= 60 && run.startSeconds <= 15 && run.quotes >= figures.quotes,
  });
  const rows: Row[] = [
    {
      what: `the drill: quotes answered more than 1 s before the SIGKILL (${int(drill.olderThanOneSecond)} of ${int(drill.answered)} answered in ${drill.writeSeconds.toFixed(0)} s) missing from the restored file or with another total`,
      measured: int(drill.missingOlderThanOneSecond),
      budget: '0',
      pass: drill.olderThanOneSecond > 0 && drill.missingOlderThanOneSecond === 0,
    },
    {
      what: 'the drill: recovery point, the oldest answer lost (ms before the kill), and answers of the last second lost',
      measured: `${int(drill.recoveryPointMs)} ms, ${int(drill.lostInLastSecond)} lost`,
      budget: '≤ 1,000 ms',
      pass: drill.recoveryPointMs <= 1000,
    },
    {
      what: 'the drill: the first quote on the restored server gets a reference never given out before',
      measured: drill.nextReferenceIsNew ? 'yes' : 'no',
      budget: 'yes',
      pass: drill.nextReferenceIsNew,
    },
    row('the Litestream file replica after the SIGKILL (recovery time)', figures.replica),
    row('an `npm run backup` copy of the restored file', figures.backup),
    {
      what: "the replica's first full copy: the server started with `REPLICA_URL` to the replica holding every frame",
      measured: `${figures.replicateSeconds.toFixed(1)} s`,
      budget: 'reported',
    },
    answeredRow('restore', drill.answered + drill.notAnswered, drill.notAnswered),
  ];
  const said = figures.replica.output
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
  return `## Restore

\`scripts/bench/durability.ts\`: the drill of \`api/reliability/restore-drill.test.ts\` at scale. A database of ${int(figures.quotes)} quotes over
${int(LARGE_COMPANIES)} companies (${mb(figures.databaseBytes)}, filled in ${figures.fillSeconds.toFixed(0)} s) served by \`${script}\` with
\`REPLICA_URL=file://…\`; once the replica holds every frame, 4 clients quote for every company in turn for
${drill.writeSeconds.toFixed(0)} s, the server is killed with SIGKILL, the database deleted, \`npm run restore\` run from the replica in
its own process and the server started on the restored file; every answer is looked up by its reference. Then an
\`npm run backup\` copy of the restored file is restored the same way, for comparison. ${ranAt(host)}

${render(rows)}

What the restore from the replica printed:

${said}
`;
}

function largeDatabaseSection(host: ReturnType<typeof machine>, figures: LargeDatabaseFigures, script: string): string {
  const ratio = figures.large.p99Ms / figures.empty.p99Ms;
  const note = (r: LargeDatabaseFigures['empty']) => `${int(r.requestsPerSecond)} req/s${r.failures > 0 ? `, ${int(r.failures)} failures` : ''}`;
  const rows: Row[] = [
    {
      what: `quote p99 with ${int(figures.quotes)} quotes across ${int(figures.companies)} companies (${note(figures.large)}) vs the same companies with none (${note(figures.empty)})`,
      measured: `${ms(figures.large.p99Ms)} vs ${ms(figures.empty.p99Ms)} (${ratio.toFixed(2)}×)`,
      budget: '≤ 1.5×',
      pass: ratio <= 1.5 && figures.large.failures === 0 && figures.empty.failures === 0,
    },
    answeredRow(
      'large-db',
      figures.large.total + figures.empty.total,
      figures.large.non2xx + figures.empty.non2xx,
      figures.large.failures - figures.large.non2xx + figures.empty.failures - figures.empty.non2xx,
    ),
  ];
  return `## Quote latency on a large database

\`scripts/bench/reliability.ts\`: two databases with the same ${int(figures.companies)} companies (starter rows, an owner each with
an active subscription), one with ${int(figures.quotes)} quotes spread over them (${(figures.databaseBytes / 1e9).toFixed(2)} GB, filled with plain SQL in
${figures.fillSeconds.toFixed(0)} s, each with a reference of the writer's shape), one with none; each served by \`${script}\`. Quotes for
every company in turn, 10 connections, after a 5 s warm-up on each; then 3 rounds of a 5 s slice on each
database in turn, the median of the slices' p99. ${ranAt(host)}

${render(rows)}
`;
}

function leadsSection(host: ReturnType<typeof machine>, figures: LeadsFigures): string {
  const { firstPage, byReference, byReferenceService, numbers, signedInBaseline } = figures;
  const timed = (t: typeof firstPage) => `${t.p99Ms.toFixed(2)} ms (p50 ${t.p50Ms.toFixed(2)} ms)`;
  const exported = figures.export;
  const rows: Row[] = [
    {
      what: `the Quotes tab's first page, \`GET /api/quotes\` (25 newest), p99 over ${int(firstPage.requests)} requests across 500 companies`,
      measured: timed(firstPage),
      budget: '≤ 20 ms',
      pass: firstPage.p99Ms <= 20,
    },
    {
      what: `find by reference, \`GET /api/quotes/TQ-…\`, p99 over ${int(byReference.requests)} requests`,
      measured: timed(byReference),
      budget: '≤ 2 ms',
      pass: byReference.p99Ms <= 2,
    },
    {
      what: `for reference: the same look-ups as service calls alone (the reference's shape checked, one probe of its unique index, the row, its history), p99 over ${int(byReferenceService.requests)}`,
      measured: timed(byReferenceService),
      budget: 'reported',
    },
    {
      what: `for reference: the smallest signed-in route, \`GET /api/auth/user\` (session, middleware, one user read), p99 over ${int(signedInBaseline.requests)} requests`,
      measured: timed(signedInBaseline),
      budget: 'reported',
    },
    {
      what: `the 30-day numbers, \`GET /api/quotes/numbers\`, p99 over ${int(numbers.requests)} requests`,
      measured: timed(numbers),
      budget: '≤ 50 ms',
      pass: numbers.p99Ms <= 50,
    },
    {
      what: `CSV export of one company's ${int(exported.rows)} quotes (${mb(exported.bytes)} in ${int(exported.chunks)} chunks, ${exported.seconds.toFixed(1)} s): RSS growth while streaming`,
      measured: `${(exported.rssGrowthBytes / 1e6).toFixed(1)} MB`,
      budget: '≤ 30 MB, streamed',
      pass: exported.rssGrowthBytes <= 30e6 && exported.rows === EXPORT_ROWS,
    },
  ];
  const plans = Object.entries(figures.plans)
    .map(([name, plan]) => `- ${name}: \`${plan.join('; ')}\``)
    .join('\n');
  return `## Lead inbox

\`scripts/bench/leads.ts\`: ${int(figures.quotes)} quotes across ${int(figures.companies)} companies (fill-database.ts), plus one company with
${int(EXPORT_ROWS)} quotes over 30 days for the export (${(figures.databaseBytes / 1e9).toFixed(2)} GB, filled in ${figures.fillSeconds.toFixed(0)} s). Server time is
measured in a fresh process (\`scripts/bench/leads-probe.ts\`) through the whole app by \`app.request\` (session, middleware,
handler, JSON; no socket), one request at a time, the clock set an hour after the newest quote. RSS growth is the peak
while the export is read, chunk by chunk, over the RSS after a full collection just before it. ${ranAt(host)}

${render(rows)}

Query plans on this database:

${plans}
`;
}

function alertsSection(host: ReturnType<typeof machine>, figures: AlertFigures, script: string): string {
  const { off, on } = figures;
  const throughput = on.requestsPerSecond / off.requestsPerSecond;
  const latency = on.p99Ms / off.p99Ms;
  const note = (r: AlertFigures['off']) => `${int(r.requestsPerSecond)} req/s${r.failures > 0 ? `, ${int(r.failures)} failures` : ''}`;
  const outbox =
    Object.entries(figures.outbox)
      .map(([status, n]) => `${int(n)} ${status}`)
      .join(', ') || 'none';
  const rows: Row[] = [
    {
      what: `quote throughput with every company alerted for each quote (${note(on)}) vs alerts off (${note(off)})`,
      measured: `${(100 * throughput).toFixed(0)} %`,
      budget: '≥ 90 %',
      pass: throughput >= 0.9 && on.failures === 0 && off.failures === 0,
    },
    {
      what: 'quote p99 with alerts for each quote vs alerts off',
      measured: `${ms(on.p99Ms)} vs ${ms(off.p99Ms)} (${latency.toFixed(2)}×)`,
      budget: '≤ 1.1×',
      pass: latency <= 1.1,
    },
    {
      what: 'server CPU time per quote (user + system, every thread, over the measured slices) with alerts for each quote vs alerts off: the least noisy of the three on a shared machine',
      measured: `${(1000 * on.cpuMsPerRequest).toFixed(0)} µs vs ${(1000 * off.cpuMsPerRequest).toFixed(0)} µs (${(on.cpuMsPerRequest / off.cpuMsPerRequest).toFixed(2)}×)`,
      budget: 'reported',
    },
    {
      what: `the alerts-on database afterwards: ${int(figures.quotes)} quotes, outbox ${outbox}; ${int(figures.accepted)} messages accepted by the SMTP server`,
      measured: '–',
      budget: 'reported',
    },
    answeredRow('alerts', on.total + off.total, on.non2xx + off.non2xx, on.failures - on.non2xx + off.failures - off.non2xx),
  ];
  return `## Quotes with alerts on

\`scripts/bench/alerts.ts\`: two databases with the same ${ALERT_COMPANIES} companies, every one alerted for each quote on one
and none on the other, each served by \`${script}\` with \`SMTP_URL\` pointing at an in-process \`smtp-server\` in the bench
process that accepts everything. Quotes for every company in turn, 10 connections, after a 5 s warm-up of each; then
${ALERT_ROUNDS} rounds of a ${ALERT_SLICE.durationSeconds} s slice on each server, in alternating order, the server not measured paused
(SIGSTOP) so its mail worker cannot take the cores; p99 is the median of the slices'. While the server is busy with
requests the mail worker writes at most 100 alerts and sends 2 per 2 s tick (500 and 40 otherwise), so at this rate
(every quote of every company mailed, thousands a second) the outbox grows and is sent over the following minutes. ${ranAt(host)}

${render(rows)}
`;
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)];

function dispatchSection(host: ReturnType<typeof machine>, figures: DispatchFigures, board: BoardRenderFigures): string {
  const pass = figures.reached === figures.streams && figures.p99Ms <= DISPATCH_BUDGET_MS;
  const best = Math.min(...board.runsMs);
  const bestOnNetwork = Math.min(...board.networkRunsMs);
  const runs = (list: number[]) => list.map((ms) => `${int(ms)} ms`).join(', ');
  const route = routeJs('BoardPage');
  const network = `${BOARD_NETWORK.latency} ms a request, ${(BOARD_NETWORK.downloadThroughput * 8) / 1e6} Mbit/s down, ${(BOARD_NETWORK.uploadThroughput * 8) / 1e3} kbit/s up`;
  return `## Dispatch

One assignment (\`POST /api/bookings/{reference}/assign\`) with ${int(figures.streams)} streams open, half the company's boards
(\`/api/board/events\`) and half its driver's My jobs (\`/api/my-jobs/events\`), in one process on the real app (\`app.request\`,
no sockets; scripts/bench/dispatch.ts): from the request to each stream's \`job\` event. The board's first screen
(scripts/bench/board-render.ts): ${int(board.jobs)} open jobs, a phone-sized Chromium (390×844) with its CPU slowed 4×, the
production bundle, timed from navigation to the first job card's button in the DOM (the page's own clock, and as Playwright
saw it), after a warm-up load; then again with a
Slow-4G-like network as well (${network}). ${ranAt(host)}

| what | measured | budget | |
| --- | --- | --- | --- |
| an assignment reaching every open board and driver stream (${int(figures.reached)} of ${int(figures.streams)} reached; p50 ${figures.p50Ms} ms, max ${figures.maxMs} ms) | p99 ${figures.p99Ms} ms | ≤ ${int(DISPATCH_BUDGET_MS)} ms | ${pass ? 'pass' : 'FAIL'} |
| the dispatch board of ${int(board.jobs)} open jobs, first screen on a phone, 4× CPU throttle, in the page's own clock (runs: ${runs(board.pageMs)}; as Playwright saw them: ${runs(board.runsMs)}, best ${int(best)} ms) | median ${int(median(board.pageMs))} ms | ≤ ${int(BOARD_BUDGET_MS)} ms | ${median(board.pageMs) <= BOARD_BUDGET_MS ? 'pass' : 'FAIL'} |
| the same, 4× CPU throttle and the Slow-4G-like network (runs: ${runs(board.networkPageMs)}; as Playwright saw them: ${runs(board.networkRunsMs)}, best ${int(bestOnNetwork)} ms) | median ${int(median(board.networkPageMs))} ms | ≤ ${int(BOARD_BUDGET_MS)} ms | ${median(board.networkPageMs) <= BOARD_BUDGET_MS ? 'pass' : 'FAIL'} |
| the board's read of those jobs, \`GET /api/board\`, on the wire (headers included; ${kb(board.boardBodyBytes)} decoded) | ${kb(board.boardTransferBytes)} | reported | |
| the board route's own JavaScript beyond the first load (${route.requests} files, gzip) | ${kb(route.gzipBytes)} | ≤ ${kb(BOARD_ROUTE_BUDGET_BYTES)} | ${route.gzipBytes <= BOARD_ROUTE_BUDGET_BYTES ? 'pass' : 'FAIL'} |
| requests the page had made when its first card was found (from the network or the browser's cache) | ${board.requests.length}: ${board.requests.map((r) => `\`${r.replace(/-[\w-]{8}\.(js|css)$/, '.$1')}\``).join(', ')} | reported | |
`;
}

function mapSection(host: ReturnType<typeof machine>, figures: MapRenderFigures): string {
  const sorted = [...figures.runsMs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const lcps = figures.lcpMs.filter((ms): ms is number => ms !== null).sort((a, b) => a - b);
  const runs = figures.runsMs.map((ms) => `${int(ms)} ms`).join(', ');
  const wall = [...figures.wallMs].sort((a, b) => a - b);
  const network = `${MAP_NETWORK.latency} ms a request, ${(MAP_NETWORK.downloadThroughput * 8) / 1e6} Mbit/s down, ${(MAP_NETWORK.uploadThroughput * 8) / 1e3} kbit/s up`;
  const mapFetched = (paths: string[]) => paths.some((p) => p.startsWith('/assets/JobMap')) || paths.some((p) => p.startsWith('/tiles/'));
  const list = (paths: string[]) => paths.map((p) => `\`${p}\``).join(', ');
  const route = routeJs('JobMap');
  return `## The status page's map

The motorist's status page of a job on the way with the driver's position sent (scripts/bench/map-render.ts): the
production bundle with \`MAP_TILES_URL\` on a fake tile server on loopback (api/test/message-fakes.ts), Chromium's headless
shell at 390×844 with its CPU slowed 4× and a Slow-4G-like network (${network}) by the DevTools protocol, the browser's
cache emptied before each of ${MAP_RUNS} loads after a warm-up: timed in the page's own clock from navigation until the first
tile is drawn and the driver's marker is on the map (a MutationObserver put in before the page's scripts), and again by the
bench around Playwright. ${ranAt(host)}

| what | measured | budget | |
| --- | --- | --- | --- |
| the status page's first screen with the map and the driver's marker, cold, 4× CPU and Slow 4G (runs: ${runs}) | median ${int(median)} ms | ≤ ${int(MAP_BUDGET_MS)} ms | ${median <= MAP_BUDGET_MS ? 'pass' : 'FAIL'} |
| the same loads timed by the bench around Playwright (its round trips to the loaded browser included; runs: ${figures.wallMs.map((ms) => `${int(ms)} ms`).join(', ')}) | median ${int(wall[Math.floor(wall.length / 2)])} ms | reported | |
| its largest contentful paint (median of ${lcps.length}) | ${lcps.length > 0 ? `${int(lcps[Math.floor(lcps.length / 2)])} ms` : 'not reported'} | reported | |
| the map's own chunk (Leaflet and the component, ${route.requests} file${route.requests === 1 ? '' : 's'}, gzip; admin/map-chunk.test.ts holds it apart) | ${kb(route.gzipBytes)} | ≤ ${kb(MAP_CHUNK_BUDGET_BYTES)} | ${route.gzipBytes <= MAP_CHUNK_BUDGET_BYTES ? 'pass' : 'FAIL'} |
| tiles served over the timed loads | ${int(figures.tilesServed)} | reported | |
| requests of a load before the driver's position was sent: no map chunk, no tile | ${figures.withoutPosition.length}: ${list(figures.withoutPosition)} | none of the map's | ${mapFetched(figures.withoutPosition) ? 'FAIL' : 'pass'} |
| requests of a load with the position (tiles counted above) | ${list(figures.withPosition.filter((p) => !p.startsWith('/tiles/')))} | reported | |
`;
}

/** The audit insert's share of the accept route: the budget is ≤ 5 % at p99, side by side. */
const AUDIT_P99_BUDGET = 1.05;

function auditSection(host: ReturnType<typeof machine>, figures: AuditFigures): string {
  const spreadOf = (ratios: number[]) => `spread ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×`;
  const blocks = figures.blocks
    .map(
      (b, i) =>
        `${i + 1}: p99 ${b.on.p99Ms} / ${b.off.p99Ms} ms, p50 ${b.on.p50Ms} / ${b.off.p50Ms} ms, CPU ${b.on.cpuMsPerAccept} / ${b.off.cpuMsPerAccept} ms`,
    )
    .join('; ');
  return `## The audit insert on the accept route

\`scripts/bench/audit.ts\`: two apps in one process, one build, the same in all but their audit recorder (the app's own, and one
that writes nothing, given through \`AppOptions.audit\`: decision 056), each on a fresh database with the same dispatcher and
requested bookings. ${int(AUDIT_ROUNDS)} short rounds in ABBA order (decision 058), each a burst of ${ACCEPT_CONCURRENCY} accepts
(\`POST /api/bookings/{reference}/accept\` with an ETA and a driver, as the dispatcher) all in flight at once through
\`app.request\` (no sockets, so the route's own work is all that is timed): a pause of the machine falls on both sides alike.
Each app's WAL is checkpointed on a worker thread as the server's is; a warm-up comes first. CPU is the process's user + system
time over a round, the checkpoint workers' included. ${ranAt(host)}

| what (audit insert on ÷ off) | measured | budget | |
| --- | --- | --- | --- |
| accept p99, every round of each side pooled (${int(AUDIT_ROUNDS / 2)} rounds each; ${figures.on.p99Ms} ms against ${figures.off.p99Ms} ms). Over ${AUDIT_BLOCKS} consecutive blocks of rounds: median ${figures.medianP99Ratio.toFixed(2)}×, ${spreadOf(figures.blockP99Ratios)} | ${figures.p99Ratio.toFixed(2)}× | ≤ ${AUDIT_P99_BUDGET.toFixed(2)}× | ${figures.p99Ratio <= AUDIT_P99_BUDGET ? 'pass' : 'FAIL'} |
| accept p50, the same (${figures.on.p50Ms} ms against ${figures.off.p50Ms} ms; blocks: median ${figures.medianP50Ratio.toFixed(2)}×, ${spreadOf(figures.blockP50Ratios)}) | ${figures.p50Ratio.toFixed(2)}× | reported | |
| CPU an accept, the same (${figures.on.cpuMsPerAccept} ms against ${figures.off.cpuMsPerAccept} ms; blocks: median ${figures.medianCpuRatio.toFixed(2)}×, ${spreadOf(figures.blockCpuRatios)}) | ${figures.cpuRatio.toFixed(2)}× | reported | |
| one audit line's INSERT alone (in a transaction of many) | ${figures.insertUs} µs | reported | |
| audit lines written by the accepts, on and off | ${int(figures.rowsOn)} and ${int(figures.rowsOff)} | one an accept on, none off | ${figures.rowsOff === 0 && figures.rowsOn > 0 ? 'pass' : 'FAIL'} |

Blocks in the order run (on / off): ${blocks}.
`;
}

function bookingsSection(host: ReturnType<typeof machine>, figures: BookingsFigures, script: string): string {
  const { booking, streams, quotes, descriptors } = figures;
  const { delivery } = streams;
  const rssGrowth = Math.max(streams.rssOpenBytes, streams.rssPeakBytes) - streams.rssBeforeBytes;
  const share = streams.withinBudget / STREAMS;
  const throughput = quotes.withStreams.requestsPerSecond / quotes.without.requestsPerSecond;
  const refused = Object.entries(streams.refused)
    .map(([why, n]) => `${int(n)} refused (${why})`)
    .join(', ');
  const note = (r: BookingsFigures['quotes']['without']) =>
    `${int(r.requestsPerSecond)} req/s, p99 ${r.p99Ms} ms${r.failures > 0 ? `, ${int(r.failures)} failures` : ''}`;
  const reopened = quotes.reopened.length > 0 ? `; reopened for the later slices: ${quotes.reopened.map(int).join(' and ')}` : '';
  const rows: Row[] = [
    {
      what: `booking request, \`POST /api/bookings\` alone, over ${int(booking.count)} bookings one at a time, each of a fresh quote (p50 ${booking.p50Ms} ms, p90 ${booking.p90Ms} ms, max ${booking.maxMs} ms${booking.failures > 0 ? `, ${int(booking.failures)} failures` : ''})`,
      measured: `p99 ${booking.p99Ms} ms`,
      budget: '≤ 50 ms on an idle server',
      pass: booking.p99Ms <= 50 && booking.failures === 0,
    },
    {
      what: 'server CPU time per booking (user + system, every thread, over the timed bookings): what a busy machine blurs least',
      measured: `${ms1(booking.cpuMsPerBooking)}`,
      budget: 'reported',
    },
    {
      what: `server RSS growth with one job's status page open ${int(STREAMS)} times from as many client addresses (${int(streams.opened)} opened in ${streams.openSeconds.toFixed(1)} s${refused ? `, ${refused}` : ''}): ${mb(streams.rssBeforeBytes)} before, ${mb(streams.rssOpenBytes)} with them open, ${mb(streams.rssPeakBytes)} at the peak while the change went out`,
      measured: `${mb(rssGrowth)} (${(rssGrowth / Math.max(1, streams.opened) / 1000).toFixed(1)} KB a stream)`,
      budget: '≤ 100 MB',
      pass: rssGrowth <= 100e6 && streams.opened === STREAMS,
    },
    {
      what: `streams that received the status change (the driver's page moves the job on the way) within ${DELIVERY_BUDGET_MS / 1000} s of the driver's POST (which answered in ${ms1(streams.changeMs)})`,
      measured: `${(100 * share).toFixed(1)} % (${int(streams.withinBudget)} of ${int(STREAMS)})`,
      budget: '≥ 99 %',
      pass: share >= 0.99,
    },
    {
      what: `the change's arrival after the driver's POST, over the ${int(delivery.count)} streams it reached`,
      measured: `p50 ${ms1(delivery.p50Ms)}, p90 ${ms1(delivery.p90Ms)}, p99 ${ms1(delivery.p99Ms)}, max ${ms1(delivery.maxMs)}`,
      budget: 'reported',
    },
    {
      what: `server CPU time (every thread) from the driver's POST until the change had reached every stream: the POST and ${int(STREAMS)} writes`,
      measured: ms1(streams.changeCpuMs),
      budget: 'reported',
    },
    {
      what: `quote throughput with the ${int(STREAMS)} streams open (${note(quotes.withStreams)}) vs none (${note(quotes.without)}), ${quotes.rounds} rounds of ${QUOTE_SLICE.durationSeconds} s slices on the same server${reopened}`,
      measured: `${(100 * throughput).toFixed(1)} %`,
      budget: '≥ 95 %',
      pass: throughput >= 0.95 && quotes.withStreams.failures === 0 && quotes.without.failures === 0,
    },
    {
      what: 'server CPU time per quote in those slices, with the streams open vs none: the least noisy of these on a shared machine',
      measured: `${(1000 * quotes.withStreams.cpuMsPerRequest).toFixed(0)} µs vs ${(1000 * quotes.without.cpuMsPerRequest).toFixed(0)} µs (${(quotes.withStreams.cpuMsPerRequest / quotes.without.cpuMsPerRequest).toFixed(2)}×)`,
      budget: 'reported',
    },
    {
      what: `the open-file limit (\`ulimit -n\`) of the bench and so of the server, against what ${int(STREAMS)} streams and the quote load need; the server held ${int(streams.serverDescriptors)} descriptors with them open`,
      measured: descriptors.limit === undefined ? 'unknown' : int(descriptors.limit),
      budget: `≥ ${int(descriptors.needed)}`,
      pass: descriptors.limit === undefined ? undefined : descriptors.limit >= descriptors.needed,
    },
  ];
  return `## Bookings

\`scripts/bench/bookings.ts\`: \`${script}\` with \`NODE_ENV=production\`, \`BILLING_MODE=local\`, \`QUOTE_RATE_LIMIT=0\` and
\`BOOKING_RATE_LIMIT=0\` (the limits off through configuration), logging silent, a fresh database, one operator signed up
(booking is on for a new company). ${int(BOOKINGS + 100)} quotes first, then each booked, one at a time, the booking POST timed
alone (the first 100 not counted). Then one booking is accepted and its status stream (\`GET /api/jobs/{token}/events\`) opened ${int(STREAMS)} times, each
from its own loopback address (127.0.1.1 onwards, bound with \`localAddress\`: the server caps streams per client address); RSS is
read from /proc after a second of quiet before and after. The driver's page then moves the job on the way and each stream's
arrival is timed from the driver's POST in the bench process, which reads all ${int(STREAMS)} streams on the same 2 cores. Quotes
(autocannon, ${QUOTE_SLICE.connections} connections, the demo quote over city postcodes) run in ${QUOTE_ROUNDS} rounds of a slice with the streams open and one
with them closed, in ABBA order, after a 3 s warm-up. ${ranAt(host)} The section itself began at load average
${figures.loadAtStart} and ended at ${figures.loadAtEnd}: on 2 cores, anything above 2 is other work taking turns with the server.

${render(rows)}
`;
}

function uploadsSection(host: ReturnType<typeof machine>, figures: UploadsFigures, script: string): string {
  const { uploads, report } = figures;
  const growth = figures.rssPeakBytes - figures.rssBeforeBytes;
  const rows: Row[] = [
    {
      what: `server RSS growth with ${CONCURRENT_UPLOADS} uploads of ${UPLOAD_BYTES / 1024 / 1024} MB at once (the disk store): ${mb(figures.rssBeforeBytes)} before, ${mb(figures.rssPeakBytes)} at the peak`,
      measured: mb(growth),
      budget: '≤ 50 MB',
      pass: growth <= 50e6 && uploads.failures === 0,
    },
    {
      what: `one upload among those ${CONCURRENT_UPLOADS}, on loopback (p50 ${ms1(uploads.p50Ms)}, max ${ms1(uploads.maxMs)}${uploads.failures > 0 ? `, ${int(uploads.failures)} failures` : ''})`,
      measured: `p99 ${ms1(uploads.p99Ms)}`,
      budget: '≤ 1 s',
      pass: uploads.p99Ms <= 1000 && uploads.failures === 0,
    },
    {
      what: `the job report PDF of a job with ${REPORT_PHOTOS} photos and their thumbnails`,
      measured: `${(report.bytes / 1024).toFixed(0)} KB`,
      budget: '≤ 2 MB',
      pass: report.bytes <= 2 * 1024 * 1024,
    },
    { what: 'the time to make and download it', measured: ms1(report.ms), budget: '≤ 2 s', pass: report.ms <= 2000 },
  ];
  return `## Photos and signatures

\`scripts/bench/uploads.ts\`: \`${script}\` with \`NODE_ENV=production\`, \`BILLING_MODE=local\`, \`UPLOAD_RATE_LIMIT=0\`, a fresh database
and uploads folder, one operator signed up and one job accepted. Two small uploads warm the route up; then ${CONCURRENT_UPLOADS}
JPEG files of ${UPLOAD_BYTES / 1024 / 1024} MB each are posted to the driver's upload route at once, the server's RSS read from /proc
every 20 ms. A second job gets ${REPORT_PHOTOS} photos of about 300 KB with 15 KB thumbnails, is completed, and its report is
downloaded by the operator. The quote path does not load \`api/proof/\`: the main section's figures are its measure. ${ranAt(host)}

${render(rows)}
`;
}

/** Replaces `## heading`'s section of `doc` (up to the next `## `), or appends it. */
const SECTIONS = [
  'main',
  'backup',
  'large-db',
  'leads',
  'alerts',
  'bookings',
  'dispatch',
  'map',
  'audit',
  'uploads',
  'retention',
  'restore',
  'logs',
  'nearest',
] as const;
type Section = (typeof SECTIONS)[number];

/** `npm run bench -- --against <git-ref>`: this checkout beside another commit; printed and written to its own section. */
async function againstSection(host: ReturnType<typeof machine>, ref: string, rounds: number, linkModules: boolean): Promise<string> {
  const figures = await benchAgainst(ref, rounds, linkModules);
  const table = renderSideBySide(figures);
  console.log(`\n${table}\n`);
  // A section per ref: a run against one commit never overwrites the last run against another,
  // and the hand-kept "Side by side: earlier runs" section is never touched.
  return `## Side by side with ${ref}

\`npm run bench -- --against ${ref}\` (scripts/bench/against.ts): the other commit built in a temporary git worktree,
both production bundles served at once (\`NODE_ENV=production\`, logging at info to /dev/null, \`QUOTE_RATE_LIMIT=0\`, fresh
databases) and measured in alternating slices; a ratio below 100 % (or a p99 above 1×) is this checkout's slowdown.
Run it before merging anything that touches the quote path. ${ranAt(host)}

${table}
`;
}

async function main() {
  const args = process.argv.slice(2);
  // `--against <ref>` or `--against=<ref>`: the ref is not a section name.
  const againstAt = args.indexOf('--against');
  const againstRef = againstAt === -1 ? /^--against=(.+)$/.exec(args.find((a) => a.startsWith('--against=')) ?? '')?.[1] : args[againstAt + 1];
  if (againstAt !== -1) args.splice(againstAt, 2);
  const linkModules = args.includes('--link-modules');
  const options = args.filter((arg) => arg.startsWith('--') && !arg.startsWith('--against=') && arg !== '--link-modules');
  const asked = args.filter((arg) => !arg.startsWith('--'));
  const leadsQuotes = Number(/^--leads-quotes=(\d+)$/.exec(options.find((o) => o.startsWith('--leads-quotes=')) ?? '')?.[1] ?? LARGE_QUOTES);
  const rounds = Number(/^--rounds=(\d+)$/.exec(options.find((o) => o.startsWith('--rounds=')) ?? '')?.[1] ?? AGAINST_ROUNDS);
  const durabilityQuotes = Number(
    /^--durability-quotes=(\d+)$/.exec(options.find((o) => o.startsWith('--durability-quotes=')) ?? '')?.[1] ?? DURABILITY_QUOTES,
  );
  const unknownOptions = options.filter((o) => !/^--(leads-quotes|rounds|durability-quotes)=\d+$/.test(o));
  if (unknownOptions.length > 0 || leadsQuotes < 1 || durabilityQuotes < 1 || rounds < 1 || (againstAt !== -1 && !againstRef)) {
    process.stderr.write(
      `Unknown bench option ${unknownOptions.join(', ')}: the options are --leads-quotes=N and --durability-quotes=N (N ≥ 1), --against <git-ref> and, with it, --rounds=N and --link-modules\n`,
    );
    process.exit(1);
  }
  if (againstRef) {
    const out = path.join(REPO_ROOT, 'docs/benchmarks.md');
    const section = await againstSection(machine(), againstRef, rounds, linkModules);
    writeFileSync(out, withSection(existsSync(out) ? readFileSync(out, 'utf8') : '# Benchmarks\n', section));
    console.log(`Written to ${path.relative(process.cwd(), out)}`);
    return;
  }
  const unknown = asked.filter((name) => !(SECTIONS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown bench section ${unknown.join(', ')}: choose from ${SECTIONS.join(', ')} (none: all)\n`);
    process.exit(1);
  }
  const sections = new Set<Section>(asked.length === 0 ? SECTIONS : (asked as Section[]));
  const host = machine();
  if (sections.has('nearest') && !sections.has('main')) {
    // The main section measures it too; alone it is printed, not written, and needs no build.
    console.log(`\n${render(nearestRows())}\n`);
    sections.delete('nearest');
    if (sections.size === 0) return;
  }
  const out = path.join(REPO_ROOT, 'docs/benchmarks.md');
  const leads = async (doc: string) => {
    console.log(`Lead inbox: filling ${int(leadsQuotes)} quotes…`);
    const section = leadsSection(host, await measureLeads(leadsQuotes));
    console.log(`\n${section}`);
    return withSection(doc, section);
  };
  if (sections.size === 1 && sections.has('leads')) {
    // Server times in process: no build needed.
    writeFileSync(out, await leads(existsSync(out) ? readFileSync(out, 'utf8') : '# Benchmarks\n'));
    console.log(`Written to ${path.relative(process.cwd(), out)}`);
    return;
  }
  const built = ensureBuilt();
  // The production bundle, as `npm start` runs it; the sources only if it could not be built.
  const script = built ? 'dist/server.mjs' : 'api/server.ts';
  if (sections.has('logs') && !sections.has('main')) {
    // The main section measures it too; alone it is printed, not written.
    if (!built) throw new Error('the stalled log reader is measured on the production bundle: npm run build failed');
    console.log(`\n${render(await stalledLogRows())}\n`);
    if (sections.size === 1) return;
  }
  const existing = existsSync(out) ? readFileSync(out, 'utf8') : '# Benchmarks\n';
  // The main section alone rewrites the file's opening part; the other sections are kept.
  let doc = sections.has('main') ? withMainSection(existing, await mainSection(host, built)) : existing;
  // Quotes for every company in turn.
  const requests = acrossCompanies(quoteRequests(CITY_POSTCODES, LARGE_COMPANIES, 3), LARGE_COMPANIES);
  if (sections.has('backup')) {
    console.log('Backup under load: filling a 1 M-quote database…');
    const section = backupSection(host, await measureBackupUnderLoad(script, requests), script);
    console.log(`\n${section}`);
    doc = withSection(doc, section);
  }
  if (sections.has('large-db')) {
    console.log('Quote latency on a large database: filling 5 M quotes…');
    const section = largeDatabaseSection(host, await measureLargeDatabase(script, requests), script);
    console.log(`\n${section}`);
    doc = withSection(doc, section);
  }
  if (sections.has('leads')) doc = await leads(doc);
  if (sections.has('alerts')) {
    console.log('Quotes with alerts on and off, in alternating slices…');
    const section = alertsSection(host, await measureAlerts(script, acrossCompanies(quoteRequests(CITY_POSTCODES, PAIR_COUNT, 4), ALERT_COMPANIES)), script);
    console.log(`\n${section}`);
    doc = withSection(doc, section);
  }
  if (sections.has('bookings')) {
    console.log(`Bookings: the booking request, ${int(STREAMS)} open status streams, quotes beside them…`);
    if (!built) throw new Error('the bookings are measured on the production bundle: npm run build failed');
    const section = bookingsSection(host, await measureBookings(script, quoteRequests(CITY_POSTCODES, PAIR_COUNT, 6)), script);
    console.log(`\n${section}`);
    doc = withSection(doc, section);
  }
  if (sections.has('dispatch')) {
    console.log(`Dispatch: one assignment fanned out to ${int(DISPATCH_STREAMS)} open board and driver streams…`);
    if (!built) throw new Error('the board is measured on the production bundle: npm run build failed');
    const section = dispatchSection(host, await measureDispatch(), await measureBoardRender(script));
    console.log(`\n${section}`);
    doc = withSection(doc, section);
  }
  if (sections.has('map')) {
    console.log(`The status page's map: ${MAP_RUNS} cold loads on a throttled phone, tiles from a fake tile server…`);
    if (!built) throw new Error('the status page is measured on the production bundle: npm run build failed');
    const section = mapSection(host, await measureMapRender(script));
    console.log(`\n${section}`);
    doc = withSection(doc, section);
  }
  if (sections.has('audit')) {
    console.log(`The audit insert: ${int(AUDIT_ROUNDS)} alternating rounds of ${ACCEPT_CONCURRENCY} accepts…`);
    const section = auditSection(host, await measureAudit());
    console.log(`\n${section}`);
    doc = withSection(doc, section);
  }
  if (sections.has('uploads')) {
    console.log(`Photos: ${CONCURRENT_UPLOADS} uploads at once, and the job report…`);
    if (!built) throw new Error('the uploads are measured on the production bundle: npm run build failed');
    const section = uploadsSection(host, await measureUploads(script), script);
    console.log(`\n${section}`);
    doc = withSection(doc, section);
  }
  if (sections.has('retention')) {
    console.log(`Retention backlog under load: filling ${int(durabilityQuotes)} expired quotes…`);
    const section = drainSection(
      host,
      await measureRetentionDrain(script, acrossCompanies(quoteRequests(CITY_POSTCODES, LARGE_COMPANIES, 5), LARGE_COMPANIES), durabilityQuotes),
      script,
    );
    console.log(`\n${section}`);
    doc = withSection(doc, section);
  }
  if (sections.has('restore')) {
    console.log(`Restore: filling ${int(durabilityQuotes)} quotes and replicating them…`);
    const section = restoreSection(
      host,
      await measureRestore(script, acrossCompanies(quoteRequests(CITY_POSTCODES, LARGE_COMPANIES, 6), LARGE_COMPANIES), durabilityQuotes),
      script,
    );
    console.log(`\n${section}`);
    doc = withSection(doc, section);
  }
  writeFileSync(out, doc);
  console.log(`Written to ${path.relative(process.cwd(), out)}`);
}

await main();
