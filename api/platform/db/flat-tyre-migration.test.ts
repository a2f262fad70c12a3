// Migration 0016 spells the starter problem charge "Flat Tyre" in companies made before it, unless
// the company already has a "Flat Tyre" (names are unique within a list).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client';

const FLAT_TYRE_MIGRATION_WHEN = 1795700800000;

describe('migration 0016_flat_tyre', () => {
  it('renames "Flat Tire" to "Flat Tyre", except where the company already has one', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'flat-tyre-')), 'test.db');
    const db = openDatabase(file);
    const sqlite = db.$client;
    const company = (name: string) =>
      (sqlite.prepare("insert into companies (name, created_at, updated_at) values (?, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z') returning id").get(name) as { id: number }).id;
    const charge = sqlite.prepare('insert into surcharges (company_id, problem_type, amount_pence) values (?, ?, ?) returning id');
    const older = company('Made before');
    const both = company('Has both');
    const renamed = (charge.get(older, 'Flat Tire', 2500) as { id: number }).id;
    const kept = (charge.get(both, 'Flat Tire', 1000) as { id: number }).id;
    charge.get(both, 'flat tyre', 1500);
    // As a database from before the migration: its record removed, it runs on the next open.
    sqlite.prepare('delete from __drizzle_migrations where created_at >= ?').run(FLAT_TYRE_MIGRATION_WHEN);
    sqlite.close();

    const reopened = openDatabase(file);
    const name = (id: number) => reopened.$client.prepare('select problem_type from surcharges where id = ?').pluck().get(id);
    expect(name(renamed)).toBe('Flat Tyre');
    expect(name(kept)).toBe('Flat Tire');
    reopened.$client.close();
  });
});
