// Pacing for a job that works through a large backlog in batches (the nightly retention's deletes):
// how many rows the next batch takes and how long to pause after it, so the backlog drains
// without showing in the quote path's p99 (docs/budgets.md) and without growing the WAL past its
// limit. Three signals steer it:
// - the batch's own time: the batch is sized so one transaction holds the event loop (and the
//   write lock) for about `targetBatchMs`, and the pause after it is several times that, so the
//   job takes a small share of the loop however fast or slow the disk is;
// - the event loop's delay since the last batch: past `lagLimitMs` requests are queueing (a
//   burst of quotes, a slow disk, a busy host), so the batch is halved and the pause doubled;
// - the WAL file's size: past `walLimitBytes` the checkpoints are behind the deletes, so no batch
//   runs until they catch up (pausing, up to `longestWalWaitMs` in a row, then one smallest batch
//   so a checkpointer that cannot run does not stop the job for good).
// Calm again, the pause comes back down and the batch grows back towards `maxBatch`.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { statSync } from 'node:fs';

export interface PacingSignals {
  /** The event loop's delay since the last call, in ms (its 99th percentile). */
  lagMs(): number;
  /** The WAL file's size now, in bytes. */
  walBytes(): number;
}

export interface PacerOptions {
  signals: PacingSignals;
  /** The first batch's size: small, grown once the batches show what the disk takes. */
  firstBatch?: number;
  minBatch?: number;
  maxBatch?: number;
  /** One batch's time aimed at, in ms: the longest a quote waits behind it. */
  targetBatchMs?: number;
  /** The pause after a batch is at least this many times the batch's time (1/(1+n) of the loop at most). */
  pauseFactor?: number;
  minPauseMs?: number;
  longestPauseMs?: number;
  /** Event-loop delay (99th percentile since the last batch) that counts as requests queueing. */
  lagLimitMs?: number;
  walLimitBytes: number;
  /** How long in a row the WAL may keep the job waiting before a smallest batch goes anyway. */
  longestWalWaitMs?: number;
}

/** What the pacer says before each batch: run `batch` rows, or wait `pauseMs` first and ask again. */
export type PacerStep = { kind: 'batch'; batch: number } | { kind: 'wait'; pauseMs: number; reason: 'wal' };

export interface Pacer {
  /** Before a batch: its size, or a wait while the WAL is over its limit. */
  next(): PacerStep;
  /** After a batch of `rows` that took `ms`: the pause before the next one. */
  after(rows: number, ms: number): number;
  /** Counts for the run's log line. */
  readonly stats: { batches: number; lagBackoffs: number; walWaits: number; smallestBatch: number; longestPauseMs: number };
}

/**
 * A batch holds the event loop for about 1 ms: a quote arriving meanwhile waits that long at most,
 * under half the quote path's own p99 at a steady load, so even the quotes that meet a batch stay
 * within 1.5× (docs/budgets.md). At 2 ms a batch, as at first, the delay was the size of the p99 itself.
 */
export const TARGET_BATCH_MS = 1;
/**
 * The pause after a batch is at least 9 times the batch: the job takes a tenth of the loop at
 * most, so nine quotes in ten never meet a batch at all.
 */
export const PAUSE_FACTOR = 9;

export function createPacer(options: PacerOptions): Pacer {
  const {
    signals,
    maxBatch = 500,
    targetBatchMs = TARGET_BATCH_MS,
    pauseFactor = PAUSE_FACTOR,
    minPauseMs = 10,
    longestPauseMs = 250,
    lagLimitMs = 10,
    walLimitBytes,
    longestWalWaitMs = 10_000,
  } = options;
  const minBatch = Math.min(options.minBatch ?? 25, maxBatch);
  let batch = Math.min(maxBatch, Math.max(minBatch, options.firstBatch ?? 50));
  let pause = minPauseMs;
  let walWaited = 0;
  const stats = { batches: 0, lagBackoffs: 0, walWaits: 0, smallestBatch: batch, longestPauseMs: 0 };

  return {
    stats,
    next() {
      if (signals.walBytes() > walLimitBytes && walWaited < longestWalWaitMs) {
        const wait = Math.min(longestPauseMs, Math.max(100, pause * 2));
        walWaited += wait;
        stats.walWaits += 1;
        pause = wait;
        stats.longestPauseMs = Math.max(stats.longestPauseMs, wait);
        return { kind: 'wait', pauseMs: wait, reason: 'wal' };
      }
      // A smallest batch after the longest wait: the WAL may only shrink once something writes.
      if (walWaited >= longestWalWaitMs) batch = minBatch;
      walWaited = 0;
      stats.batches += 1;
      stats.smallestBatch = Math.min(stats.smallestBatch, batch);
      return { kind: 'batch', batch };
    },
    after(rows, ms) {
      if (signals.lagMs() > lagLimitMs) {
        // Requests are queueing: half the work, twice the pause, at once.
        stats.lagBackoffs += 1;
        batch = Math.max(minBatch, Math.floor(batch / 2));
        pause = Math.min(longestPauseMs, Math.max(minPauseMs, pause * 2, ms * pauseFactor));
      } else {
        // Towards the target time per batch: shrink at once when over it, grow by a quarter when a full batch was under it.
        if (ms > targetBatchMs) batch = Math.max(minBatch, Math.floor((batch * targetBatchMs) / ms));
        else if (rows >= batch) batch = Math.min(maxBatch, batch + Math.ceil(batch / 4));
        pause = Math.min(longestPauseMs, Math.max(minPauseMs, pause / 2, ms * pauseFactor));
      }
      stats.smallestBatch = Math.min(stats.smallestBatch, batch);
      stats.longestPauseMs = Math.max(stats.longestPauseMs, pause);
      return pause;
    },
  };
}

const SAMPLE_MS = 5;

/**
 * The real signals for the database file `file`: the event loop's delay (sampled every 5 ms, its
 * 99th percentile since the last read) and the WAL's length: `walInUse`'s when it knows it (the
 * checkpoint worker's, api/platform/db/checkpointer.ts: while it runs, the WAL file keeps its
 * largest size until writes pause), else the size of `file`-wal. `stop()` ends the sampling.
 */
export function processSignals(file: string, walInUse?: () => number | undefined): PacingSignals & { stop(): void } {
  const delay = monitorEventLoopDelay({ resolution: SAMPLE_MS });
  delay.enable();
  return {
    lagMs() {
      // The histogram holds whole intervals between samples: the delay is what exceeds the resolution.
      const p99 = delay.count > 0 ? delay.percentile(99) / 1e6 - SAMPLE_MS : 0;
      delay.reset();
      return Math.max(0, p99);
    },
    walBytes() {
      const inUse = walInUse?.();
      if (inUse !== undefined) return inUse;
      if (file === '' || file === ':memory:') return 0;
      try {
        return statSync(`${file}-wal`).size;
      } catch {
        return 0;
      }
    },
    stop: () => delay.disable(),
  };
}
