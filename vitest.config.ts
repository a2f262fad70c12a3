import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['api/**/*.test.ts', 'shared/**/*.test.ts', 'widget/**/*.test.{ts,tsx}', 'admin/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'e2e/**', '**/*.pw.ts'],
    setupFiles: ['./vitest.setup.ts'],
    pool: 'forks',
    testTimeout: 20000,
  },
});
