// `npm ci` refuses a lock file that leaves out any optional dependency of a locked package, even
// one for another platform that would never be installed. This registry mirror serves only the
// packages for this machine's platform, so `npm install` here writes such a lock file without a
// word, and a clean install in CI then stops before a single test runs. The entries for the other
// platforms are written by hand (version, os, cpu; npm skips them by platform and never fetches
// them); this test keeps them there.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface LockedPackage {
  version?: string;
  optionalDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
}

it('the lock file holds every dependency and optional dependency of every locked package', () => {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockedPackage>;
  };
  const missing: string[] = [];
  for (const [where, locked] of Object.entries(lock.packages)) {
    for (const name of Object.keys({ ...locked.dependencies, ...locked.optionalDependencies })) {
      // Node's resolution: the package's own node_modules, then each enclosing one, then the top.
      let base = where;
      let found = false;
      for (;;) {
        const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
        if (lock.packages[candidate]) {
          found = true;
          break;
        }
        if (!base) break;
        const cut = base.lastIndexOf('/node_modules/');
        base = cut === -1 ? '' : base.slice(0, cut);
      }
      if (!found) missing.push(`${where || '(root)'} → ${name}`);
    }
  }
  expect(missing).toEqual([]);
});
