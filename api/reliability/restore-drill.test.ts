// The rehearsed drill (docs/budgets.md, recovery point and time): the real server replicating to
// a file replica under quote load is killed with SIGKILL, its database deleted, a copy restored
// from the replica with `npm run restore`'s code, and the server started on it. Every quote
// answered more than a second before the kill must be there with the same reference and total,
// and the next quote must get a reference never issued before. Loopback only; bounded loops.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { restoreDatabase } from '../platform/db/restore';
import { demoQuoteJson } from '../../scripts/bench/demo-quote';
import { processesMentioning, spawnServer, type ServerProcess } from '../../scripts/bench/server-process';

const POSTCODES = ['CB2 1TN', 'OX1 2JD', 'WC1E 6BT', 'M1 1AE', 'LS1 4DY', 'EH1 1YZ', 'BS1 4DJ', 'B1 1BB'];
const quoteBody = (i: number) => demoQuoteJson(POSTCODES[i % POSTCODES.length], POSTCODES[(i * 3 + 1) % POSTCODES.length]);

interface Answer {
  reference: string;
  totalPence: number;
  at: number;
}

const started: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop(1000)));
});

async function quote(server: ServerProcess, i: number): Promise<Answer | undefined> {
  const res = await fetch(`${server.url}/api/quotes/calculate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: quoteBody(i) });
  if (res.status !== 200) return undefined;
  const json = (await res.json()) as { quoteId: string; totalPrice: number };
  return { reference: json.quoteId, totalPence: Math.round(json.totalPrice * 100), at: Date.now() };
}

describe('the restore drill', () => {
  it('loses nothing answered more than 1 s before a SIGKILL, and never issues a reference twice', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'recovery-drill-'));
    const databasePath = path.join(dir, 'recovery.db');
    const replicaUrl = `file://${path.join(dir, 'replica')}`;
    const server = await spawnServer({ databasePath, env: { REPLICA_URL: replicaUrl }, readyTimeoutMs: 60_000 });
    started.push(server);

    const answers: Answer[] = [];
    let killedAt = 0;
    let next = 0;
    // Four clients quoting until the kill (bounded: 20,000 attempts at most).
    const client = async () => {
      while (killedAt === 0 && next < 20_000) {
        try {
          const answer = await quote(server, next++);
          if (answer && killedAt === 0) answers.push(answer);
        } catch {
          // The connection died with the process: never answered.
        }
      }
    };
    const clients = Array.from({ length: 4 }, client);
    const deadline = Date.now() + 20_000;
    while ((answers.length < 500 || Date.now() - answers[0].at < 3000) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    server.child.kill('SIGKILL');
    killedAt = Date.now();
    await server.exited;
    await Promise.all(clients);
    expect(answers.length).toBeGreaterThanOrEqual(500);
    // Litestream went with the server: none is left replicating beside the one a restart would start.
    const stillRunning = () => processesMentioning(dir);
    const gone = Date.now() + 5000;
    while (stillRunning().length > 0 && Date.now() < gone) await new Promise((r) => setTimeout(r, 50));
    expect(stillRunning()).toEqual([]);

    // The disk is lost.
    for (const file of [databasePath, `${databasePath}-wal`, `${databasePath}-shm`]) rmSync(file, { force: true });
    expect(existsSync(databasePath)).toBe(false);

    const restoreStarted = performance.now();
    const result = await restoreDatabase({ from: replicaUrl, to: databasePath });
    const restoreMs = performance.now() - restoreStarted;
    expect(result.integrity).toBe('ok');

    const restarted = await spawnServer({ databasePath, readyTimeoutMs: 60_000 });
    started.push(restarted);
    const stored = new Map<string, number>();
    const db = new Database(databasePath, { readonly: true });
    for (const row of db.prepare('select public_id as reference, total_price_pence as total from quotes').all() as { reference: string; total: number }[]) {
      stored.set(row.reference, row.total);
    }
    db.close();

    const mustSurvive = answers.filter((a) => a.at < killedAt - 1000);
    expect(mustSurvive.length).toBeGreaterThan(0);
    const missing = mustSurvive.filter((a) => stored.get(a.reference) !== a.totalPence);
    expect(missing).toEqual([]);

    const issued = new Set(answers.map((a) => a.reference));
    const fresh = await quote(restarted, 0);
    expect(fresh).toBeDefined();
    expect(issued.has(fresh!.reference)).toBe(false);
    expect(stored.has(fresh!.reference)).toBe(false);

    const lost = answers.length - answers.filter((a) => stored.get(a.reference) === a.totalPence).length;
    console.info(`drill: ${answers.length} answered, ${lost} in the last second lost, restore took ${Math.round(restoreMs)} ms`);
  });
});
