// One structured log line per request, and a request id on every response and error body.
// Lines go through pino to an asynchronous destination with a bounded buffer: a log reader that
// stops reading costs at most that buffer (lines past it are dropped and counted), and one that
// goes away (EPIPE) costs nothing. Logging never blocks a request and never ends the process.
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import pino from 'pino';
import type { LogLevel } from '../config';
import type { AppEnv } from './context';
import { withResponseHeaders } from './response-headers';

export interface Logger {
  info(record: Record<string, unknown>): void;
  error(record: Record<string, unknown>): void;
  warn(record: Record<string, unknown>): void;
  /**
   * The request line, an info line of a fixed shape; a logger without this method writes it with
   * `info`. The process logger writes it without pino's generic serialiser: the same bytes.
   */
  request?(line: RequestLine): void;
}

/** What requestLogging writes for each request, in this order. */
export interface RequestLine {
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
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
/** Lines are held until this many bytes are waiting (about 25 request lines)… */
const LOG_BLOCK_BYTES = 4096;
/** …or this long has passed, so a quiet server's lines are out within a quarter of a second. */
export const LOG_FLUSH_MS = 250;

/**
 * pino's isoTime, formatted once per millisecond: lines logged within the same millisecond (a few
 * at a time under load) share the text, which is exactly what isoTime would write for each. It
 * was ~1.5 µs of every request line (docs/decisions/023-quote-path-since-017.md).
 */
export function isoTimeOncePerMillisecond(): () => string {
  let formattedAt = Number.NaN;
  let formatted = '';
  return () => {
    const now = Date.now();
    if (now !== formattedAt) {
      formattedAt = now;
      formatted = `,"time":"${new Date(now).toISOString()}"`;
    }
    return formatted;
  };
}

export function createLogger(level: LogLevel, options: LoggerOptions = {}): ProcessLogger {
  if (level === 'silent') return { info() {}, warn() {}, error() {}, close: async () => {} };
  const destination = pino.destination({
    dest: options.fd ?? 1,
    sync: false,
    maxLength: options.maxBufferBytes ?? DEFAULT_MAX_BUFFER_BYTES,
    // Lines are written in blocks of at least LOG_BLOCK_BYTES, and whatever is held at least every
    // LOG_FLUSH_MS: one write per request (a thread-pool round trip each) cost ~40 µs of a quote's
    // CPU under load (docs/decisions/017-quote-path-regression.md).
    minLength: LOG_BLOCK_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
  let dropped = 0;
  /** Bytes of lines accepted, and bytes the reader has taken: lines are pending while they differ. */
  let accepted = 0;
  let written = 0;
  let closed = false;
  destination.on('drop', () => dropped++);
  destination.on('write', (bytes: number) => (written += bytes));
  const acceptLine = destination.write.bind(destination);
  destination.write = (line: string) => {
    const before = dropped;
    const belowHighWater = acceptLine(line);
    if (dropped === before) accepted += Buffer.byteLength(line);
    return belowHighWater;
  };
  // pino turns the destination into a no-op on EPIPE (the reader is gone for good); any other
  // write error is re-emitted here, and is no reason to stop serving.
  destination.on('error', () => {});
  // Whatever else writes to stdout (a library's console.log) must not crash the process on EPIPE.
  if ((options.fd ?? 1) === 1 && process.stdout.listenerCount('error') === 0) process.stdout.on('error', () => {});

  const time = isoTimeOncePerMillisecond();
  const logger = pino(
    {
      level,
      base: undefined,
      timestamp: time,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  const write = (lvl: 'info' | 'warn' | 'error', record: Record<string, unknown>) => {
    if (closed) return;
    logger[lvl](record);
  };
  const requestLines = logger.isLevelEnabled('info');
  destination.on('drain', () => {
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
    // Exactly what pino writes for `info(line)` with the options above (observability.test.ts
    // compares the two), built directly: pino's generic serialiser was ~4 µs of each request.
    request: (line) => {
      if (closed || !requestLines) return;
      destination.write(
        `{"level":"info"${time()},"requestId":${JSON.stringify(line.requestId)},"method":${JSON.stringify(line.method)},"path":${JSON.stringify(line.path)},"status":${numberJson(line.status)},"durationMs":${numberJson(line.durationMs)}}\n`,
      );
    },
    async close(timeoutMs = 1000) {
      if (closed) return;
      const deadline = performance.now() + timeoutMs;
      // What is held below the block size goes out now rather than at the next periodic flush; a
      // write already under way drains first, so flush again until every accepted byte is out.
      while (accepted > written && performance.now() < deadline) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            destination.off('drain', done);
            resolve();
          };
          const timer = setTimeout(done, deadline - performance.now());
          destination.once('drain', done);
          destination.flush();
        });
      }
      process.off('exit', letGo);
      letGo();
    },
  };
}

/** A number as pino writes it: `null` unless finite. */
const numberJson = (n: number) => (Number.isFinite(n) ? String(n) : 'null');

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
    await withResponseHeaders(c, next, [['x-request-id', requestId]]);
    const line: RequestLine = {
      requestId,
      method: c.req.method,
      path: loggedPath(c.req.path),
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    if (logger.request) logger.request(line);
    else logger.info({ ...line });
  };
