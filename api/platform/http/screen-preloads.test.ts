// A screen's chunks preloaded by its page (decision 056): from the admin build's manifest, less
// what index.html loads already; and the board's page as the server sends it.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness';
import { screenPreloads } from './screen-preloads';

const INDEX =
  '<head><script type="module" crossorigin src="/assets/index-1.js"></script><link rel="modulepreload" crossorigin href="/assets/react-3.js"></head>';

describe('screenPreloads', () => {
  it('lists the screen’s chunk and its static imports, each once, less those the page loads already', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'screen-preloads-'));
    mkdirSync(path.join(dir, '.vite'));
    writeFileSync(
      path.join(dir, '.vite', 'manifest.json'),
      JSON.stringify({
        'src/Board.tsx': { file: 'assets/Board-1.js', imports: ['_shared.js', '_react.js'], dynamicImports: ['src/Trucks.tsx'] },
        '_shared.js': { file: 'assets/shared-2.js', imports: ['_react.js', '_shared.js'] },
        '_react.js': { file: 'assets/react-3.js' },
        'src/Trucks.tsx': { file: 'assets/Trucks-4.js' },
      }),
    );
    const tags = screenPreloads(dir, INDEX, { '/board': 'src/Board.tsx', '/gone': 'src/Gone.tsx' });
    expect(tags.get('/board')).toBe(
      '<link rel="modulepreload" crossorigin href="/assets/Board-1.js"><link rel="modulepreload" crossorigin href="/assets/shared-2.js">',
    );
    expect(tags.has('/gone')).toBe(false);
  });

  it('adds nothing without a manifest', () => {
    expect(screenPreloads(mkdtempSync(path.join(tmpdir(), 'screen-preloads-')), INDEX).size).toBe(0);
  });
});

describe('the board’s page', () => {
  it('preloads the board’s own chunks in its head; other pages do not', async () => {
    const t = createTestApp();
    const board = await t.raw('GET', '/dashboard/board');
    expect(board.status).toBe(200);
    const head = board.text.split('</head>')[0];
    const preloaded = [...head.matchAll(/<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+)">/g)].map((m) => m[1]);
    expect(preloaded.some((href) => /\/assets\/BoardPage-[\w-]+\.js$/.test(href))).toBe(true);
    // Each once, and the nonce's meta tag still whole.
    expect(new Set(preloaded).size).toBe(preloaded.length);
    expect(head).toMatch(/<meta name="csp-nonce" content="[^"]+">/);
    const dashboard = await t.raw('GET', '/dashboard');
    expect(dashboard.text).not.toContain('BoardPage-');
    expect(dashboard.text).toMatch(/<meta name="csp-nonce" content="[^"]+">\n<\/head>/);

    // The manifest the server reads is not served: the path answers the app's page like any other.
    const manifest = await t.raw('GET', '/.vite/manifest.json');
    expect(manifest.text).not.toContain('"file"');
  });
});
