// `npm run build` makes production bundles whatever NODE_ENV says (docs/product.md §18): with
// NODE_ENV=development in the environment Vite used to emit development JSX (jsxDEV) against
// React's production runtime, and widget.js threw `jsxDEV is not a function` in the browser.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { viteBuild } from './vite-build';

const outDirs: string[] = [];
afterAll(() => {
  for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
});

/** Every JavaScript file a build wrote, read into one string. */
function builtJs(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .join('\n');
}

describe.each(['vite.widget.config.ts', 'vite.admin.config.ts'])('%s built with NODE_ENV=development', (config) => {
  it('holds production JSX only', { timeout: 120_000 }, async () => {
    const outDir = await viteBuild(config, { ...process.env, NODE_ENV: 'development' });
    outDirs.push(outDir);
    const js = builtJs(outDir);
    expect(js.length).toBeGreaterThan(10_000);
    // The matches, not the whole bundle, are what a failure should print.
    expect(js.match(/jsxDEV|react-jsx-dev-runtime/g) ?? []).toEqual([]);
  });
});
