// What a serving process sets up before it listens: the app, the postcode data (loaded now, so
// the first quote does not pay for it), WAL checkpoints on a worker thread, the nightly retention
// of quotes and the mail outbox's worker (api/mail/worker.ts). api/server.ts starts this way, and
// so does the benchmark's bare-handler reference, so both run the same.
import { createApp } from './app';
import { createReplication } from './platform/db/replication';
import { createLogger } from './platform/http/observability';
import { checkpointFailureLog, startBackgroundCheckpoints } from './platform/db/checkpointer';
import { loadGeodata } from './engine/distance/postcodes';
import type { Config } from './platform/config';
import type { Logger } from './platform/http/observability';
import { createRetention } from './leads/retention';
import { createMailWorker } from './mail/worker';

export function bootApp(config: Config, appLogger?: Logger) {
  const logger = appLogger ?? createLogger(config.logLevel);
  const replicating = config.replicaUrl !== undefined && config.databasePath !== ':memory:';
  const replication = replicating
    ? createReplication({ databasePath: config.databasePath, replicaUrl: config.replicaUrl!, logger })
    : undefined;
  const { app, deps, bookings } = createApp({ config, logger, replication });
  const geodata = loadGeodata();
  // Litestream owns checkpoints while it replicates (api/platform/db/replication.ts): neither the
  // checkpoint worker nor SQLite's automatic checkpoint may fold frames it has not copied yet.
  if (replication) deps.db.$client.pragma('wal_autocheckpoint = 0');
  const checkpoints =
    config.databasePath === ':memory:' || replication
      ? undefined
      : startBackgroundCheckpoints(deps.db.$client, config.databasePath, checkpointFailureLog(deps.logger));
  const retention = createRetention(deps);
  retention.start();
  const mail = createMailWorker(deps);
  mail.start();
  bookings.outbox.nudge = () => mail.nudge();
  bookings.expiry.start();
  return { app, deps, geodata, checkpoints, retention, mail, replication, bookings };
}
