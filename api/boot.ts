// What a serving process sets up before it listens: the app, the postcode data (loaded now, so
// the first quote does not pay for it), WAL checkpoints on a worker thread, the nightly retention
// of quotes and the mail outbox's worker (api/mail/worker.ts). api/server.ts starts this way, and
// so does the benchmark's bare-handler reference, so both run the same.
import { createApp } from './app';
import { checkpointFailureLog, startBackgroundCheckpoints } from './platform/db/checkpointer';
import { loadGeodata } from './engine/distance/postcodes';
import type { Config } from './platform/config';
import type { Logger } from './platform/http/observability';
import { createRetention } from './leads/retention';
import { createMailWorker } from './mail/worker';

export function bootApp(config: Config, logger?: Logger) {
  const { app, deps, bookings } = createApp({ config, logger });
  const geodata = loadGeodata();
  const checkpoints =
    config.databasePath === ':memory:'
      ? undefined
      : startBackgroundCheckpoints(deps.db.$client, config.databasePath, checkpointFailureLog(deps.logger));
  const retention = createRetention(deps);
  retention.start();
  const mail = createMailWorker(deps);
  mail.start();
  bookings.outbox.nudge = () => mail.nudge();
  bookings.expiry.start();
  return { app, deps, geodata, checkpoints, retention, mail, bookings };
}
