// The production image without Docker (docs/deploy.md): the files the Dockerfile's runtime stage
// copies, production dependencies only, started as its CMD starts them, must answer a quote.
// Docker cannot run where the tests run, so this test does the runtime stage's steps on a
// temporary folder: it copies the paths of its `COPY --from=build` lines, and stands in for its
// `npm ci --omit=dev` (a download, and ~100 s compiling better-sqlite3) with a hard-link copy of
// the installed node_modules pruned to the same lockfile's production tree, offline. A file the
// bundle reads at run time but the image lacks, or a runtime import of a dev dependency, fails here.
// It starts dist/server.mjs, which `npm test` builds first, as api/server.test.ts does.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH } from '#shared/reference';
import { demoQuoteJson } from '../scripts/bench/demo-quote';
import { REPO_ROOT, spawnServer, startScriptNodeFlags, type ServerProcess } from '../scripts/bench/server-process';

interface Stage {
  name: string;
  lines: string[];
}

/** The Dockerfile's stages, each with its instructions (continuation lines joined). */
function stages(dockerfile: string): Stage[] {
  const instructions = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const found: Stage[] = [];
  for (const line of instructions) {
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?$/i.exec(line);
    if (from) found.push({ name: from[1] ?? String(found.length), lines: [] });
    else found.at(-1)?.lines.push(line);
  }
  return found;
}

const dockerfile = stages(readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8'));
const stage = (name: string) => {
  const found = dockerfile.find((s) => s.name === name);
  if (!found) throw new Error(`the Dockerfile has no stage named ${name}`);
  return found;
};
const runtime = stage('runtime');

/** What the runtime stage copies from the build stage: paths inside the app, as the build stage has them. */
const builtPaths = runtime.lines.flatMap((line) => {
  const copy = /^COPY\s+--from=build\s+\/app\/(\S+)\s+\.\/(\S+)$/.exec(line);
  if (!copy) return [];
  if (copy[1] !== copy[2]) throw new Error(`the runtime stage moves ${copy[1]} to ${copy[2]}: keep each path where it was built`);
  return [copy[1]];
});
const command = JSON.parse(
  runtime.lines
    .find((line) => line.startsWith('CMD '))
    ?.slice(4)
    .trim() ?? '[]',
) as string[];

describe('the Dockerfile', () => {
  it('runs the bundle with npm start’s node flags, as NODE_ENV=production, from a volume, as a user', () => {
    expect(command).toEqual(['node', ...startScriptNodeFlags(), 'dist/server.mjs']);
    expect(runtime.lines.some((line) => /^ENV\b.*\bNODE_ENV=production\b/.test(line))).toBe(true);
    expect(runtime.lines.some((line) => /^ENV\b.*\bDATABASE_PATH=\/data\//.test(line))).toBe(true);
    expect(runtime.lines).toContain('VOLUME ["/data"]');
    expect(runtime.lines).toContain('USER node');
    expect(runtime.lines.some((line) => line.startsWith('HEALTHCHECK ') && line.includes('/healthz'))).toBe(true);
  });

  it('builds with npm ci and npm run build, and takes node_modules from a production-only npm ci', () => {
    expect(stage('build').lines).toEqual(expect.arrayContaining([expect.stringMatching(/^RUN npm ci\b(?!.*--omit)/), 'RUN npm run build']));
    expect(stage('prod-deps').lines.some((line) => /^RUN npm ci --omit=dev\b/.test(line))).toBe(true);
    expect(runtime.lines).toContain('COPY --from=prod-deps /app/node_modules ./node_modules');
    expect(builtPaths).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'dist']));
  });
});

describe('the production bundle with production dependencies only', () => {
  let app: string | undefined;
  let server: ServerProcess | undefined;
  // Tens of thousands of links to remove: seconds on a loaded machine.
  afterAll(async () => {
    await server?.stop(1000);
    if (app) rmSync(app, { recursive: true, force: true });
  }, 120_000);

  it('starts and answers a quote', { timeout: 90_000 }, async () => {
    if (!existsSync(path.join(REPO_ROOT, 'dist/server.mjs')))
      throw new Error('dist/server.mjs is missing: `npm run build` makes it (`npm test` runs it first)');
    app = mkdtempSync(path.join(tmpdir(), 'recovery-image-'));
    for (const relative of builtPaths) cpSync(path.join(REPO_ROOT, relative), path.join(app, relative), { recursive: true });

    // Hard links: no byte copied, and pruning only unlinks. The one file npm rewrites in place,
    // its record of the installed tree, is copied for real so the shared original is never touched.
    const installed = realpathSync(path.join(REPO_ROOT, 'node_modules'));
    try {
      execFileSync('cp', ['-al', installed, path.join(app, 'node_modules')], { stdio: 'pipe' });
    } catch {
      // The temporary folder is on another filesystem, which hard links cannot cross: a real copy, slower, the same tree.
      rmSync(path.join(app, 'node_modules'), { recursive: true, force: true });
      execFileSync('cp', ['-a', installed, path.join(app, 'node_modules')], { stdio: 'pipe' });
    }
    const record = path.join(app, 'node_modules/.package-lock.json');
    unlinkSync(record);
    copyFileSync(path.join(installed, '.package-lock.json'), record);
    execFileSync('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund', '--offline'], { cwd: app, stdio: 'pipe' });
    // The dev dependencies are gone (those the bundle could reach by mistake among them), the production ones stay.
    for (const dev of ['tsx', 'vitest', 'esbuild', 'vite', 'drizzle-kit']) expect(existsSync(path.join(app, 'node_modules', dev))).toBe(false);
    for (const prod of ['better-sqlite3', 'hono', '@flydotio/litestream']) expect(existsSync(path.join(app, 'node_modules', prod))).toBe(true);

    server = await spawnServer({
      root: app,
      script: 'dist/server.mjs',
      databasePath: path.join(app, 'data/recovery.db'),
      readyTimeoutMs: 60_000,
      env: { NODE_ENV: 'production', BILLING_MODE: 'local', SESSION_SECRET: 'production-image-test-production-image-test' },
    });
    const res = await fetch(`${server.url}/api/quotes/calculate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: demoQuoteJson('SW1A 1AA', 'M1 1AE'),
    });
    const body = (await res.json()) as { quoteId?: unknown; totalPrice?: unknown };
    expect(res.status, JSON.stringify(body)).toBe(200);
    // Its reference (shown as TQ-{quoteId}): the row was stored, through the migrations the image carries.
    expect(body.quoteId).toEqual(expect.stringMatching(new RegExp(`^[${REFERENCE_ALPHABET}]{${REFERENCE_LENGTH}}$`)));
    expect(body.totalPrice).toEqual(expect.any(Number));
    // The front ends the image serves came with dist/.
    const widget = await fetch(`${server.url}/widget.js`);
    await widget.arrayBuffer();
    expect(widget.status).toBe(200);
    expect(await server.stop()).toBe(0);
  });
});
