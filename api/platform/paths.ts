// Where the repository's files are, whether the server runs from source (tsx, api/*.ts) or from
// the production bundle (dist/server.mjs): both resolve from the folder holding package.json.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${start}`);
  }
}

export const REPO_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));
export const DIST = path.join(REPO_ROOT, 'dist');
export const MIGRATIONS_DIR = path.join(REPO_ROOT, 'api', 'platform', 'db', 'migrations');
export const POSTCODES_FILE = path.join(REPO_ROOT, 'api', 'engine', 'distance', 'data', 'postcodes.bin');
