// Listens. What it serves is set up in api/boot.ts and built in api/app.ts.
import { serve } from '@hono/node-server';
import { bootApp } from './boot';
import { ConfigError, loadConfig } from './env';

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

const { app, deps, geodata, checkpoints } = bootApp(config);
const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  deps.logger.info({ msg: `Listening on ${config.publicUrl}`, port: info.port, billing: config.billing.mode, geodataLoadMs: Math.round(geodata.loadMs) });
});

// Graceful shutdown: stop accepting, let in-flight requests finish, then close the database.
let stopping = false;
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  deps.logger.info({ msg: 'Shutting down', signal });
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  server.close(async () => {
    // The worker's connection first, so the main one closes last and folds the WAL into the file.
    await checkpoints?.stop();
    deps.db.$client.close();
    process.exit(0);
  });
  // Idle keep-alive connections would hold close() open.
  if ('closeIdleConnections' in server) server.closeIdleConnections();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
