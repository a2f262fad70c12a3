// The store object: one per opened database, the same one in the dependency bag and on the
// handle, and nothing shared between two databases (or two handles on one file) through it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { updateCompany } from '../../company/store';
import { companyWritten, onCompanyWrite } from '../../company/changes';
import { insertQuote } from '../../quotes/store';
import { createTestApp, storedQuote } from '../../test/harness';
import { openDatabase } from './client';
import { prepared } from './prepared';
import { createKeyedLocks } from './store';
import { DEFAULT_WRITE_DEADLINE_MS } from './store';
import { databaseFaults } from './faults';
import { writeDeadline } from './write';

const freshFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'recovery-store-')), 'store.db');

describe('the store object', () => {
  it('is made once when the database opens, and the app hands the same one out as deps.store', () => {
    const t = createTestApp();
    expect(t.deps.store).toBe(t.deps.db.$store);
    expect(databaseFaults(t.deps.db)).toBe(t.deps.store.faults);
    expect(writeDeadline(t.deps.db)).toBe(DEFAULT_WRITE_DEADLINE_MS);
  });

  it('keeps the write deadline openDatabase was given', () => {
    const db = openDatabase(freshFile(), { writeDeadlineMs: 250 });
    expect(writeDeadline(db)).toBe(250);
    db.$client.close();
  });

  it('holds one quote writer per database, made by the first quote', async () => {
    const db = openDatabase(freshFile());
    expect(db.$store.quoteWriter).toBeUndefined();
    await insertQuote(db, storedQuote(1));
    const writer = db.$store.quoteWriter;
    expect(writer).toBeTypeOf('function');
    await insertQuote(db, storedQuote(1));
    expect(db.$store.quoteWriter).toBe(writer);
    db.$client.close();
  });

  it('gives two handles on one file their own statements, faults and writers', async () => {
    const file = freshFile();
    const [a, b] = [openDatabase(file), openDatabase(file)];
    expect(a.$store).not.toBe(b.$store);
    let built = 0;
    const build = () => ({ n: ++built });
    expect(prepared(a, 'test:value', build)).toEqual({ n: 1 });
    expect(prepared(a, 'test:value', build)).toEqual({ n: 1 });
    expect(prepared(b, 'test:value', build)).toEqual({ n: 2 });
    await insertQuote(a, storedQuote(1));
    expect(b.$store.quoteWriter).toBeUndefined();
    a.$client.close();
    b.$client.close();
  });

  it('tells a database’s listeners of each company write made through it, and no other (the event is per process)', () => {
    const file = freshFile();
    const [a, b] = [openDatabase(file), openDatabase(file)];
    const heardA: number[] = [];
    const heardB: number[] = [];
    const stop = onCompanyWrite(a, (id) => heardA.push(id));
    onCompanyWrite(b, (id) => heardB.push(id));
    updateCompany(a, 1, { name: 'Renamed' });
    expect(heardA).toEqual([1]);
    // The other handle (as another process would) hears nothing, though the row changed under it.
    expect(heardB).toEqual([]);
    stop();
    companyWritten(a, 1);
    expect(heardA).toEqual([1]);
    a.$client.close();
    b.$client.close();
  });
});

describe('keyed locks', () => {
  it('run work of one key one at a time in arrival order, other keys alongside, a failure not blocking the next', async () => {
    const locks = createKeyedLocks();
    const events: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = locks.run('payment:1', async () => {
      events.push('first starts');
      await gate;
      events.push('first ends');
      throw new Error('provider down');
    });
    const second = locks.run('payment:1', async () => {
      events.push('second runs');
      return 2;
    });
    const other = locks.run('payment:2', async () => {
      events.push('other key runs');
      return 3;
    });
    expect(await other).toBe(3);
    expect(events).toEqual(['first starts', 'other key runs']);
    release();
    await expect(first).rejects.toThrow('provider down');
    expect(await second).toBe(2);
    expect(events).toEqual(['first starts', 'other key runs', 'first ends', 'second runs']);
  });
});
