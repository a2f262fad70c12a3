// A test fails if it logs console.error unexpectedly (docs/style.md #16): an error logged but
// swallowed is a bug that no assertion caught.
import { afterEach, beforeEach, vi } from 'vitest';

let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (errors.length > 0) {
    const first = errors[0].map((a) => (a instanceof Error ? a.stack : String(a))).join(' ');
    throw new Error(`console.error was called ${errors.length} time(s): ${first}`);
  }
});

// In a browser-like environment (jsdom), findBy… and waitFor give a screen up to 5 s, not Testing
// Library's 1 s: `npm test` runs Vitest beside the browser journeys, and on a busy 2-core machine a
// re-render can take longer than a second. A screen that never appears still fails.
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 5000 });
}
