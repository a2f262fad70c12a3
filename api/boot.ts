// What a serving process sets up before it listens: the app, the postcode data (loaded now, so
// the first quote does not pay for it), WAL checkpoints on a worker thread, and the background
// jobs (JOBS below) on the one job runner. api/server.ts starts this way, and so does the
// benchmark's bare-handler reference, so both run the same.
import { createApp, type AppBookings } from './app';
import { createReplication } from './platform/db/replication';
import { createLogger } from './platform/http/observability';
import { type BackgroundCheckpoints, checkpointFailureLog, startBackgroundCheckpoints } from './platform/db/checkpointer';
import { loadGeodata } from './engine/distance/postcodes';
import type { Config } from './platform/config';
import type { Logger } from './platform/http/observability';
import type { AppDeps } from './platform/deps';
import { createJobRunner, type Job } from './platform/jobs/runner';
import { retentionJob } from './leads/retention';
import { auditRetentionJob } from './team/audit-retention';
import { onOutboxWritten } from './mail/store';
import { mailOutboxJobs, OUTBOX_LANE_JOB } from './mail/worker';
import { bookingExpiryJob } from './bookings/expiry';
import { reviewRequestJob } from './bookings/reviews';
import { laterReminderJob } from './dispatch/reminders';
import { paymentReconcileJob } from './payments/reconcile';
import { documentSweepJob } from './documents/sweep';
import { blobSweepJob } from './proof/sweep';
import { monthEndJob } from './accounts/month-end';

/**
 * The server's background jobs, each one definition (api/platform/jobs/runner.ts): adding a job
 * is adding its definition here.
 */
const JOBS = (deps: AppDeps, bookings: AppBookings, checkpoints?: BackgroundCheckpoints): Job[] => [
  retentionJob({ ...deps, hour: deps.config.retentionHour, walBytes: checkpoints?.walBytes }),
  auditRetentionJob({ ...deps, hour: deps.config.retentionHour }),
  ...mailOutboxJobs(deps),
  bookingExpiryJob(bookings.service),
  reviewRequestJob(bookings.service),
  laterReminderJob(bookings.service),
  paymentReconcileJob(bookings.payments),
  documentSweepJob(bookings.documents),
  blobSweepJob({ db: deps.db, blobs: bookings.proof.blobs }),
  monthEndJob(bookings.accounts),
  ...(bookings.books.job() ? [bookings.books.job() as Job] : []),
];

/** `now`: the server's clock, when not the real one (the browser journeys' clock control, api/platform/test-clock.ts). */
export function bootApp(config: Config, appLogger?: Logger, options: { now?: () => Date } = {}) {
  const logger = appLogger ?? createLogger(config.logLevel);
  const replicating = config.replicaUrl !== undefined && config.databasePath !== ':memory:';
  const replication = replicating ? createReplication({ databasePath: config.databasePath, replicaUrl: config.replicaUrl!, logger }) : undefined;
  const { app, deps, bookings } = createApp({ config, logger, replication, now: options.now });
  const geodata = loadGeodata();
  // Litestream owns checkpoints while it replicates (api/platform/db/replication.ts): neither the
  // checkpoint worker nor SQLite's automatic checkpoint may fold frames it has not copied yet.
  if (replication) deps.db.$client.pragma('wal_autocheckpoint = 0');
  const checkpoints =
    config.databasePath === ':memory:' || replication
      ? undefined
      : startBackgroundCheckpoints(deps.db.$client, config.databasePath, checkpointFailureLog(deps.logger));
  const jobs = createJobRunner(deps);
  const handles = new Map(JOBS(deps, bookings, checkpoints).map((job) => [job.name, jobs.add(job)]));
  // Messages go out at once, each channel's on its own lane, not at the lanes' next tick: every
  // write to the outbox nudges the lanes once its transaction is over (setImmediate), and nudges
  // made before that run are one run.
  const lanes = Object.values(OUTBOX_LANE_JOB).map((name) => handles.get(name)!);
  let nudged = false;
  const nudge = () => {
    if (nudged) return;
    nudged = true;
    setImmediate(() => {
      nudged = false;
      for (const lane of lanes) void lane.tick();
    });
  };
  onOutboxWritten(deps.db, nudge);
  jobs.start();
  /** One run of every job now (each after any run in progress): for when the clock was moved on. */
  const runJobsNow = async () => {
    await Promise.all([...handles.values()].map((handle) => handle.tick()));
  };
  return { app, deps, geodata, checkpoints, jobs, runJobsNow, replication, bookings };
}
