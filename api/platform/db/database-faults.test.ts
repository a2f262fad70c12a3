// Decision 012: another process's write lock must not freeze the server, and a
// database that cannot write (locked past the deadline, read-only, full) answers 503 with
// Retry-After, fails /readyz while /healthz stays 200, and is logged once per episode.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, quoteBody } from '../../test/harness';

type TestApp = ReturnType<typeof createTestApp>;
import type { Logger } from '../http/observability';

const UNAVAILABLE = 'The service is temporarily unavailable. Please try again shortly.';

function capturingLogger() {
  const records: { level: string; record: Record<string, unknown> }[] = [];
  const logger: Logger = {
    info: (record) => records.push({ level: 'info', record }),
    warn: (record) => records.push({ level: 'warn', record }),
    error: (record) => records.push({ level: 'error', record }),
  };
  // Request lines are one per request by design; these tests count everything else.
  const episodes = () => records.filter((r) => !('status' in r.record && 'durationMs' in r.record));
  return { logger, records, episodes };
}

/** Another process holding the write lock, as a `sqlite3` shell's BEGIN IMMEDIATE would. */
function holdWriteLock(file: string) {
  const other = new Database(file);
  other.exec('BEGIN IMMEDIATE');
  return {
    release() {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    },
  };
}

const opened: { release(): void }[] = [];
afterEach(() => {
  for (const lock of opened.splice(0)) lock.release();
  vi.useRealTimers();
});

const postQuote = (t: TestApp) => t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companySlug: 'demo' } });
const quoteCount = (t: TestApp) => (t.deps.db.$client.prepare('select count(*) as n from quotes').get() as { n: number }).n;

describe("another process's write lock", () => {
  it('leaves /healthz and public reads answering at once while a quote waits for the lock, then stores the quote', async () => {
    const t = createTestApp();
    // The first quote loads the postcode data and prepares the writer: done before the clock starts.
    expect((await postQuote(t)).status).toBe(200);
    const before = quoteCount(t);
    const lock = holdWriteLock(t.dbFile);
    opened.push(lock);
    // The other process lets go after 1.5 s. The timer runs on this thread, as every request does:
    // a server that waits for the lock on its event loop never lets it fire, and the quote fails.
    const hold = setTimeout(() => lock.release(), 1500);

    let settled = false;
    const quote = postQuote(t).finally(() => {
      settled = true;
    });
    let probes = 0;
    while (!settled) {
      const started = performance.now();
      expect((await t.raw('GET', '/healthz')).status).toBe(200);
      expect((await t.call('GET', '/api/company/slug/demo')).status).toBe(200);
      // app.request settles in microtasks alone: give timers and I/O their turn, as sockets would.
      // A write waiting for the lock on the event loop would hold up this turn until the release,
      // 1.5 s on; a busy machine (the suite beside the journeys) takes a few hundred ms at most.
      await new Promise(setImmediate);
      expect(performance.now() - started).toBeLessThan(1000);
      probes += 1;
    }
    clearTimeout(hold);
    const res = await quote;
    expect(res.status).toBe(200);
    expect(res.json.quoteId).toEqual(expect.any(String));
    expect(quoteCount(t)).toBe(before + 1);
    // The quote waited for the release: requests were answered all the while.
    expect(probes).toBeGreaterThan(1);
  });

  it('answers 503 with Retry-After once the lock is held past the write deadline, logs it once, and recovers', async () => {
    const { logger, episodes } = capturingLogger();
    const t = createTestApp({ logger });
    t.deps.store.writeDeadlineMs = 200;
    const before = quoteCount(t);
    const lock = holdWriteLock(t.dbFile);
    opened.push(lock);

    const [first, second] = await Promise.all([postQuote(t), postQuote(t)]);
    for (const res of [first, second]) {
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.json).toEqual({ message: UNAVAILABLE, code: 'SERVICE_UNAVAILABLE', requestId: expect.any(String) });
    }
    const third = await postQuote(t);
    expect(third.status).toBe(503);
    const ready = await t.raw('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect((await t.raw('GET', '/healthz')).status).toBe(200);
    expect(quoteCount(t)).toBe(before);
    // One line for the episode, with its cause, and no stack.
    expect(episodes()).toEqual([{ level: 'error', record: expect.objectContaining({ code: 'SQLITE_BUSY' }) }]);
    expect(episodes()[0].record).not.toHaveProperty('stack');

    lock.release();
    const after = await postQuote(t);
    expect(after.status).toBe(200);
    expect(quoteCount(t)).toBe(before + 1);
    expect(episodes().slice(1)).toEqual([{ level: 'info', record: expect.objectContaining({ msg: 'Database recovered', code: 'SQLITE_BUSY', failures: 3 }) }]);
  });
  it('lets a settings save wait for the lock off the event loop, and answers 503 changing nothing past the deadline', async () => {
    const t = createTestApp();
    const op = await t.operator();
    const callOutFee = () =>
      (t.deps.db.$client.prepare('select call_out_fee_pence as fee from pricing_rates where company_id = ?').get(op.companyId) as { fee: number }).fee;
    const save = (fee: number) => t.call('PUT', '/api/pricing', { token: op.token, body: { callOutFee: fee } });

    const lock = holdWriteLock(t.dbFile);
    opened.push(lock);
    const transactions = vi.spyOn(t.deps.db.$client, 'transaction');
    let settled = false;
    const saving = save(61).finally(() => {
      settled = true;
    });
    // The save has reached the database and met the lock; the server still answers meanwhile.
    await vi.waitFor(
      async () => {
        expect((await t.raw('GET', '/healthz')).status).toBe(200);
        expect(transactions).toHaveBeenCalled();
      },
      { timeout: 5000, interval: 10 },
    );
    expect((await t.call('GET', '/api/company/slug/demo')).status).toBe(200);
    expect(settled).toBe(false);
    lock.release();
    expect((await saving).status).toBe(200);
    expect(callOutFee()).toBe(6100);

    t.deps.store.writeDeadlineMs = 100;
    const again = holdWriteLock(t.dbFile);
    opened.push(again);
    const late = await save(75);
    expect(late.status).toBe(503);
    expect(late.headers.get('retry-after')).toBe('5');
    again.release();
    expect(callOutFee()).toBe(6100);
  });
});

