// Cross-origin rules (DESIGN.md §4): public reads and quote calculation are open to any origin
// without credentials; cookie-authenticated writes from a foreign origin are refused.
import type { MiddlewareHandler } from 'hono';
import { Forbidden } from '../errors';
import type { AppEnv } from './context';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Writes that arrive with the session cookie must come from our own origin. */
export const csrfGuard =
  (publicUrl: string): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method) && c.get('authVia') === 'cookie') {
      const origin = c.req.header('origin');
      const site = c.req.header('sec-fetch-site');
      const own = new Set([new URL(publicUrl).origin, new URL(c.req.url).origin]);
      if ((origin && !own.has(origin)) || site === 'cross-site') {
        throw new Forbidden('Cross-origin request refused');
      }
    }
    await next();
  };

/** Is this request one of the public API routes that any website may call? */
export function isPublicApiRoute(method: string, path: string): boolean {
  if (path === '/api/quotes/calculate') return method === 'POST' || method === 'OPTIONS';
  if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') return false;
  return (
    /^\/api\/company\/(\d+|slug\/[^/]+|\d+\/logo)$/.test(path) ||
    /^\/api\/(pricing|surcharges|vehicle-types|gearbox-types|rolling-status-types|passenger-charges|problem-types)\/\d+$/.test(path) ||
    path === '/api/openapi.json'
  );
}

/** Open CORS, without credentials, on the public routes only. */
export const publicCors: MiddlewareHandler<AppEnv> = async (c, next) => {
  const method = c.req.method === 'OPTIONS' ? (c.req.header('access-control-request-method') ?? 'GET') : c.req.method;
  const isPublic = isPublicApiRoute(method, c.req.path);
  if (c.req.method === 'OPTIONS' && isPublic) {
    return new Response(null, {
      status: 204,
      headers: {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        // Idempotency-Key: the widget names each quote calculation, so a retry never stores two (issue 18).
        'Access-Control-Allow-Headers': 'Content-Type, Idempotency-Key',
        'Access-Control-Max-Age': '86400',
      },
    });
  }
  await next();
  if (isPublic) {
    c.res.headers.set('Access-Control-Allow-Origin', '*');
    c.res.headers.set('Access-Control-Expose-Headers', 'X-Request-Id, Retry-After');
  }
};

/**
 * Baseline headers on every response. Set on `c.res.headers` because, once a handler has answered,
 * `c.header()` rebuilds the whole Response around a stream of its body (docs/decisions/008-quote-path-profile.md).
 */
export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.res.headers.set('X-Content-Type-Options', 'nosniff');
  c.res.headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
};
