// Prints the gzip size of the built widget against its budget (docs/budgets.md).
// Usage: npm run build (or vite build -c vite.widget.config.ts), then tsx scripts/widget-size.ts
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export const WIDGET_FILE = 'dist/widget/widget.js';
/** 85 KB, counted in bytes of 1,000 (the stricter reading). */
export const WIDGET_BUDGET_BYTES = 85_000;
/** The booking form's own file (widget-booking.js), loaded only when asked for: 25 KB likewise. */
export const BOOKING_CHUNK_BUDGET_BYTES = 25_000;

export function widgetGzipBytes(file = WIDGET_FILE): number {
  // Level 9, as a CDN or a pre-compressing server would send it.
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!existsSync(WIDGET_FILE)) {
    console.error(`${WIDGET_FILE} not found: run "vite build -c vite.widget.config.ts" first.`);
    process.exit(1);
  }
  const bytes = widgetGzipBytes();
  const raw = readFileSync(WIDGET_FILE).length;
  const kb = (n: number) => (n / 1000).toFixed(1);
  console.log(`${WIDGET_FILE}: ${kb(raw)} KB raw, ${kb(bytes)} KB gzip (budget ${kb(WIDGET_BUDGET_BYTES)} KB, ${kb(WIDGET_BUDGET_BYTES - bytes)} KB to spare)`);
  if (bytes > WIDGET_BUDGET_BYTES) process.exit(1);
}
