// Migration 0016 spells the starter problem charge "Flat Tyre" in companies made before it, unless
// the company already has a "Flat Tyre" (names are unique within a list).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../paths';
import { openDatabase } from './client';

describe('migration 0016_flat_tyre', () => {
  it('renames "Flat Tire" to "Flat Tyre", except where the company already has one', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'flat-tyre-')), 'test.db');
    const db = openDatabase(file);
    const sqlite = db.$client;
    const company = (name: string) =>
      (
        sqlite
          .prepare("insert into companies (name, created_at, updated_at) values (?, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z') returning id")
          .get(name) as { id: number }
      ).id;
    const charge = sqlite.prepare('insert into surcharges (company_id, problem_type, amount_pence) values (?, ?, ?) returning id');
    const older = company('Made before');
    const both = company('Has both');
    const renamed = (charge.get(older, 'Flat Tire', 2500) as { id: number }).id;
    const kept = (charge.get(both, 'Flat Tire', 1000) as { id: number }).id;
    charge.get(both, 'flat tyre', 1500);
    // Rows as a database from before the migration holds them: its SQL run on them as migrate runs it.
    sqlite.exec(readFileSync(path.join(MIGRATIONS_DIR, '0016_flat_tyre.sql'), 'utf8'));
    const name = (id: number) => sqlite.prepare('select problem_type from surcharges where id = ?').pluck().get(id);
    expect(name(renamed)).toBe('Flat Tyre');
    expect(name(kept)).toBe('Flat Tire');
    sqlite.close();
  });
});
