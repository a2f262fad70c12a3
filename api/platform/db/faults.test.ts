import Database from 'better-sqlite3';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { createDatabaseFaults, databaseUnavailableCode } from './faults';
import { retryWhileBusy } from './write';

/** Shaped as better-sqlite3's SqliteError: a message and a SQLite code. */
function sqliteError(code: string): Error {
  const error = new Error('simulated') as Error & { code: string };
  error.code = code;
  return error;
}

describe('databaseUnavailableCode', () => {
  it('recognises the database being unavailable, extended codes and Drizzle-wrapped errors included', () => {
    for (const code of [
      'SQLITE_BUSY',
      'SQLITE_BUSY_SNAPSHOT',
      'SQLITE_FULL',
      'SQLITE_READONLY',
      'SQLITE_READONLY_DBMOVED',
      'SQLITE_IOERR_WRITE',
      'SQLITE_CANTOPEN',
    ]) {
      expect(databaseUnavailableCode(sqliteError(code))).toBe(code);
    }
    const wrapped = new DrizzleQueryError('insert into quotes ...', [], sqliteError('SQLITE_FULL'));
    expect(databaseUnavailableCode(wrapped)).toBe('SQLITE_FULL');
  });

  it('leaves bugs and bad rows to the 500 and 409 paths', () => {
    const db = new Database(':memory:');
    db.exec('create table t (id integer primary key, name text not null unique)');
    db.exec("insert into t (name) values ('a')");
    const duplicate = (() => {
      try {
        db.exec("insert into t (name) values ('a')");
      } catch (error) {
        return error;
      }
    })();
    expect((duplicate as { code: string }).code).toBe('SQLITE_CONSTRAINT_UNIQUE');
    expect(databaseUnavailableCode(duplicate)).toBeUndefined();
    expect(databaseUnavailableCode(new TypeError('x is undefined'))).toBeUndefined();
    db.close();
  });
});

describe('database fault episodes', () => {
  it('logs the first failure with its cause, counts the rest, logs a change of cause, and logs recovery once', () => {
    let now = 1_000;
    const lines: { level: string; record: Record<string, unknown> }[] = [];
    const faults = createDatabaseFaults(() => now);
    faults.log = (level, record) => lines.push({ level, record });

    faults.succeeded();
    expect(lines).toEqual([]);
    for (let i = 0; i < 5; i++) faults.failed(sqliteError('SQLITE_BUSY'));
    expect(lines).toEqual([{ level: 'error', record: expect.objectContaining({ code: 'SQLITE_BUSY', error: 'simulated' }) }]);
    expect(faults.failedWithin(5000)).toBe(true);

    now += 2_000;
    faults.failed(sqliteError('SQLITE_FULL'));
    expect(lines[1]).toEqual({ level: 'error', record: expect.objectContaining({ code: 'SQLITE_FULL' }) });
    now += 6_000;
    expect(faults.failedWithin(5000)).toBe(false);

    faults.succeeded();
    faults.succeeded();
    expect(lines.slice(2)).toEqual([{ level: 'info', record: { msg: 'Database recovered', code: 'SQLITE_FULL', failures: 6, unavailableMs: 8_000 } }]);
  });
});

describe('retryWhileBusy', () => {
  it('tries again while busy and returns the first result', async () => {
    let tries = 0;
    const result = await retryWhileBusy(() => {
      tries += 1;
      if (tries < 4) throw sqliteError('SQLITE_BUSY');
      return 'stored';
    }, 5000);
    expect(result).toBe('stored');
    expect(tries).toBe(4);
  });

  it('throws any other error at once, and the last SQLITE_BUSY once the deadline has passed', async () => {
    let tries = 0;
    await expect(
      retryWhileBusy(() => {
        tries += 1;
        throw sqliteError('SQLITE_FULL');
      }, 5000),
    ).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expect(tries).toBe(1);
    await expect(
      retryWhileBusy(() => {
        throw sqliteError('SQLITE_BUSY');
      }, 50),
    ).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
  });
});
