// A Vite plugin for the admin build: beside every script and stylesheet of dist/admin/assets it
// writes the file brotli-compressed (`.br`) and gzipped (`.gz`), once at build time, for
// api/app.ts's static handler to send to a browser that accepts them (serveStatic's
// `precompressed`). Nothing in front of the app compresses them (deploy/Caddyfile has no `encode`,
// for the live streams' sake), and a phone on a slow network otherwise downloads every script at
// about three times its size (docs/budgets.md "The status page's map"). Node's own zlib: no
// library needed, and nothing is compressed per request.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** What is worth compressing: text assets over a kilobyte (below that, headers outweigh the saving). */
const COMPRESSIBLE = /\.(js|css|svg|json)$/;
const MIN_BYTES = 1024;

export function precompressAssets(): Plugin {
  return {
    name: 'recovery-quote:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? '';
      for (const [fileName, output] of Object.entries(bundle)) {
        if (!COMPRESSIBLE.test(fileName)) continue;
        const source = output.type === 'chunk' ? output.code : output.source;
        const bytes = typeof source === 'string' ? Buffer.from(source) : Buffer.from(source);
        if (bytes.length < MIN_BYTES) continue;
        const file = path.join(outDir, fileName);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
        );
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}
