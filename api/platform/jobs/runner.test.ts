// The job runner on a real database file: schedules on fake timers, days on a fake clock.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../db/client';
import { readJobMarker } from './job-state';
import { createJobRunner, dueDay, eventLoopBusy, LONGEST_DAILY_DEFERRAL_MS, type DailyJob, type IntervalJob, type JobContext } from './runner';

const freshDb = () => openDatabase(path.join(mkdtempSync(path.join(tmpdir(), 'recovery-jobs-')), 'jobs.db'));

let opened: Db[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const db of opened.splice(0)) db.$client.close();
  opened = [];
});

function setup(options: { at?: string; busy?: boolean } = {}) {
  const db = freshDb();
  opened.push(db);
  const clock = { now: new Date(options.at ?? '2026-06-10T12:00:00Z'), busy: options.busy ?? false };
  const lines: { level: string; record: Record<string, unknown> }[] = [];
  const logger = {
    info: (record: Record<string, unknown>) => lines.push({ level: 'info', record }),
    error: (record: Record<string, unknown>) => lines.push({ level: 'error', record }),
  };
  const runner = () => createJobRunner({ db, logger, now: () => clock.now, busy: () => clock.busy });
  return { db, clock, lines, runner };
}

/** A daily job that records the days it ran; `finish` false makes it stop part way. */
function nightly(options: { finish?: () => boolean } = {}) {
  const ran: string[] = [];
  const job: DailyJob = {
    name: 'nightly',
    marker: 'test:nightly',
    dailyAt: { hour: 3 },
    async run({ day }) {
      ran.push(day);
      return options.finish?.() ?? true;
    },
  };
  return { job, ran };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('interval jobs', () => {
  it('run at start, then every interval, told whether the server is busy', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { clock, runner } = setup();
    const seen: boolean[] = [];
    const jobs = runner();
    jobs.add({ name: 'every-second', everyMs: 1000, run: async ({ busy }: JobContext) => void seen.push(busy) });
    jobs.start();
    await settle();
    expect(seen).toEqual([false]);
    clock.busy = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(seen).toEqual([false, true]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(seen).toHaveLength(4);
    await jobs.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(seen).toHaveLength(4);
  });

  it('never run twice at once: a run still going when the next is due is not queued behind it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { runner } = setup();
    let finish!: () => void;
    let runs = 0;
    const jobs = runner();
    jobs.add({
      name: 'slow',
      everyMs: 100,
      run: () => {
        runs += 1;
        return new Promise<void>((resolve) => (finish = resolve));
      },
    });
    jobs.start();
    await settle();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(1);
    finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(2);
    finish();
    await jobs.stop();
  });

  it('log a failure once per episode, and the recovery', async () => {
    const { lines, runner } = setup();
    let failing = true;
    const jobs = runner();
    const job = jobs.add({
      name: 'flaky',
      everyMs: 1000,
      run: async () => {
        if (failing) throw new Error('disk full');
      },
    });
    await job.tick();
    await job.tick();
    failing = false;
    await job.tick();
    await job.tick();
    expect(lines).toEqual([
      { level: 'error', record: { msg: 'Job failed; it tries again at its next run', job: 'flaky', error: 'disk full' } },
      { level: 'info', record: { msg: 'Job recovered', job: 'flaky' } },
    ]);
    await jobs.stop();
  });

  it('refuses a second job of the same name', () => {
    const jobs = setup().runner();
    const job: IntervalJob = { name: 'twice', everyMs: 1000, run: async () => {} };
    jobs.add(job);
    expect(() => jobs.add(job)).toThrow('A job named twice is already added');
  });
});

describe('stopping', () => {
  it('waits for the run in progress, which is told to stop, closes each job once, and starts nothing after', async () => {
    const { runner } = setup();
    let release!: () => void;
    const steps: string[] = [];
    let context!: JobContext;
    const jobs = runner();
    const job = jobs.add({
      name: 'stepwise',
      everyMs: 1000,
      async run(ctx: JobContext) {
        context = ctx;
        steps.push('started');
        await new Promise<void>((resolve) => (release = resolve));
        steps.push(ctx.stopping() ? 'ended its step, stopping' : 'ended its step');
      },
      close: () => void steps.push('closed'),
    });
    void job.tick();
    await settle();
    let stopped = false;
    const stopping = jobs.stop().then(() => (stopped = true));
    expect(context.stopping()).toBe(true);
    await settle();
    expect(stopped).toBe(false);
    release();
    await stopping;
    await jobs.stop();
    await job.tick();
    expect(steps).toEqual(['started', 'ended its step, stopping', 'closed']);
  });
});

