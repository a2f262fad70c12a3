// Every number the server gives out must move past a restore's lost window (restore.ts). The
// schema is read here, not a list kept by hand: every AUTOINCREMENT table, every INTEGER PRIMARY
// KEY that is not another table's id, and every column named like a counter. A new counter fails
// these tests until restore.ts moves it (COUNTER_COLUMNS) or it is listed below with why it is none.
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness';
import { COUNTER_COLUMNS, makeSafeToServe, MIN_SEQUENCE_GAP } from './restore';

/** A column whose name says it holds the last or next number of a sequence, or a version. */
const COUNTER_NAME = /^(last|next)_|(^|_)(seq|sequence|counter|version|serial)$/;
/** A table whose name says it holds sequences or counters. */
const COUNTER_TABLE = /sequence|counter|serial/;

/** INTEGER PRIMARY KEYs without AUTOINCREMENT that are not another table's id, each with why no number is given out. */
const PLAIN_INTEGER_KEYS: Record<string, string> = {
  'quote_reference_key.id': 'one row, always id 1: the key of the quote references',
};
/** Counter-like names that are no counter, each with why. */
const NOT_COUNTERS: Record<string, string> = {};

interface Column {
  table: string;
  name: string;
  type: string;
  pk: number;
}

function migratedSchema() {
  const t = createTestApp();
  const db = new Database(t.dbFile, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%'").all() as {
      name: string;
      sql: string;
    }[];
    const columns = tables.flatMap(({ name }) =>
      (db.prepare('select name, type, pk from pragma_table_info(?)').all(name) as Omit<Column, 'table'>[]).map((c) => ({ ...c, table: name })),
    );
    const foreignKeys = new Set(
      tables.flatMap(({ name }) =>
        (db.prepare('select "from" from pragma_foreign_key_list(?)').pluck().all(name) as string[]).map((from) => `${name}.${from}`),
      ),
    );
    return { file: t.dbFile, tables, columns, foreignKeys };
  } finally {
    db.close();
  }
}

let schema: ReturnType<typeof migratedSchema>;
beforeAll(() => {
  schema = migratedSchema();
});
const isInteger = (c: Column) => /int/i.test(c.type);

describe('the number sequences a restore moves', () => {
  it('lists every counter column of the schema in COUNTER_COLUMNS, and nothing that is not there', () => {
    const listed = new Set(COUNTER_COLUMNS.map((c) => `${c.table}.${c.column}`));
    const found = schema.columns
      .filter((c) => isInteger(c) && c.pk === 0 && (COUNTER_NAME.test(c.name) || COUNTER_TABLE.test(c.table)))
      .map((c) => `${c.table}.${c.name}`)
      .filter((name) => !(name in NOT_COUNTERS));
    expect(found.sort()).toEqual([...listed].sort());
    // Each listed counter names a real table and column (and owner).
    for (const counter of COUNTER_COLUMNS) {
      expect(schema.columns.some((c) => c.table === counter.table && c.name === counter.column)).toBe(true);
      if (counter.owner) expect(schema.foreignKeys.has(`${counter.table}.${counter.owner.key}`)).toBe(true);
    }
  });

  it('finds no INTEGER PRIMARY KEY that reuses ids (no AUTOINCREMENT) unless it is another table’s id or listed', () => {
    const autoincrement = new Set(schema.tables.filter((t) => /\bautoincrement\b/i.test(t.sql)).map((t) => t.name));
    const plain = schema.columns
      .filter((c) => isInteger(c) && c.pk > 0 && !autoincrement.has(c.table) && !schema.foreignKeys.has(`${c.table}.${c.name}`))
      .map((c) => `${c.table}.${c.name}`);
    expect(plain.sort()).toEqual(Object.keys(PLAIN_INTEGER_KEYS).sort());
    expect(autoincrement.size).toBeGreaterThan(10);
  });

  it('moves every AUTOINCREMENT table and every counter past the gap, rows never written included', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'recovery-counters-'));
    const copy = path.join(dir, 'copy.db');
    copyFileSync(schema.file, copy);
    // A company and a user with no document yet: the lost window may have issued their first.
    const seeded = new Database(copy);
    const companyIds = seeded.prepare('select id from companies').pluck().all() as number[];
    seeded.close();
    expect(companyIds.length).toBeGreaterThan(0);

    const result = makeSafeToServe(copy, new Date());
    const db = new Database(copy, { readonly: true });
    try {
      const seqs = new Map((db.prepare('select name, seq from sqlite_sequence').all() as { name: string; seq: number }[]).map((r) => [r.name, r.seq]));
      for (const table of schema.tables.filter((t) => /\bautoincrement\b/i.test(t.sql))) {
        expect({ table: table.name, moved: (seqs.get(table.name) ?? 0) >= MIN_SEQUENCE_GAP }).toEqual({ table: table.name, moved: true });
      }
      for (const counter of COUNTER_COLUMNS) {
        const values = db.prepare(`select ${counter.column} from ${counter.table}`).pluck().all() as number[];
        expect(values.every((v) => v >= MIN_SEQUENCE_GAP)).toBe(true);
        if (counter.owner) expect(values.length).toBe(db.prepare(`select count(*) from ${counter.owner.table}`).pluck().get());
      }
      expect(result.counters.find((c) => c.table === 'document_sequences')).toMatchObject({ moved: 0, added: companyIds.length });
    } finally {
      db.close();
    }
  });
});
