// The bench's bare-handler reference must do the quote's real work, or its figure means nothing:
// the same answer as the API, and a stored row unless STORE=0 says otherwise.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoQuoteJson } from './demo-quote';
import { spawnServer, type ServerProcess } from './server-process';

const started: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop(1000)));
});

async function start(env: Record<string, string> = {}) {
  const server = await spawnServer({ script: 'scripts/bench/bare-quote-server.ts', env });
  started.push(server);
  return server;
}

const post = (server: ServerProcess, body: string) =>
  fetch(`${server.url}/api/quotes/calculate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

async function quoteOnce(server: ServerProcess) {
  const res = await post(server, demoQuoteJson('CB2 1TN', 'OX1 2JD'));
  const quote = (await res.json()) as { quoteId: string; totalPrice: number; distance: number };
  const db = new Database(server.databasePath, { readonly: true });
  const stored = db.prepare('select public_id as publicId, total_price_pence as total from quotes').all() as { publicId: string; total: number }[];
  db.close();
  return { status: res.status, quote, stored };
}

// A start through tsx costs about two seconds of CPU: the default server is started once for the
// two tests that use it.
describe('scripts/bench/bare-quote-server.ts', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await start();
  });

  it('prices and stores the quote with the API’s own quote service', async () => {
    const { status, quote, stored } = await quoteOnce(server);
    expect(status).toBe(200);
    expect(quote.distance).toBeGreaterThan(50);
    expect(stored.filter((row) => row.publicId === quote.quoteId)).toEqual([{ publicId: quote.quoteId, total: Math.round(quote.totalPrice * 100) }]);
  });

  it('answers 400 to a body that is not a quote, and keeps serving', async () => {
    expect((await post(server, '{"companyId": 1,')).status).toBe(400);
    expect((await post(server, '{"companyId": 1}')).status).toBe(400);
    expect((await post(server, demoQuoteJson('CB2 1TN', 'OX1 2JD'))).status).toBe(200);
  });

  it('with STORE=0 prices the quote and stores nothing', async () => {
    const { status, quote, stored } = await quoteOnce(await start({ STORE: '0' }));
    expect(status).toBe(200);
    expect(quote.totalPrice).toBeGreaterThan(50);
    expect(stored).toEqual([]);
  });
});
