// A database file made read-only before the server starts, then writable again: the real server,
// as a process, says so at start, answers /healthz 200 and /readyz and the API 503 in the one
// error shape meanwhile, and serves quotes once the file can be written, with no restart.
// Started as root (where file permissions do not apply), the server runs as `nobody`.
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../platform/db/client';
import { demoQuoteJson } from '../../scripts/bench/demo-quote';
import { spawnServer, type ServerProcess } from '../../scripts/bench/server-process';

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const started: ServerProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop(2000)));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const UNAVAILABLE = 'The service is temporarily unavailable. Please try again shortly.';

describe('a database file that cannot be written at start', () => {
  it('is logged at start, answers 503 meanwhile, and serves once the file is writable again, without a restart', { timeout: 90_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'recovery-read-only-'));
    dirs.push(dir);
    const databasePath = path.join(dir, 'recovery.db');
    openDatabase(databasePath).$client.close();
    const files = () => [databasePath, `${databasePath}-wal`, `${databasePath}-shm`].filter((file) => existsSync(file));
    if (asRoot) {
      chmodSync(dir, 0o755);
      for (const file of [dir, ...files()]) chownSync(file, NOBODY, NOBODY);
    }
    chmodSync(databasePath, 0o444);

    let output = '';
    const server = await spawnServer({
      databasePath,
      env: { LOG_LEVEL: 'info' },
      stdout: 'pipe',
      readyTimeoutMs: 60_000,
      ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
    });
    started.push(server);
    server.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const quote = () =>
      fetch(`${server.url}/api/quotes/calculate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: demoQuoteJson('CB2 1TN', 'OX1 2JD'),
      });

    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    const refused = await quote();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ message: UNAVAILABLE, code: 'SERVICE_UNAVAILABLE', requestId: expect.any(String) });
    await vi.waitFor(() => expect(output).toContain('Database cannot be written'), { timeout: 10_000, interval: 50 });
    expect(output).toContain('SQLITE_READONLY');

    // Writable again (the file and the -wal and -shm SQLite made beside it with its permissions).
    for (const file of files()) chmodSync(file, 0o644);
    await vi.waitFor(async () => expect((await fetch(`${server.url}/readyz`)).status).toBe(200), { timeout: 30_000, interval: 200 });
    const served = await quote();
    expect(served.status).toBe(200);
    expect((await served.json()).quoteId).toEqual(expect.any(String));
    // The log is written asynchronously (pino's destination): the line may reach the pipe just after the answer.
    await vi.waitFor(() => expect(output).toContain('Database writable again'), { timeout: 10_000, interval: 50 });
    // The same process throughout.
    expect(server.child.exitCode).toBeNull();
  });
});
