// drizzle-kit generates the next migration from the difference between schema.ts and the newest
// snapshot in migrations/meta: when that snapshot is the schema as it stands, a schema change
// generates exactly its own migration (docs/architecture.md §9). Run on a copy of the migrations,
// so the checkout is never written to.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MIGRATIONS = path.join(ROOT, 'api/platform/db/migrations');
const work = mkdtempSync(path.join(tmpdir(), 'drizzle-generate-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('drizzle-kit generate on a clean checkout', () => {
  it('finds the schema and the newest snapshot the same, so it writes no migration', () => {
    const out = path.join(work, 'migrations');
    cpSync(MIGRATIONS, out, { recursive: true });
    const config = path.join(work, 'drizzle.config.json');
    writeFileSync(config, JSON.stringify({ dialect: 'sqlite', schema: path.join(ROOT, 'api/platform/db/schema.ts'), out: 'migrations', strict: true }));
    const before = readdirSync(out).sort();
    const run = spawnSync(path.join(ROOT, 'node_modules/.bin/drizzle-kit'), ['generate', '--config', config, '--name', 'unexpected'], {
      // drizzle-kit reads `out` relative to where it runs.
      cwd: work,
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(readdirSync(out).sort()).toEqual(before);
    expect(`${run.stdout}${run.stderr}`).toContain('No schema changes');
  }, 60_000);
});
