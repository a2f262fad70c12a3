// Cross-origin rules (docs/architecture.md §4), read from the contract (api/contract/): `public`
// routes are open to any origin without credentials; every other route is same-origin, and a
// cookie-authenticated write from a foreign origin is refused. No path is written here.
import { createHash, randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { withResponseHeaders } from './response-headers';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import { Forbidden } from '../errors';
import type { Access } from '../../contract/define';
import type { AppEnv } from './context';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface AccessRoute {
  method: string;
  /** OpenAPI style: `/api/company/{id}`. */
  path: string;
  'x-access': Access;
  'x-body-limit'?: number;
}

/**
 * Finds what the table says of the route a request is for (`pick` of it); `fallback` when no
 * route serves it. Every API request asks: answers are remembered per method and path, as the
 * quote path's budget counts microseconds (decision 008). Bounded: paths carry ids.
 */
export function tableLookup<T>(table: readonly AccessRoute[], pick: (route: AccessRoute) => T, fallback: T) {
  // Hono's own default: one regular expression when the paths allow it, else a trie.
  const router = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] });
  for (const r of table) router.add(r.method.toUpperCase(), r.path.replaceAll(/\{(\w+)\}/g, ':$1'), pick(r));
  // By method, then by path: no "METHOD path" key is built (and hashed) for each of the two or
  // three look-ups every API request makes.
  const seen = new Map<string, Map<string, T>>();
  let size = 0;
  return (method: string, path: string): T => {
    let paths = seen.get(method);
    if (paths === undefined) seen.set(method, (paths = new Map()));
    const known = paths.get(path);
    if (known !== undefined || paths.has(path)) return known as T;
    const found = router.match(method === 'HEAD' ? 'GET' : method, path)[0][0];
    const value = found ? found[0] : fallback;
    if (size >= 10_000) {
      for (const byPath of seen.values()) byPath.clear();
      size = 0;
    }
    paths.set(path, value);
    size += 1;
    return value;
  };
}

/** Finds the access of the table's route a request is for; undefined when no route serves it. */
export const accessLookup = (table: readonly AccessRoute[]) => tableLookup<Access | undefined>(table, (r) => r['x-access'], undefined);

export type AccessLookup = ReturnType<typeof accessLookup>;

/** Writes that arrive with the session cookie must come from our own origin (the webhook has no session). */
export const csrfGuard =
  (publicUrl: string, accessOf: AccessLookup): MiddlewareHandler<AppEnv> =>
  (c, next) => {
    if (!SAFE_METHODS.has(c.req.method) && c.get('authVia') === 'cookie' && accessOf(c.req.method, c.req.path) !== 'webhook') {
      const origin = c.req.header('origin');
      const site = c.req.header('sec-fetch-site');
      const own = new Set([new URL(publicUrl).origin, new URL(c.req.url).origin]);
      if ((origin && !own.has(origin)) || site === 'cross-site') {
        throw new Forbidden('Cross-origin request refused');
      }
    }
    return next();
  };

/**
 * Open CORS, without credentials, on the public routes only; a preflight asks for the method it
 * means. The portal's answers (operator and account routes: the session token in a sign-in's
 * body, a company's leads) are never kept by a cache: `no-store`, whatever their status.
 */
export const publicCors =
  (accessOf: AccessLookup): MiddlewareHandler<AppEnv> =>
  (c, next) => {
    const preflight = c.req.method === 'OPTIONS';
    const method = preflight ? (c.req.header('access-control-request-method') ?? 'GET') : c.req.method;
    const access = accessOf(method, c.req.path);
    const isPublic = access === 'public';
    if (preflight && isPublic) {
      return Promise.resolve(
        new Response(null, {
          status: 204,
          headers: {
            'Access-Control-Allow-Origin': '*',
            'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
            // Idempotency-Key: the widget names each quote calculation, so a retry never stores two (docs/product.md §17).
            'Access-Control-Allow-Headers': 'Content-Type, Idempotency-Key',
            'Access-Control-Max-Age': '86400',
          },
        }),
      );
    }
    if (isPublic) return withResponseHeaders(c, next, PUBLIC_CORS_HEADERS);
    if (access !== 'operator' && access !== 'account') return next();
    return next().then(() => c.res.headers.set('Cache-Control', 'no-store'));
  };