describe('daily jobs', () => {
  it('run once a UK day from the time given, marked in job_state, and a restart neither repeats nor skips a day', async () => {
    const { db, clock, runner } = setup({ at: '2027-01-20T02:59:00Z' });
    const { job, ran } = nightly();
    const tick = (at: string) => {
      clock.now = new Date(at);
      return runner().add(job).tick();
    };
    await tick('2027-01-20T02:59:00Z');
    expect(ran).toEqual([]);
    expect(readJobMarker(db, 'test:nightly')).toBeUndefined();
    await tick('2027-01-20T03:00:00Z');
    await tick('2027-01-20T23:59:00Z');
    expect(ran).toEqual(['2027-01-20']);
    expect(readJobMarker(db, 'test:nightly')).toBe('2027-01-20');
    // Down all night, up again at 09:00: the night is run late, not skipped.
    await tick('2027-01-21T09:00:00Z');
    expect(ran).toEqual(['2027-01-20', '2027-01-21']);
  });

  it('follow London time across both clock changes', async () => {
    const { clock, runner } = setup();
    const { job, ran } = nightly();
    const jobs = runner();
    const { tick } = jobs.add(job);
    const at = async (instant: string) => {
      clock.now = new Date(instant);
      await tick();
      return ran.length;
    };
    // 29 March 2026, the spring change (01:00 UTC): 03:00 BST is 02:00 UTC.
    expect(await at('2026-03-29T01:59:00Z')).toBe(0);
    expect(await at('2026-03-29T02:00:00Z')).toBe(1);
    // 30 March, BST all day: 02:00 UTC again.
    expect(await at('2026-03-30T01:59:00Z')).toBe(1);
    expect(await at('2026-03-30T02:00:00Z')).toBe(2);
    // 25 October 2026, the autumn change (01:00 UTC): 03:00 GMT is 03:00 UTC.
    expect(await at('2026-10-25T02:00:00Z')).toBe(2);
    expect(await at('2026-10-25T02:59:00Z')).toBe(2);
    expect(await at('2026-10-25T03:00:00Z')).toBe(3);
    expect(ran).toEqual(['2026-03-29', '2026-03-30', '2026-10-25']);
    await jobs.stop();
  });

  it('leave a day stopped part way unmarked, so the next start finishes it', async () => {
    const { db, clock, runner } = setup({ at: '2027-01-20T04:00:00Z' });
    let finish = false;
    const { job, ran } = nightly({ finish: () => finish });
    await runner().add(job).tick();
    expect(readJobMarker(db, 'test:nightly')).toBeUndefined();
    finish = true;
    clock.now = new Date('2027-01-20T05:00:00Z');
    await runner().add(job).tick();
    expect(readJobMarker(db, 'test:nightly')).toBe('2027-01-20');
    expect(ran).toEqual(['2027-01-20', '2027-01-20']);
  });

  it('wait for a quieter check while the server is busy, an hour at most', async () => {
    const { clock, runner } = setup({ at: '2027-01-20T03:00:00Z', busy: true });
    const { job, ran } = nightly();
    const jobs = runner();
    const { tick } = jobs.add(job);
    await tick();
    clock.now = new Date(clock.now.getTime() + LONGEST_DAILY_DEFERRAL_MS - 60_000);
    await tick();
    expect(ran).toEqual([]);
    clock.now = new Date(clock.now.getTime() + 60_000);
    await tick();
    expect(ran).toEqual(['2027-01-20']);
    // A quiet check runs at once.
    clock.busy = false;
    clock.now = new Date('2027-01-21T03:00:00Z');
    await tick();
    expect(ran).toEqual(['2027-01-20', '2027-01-21']);
    await jobs.stop();
  });
});

describe('dueDay', () => {
  it('is the UK day once London’s clock has passed the time, unless the marker has it done', () => {
    const at = { hour: 8 };
    // Winter: 08:00 GMT is 08:00 UTC.
    expect(dueDay(new Date('2026-01-15T07:59:59Z'), at, undefined)).toBeUndefined();
    expect(dueDay(new Date('2026-01-15T08:00:00Z'), at, undefined)).toBe('2026-01-15');
    expect(dueDay(new Date('2026-01-15T08:00:00Z'), at, '2026-01-14')).toBe('2026-01-15');
    expect(dueDay(new Date('2026-01-15T08:00:00Z'), at, '2026-01-15')).toBeUndefined();
    // Summer: 08:00 BST is 07:00 UTC, and 23:30 UTC is already tomorrow in London.
    expect(dueDay(new Date('2026-07-15T06:59:00Z'), at, undefined)).toBeUndefined();
    expect(dueDay(new Date('2026-07-15T07:00:00Z'), at, undefined)).toBe('2026-07-15');
    expect(dueDay(new Date('2026-07-15T23:30:00Z'), { hour: 0, minute: 15 }, '2026-07-15')).toBe('2026-07-16');
  });
});

describe('eventLoopBusy', () => {
  it('answers false at first, then whether the loop ran more than half the time since the last call', () => {
    const busy = eventLoopBusy();
    expect(busy()).toBe(false);
    const until = performance.now() + 30;
    while (performance.now() < until);
    expect(busy()).toBe(true);
  });
});
