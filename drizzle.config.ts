import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './api/platform/db/schema.ts',
  out: './api/platform/db/migrations',
  strict: true,
});
