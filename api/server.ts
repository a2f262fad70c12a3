// Listens. What it serves is set up in api/boot.ts and built in api/app.ts.
import type { Server, ServerResponse } from 'node:http';
import net from 'node:net';
import { serve } from '@hono/node-server';
import { bootApp } from './boot';
import { ConfigError, loadConfig } from './env';
import { createLogger } from './http/observability';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  throw err;
}

/** Last resort only: a drain that has not finished by then (a client that never reads) ends with exit 1. */
const SHUTDOWN_DEADLINE_MS = 10_000;

const logger = createLogger(config.logLevel);
const { app, deps, geodata, checkpoints } = bootApp(config, logger);
const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  deps.logger.info({ msg: `Listening on ${config.publicUrl}`, port: info.port, billing: config.billing.mode, geodataLoadMs: Math.round(geodata.loadMs) });
}) as Server;

// Responses not finished yet: on shutdown each is answered with `Connection: close`.
const unfinished = new Set<ServerResponse>();
let stopping = false;

/** Node then sends `Connection: close` and ends the socket once this response is written. */
function lastOnItsConnection(res: ServerResponse) {
  if (!res.headersSent) res.shouldKeepAlive = false;
}

// Before the app's own listener, so a request received while draining is marked before it is handled.
server.prependListener('request', (_req, res: ServerResponse) => {
  if (stopping) lastOnItsConnection(res);
  unfinished.add(res);
  res.once('close', () => {
    unfinished.delete(res);
    // A response whose headers were already out kept its connection open: close it now it is idle.
    if (stopping) server.closeIdleConnections();
  });
});

// Graceful shutdown: stop accepting, answer every request already received with
// `Connection: close`, close each connection once its response is written (idle ones at once),
// then close the database and exit 0.
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  deps.logger.info({ msg: 'Shutting down', signal, inFlight: unfinished.size });
  const force = setTimeout(() => {
    deps.logger.error({ msg: 'Shutdown deadline passed with connections still open', inFlight: unfinished.size });
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS);
  force.unref();
  for (const res of unfinished) lastOnItsConnection(res);
  // Stop accepting now. net.Server's close() rather than http.Server's, which would also close the
  // idle keep-alive connections right away; the callback runs once every connection has ended.
  net.Server.prototype.close.call(server, async () => {
    // The worker's connection first, so the main one closes last and folds the WAL into the file.
    await checkpoints?.stop();
    deps.db.$client.close();
    await logger.close();
    process.exit(0);
  });
  // Idle connections after the poll phase: a request whose bytes had arrived with the signal is
  // read first, so its connection is not taken for idle and reset. Busy ones end after their response.
  setImmediate(() => server.closeIdleConnections());
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
