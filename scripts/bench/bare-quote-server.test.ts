// The bench's bare-handler reference must do the quote's real work, or its figure means nothing:
// the same answer as the API, and a stored row unless STORE=0 says otherwise.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { demoQuoteJson } from './demo-quote';
import { spawnServer, type ServerProcess } from './server-process';

const started: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop(1000)));
});

async function quoteOnce(env: Record<string, string>) {
  const server = await spawnServer({ script: 'scripts/bench/bare-quote-server.ts', env });
  started.push(server);
  const res = await fetch(`${server.url}/api/quotes/calculate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: demoQuoteJson('CB2 1TN', 'OX1 2JD'),
  });
  const quote = (await res.json()) as { quoteId: string; totalPrice: number; distance: number };
  const db = new Database(server.databasePath, { readonly: true });
  const stored = db.prepare('select public_id as publicId, total_price_pence as total from quotes').all() as { publicId: string; total: number }[];
  db.close();
  return { status: res.status, quote, stored };
}

describe('scripts/bench/bare-quote-server.ts', () => {
  it('prices and stores the quote with the API’s own quote service', async () => {
    const { status, quote, stored } = await quoteOnce({});
    expect(status).toBe(200);
    expect(quote.distance).toBeGreaterThan(50);
    expect(stored).toEqual([{ publicId: quote.quoteId, total: Math.round(quote.totalPrice * 100) }]);
  });

  it('with STORE=0 prices the quote and stores nothing', async () => {
    const { status, quote, stored } = await quoteOnce({ STORE: '0' });
    expect(status).toBe(200);
    expect(quote.totalPrice).toBeGreaterThan(50);
    expect(stored).toEqual([]);
  });

  it('answers 400 to a body that is not a quote, and keeps serving', async () => {
    const server = await spawnServer({ script: 'scripts/bench/bare-quote-server.ts' });
    started.push(server);
    const post = (body: string) => fetch(`${server.url}/api/quotes/calculate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect((await post('{"companyId": 1,')).status).toBe(400);
    expect((await post('{"companyId": 1}')).status).toBe(400);
    expect((await post(demoQuoteJson('CB2 1TN', 'OX1 2JD'))).status).toBe(200);
  });
});
