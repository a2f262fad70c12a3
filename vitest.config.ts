import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

// `npm test` runs `npm run build` and, only once it has succeeded, Vitest (package.json): then
// dist/ is this very checkout's build, and the size tests weigh it instead of building the widget
// again. npm names the script it runs in npm_lifecycle_event; anything else (npx vitest,
// npm run test:unit) leaves them building their own.
const freshDist = process.env.npm_lifecycle_event === 'test' ? path.join(ROOT, 'dist') : '';

const TEST_FILE = /\.test\.tsx?$/;
const ROOTS = ['api', 'shared', 'widget', 'admin', 'scripts'];
const SKIP = new Set(['node_modules', 'dist']);
/**
 * What a test file does to its process beyond its own objects: replaces a module, a global, an
 * environment variable or the timers, spies on a shared object, or runs in a browser-like
 * environment (jsdom: React, the DOM, Testing Library). Such a file runs in a fresh module
 * graph of its own; every other file shares its worker's, which saves importing the app again
 * for each file (about half the CPU time of the API tests).
 */
const CHANGES_ITS_PROCESS =
  /\bvi\.(mock|doMock|unmock|stubGlobal|stubEnv|useFakeTimers|spyOn|resetModules)\(|@vitest-environment|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|globalThis\.\w+\s*=[^=]/;

/** The test files under `dir`, relative to the repository's root (as `include` takes them). */
function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : testFiles(file);
    return TEST_FILE.test(entry.name) ? [file] : [];
  });
}
const files = ROOTS.flatMap((root) => testFiles(root));
const source = new Map(files.map((file) => [file, readFileSync(path.join(ROOT, file), 'utf8')]));
const changesItsProcess = files.filter((file) => CHANGES_ITS_PROCESS.test(source.get(file)!));
const shared = files.filter((file) => !changesItsProcess.includes(file));
/**
 * The React screens' files (jsdom) run each in a VM context of its own inside a long-lived worker
 * thread (`vmThreads`): a fresh global, DOM and module graph for each file, without starting a
 * worker and Vitest's runner again for it, at about two thirds of the CPU of a thread a file (decision
 * 059). Not a file that replaces `location`: jsdom's is not configurable inside a VM context.
 */
const browserLike = changesItsProcess.filter((file) => {
  const text = source.get(file)!;
  return /@vitest-environment jsdom/.test(text) && !/stubGlobal\(\s*'location'/.test(text);
});
const isolated = changesItsProcess.filter((file) => !browserLike.includes(file));

/**
 * Files that spend much of their time waiting rather than computing: on a child process (a server
 * started, a build, Litestream, a backup) or on a real deadline the code under test keeps (an
 * unreachable provider's timeout, a grace period).
 */
const WAITS_ON_A_PROCESS = /spawnServer|node:child_process|viteBuild|litestream/i;
const WAITS_ON_A_DEADLINE = new Set([
  'api/billing/stripe.test.ts',
  'api/mail/worker.test.ts',
  'api/vehicles/routes.test.ts',
  'api/quotes/routes.test.ts',
  'api/engine/distance/distance.test.ts',
  'admin/src/pages/subscription/SubscriptionSuccessPage.test.tsx',
]);
const waits = (file: string) => WAITS_ON_A_DEADLINE.has(file) || WAITS_ON_A_PROCESS.test(source.get(file) ?? '');

/**
 * The same order on every machine, whatever Vitest has cached: the projects in PROJECT_ORDER
 * (each project's workers are started once), and in each, the files that wait
 * first, then the larger before the smaller. `npm test` runs this suite beside the browser
 * journeys, which use the CPU a waiting file leaves; what runs after the journeys have ended
 * computes on both cores until the end, with no long file left alone at the end.
 * Vitest's own order puts files it has timed longest first, and files it has not (a fresh clone:
 * CI) by size alone, so a waiting file could run last, with a core idle (decision 059).
 */
const PROJECT_ORDER = ['shared', 'isolated', 'browser'];

class WaitingFirst extends BaseSequencer {
  override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const file = path.relative(ROOT, spec.moduleId);
      return [PROJECT_ORDER.indexOf(spec.project.name), waits(file) ? 0 : 1, -statSync(spec.moduleId).size];
    };
    const ranks = new Map(specs.map((spec) => [spec, rank(spec)]));
    return [...specs].sort((a, b) => {
      const [x, y] = [ranks.get(a)!, ranks.get(b)!];
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
    });
  }
}

const common = {
  // Migrates the template database the harness copies once for the whole run, and hashes the
  // operator factory's password once (api/test/global-setup.ts).
  globalSetup: ['./api/test/global-setup.ts'],
  provide: { freshDist },
  // The servers the process tests start (scripts/bench/server-process.ts) run that same build.
  env: freshDist ? { TEST_SERVER_SCRIPT: 'dist/server.mjs' } : {},
  setupFiles: ['./vitest.setup.ts'],
  pool: 'forks' as const,
  // A limit for a test that hangs, not a speed check: a loaded machine (the suite beside other
  // work) takes many times a quiet one's time to start a server process.
  testTimeout: 60_000,
};

export default defineConfig({
  test: {
    root: ROOT,
    // Both cores of the 2-core CI runner (Vitest's default leaves one idle).
    maxWorkers: 2,
    sequence: { sequencer: WaitingFirst },
    projects: [
      { test: { ...common, name: 'shared', include: shared, isolate: false } },
      // A worker thread a file, not a child process: the same fresh module graph at about a tenth less CPU
      // (no process to start and no IPC), and process.env is still each file's own copy.
      { test: { ...common, name: 'isolated', include: isolated, isolate: true, pool: 'threads' } },
      { test: { ...common, name: 'browser', include: browserLike, isolate: true, pool: 'vmThreads' } },
    ],
  },
});
