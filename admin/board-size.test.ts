// The dispatch board's own JavaScript (docs/budgets.md "Dispatch"): what opening /dashboard/board
// costs beyond the first load that every page pays. The board's first screen draws cards; the
// forms of the portal (the password's, the trucks', the settings') and the validation library
// behind them come later, when used. Under `npm test` it weighs the build that command has just
// made; run any other way it builds the admin into a temporary directory of its own.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { BOARD_ROUTE_BUDGET_BYTES, routeJs } from '../scripts/bench/sizes';
import { freshOrBuilt } from '../scripts/vite-build';

// The budget: 55 KB (123 KB in 18 files when the password form and its library came with every portal page).
const outDirs: string[] = [];
afterAll(() => {
  for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
});

it(`the board route loads at most ${BOARD_ROUTE_BUDGET_BYTES / 1000} KB gzip of its own JavaScript, and no form or validation library`, {
  timeout: 180_000,
}, async () => {
  const fresh = inject('freshDist');
  const adminDir = await freshOrBuilt('vite.admin.config.ts', fresh && path.join(fresh, 'admin'), outDirs);
  const route = routeJs('BoardPage', adminDir);
  expect(route.gzipBytes).toBeLessThanOrEqual(BOARD_ROUTE_BUDGET_BYTES);
  const code = route.urls.map((url) => readFileSync(path.join(adminDir, url), 'utf8')).join('\n');
  // The board's own words are there; the lazy parts are fetched by name, not carried.
  expect(code).toContain('Dispatch board');
  expect(code).toMatch(/TrucksCard-[\w-]+\.js/);
  expect(code).toMatch(/ChangePasswordDialog-[\w-]+\.js/);
  // zod's classes, the phone number library's metadata, react-hook-form, the password form.
  for (const absent of ['ZodError', 'country_calling_codes', 'shouldUnregister', 'currentPassword']) expect(code).not.toContain(absent);
});