describe('a database that cannot write', () => {
  it('read-only: quotes answer 503 with Retry-After, /readyz fails, /healthz and reads stay 200; logged once', async () => {
    const { logger, episodes } = capturingLogger();
    const t = createTestApp({ logger });
    vi.useFakeTimers({ toFake: ['Date'] });
    // What a read-only file or mount does to every write of this connection.
    t.deps.db.$client.pragma('query_only = 1');

    for (let i = 0; i < 3; i++) {
      const res = await postQuote(t);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.json.message).toBe(UNAVAILABLE);
    }
    // A signed-out settings write fails before the database; a signup reaches it.
    const signup = await t.call('POST', '/api/signup', {
      body: { name: 'Read Only', email: 'read-only@example.com', password: 'correct-horse', companyName: 'Read Only' },
    });
    expect(signup.status).toBe(503);
    expect((await t.raw('GET', '/readyz')).status).toBe(503);
    expect((await t.raw('GET', '/healthz')).status).toBe(200);
    expect((await t.call('GET', '/api/company/slug/demo')).status).toBe(200);
    expect(episodes()).toEqual([{ level: 'error', record: expect.objectContaining({ code: 'SQLITE_READONLY' }) }]);

    // The probe itself fails while the database stays read-only, whatever the time.
    vi.setSystemTime(Date.now() + 60_000);
    expect((await t.raw('GET', '/readyz')).status).toBe(503);

    t.deps.db.$client.pragma('query_only = 0');
    vi.setSystemTime(Date.now() + 60_000);
    expect((await t.raw('GET', '/readyz')).status).toBe(200);
    expect((await postQuote(t)).status).toBe(200);
    expect(episodes().slice(1)).toEqual([
      { level: 'info', record: expect.objectContaining({ msg: 'Database recovered', code: 'SQLITE_READONLY', failures: 5 }) },
    ]);
  });

  it('full: a quote that needs a new page answers 503 with Retry-After, and /readyz fails after it', async () => {
    const { logger, episodes } = capturingLogger();
    const t = createTestApp({ logger });
    const sqlite = t.deps.db.$client;
    // No page beyond those the file has now: what a full disk does to the next write that grows it.
    sqlite.pragma(`max_page_count = ${sqlite.pragma('page_count', { simple: true }) as number}`);

    let res = await postQuote(t);
    for (let i = 0; i < 500 && res.status === 200; i++) res = await postQuote(t);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.json.message).toBe(UNAVAILABLE);
    expect((await postQuote(t)).status).toBe(503);
    expect((await t.raw('GET', '/readyz')).status).toBe(503);
    expect((await t.raw('GET', '/healthz')).status).toBe(200);
    expect(episodes()).toEqual([{ level: 'error', record: expect.objectContaining({ code: 'SQLITE_FULL' }) }]);
  });
});
