// Listens. What it serves is set up in api/boot.ts and built in api/app.ts.
import type { Server, ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import { serve } from '@hono/node-server';
import { appServerOptions } from './platform/http/response-headers';
import { bootApp } from './boot';
import { ConfigError, loadConfig, type Config } from './platform/config';
import { createLogger } from './platform/http/observability';
import { connectionCap, openFileLimit } from './platform/http/connection-cap';
import { addressGroup, connectionShares, createConnectionGuard } from './platform/http/connection-guard';
import { checkWritable, waitingApp } from './platform/db/writable';
import { createTestClock, testClockRequests } from './platform/test-clock';

let config: Config;
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
/** The connection cap, below the file-descriptor limit (see below where it is set on the server). */
const maxConnections = connectionCap(config.maxConnections, openFileLimit());
/** How often a database that cannot be written is checked again. */
const WRITABLE_CHECK_MS = 1000;
let booted: ReturnType<typeof bootApp> | undefined;
/** The browser journeys' clock, only with TEST_CLOCK_CONTROL=1 (never in production: api/platform/config.ts). */
const testClock = config.testClockControl ? createTestClock() : undefined;
const testClockControl = testClock && testClockRequests(testClock, async () => booted?.runJobsNow());
if (testClock) logger.warn({ msg: `TEST_CLOCK_CONTROL is on: POST /__test/clock moves this server's clock (browser tests only)` });
/** Opens the database and builds the app: at once, or once the database can be written (api/platform/db/writable.ts). */
function boot() {
  booted = bootApp(config, logger, { now: testClock?.now });
  // Live streams never take more than half the connections the server really has (the configured
  // cap may be lowered by the descriptor limit): the rest stay for requests and /healthz.
  booted.bookings.live.capTotal(Math.floor(maxConnections / 2));
  // Replication starts once the database is open and migrated; a failure to start is logged and retried.
  void booted.replication?.start();
  return booted;
}
const firstCheck = checkWritable(config.databasePath);
const waiting = firstCheck.writable ? undefined : waitingApp();
if (!firstCheck.writable) {
  logger.error({
    msg: 'Database cannot be written: serving 503 (and /readyz 503) until it can; checked again every second, no restart needed',
    database: config.databasePath,
    code: firstCheck.code,
    reason: firstCheck.reason,
  });
  const recheck = setInterval(() => {
    if (stopping || !checkWritable(config.databasePath).writable) return;
    clearInterval(recheck);
    boot();
    logger.info({ msg: 'Database writable again: serving', database: config.databasePath });
  }, WRITABLE_CHECK_MS);
} else boot();
const appFetch = (request: Request, env: unknown) => (booted ? booted.app.fetch(request, env) : waiting!.fetch(request, env));
const fetch = testClockControl ? (request: Request, env: unknown) => testClockControl(request) ?? appFetch(request, env) : appFetch;
const server = serve({ fetch, port: config.port, hostname: config.host, serverOptions: appServerOptions }, (info) => {
  logger.info({
    msg: `Listening on ${config.publicUrl}`,
    port: info.port,
    billing: config.billing.mode,
    geodataLoadMs: booted ? Math.round(booted.geodata.loadMs) : undefined,
  });
}) as Server;

// A cap on open connections, below the file-descriptor limit: 20,000 held sockets must not leave
// the database, the log or Litestream without a descriptor. Past it Node drops new connections at
// once; that is logged once per episode, and once more when there is room again.
server.maxConnections = maxConnections;
let dropping = false;
server.on('drop', () => {
  if (dropping) return;
  dropping = true;
  logger.warn({ msg: 'Connection limit reached: new connections are refused until some close', limit: server.maxConnections });
  const watch = setInterval(() => {
    if (connections.size >= server.maxConnections * 0.9) return;
    clearInterval(watch);
    dropping = false;
    logger.info({ msg: 'Connections below the limit again', open: connections.size, limit: server.maxConnections });
  }, 1000);
  watch.unref();
});

let stopping = false;
/**
 * Set once the listener is closed. Only from then on are responses sent with `Connection: close`:
 * a client told to close while the listener still accepts reconnects at once, lands in the accept
 * queue and is reset when the listener closes, its request unanswered. After it, a reconnect is
 * refused outright (nothing was sent), and keep-alive connections are ended as they fall idle.
 */
let closing = false;

/** Node then sends `Connection: close` and ends the socket once this response is written. */
function lastOnItsConnection(res: ServerResponse) {
  if (!res.headersSent) res.shouldKeepAlive = false;
}

/**
 * Every open connection with how many requests it has begun and how many responses are still open.
 * Node's closeIdleConnections() counts a connection whose first request it has not read yet as
 * idle and resets it, though the client may already have sent that request: here such a fresh
 * connection gets FRESH_GRACE_MS on shutdown to deliver it, and only connections that have served
 * a request and have nothing in progress are closed at once.
 */
interface Connection {
  begun: number;
  /**
   * Its responses not finished yet (more than one only when requests are pipelined): on shutdown
   * each is answered with `Connection: close`. Kept per connection in an array rather than in one
   * Set of every response: a Set added to and deleted from on every request kept each request's
   * objects alive through young-generation collections until the next full one, which made most
   * of the quote route's full collections and its p99 (docs/decisions/028-the-p99-was-a-set.md).
   */
  open: ServerResponse[];
  idleSince: number;
  /** Its client's address group (api/platform/http/connection-guard.ts). */
  group: string;
}
const connections = new Map<Socket, Connection>();
const FRESH_GRACE_MS = 1_000;
let acceptedCount = 0;

// Connections per client address: one address (an IPv6 /64) holds at most its share, so a few
// hosts holding sockets cannot take them all; past half its share, its idle connections are closed
// after a few seconds instead of being kept alive. A trusted proxy's own address is exempt: every
// client behind it arrives from there, and it is the proxy's to share out.
const guard = createConnectionGuard(connectionShares(config.maxConnectionsPerAddress));
const { trustProxy } = config;
const isTrustedProxy = (address: string) =>
  trustProxy.kind === 'hops' ||
  (trustProxy.kind === 'addresses' &&
    trustProxy.list.check(address.replace(/^::ffff:/i, ''), address.includes(':') && !/^::ffff:/i.test(address) ? 'ipv6' : 'ipv4'));
let refusingAddress = false;
let sweeping: ReturnType<typeof setInterval> | undefined;
/** Closes idle connections of addresses over their share; runs only while some address is over it. */
function sweepIdle() {
  for (const socket of guard.idleToClose(connections, performance.now())) socket.destroy();
  if (!guard.anyOverShare()) {
    clearInterval(sweeping);
    sweeping = undefined;
  }
}
server.on('connection', (socket: Socket) => {
  acceptedCount += 1;
  const address = socket.remoteAddress ?? 'unknown';
  const group = isTrustedProxy(address) ? undefined : addressGroup(address);
  if (group !== undefined && !guard.admit(group)) {
    socket.destroy();
    if (!refusingAddress) {
      refusingAddress = true;
      logger.warn({
        msg: 'A client address holds its share of connections: its new connections are refused until some close (said at most once a minute)',
        limit: config.maxConnectionsPerAddress,
      });
      setTimeout(() => (refusingAddress = false), 60_000).unref();
    }
    return;
  }
  connections.set(socket, { begun: 0, open: [], idleSince: performance.now(), group: group ?? '' });
  socket.once('close', () => {
    connections.delete(socket);
    if (group !== undefined) guard.release(group);
  });
  if (group !== undefined && !sweeping && guard.anyOverShare()) {
    sweeping = setInterval(sweepIdle, 1000);
    sweeping.unref();
  }
});

// Before the app's own listener, so a request received while draining is marked before it is handled.
server.prependListener('request', (req, res: ServerResponse) => {
  if (closing) lastOnItsConnection(res);
  const connection = connections.get(req.socket as Socket);
  if (!connection) return;
  connection.begun += 1;
  connection.open.push(res);
  res.once('close', () => {
    const { open } = connection;
    // In order, so nearly always the first.
    open.splice(open.indexOf(res), 1);
    if (open.length === 0) connection.idleSince = performance.now();
    // A response whose headers were already out kept its connection open: close it now it is idle.
    if (closing) closeIdleConnections();
  });
});

/** Responses not finished yet, on every connection. */
function inFlight(): number {
  let count = 0;
  for (const { open } of connections.values()) count += open.length;
  return count;
}

/**
 * Ends (after flushing) each connection that has served its requests and waits for another. One
 * whose last keep-alive response went out less than FRESH_GRACE_MS ago is ended only then: its
 * client may already have sent the next request on it (a busy client does so at once), and ending
 * the socket under that request resets it unanswered. A request arriving meanwhile is answered
 * with `Connection: close`, and the connection ends after it.
 */
function closeIdleConnections() {
  const now = performance.now();
  for (const [socket, connection] of connections) {
    if (connection.begun === 0 || connection.open.length > 0) continue;
    const wait = connection.idleSince + FRESH_GRACE_MS - now;
    if (wait <= 0) {
      socket.end();
      continue;
    }
    const begun = connection.begun;
    setTimeout(() => {
      if (connection.begun === begun && connection.open.length === 0) socket.end();
    }, wait).unref();
  }
}

// Graceful shutdown: stop accepting, then answer every request already received with
// `Connection: close`, close each connection once its response is written (idle ones at once),
// then close the database and exit 0.
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ msg: 'Shutting down', signal, inFlight: inFlight() });
  const force = setTimeout(() => {
    logger.error({ msg: 'Shutdown deadline passed with connections still open', inFlight: inFlight() });
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS);
  force.unref();
  // Live status streams never end by themselves: closed now, so the drain does not wait for them
  // (the pages fall back to polling and find the server again once it is back).
  booted?.bookings.live.closeAll();
  // No new job runs from now on; a run in progress ends its step (a send finishes and is recorded,
  // retention ends its batch) while requests drain.
  const jobsStopped = booted?.jobs.stop();
  // Stop accepting once a full loop turn has accepted nothing: connections already waiting in the
  // kernel's accept queue when the signal came are accepted first (closing the listener in the
  // handler would reset them, though their clients had sent their requests; the signal's own poll
  // batch need not include the listener). net.Server's close() rather than http.Server's, which
  // would also close the idle keep-alive connections right away; its callback runs once every
  // connection has ended.
  afterAcceptQueueDrained(() => {
    net.Server.prototype.close.call(server, async () => {
      // The jobs first: they write through the main connection.
      await jobsStopped;
      // The worker's connection first, so the main one closes last and folds the WAL into the file.
      await booted?.checkpoints?.stop();
      booted?.deps.db.$client.close();
      // After the database closes, so Litestream's last sync carries the final commits.
      await booted?.replication?.stop();
      await logger.close();
      process.exit(0);
    });
    closing = true;
    for (const { open } of connections.values()) for (const res of open) lastOnItsConnection(res);
    // Idle keep-alive connections now (those answered in the last FRESH_GRACE_MS once that has
    // passed); busy ones end after their response. A connection that has not sent its request yet
    // gets FRESH_GRACE_MS to do so, then is closed.
    closeIdleConnections();
  });
  setTimeout(() => {
    for (const [socket, { begun }] of connections) if (begun === 0) socket.destroy();
  }, FRESH_GRACE_MS).unref();
}
/** Runs `then` after a poll phase (epoll with no wait, immediates pending) accepts no connection. */
function afterAcceptQueueDrained(then: () => void, turnsLeft = 3) {
  const before = acceptedCount;
  setImmediate(() => setImmediate(() => (acceptedCount === before || turnsLeft === 0 ? then() : afterAcceptQueueDrained(then, turnsLeft - 1))));
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
