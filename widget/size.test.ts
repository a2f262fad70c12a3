// Size is a feature (docs/style.md #11): widget.js must stay within its gzip budget. The test builds
// the widget itself into a temporary directory, so it neither skips without a build nor weighs a
// stale dist/ left over from before the last source change.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { viteBuild } from '../scripts/vite-build';
import { WIDGET_BUDGET_BYTES, widgetGzipBytes } from '../scripts/widget-size';

let outDir: string | undefined;
afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

it('widget.js is at most 85 KB gzip', { timeout: 120_000 }, async () => {
  outDir = await viteBuild('vite.widget.config.ts');
  expect(widgetGzipBytes(path.join(outDir, 'widget.js'))).toBeLessThanOrEqual(WIDGET_BUDGET_BYTES);
});
