// One structured log line per request, and a request id on every response and error body.
// Lines go through pino to an asynchronous destination with a bounded buffer: a log reader that
// stops reading costs at most that buffer (lines past it are dropped and counted), and one that
// goes away (EPIPE) costs nothing. Logging never blocks a request and never ends the process.
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import pino from 'pino';
import type { LogLevel } from '../config';
import type { AppEnv } from './context';

export interface Logger {
  info(record: Record<string, unknown>): void;
  error(record: Record<string, unknown>): void;
  warn(record: Record<string, unknown>): void;
}

export interface LoggerOptions {
  /** File descriptor the lines are written to; default 1 (stdout). */
  fd?: number;
  /** Bytes of lines held while the reader is not reading; past it lines are dropped and counted. Default 1 MiB. */
  maxBufferBytes?: number;
}

export interface ProcessLogger extends Logger {
  /**
   * Writes out what is buffered, waiting at most `timeoutMs`, then lets go of the destination:
   * a reader that is not reading must not hold the process open at exit.
   */
  close(timeoutMs?: number): Promise<void>;
}

const DEFAULT_MAX_BUFFER_BYTES = 1024 * 1024;

export function createLogger(level: LogLevel, options: LoggerOptions = {}): ProcessLogger {
  if (level === 'silent') return { info() {}, warn() {}, error() {}, close: async () => {} };
  const destination = pino.destination({
    dest: options.fd ?? 1,
    sync: false,
    maxLength: options.maxBufferBytes ?? DEFAULT_MAX_BUFFER_BYTES,
  });
  let dropped = 0;
  /** Lines accepted that the reader has not taken yet. */
  let pending = false;
  let closed = false;
  destination.on('drop', () => dropped++);
  // pino turns the destination into a no-op on EPIPE (the reader is gone for good); any other
  // write error is re-emitted here, and is no reason to stop serving.
  destination.on('error', () => {});
  // Whatever else writes to stdout (a library's console.log) must not crash the process on EPIPE.
  if ((options.fd ?? 1) === 1 && process.stdout.listenerCount('error') === 0) process.stdout.on('error', () => {});

  const logger = pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  const write = (lvl: 'info' | 'warn' | 'error', record: Record<string, unknown>) => {
    if (closed) return;
    const before = dropped;
    logger[lvl](record);
    if (dropped === before) pending = true;
  };
  destination.on('drain', () => {
    pending = false;
    if (dropped > 0 && !closed) {
      // The reader is back: say once how much it missed.
      const count = dropped;
      dropped = 0;
      write('warn', { msg: 'Log lines dropped while the log reader was not reading', dropped: count });
    }
  });
  // An exit that did not go through close() (a crash, the shutdown deadline) must not block in
  // pino's synchronous flush on a pipe nobody reads: drop what is left instead.
  const letGo = () => {
    if (closed) return;
    closed = true;
    destination.destroy();
  };
  process.prependListener('exit', letGo);

  return {
    info: (r) => write('info', r),
    warn: (r) => write('warn', r),
    error: (r) => write('error', r),
    async close(timeoutMs = 1000) {
      if (closed) return;
      if (pending) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, timeoutMs);
          destination.once('drain', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      process.off('exit', letGo);
      letGo();
    },
  };
}

/**
 * The path as logged: the segment after /job/, /driver/, /api/jobs/ and /api/driver/ is a token
 * that opens a booking (api/bookings/tokens.ts), so it is never written to a log.
 */
export const loggedPath = (path: string) => path.replace(/^(\/(?:api\/)?(?:jobs?|driver))\/[^/]+/, '$1/:token');

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
      path: loggedPath(c.req.path),
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    });
  };