const PUBLIC_CORS_HEADERS = [
  ['access-control-allow-origin', '*'],
  ['access-control-expose-headers', 'X-Request-Id, Retry-After'],
] as const;

/**
 * A form post to one of our own server-rendered pages (the local billing pages) must come from
 * our own origin: a foreign page could otherwise submit it (cancel a subscription through a
 * portal link it learned). Browsers send Origin with every form post; a post without one, or
 * with the opaque `null`, is refused as well.
 */
export function isOwnOriginPost(c: { req: { header(name: string): string | undefined; url: string } }, publicUrl: string): boolean {
  const origin = c.req.header('origin');
  if (c.req.header('sec-fetch-site') === 'cross-site' || !origin) return false;
  return origin === new URL(publicUrl).origin || origin === new URL(c.req.url).origin;
}

/**
 * Baseline headers on every response, set by response-headers.ts (never `c.header()` after the
 * handler has answered: that rebuilds the whole Response around a stream of its body,
 * docs/decisions/008-quote-path-profile.md). HSTS only when the public origin is https: over
 * plain http a browser ignores it, and a local `http://localhost` install must not pin itself to
 * https.
 */
export const securityHeaders = (publicUrl: string): MiddlewareHandler<AppEnv> => {
  const headers: (readonly [string, string])[] = [
    ['x-content-type-options', 'nosniff'],
    ['referrer-policy', 'strict-origin-when-cross-origin'],
  ];
  if (new URL(publicUrl).protocol === 'https:') headers.push(['strict-transport-security', HSTS]);
  return (c, next) => withResponseHeaders(c, next, headers);
};

export const HSTS = 'max-age=31536000; includeSubDomains';

// One Content-Security-Policy for every HTML page the server renders (docs/security.md): the
// admin SPA, the hosted company page, the API reference and the local billing pages.
// Scripts only from our own files, never inline; no plugins; no <base> tricks; forms post only to
// us; styles only as each page needs them: its own inline stylesheet by hash, the SPA's files and nonce.
// React style props go through the CSSOM, which CSP does not restrict, so style attributes need
// no 'unsafe-inline'. Only the hosted company page may be framed (operators embed it).
const CSP_COMMON = ["default-src 'self'", "script-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'"];

/** The policy with these style sources (at least one); framed by anyone only when `framable`; images also from `images` (origins). */
export const pageCsp = (styleSources: string[], options: { framable?: boolean; images?: string[] } = {}) =>
  [
    ...CSP_COMMON,
    ["img-src 'self' data: blob:", ...(options.images ?? [])].join(' '),
    `style-src ${styleSources.join(' ')}`,
    `frame-ancestors ${options.framable ? '*' : "'none'"}`,
  ].join('; ');

/** A fresh nonce per admin page, for the <style> elements a library injects at run time. */
export const cspNonce = () => randomBytes(16).toString('base64');

/**
 * The admin SPA: the one <style> Radix's dialogs inject to lock scrolling carries the page's nonce
 * (admin/src/lib/csp.ts); the status page's map tiles come from MAP_TILES_URL's origin, when set.
 */
export const adminCsp = (nonce: string, mapTilesUrl?: string) =>
  pageCsp(["'self'", `'nonce-${nonce}'`], { images: mapTilesUrl ? [new URL(mapTilesUrl.replace(/\{[a-z]\}/g, '0')).origin] : [] });

/** CSP source for an inline <style> element with exactly this text. */
export const styleHash = (css: string) => `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;

/** A server-rendered page whose only inline style is one <style> element with this text. */
export const inlineStylePageCsp = (css: string) => pageCsp([styleHash(css)]);

/**
 * The hosted company page: its own inline <style> by hash, the widget's constructed stylesheets
 * (not subject to CSP). Operators may frame it on their own sites, as they always could.
 */
export const hostedCsp = (styleSources: string[]) => pageCsp(styleSources, { framable: true });
