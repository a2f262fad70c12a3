import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPacer, processSignals } from './pacer';

const MB = 1024 * 1024;

/** Signals the test sets, as a lagging event loop or a growing WAL would. */
function fakeSignals() {
  const signals = { lag: 0, wal: 0, lagMs: () => signals.lag, walBytes: () => signals.wal };
  return signals;
}

const batchOf = (step: ReturnType<ReturnType<typeof createPacer>['next']>) => {
  if (step.kind !== 'batch') throw new Error(`expected a batch, got ${JSON.stringify(step)}`);
  return step.batch;
};

describe('the backlog pacer', () => {
  it('grows full, quick batches up to the largest, with the shortest pause', () => {
    const signals = fakeSignals();
    const pacer = createPacer({ signals, walLimitBytes: 16 * MB, firstBatch: 50, maxBatch: 500, minPauseMs: 5 });
    const sizes = [];
    for (let i = 0; i < 20; i++) {
      const batch = batchOf(pacer.next());
      sizes.push(batch);
      expect(pacer.after(batch, 0.5)).toBe(5);
    }
    expect(sizes[0]).toBe(50);
    expect(sizes[1]).toBeGreaterThan(50);
    expect(sizes.at(-1)).toBe(500);
  });

  it('sizes a batch to the target time and pauses several times as long as the batch took', () => {
    const signals = fakeSignals();
    const pacer = createPacer({ signals, walLimitBytes: 16 * MB, firstBatch: 400, targetBatchMs: 2, pauseFactor: 4 });
    const batch = batchOf(pacer.next());
    // 400 rows took 8 ms: four times the target.
    expect(pacer.after(batch, 8)).toBe(32);
    expect(batchOf(pacer.next())).toBe(100);
  });

  it('by default holds the loop about 1 ms a batch and takes a tenth of it at most (docs/budgets.md: quote p99 within 1.5×)', () => {
    const pacer = createPacer({ signals: fakeSignals(), walLimitBytes: 16 * MB, firstBatch: 200, minBatch: 10 });
    const batch = batchOf(pacer.next());
    // 200 rows took 4 ms: a quarter of them make 1 ms, and the pause is nine times what the batch took.
    const pause = pacer.after(batch, 4);
    expect(batchOf(pacer.next())).toBe(50);
    expect(pause).toBe(36);
    // However quick the batches, never more than one per 10 ms.
    for (let i = 0; i < 20; i++) expect(pacer.after(batchOf(pacer.next()), 0.1)).toBeGreaterThanOrEqual(10);
  });

  it('halves the batch and doubles the pause while the event loop lags, and comes back once it does not', () => {
    const signals = fakeSignals();
    const pacer = createPacer({ signals, walLimitBytes: 16 * MB, firstBatch: 400, minBatch: 25, lagLimitMs: 10, minPauseMs: 5, longestPauseMs: 500 });
    signals.lag = 40;
    const sizes: number[] = [];
    const pauses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const batch = batchOf(pacer.next());
      sizes.push(batch);
      pauses.push(pacer.after(batch, 1));
    }
    expect(sizes).toEqual([400, 200, 100, 50, 25, 25, 25, 25]);
    expect(pauses).toEqual([10, 20, 40, 80, 160, 320, 500, 500]);
    expect(pacer.stats.lagBackoffs).toBe(8);

    signals.lag = 1;
    let last = 0;
    for (let i = 0; i < 30; i++) last = pacer.after(batchOf(pacer.next()), 0.5);
    expect(last).toBe(5);
    expect(batchOf(pacer.next())).toBeGreaterThan(25);
  });

  it('runs no batch while the WAL is over its limit, then a smallest one after the longest wait', () => {
    const signals = fakeSignals();
    const pacer = createPacer({ signals, walLimitBytes: 16 * MB, firstBatch: 200, minBatch: 25, longestPauseMs: 500, longestWalWaitMs: 2000 });
    signals.wal = 40 * MB;
    const waits: number[] = [];
    for (let step = pacer.next(); step.kind === 'wait'; step = pacer.next()) {
      expect(step.reason).toBe('wal');
      waits.push(step.pauseMs);
      if (waits.length > 100) throw new Error('never gave up waiting');
    }
    expect(waits.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2000);
    expect(waits.every((ms) => ms >= 100 && ms <= 500)).toBe(true);
    expect(pacer.stats.smallestBatch).toBe(25);

    // Back within the limit: batches run at once.
    signals.wal = 16 * MB;
    expect(pacer.next().kind).toBe('batch');
  });

  it('reads the real event loop delay and a missing WAL as none', async () => {
    const signals = processSignals('/nonexistent/recovery.db');
    try {
      await new Promise((resolve) => setTimeout(resolve, 30));
      signals.lagMs();
      await new Promise((resolve) => setTimeout(resolve, 20));
      const blockedUntil = performance.now() + 60;
      while (performance.now() < blockedUntil);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(signals.lagMs()).toBeGreaterThanOrEqual(40);
      expect(signals.walBytes()).toBe(0);
    } finally {
      signals.stop();
    }
  });

  it('takes the WAL length the checkpoint worker gives over the file, and the file while it gives none', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'recovery-pacer-'));
    const file = path.join(dir, 'live.db');
    writeFileSync(`${file}-wal`, '');
    truncateSync(`${file}-wal`, 40 * MB);
    let inUse: number | undefined = 4 * MB;
    const signals = processSignals(file, () => inUse);
    try {
      // The worker keeps a large WAL file while writes go on: its length since it started over counts.
      expect(signals.walBytes()).toBe(4 * MB);
      inUse = undefined;
      expect(signals.walBytes()).toBe(40 * MB);
    } finally {
      signals.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
