// One structured log line per request, and a request id on every response and error body.
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';

export interface Logger {
  info(record: Record<string, unknown>): void;
  error(record: Record<string, unknown>): void;
  warn(record: Record<string, unknown>): void;
}

export function createLogger(level: 'info' | 'silent'): Logger {
  if (level === 'silent') return { info() {}, warn() {}, error() {} };
  const write = (lvl: string, record: Record<string, unknown>) =>
    process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, ...record })}\n`);
  return {
    info: (r) => write('info', r),
    warn: (r) => write('warn', r),
    error: (r) => write('error', r),
  };
}

export const requestLogging =
  (logger: Logger): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    c.set('requestId', requestId);
    await next();
    // Not c.header(): after the handler has answered, that rebuilds the Response (security.ts).
    c.res.headers.set('X-Request-Id', requestId);
    logger.info({
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    });
  };
