// Transfer sizes against docs/budgets.md: the widget, the hosted company page with everything it
// loads from our origin before the form is usable, and the admin SPA's first-load JavaScript.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT } from './server-process';

export const WIDGET_FILE = path.join(REPO_ROOT, 'dist/widget/widget.js');
const ADMIN_INDEX = path.join(REPO_ROOT, 'dist/admin/index.html');

/** Level 9, as a CDN or a pre-compressing server would send it (scripts/widget-size.ts does the same). */
export const gzipBytes = (bytes: Uint8Array | string) => gzipSync(bytes, { level: 9 }).length;

export const isBuilt = () => existsSync(WIDGET_FILE) && existsSync(ADMIN_INDEX) && existsSync(path.join(REPO_ROOT, 'dist/server.mjs'));

/** The value of `attribute` in every tag named `tag` whose attributes match `filter`. */
function attributeValues(html: string, tag: string, attribute: string, filter: RegExp = /./): string[] {
  const values: string[] = [];
  for (const [element] of html.matchAll(new RegExp(`<${tag}\\b[^>]*>`, 'gi'))) {
    if (!filter.test(element)) continue;
    const value = new RegExp(`\\s${attribute}=["']([^"']+)["']`, 'i').exec(element)?.[1];
    if (value) values.push(value);
  }
  return values;
}

export interface PageWeight {
  gzipBytes: number;
  requests: number;
  urls: string[];
}

/**
 * The page itself, then every script and stylesheet it references on our origin (other origins,
 * data: URLs and the logo are not ours to count), each gzipped; then `dataUrls`, the reads the
 * form makes before it can be used, counted in full (the API does not compress them).
 */
export async function hostedPageWeight(pageUrl: string, dataUrls: string[] = []): Promise<PageWeight> {
  const origin = new URL(pageUrl).origin;
  const fetchBytes = async (url: string) => {
    const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  };
  const page = await fetchBytes(pageUrl);
  const html = new TextDecoder().decode(page);
  const assets = [...attributeValues(html, 'script', 'src'), ...attributeValues(html, 'link', 'href', /rel=["']?(stylesheet|modulepreload)/i)]
    .map((ref) => new URL(ref, pageUrl))
    .filter((url) => url.origin === origin)
    .map((url) => url.href);
  let total = gzipBytes(page);
  for (const url of assets) total += gzipBytes(await fetchBytes(url));
  for (const url of dataUrls) total += (await fetchBytes(url)).length;
  const urls = [pageUrl, ...assets, ...dataUrls];
  return { gzipBytes: total, requests: urls.length, urls };
}

/** The scripts index.html loads and preloads: what every route pays before its own chunk. */
export function adminFirstLoadJs(indexFile = ADMIN_INDEX): PageWeight {
  const html = readFileSync(indexFile, 'utf8');
  const refs = [...attributeValues(html, 'script', 'src'), ...attributeValues(html, 'link', 'href', /rel=["']?modulepreload/i)];
  const root = path.dirname(indexFile);
  const total = refs.reduce((sum, ref) => sum + gzipBytes(readFileSync(path.join(root, new URL(ref, 'http://x/').pathname))), 0);
  return { gzipBytes: total, requests: refs.length, urls: refs };
}

export const widgetGzipBytes = () => gzipBytes(readFileSync(WIDGET_FILE));

/** The board route's own JavaScript beyond the first load, gzip (routeJs('BoardPage'); admin/board-size.test.ts). */
export const BOARD_ROUTE_BUDGET_BYTES = 55_000;
/** The status page's map chunk, gzip: Leaflet (about 42 KB) and the component (routeJs('JobMap'); admin/map-chunk.test.ts). */
export const MAP_CHUNK_BUDGET_BYTES = 50_000;

/** The `./x.js` modules a built chunk imports statically (`import … from "./x.js"`, or a bare `import "./x.js"`). */
function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g)].map((m) => m[1]);
}

/**
 * What one lazy route costs beyond the first load: the chunk whose name starts with
 * `chunkPrefix` (say 'BoardPage', the screen's module) and every chunk it imports statically,
 * gzipped, less those index.html already loads. Its own lazy imports (`import("./x.js")`) are
 * fetched later and not counted.
 */
export function routeJs(chunkPrefix: string, adminDir = path.dirname(ADMIN_INDEX)): PageWeight {
  const assets = path.join(adminDir, 'assets');
  const entry = readdirSync(assets).find((f) => f.startsWith(`${chunkPrefix}-`) && f.endsWith('.js'));
  if (!entry) throw new Error(`no chunk named ${chunkPrefix}-*.js in ${assets}`);
  const firstLoad = new Set(adminFirstLoadJs(path.join(adminDir, 'index.html')).urls.map((u) => path.basename(u)));
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file) || firstLoad.has(file)) continue;
    seen.add(file);
    pending.push(...staticImports(readFileSync(path.join(assets, file), 'utf8')));
  }
  const urls = [...seen].map((f) => `/assets/${f}`);
  return { gzipBytes: [...seen].reduce((sum, f) => sum + gzipBytes(readFileSync(path.join(assets, f))), 0), requests: urls.length, urls };
}
