// The operator SPA (landing, auth, Driver Portal, billing screens). Routes are lazy chunks so
// the landing page ships only what it renders (docs/budgets.md: first load ≤ 200 KB gzip).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressAssets } from './scripts/vite-precompress';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig(({ command }) => {
  // A build is a production build whatever NODE_ENV says (why: vite.widget.config.ts).
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root: path.join(here, 'admin'),
    base: '/',
    // Each script and stylesheet also brotli- and gzip-compressed beside it, for the app to send (scripts/vite-precompress.ts).
    plugins: [react(), tailwindcss(), precompressAssets()],
    build: {
      outDir: path.join(here, 'dist/admin'),
      emptyOutDir: true,
      sourcemap: false,
      // dist/admin/.vite/manifest.json: the server preloads a screen's chunks from the page it
      // serves for that screen's path (api/platform/http/screen-preloads.ts). Not served itself.
      manifest: true,
    },
    server: {
      // `vite -c vite.admin.config.ts` during development talks to `npm run dev` on :3000.
      proxy: { '/api': 'http://localhost:3000', '/company': 'http://localhost:3000' },
    },
  };
});
