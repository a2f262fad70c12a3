// The status page's map (docs/budgets.md "The status page's map"): Leaflet and its stylesheet are
// the JobMap chunk's alone, fetched by the status page only when it has a driver's position to
// show (a dynamic import: JobPage.test.tsx shows no map without one), never with the first load
// every page pays or the status page's own code, which carries no validation library either.
// widget.js carries none of it (widget/size.test.ts). Under `npm test` it reads the build that
// command has just made; run any other way it builds the admin into a temporary directory of its
// own. Sizes and names only, never timings.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { adminFirstLoadJs, MAP_CHUNK_BUDGET_BYTES, routeJs } from '../scripts/bench/sizes';
import { freshOrBuilt } from '../scripts/vite-build';

/** Strings of Leaflet's own that survive minification: its id stamp and an error message. */
const LEAFLET_MARKS = ['_leaflet_id', 'Invalid LatLng object'];
/** Whether `code` holds any of Leaflet's marks (a boolean: a failure does not print a whole bundle). */
const hasLeaflet = (code: string) => LEAFLET_MARKS.some((mark) => code.includes(mark));

const outDirs: string[] = [];
afterAll(() => {
  for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
});

let built: Promise<string> | undefined;
/** The admin build: `npm test`'s own, else one made once for this file's tests. */
function adminBuild(): Promise<string> {
  const fresh = inject('freshDist');
  built ??= freshOrBuilt('vite.admin.config.ts', fresh && path.join(fresh, 'admin'), outDirs);
  return built;
}

it('the map is its own chunk, fetched by the status page by a dynamic import only, and in no first-load or status-page code', {
  timeout: 180_000,
}, async () => {
  const adminDir = await adminBuild();
  const read = (url: string) => readFileSync(path.join(adminDir, url), 'utf8');
  const assets = readdirSync(path.join(adminDir, 'assets'));

  const map = routeJs('JobMap', adminDir);
  const mapCode = map.urls.map(read).join('\n');
  expect(LEAFLET_MARKS.every((mark) => mapCode.includes(mark))).toBe(true);
  expect(map.gzipBytes).toBeLessThanOrEqual(MAP_CHUNK_BUDGET_BYTES);
  // Its stylesheet is a file of its own too, not in the app's.
  const mapCss = assets.filter((f) => f.startsWith('JobMap-') && f.endsWith('.css'));
  expect(mapCss).toHaveLength(1);
  expect(readFileSync(path.join(adminDir, 'assets', mapCss[0]!), 'utf8').includes('.leaflet-tile-pane')).toBe(true);

  // The status page's own code names the map's chunk only inside import(): fetched when used.
  const job = routeJs('JobPage', adminDir);
  const jobCode = job.urls.map(read).join('\n');
  const mapFile = path.basename(map.urls[0]!);
  expect(['"', "'", '`'].some((quote) => jobCode.includes(`import(${quote}./${mapFile}${quote})`))).toBe(true);
  expect(job.urls.map((u) => path.basename(u))).not.toContain(mapFile);

  // Neither the status page nor what every page loads first carries Leaflet or its stylesheet.
  const firstLoad = adminFirstLoadJs(path.join(adminDir, 'index.html'));
  const appCss = assets.filter((f) => f.endsWith('.css') && !f.startsWith('JobMap-'));
  expect(hasLeaflet(jobCode)).toBe(false);
  // Nor a validation library or the phone number library's metadata: it shows a job, it sends no form
  // (the proof's words and a payment's sums come from modules without zod).
  for (const absent of ['ZodError', 'country_calling_codes']) expect(jobCode.includes(absent)).toBe(false);
  expect(hasLeaflet(firstLoad.urls.map(read).join('\n'))).toBe(false);
  for (const css of appCss) expect(readFileSync(path.join(adminDir, 'assets', css), 'utf8').includes('.leaflet-')).toBe(false);
});

// The pay link's QR code (docs/product.md §22): the portal's Jobs card (in the Quotes tab) loads
// the component and the QR library only when a completed job's link is out; its words come from a
// module without either.
it('the Quotes tab names the pay link QR code chunk only inside import(), and carries no QR library', { timeout: 180_000 }, async () => {
  const adminDir = await adminBuild();
  const read = (url: string) => readFileSync(path.join(adminDir, url), 'utf8');
  const qr = routeJs('PayLinkCode', adminDir);
  /** A message of the qrcode library's own that survives minification. */
  const QR_MARK = '"version" cannot be null or undefined';
  expect(qr.urls.map(read).join('\n').includes(QR_MARK)).toBe(true);
  const quotes = routeJs('QuotesTab', adminDir);
  const qrFile = path.basename(qr.urls[0]!);
  const quotesCode = quotes.urls.map(read).join('\n');
  expect(['"', "'", '`'].some((quote) => quotesCode.includes(`import(${quote}./${qrFile}${quote})`))).toBe(true);
  expect(quotes.urls.map((u) => path.basename(u))).not.toContain(qrFile);
  expect(quotesCode.includes(QR_MARK)).toBe(false);
});
