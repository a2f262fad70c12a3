// `npm test`: every check the repository has, each started as soon as what it needs is done, so
// the two cores of a CI runner are both kept busy. The typecheck and the linter need nothing; the
// Vitest suite and the browser journeys need the build (the size tests weigh dist/, the journeys
// run dist/server.mjs). Run side by side, each one's output is held and printed whole when it
// ends, under its name and time, and the command fails if any of them failed (after all ended,
// so every failure is shown at once).
//
// `--serial` runs them one after another in the order below, with their output as it comes: for
// reading one failure on a quiet machine, or to compare.
import { spawn } from 'node:child_process';
import path from 'node:path';

interface Step {
  name: string;
  command: string;
  args: string[];
  /** The steps that must have passed before this one starts. */
  after: string[];
}

// The packages' own binaries, not npx: npx would set npm_lifecycle_event to its own name, and
// vitest.config.ts reads `test` there to weigh this run's build rather than make its own.
const bin = (name: string) => path.join('node_modules', '.bin', name);

const STEPS: Step[] = [
  { name: 'lint', command: bin('biome'), args: ['check', '.'], after: [] },
  // TypeScript 7, the compiler rewritten in Go, on one thread: the same checks at a fifth of 5.9's
  // CPU; its checker threads would only take turns with the steps beside it
  // (docs/decisions/057-test-time.md). Editors and openapi-typescript keep the `typescript` package.
  {
    name: 'typecheck',
    command: process.execPath,
    args: [path.join('node_modules', 'typescript-native', 'bin', 'tsc'), '--noEmit', '--singleThreaded'],
    after: [],
  },
  { name: 'build', command: 'npm', args: ['run', '--silent', 'build'], after: [] },
  { name: 'vitest', command: bin('vitest'), args: ['run'], after: ['build'] },
  { name: 'playwright', command: bin('playwright'), args: ['test'], after: ['build'] },
];

const serial = process.argv.includes('--serial');
const started = Date.now();
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function run(step: Step): Promise<boolean> {
  const begun = Date.now();
  console.log(`▶ ${step.name} (at ${seconds(begun - started)})`);
  return new Promise((resolve) => {
    // Held output: one Buffer per chunk, in the order written, stdout and stderr together.
    const held: Buffer[] = [];
    const child = spawn(step.command, step.args, {
      stdio: serial ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0') },
    });
    child.stdout?.on('data', (chunk: Buffer) => held.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => held.push(chunk));
    child.on('error', (error) => held.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => {
      const ok = code === 0;
      const took = seconds(Date.now() - begun);
      if (held.length > 0) {
        console.log(`\n──── ${step.name} ────`);
        process.stdout.write(Buffer.concat(held));
      }
      console.log(`${ok ? '✔' : '✘'} ${step.name}: ${ok ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${took}`);
      resolve(ok);
    });
  });
}

async function runAll(): Promise<Map<string, boolean>> {
  const results = new Map<string, boolean>();
  if (serial) {
    for (const step of STEPS) {
      const blocked = step.after.some((name) => results.get(name) !== true);
      results.set(step.name, !blocked && (await run(step)));
    }
    return results;
  }
  const done = new Map<string, Promise<boolean>>();
  const start = (step: Step): Promise<boolean> => {
    let promise = done.get(step.name);
    if (!promise) {
      promise = Promise.all(step.after.map((name) => start(STEPS.find((s) => s.name === name)!))).then((passed) => {
        if (passed.every(Boolean)) return run(step);
        console.log(`✘ ${step.name}: not run, as ${step.after.join(' and ')} did not pass`);
        return false;
      });
      done.set(step.name, promise);
    }
    return promise;
  };
  await Promise.all(STEPS.map(async (step) => results.set(step.name, await start(step))));
  return results;
}

const results = await runAll();
const failed = STEPS.filter((step) => results.get(step.name) !== true).map((step) => step.name);
console.log(`\n${failed.length === 0 ? 'All checks passed' : `Failed: ${failed.join(', ')}`} in ${seconds(Date.now() - started)}`);
process.exitCode = failed.length === 0 ? 0 : 1;
