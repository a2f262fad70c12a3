// Size is a feature (STYLE.md #11): widget.js must stay within its gzip budget. This test builds
// nothing: `npm test` builds first; run on its own without a build, it has nothing to measure.
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { WIDGET_BUDGET_BYTES, WIDGET_FILE, widgetGzipBytes } from '../scripts/widget-size';

it.skipIf(!existsSync(WIDGET_FILE))(`${WIDGET_FILE} is at most 85 KB gzip`, () => {
  expect(widgetGzipBytes()).toBeLessThanOrEqual(WIDGET_BUDGET_BYTES);
});
