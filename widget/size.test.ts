// Size is a feature (docs/style.md #11): widget.js must stay within its gzip budget. Under `npm test`
// the test weighs the build that command has just made (dist/, passed as `freshDist` by
// vitest.config.ts); run any other way it builds the widget itself into a temporary directory, so
// it neither skips without a build nor weighs a stale dist/ left over from before the last source change. The number plate look-up and the
// booking form are built beside it (widget-vehicle.js, widget-booking.js) and must stay out of
// widget.js: only their loaders are in there.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, expect, inject, it } from 'vitest';
import { viteBuild } from '../scripts/vite-build';
import { BOOKING_CHUNK_BUDGET_BYTES, WIDGET_BUDGET_BYTES, widgetGzipBytes } from '../scripts/widget-size';

const outDirs: string[] = [];
afterAll(() => {
  for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
});

/** The directory holding `config`'s build: `npm test`'s own dist/widget, or a build of its own. */
async function built(config: string): Promise<string> {
  const fresh = inject('freshDist');
  if (fresh) return path.join(fresh, 'widget');
  const outDir = await viteBuild(config);
  outDirs.push(outDir);
  return outDir;
}

it('widget.js is at most 85 KB gzip', { timeout: 120_000 }, async () => {
  const outDir = await built('vite.widget.config.ts');
  const widget = readFileSync(path.join(outDir, 'widget.js'), 'utf8');
  expect(widgetGzipBytes(path.join(outDir, 'widget.js'))).toBeLessThanOrEqual(WIDGET_BUDGET_BYTES);
  // Loaded lazily: the look-up's words and its request are not in widget.js.
  expect(widget).toContain('widget-vehicle.js');
  expect(widget).not.toContain('We think this is');
  expect(widget).not.toMatch(/\.vehicles\.lookup\b/);
  expect(widget).toContain('widget-booking.js');
  expect(widget).not.toContain('Send booking');
  expect(widget).not.toMatch(/\.bookings\.\$post\b/);
  // The status page's map (Leaflet) is the admin's JobMap chunk alone (admin/map-chunk.test.ts): none of it here.
  expect(widget).not.toContain('leaflet');
});

it('widget-vehicle.js, the number plate look-up, is at most 2 KB gzip and carries no React of its own', { timeout: 120_000 }, async () => {
  const outDir = await built('vite.widget-vehicle.config.ts');
  const chunk = readFileSync(path.join(outDir, 'widget-vehicle.js'), 'utf8');
  expect(chunk).toContain('We think this is');
  // The typed client walks the contract's path: its segments, not a literal path.
  expect(chunk).toMatch(/\.vehicles\.lookup\.\$post\b/);
  expect(chunk).not.toContain('useState');
  expect(gzipSync(chunk, { level: 9 }).length).toBeLessThanOrEqual(2000);
});

it('widget-booking.js, the booking form, is at most 25 KB gzip and carries no React of its own', { timeout: 120_000 }, async () => {
  const outDir = await built('vite.widget-booking.config.ts');
  const chunk = readFileSync(path.join(outDir, 'widget-booking.js'), 'utf8');
  expect(chunk).toContain('Send booking');
  expect(chunk).toMatch(/\.bookings\.\$post\b/);
  // The widget's React runs its hooks: a second React would hold its own (and break them).
  expect(chunk).not.toContain('__CLIENT_INTERNALS');
  expect(gzipSync(chunk, { level: 9 }).length).toBeLessThanOrEqual(BOOKING_CHUNK_BUDGET_BYTES);
});
