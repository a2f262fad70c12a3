// Runs `vite build` for one of the repo's Vite configs in a child process, so a test can build
// into its own temporary directory with the environment it wants (NODE_ENV included) without
// touching dist/ or the test worker's own process.env.
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const viteBin = path.join(root, 'node_modules/vite/bin/vite.js');

/** Builds `config` (e.g. 'vite.widget.config.ts') into a new temporary directory and returns it. */
export async function viteBuild(config: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'recovery-quote-build-'));
  await promisify(execFile)(process.execPath, [viteBin, 'build', '-c', config, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: root,
    env,
    timeout: 120_000,
  });
  return outDir;
}

/**
 * The build a size test weighs: `fresh` (the one `npm test` has just made, vitest.config.ts's
 * `freshDist`) when given, else `config` built into a temporary directory, which is pushed onto
 * `made` for the caller to remove.
 */
export async function freshOrBuilt(config: string, fresh: string, made: string[]): Promise<string> {
  if (fresh) return fresh;
  const dir = await viteBuild(config);
  made.push(dir);
  return dir;
}
