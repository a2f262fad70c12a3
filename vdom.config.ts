import { readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { defineConfig } from 'vitest/config';
const ROOT = '/work/wt-speed';
const files = execSync("grep -rlE '@vitest-environment' --include=*.test.ts --include=*.test.tsx api shared widget admin scripts", { cwd: ROOT, encoding: 'utf8' }).trim().split('\n');
const mocking = files.filter((f) => /vi\.(mock|doMock|resetModules)\(/.test(readFileSync(`${ROOT}/${f}`, 'utf8')));
const plain = files.filter((f) => !mocking.includes(f));
const isolate = process.env.ISO === '1';
export default defineConfig({
  test: {
    root: ROOT,
    maxWorkers: 2,
    projects: [
      { test: { name: 'dom', include: plain, isolate, setupFiles: ['./vitest.setup.ts'], pool: 'forks', testTimeout: 8000, unstubGlobals: true } },
    ],
  },
});
