// The one runner of the server's background jobs. A job is one definition (an IntervalJob or a
// DailyJob) added to the runner in api/boot.ts; the runner owns everything around it:
// - when it runs: every `everyMs`, or once per UK day from a UK wall-clock time, the day kept in
//   the job's marker in job_state (api/platform/jobs/job-state.ts) so that a restart neither
//   repeats nor skips a day, across both clock changes;
// - never two runs of one job at once: a run still going when the next is due is not queued behind;
// - backing off while the server is busy with requests (its event loop ran more than half the
//   time since the job last ran): an interval job is told so and does less (the mail outbox sends
//   1 message a tick instead of 20), a daily job's run waits for a quieter check, an hour at most;
// - a failure logged once per episode, and the recovery, the next run trying again;
// - one stop, before the database closes (api/server.ts): no run starts after it, and it resolves
//   once the runs in progress have ended their current step and each job has closed what it holds.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { Db } from '../db/client';
import { write } from '../db/write';
import type { Logger } from '../http/observability';
import { londonDate, londonMinuteOfDay } from '../../engine/calendar/uk-calendar';
import { readJobMarker, writeJobMarker } from './job-state';

export interface JobContext {
  /** The clock's time as the run began. */
  now: Date;
  /** The server is busy with requests: do less this run. */
  busy: boolean;
  /** True once the runner is stopping: a run of several steps ends at its next step. */
  stopping(): boolean;
  /** Aborted when the runner starts stopping: a step that waits on the network gives up early. */
  signal: AbortSignal;
}

interface JobCommon {
  /** Unique among the jobs; names the job in the logs. */
  name: string;
  /** Called once by the runner's stop, after the job's last run: release what it holds (a mail connection). */
  close?(): void;
}

export interface IntervalJob extends JobCommon {
  /** Runs at start, then every `everyMs`. */
  everyMs: number;
  run(context: JobContext): Promise<void>;
}

export interface DailyJob extends JobCommon {
  /** Each UK day's run is due from this UK wall-clock time (GMT or BST, as it applies that day). */
  dailyAt: { hour: number; minute?: number };
  /** The job_state row holding the UK date (YYYY-MM-DD) of the last completed run. */
  marker: string;
  /** How often the runner asks whether today's run is due (default 10 minutes). */
  checkEveryMs?: number;
  /**
   * The day's work. Answers false when it stopped part way: the day is then left unmarked, so
   * the next start finishes it. The runner marks the day done when it answers true.
   */
  run(context: JobContext & { day: string }): Promise<boolean>;
}

export type Job = IntervalJob | DailyJob;

/** A job as added to a runner. */
export interface JobHandle {
  /** One run (for a daily job, one check) as soon as any run in progress has ended. */
  tick(): Promise<void>;
}

export interface JobRunner {
  add(job: Job): JobHandle;
  /** Starts every job's schedule, each job's first run (or check) at once. */
  start(): void;
  /** No run starts from now on; resolves once runs in progress have ended and each job has closed. */
  stop(): Promise<void>;
}

export interface JobRunnerOptions {
  db: Db;
  logger: Pick<Logger, 'info' | 'error'>;
  now: () => Date;
  /** Is the server busy with requests? Default: per job, its event loop's utilization since that job last asked. */
  busy?: () => boolean;
}

const DEFAULT_CHECK_EVERY_MS = 10 * 60_000;
/** A due daily run waits for a quieter check at most this long, so a server busy all night still runs it. */
export const LONGEST_DAILY_DEFERRAL_MS = 60 * 60_000;
const BUSY_LOOP_UTILIZATION = 0.5;

/**
 * Whether the event loop ran more than half the time since the last call. The first call answers
 * false: there is no window to judge by yet, and the start-up work before it is not requests.
 */
export function eventLoopBusy(): () => boolean {
  let since: EventLoopUtilization | undefined;
  return () => {
    const now = performance.eventLoopUtilization();
    const busy = since !== undefined && performance.eventLoopUtilization(now, since).utilization > BUSY_LOOP_UTILIZATION;
    since = now;
    return busy;
  };
}

/**
 * The UK day whose daily run is due at `now`, or undefined: due once London's clock has passed
 * `at` on a day later than `lastDone` (the marker). A restart after the time runs the day's work;
 * a restart after the day's run finds it done.
 */
export function dueDay(now: Date, at: { hour: number; minute?: number }, lastDone: string | undefined): string | undefined {
  if (londonMinuteOfDay(now) < at.hour * 60 + (at.minute ?? 0)) return undefined;
  const today = londonDate(now);
  return lastDone !== undefined && lastDone >= today ? undefined : today;
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, logger } = options;
  const names = new Set<string>();
  const schedules: { start(): void; stop(): Promise<void> }[] = [];
  let stopping = false;
  let started = false;
  let stopped: Promise<void> | undefined;
  const stopSignal = new AbortController();
  const isStopping = () => stopping;

  function add(job: Job): JobHandle {
    if (names.has(job.name)) throw new Error(`A job named ${job.name} is already added`);
    names.add(job.name);
    const busy = options.busy ?? eventLoopBusy();
    let chain: Promise<void> = Promise.resolve();
    let inFlight = false;
    let failing = false;
    let timer: NodeJS.Timeout | undefined;
    /** When a due daily run was first put off for a busy server. */
    let deferredSince: number | undefined;

    const context = (): JobContext => ({ now: options.now(), busy: busy(), stopping: isStopping, signal: stopSignal.signal });

    async function runDaily(daily: DailyJob) {
      const ctx = context();
      const day = dueDay(ctx.now, daily.dailyAt, readJobMarker(db, daily.marker));
      if (day === undefined) return;
      if (ctx.busy) {
        deferredSince ??= ctx.now.getTime();
        if (ctx.now.getTime() - deferredSince < LONGEST_DAILY_DEFERRAL_MS) return;
      }
      deferredSince = undefined;
      if (await daily.run({ ...ctx, day })) await write(db, () => writeJobMarker(db, daily.marker, day));
    }

    async function pass() {
      if (stopping) return;
      inFlight = true;
      try {
        if ('everyMs' in job) await job.run(context());
        else await runDaily(job);
        if (failing) logger.info({ msg: 'Job recovered', job: job.name });
        failing = false;
      } catch (error) {
        // Logged once per episode (a full disk fails every run); the next run tries again.
        if (!failing)
          logger.error({ msg: 'Job failed; it tries again at its next run', job: job.name, error: error instanceof Error ? error.message : String(error) });
        failing = true;
      } finally {
        inFlight = false;
      }
    }

    const tick = () => (chain = chain.then(pass));
    schedules.push({
      start() {
        const every = 'everyMs' in job ? job.everyMs : (job.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS);
        // A run still going when the next is due is not queued behind: the next interval takes it.
        timer = setInterval(() => inFlight || void tick(), every);
        timer.unref();
        setImmediate(() => stopping || void tick());
      },
      async stop() {
        clearInterval(timer);
        await chain;
        job.close?.();
      },
    });
    if (started) schedules[schedules.length - 1].start();
    return { tick };
  }

  return {
    add,
    start() {
      if (started || stopping) return;
      started = true;
      for (const schedule of schedules) schedule.start();
    },
    stop() {
      stopping = true;
      stopSignal.abort();
      stopped ??= Promise.all(schedules.map((schedule) => schedule.stop())).then(() => undefined);
      return stopped;
    },
  };
}
