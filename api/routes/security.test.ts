// Generated security cases for every private route (STYLE.md #14): no session → 401, another
// company's row → 404 and untouched, a cookie-authenticated write from a foreign origin → 403.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness';

const LISTS = [
  { path: '/api/vehicle-types', create: { name: 'Flatbed' }, update: { basePrice: 1 } },
  { path: '/api/gearbox-types', create: { name: 'CVT' }, update: { basePrice: 1 } },
  { path: '/api/rolling-status-types', create: { name: 'Stuck' }, update: { basePrice: 1 } },
  { path: '/api/surcharges', create: { problemType: 'Ditch', amount: 10 }, update: { amount: 1 } },
  { path: '/api/passenger-charges', create: { passengerCount: 2, basePrice: 4 }, update: { basePrice: 1 } },
];

const PRIVATE_ROUTES: { method: string; path: string; body?: unknown }[] = [
  { method: 'GET', path: '/api/company' },
  { method: 'PUT', path: '/api/company', body: { name: 'X' } },
  { method: 'GET', path: '/api/pricing' },
  { method: 'PUT', path: '/api/pricing', body: {} },
  { method: 'GET', path: '/api/problem-types' },
  ...LISTS.flatMap((l) => [
    { method: 'GET', path: l.path },
    { method: 'POST', path: l.path, body: l.create },
    { method: 'PUT', path: `${l.path}/1`, body: l.update },
    { method: 'DELETE', path: `${l.path}/1` },
  ]),
];

describe('private routes', () => {
  const t = createTestApp();

  it.each(PRIVATE_ROUTES)('$method $path without a session → 401', async ({ method, path, body }) => {
    const res = await t.call(method, path, { body });
    expect(res.status).toBe(401);
    expect(res.json.message).toBeTruthy();
  });

  it.each(PRIVATE_ROUTES.filter((r) => r.method !== 'GET'))(
    '$method $path with the cookie from a foreign origin → 403',
    async ({ method, path, body }) => {
      const op = await t.operator();
      const res = await t.call(method, path, { body, cookie: op.cookie, origin: 'https://evil.example' });
      expect(res.status).toBe(403);
      const cross = await t.call(method, path, { body, cookie: op.cookie, headers: { 'sec-fetch-site': 'cross-site' } });
      expect(cross.status).toBe(403);
    },
  );

  it('accepts the cookie from our own origin', async () => {
    const op = await t.operator();
    const res = await t.call('PUT', '/api/pricing', { body: {}, cookie: op.cookie, origin: 'http://localhost:3999' });
    expect(res.status).toBe(200);
  });

  it.each(LISTS)("another company's $path row is a 404 and stays unchanged", async ({ path, create, update }) => {
    const owner = await t.operator();
    const intruder = await t.operator();
    const row = await t.call('POST', path, { token: owner.token, body: create });
    expect(row.status).toBe(201);
    const id = row.json.id;
    expect((await t.call('PUT', `${path}/${id}`, { token: intruder.token, body: update })).status).toBe(404);
    expect((await t.call('DELETE', `${path}/${id}`, { token: intruder.token })).status).toBe(404);
    const intruderList = await t.call('GET', path, { token: intruder.token });
    expect(intruderList.json.find((r: { id: number }) => r.id === id)).toBeUndefined();
    const ownerList = await t.call('GET', path, { token: owner.token });
    expect(ownerList.json.find((r: { id: number }) => r.id === id)).toEqual(row.json);
  });

  it('ignores companyId in bodies: rows are created for the session’s company', async () => {
    const a = await t.operator();
    const b = await t.operator();
    const res = await t.call('POST', '/api/vehicle-types', { token: a.token, body: { name: 'Sneaky', companyId: b.companyId } });
    expect(res.json.companyId).toBe(a.companyId);
    const bList = await t.call('GET', '/api/vehicle-types', { token: b.token });
    expect(bList.json.map((r: { name: string }) => r.name)).not.toContain('Sneaky');
  });

  it('does not open CORS on private routes', async () => {
    const op = await t.operator();
    const res = await t.call('GET', '/api/company', { token: op.token, origin: 'https://evil.example' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('bad input never reaches a 500', () => {
  const t = createTestApp();
  const BODIES: [string, string][] = [
    ['malformed JSON', '{"name": '],
    ['a JSON array', '[1,2,3]'],
    ['a JSON string', '"hello"'],
    ['null', 'null'],
    ['nested objects', JSON.stringify({ name: { $gt: '' }, basePrice: { valueOf: 1 }, problemType: ['a'], amount: [1] })],
    ['huge numbers', JSON.stringify({ name: 'X', basePrice: 1e308, amount: 1e308, passengerCount: 1e308, callOutFee: 1e308 })],
    ['unicode', JSON.stringify({ name: '🚗💥 Ünïcödé ‮RTL', problemType: '\u0000\uFFFF', amount: 1 })],
    ['oversized strings', JSON.stringify({ name: 'x'.repeat(100_000), problemType: 'y'.repeat(100_000), companyName: 'z'.repeat(100_000) })],
  ];
  const WRITES = [
    ['POST', '/api/signup'],
    ['POST', '/api/login'],
    ['PUT', '/api/company'],
    ['PUT', '/api/pricing'],
    ['POST', '/api/vehicle-types'],
    ['PUT', '/api/vehicle-types/1'],
    ['POST', '/api/surcharges'],
    ['POST', '/api/passenger-charges'],
    ['POST', '/api/quotes/calculate'],
  ] as const;

  it.each(WRITES.flatMap(([method, path]) => BODIES.map(([what, body]) => ({ method, path, what, body }))))(
    '$method $path with $what → never 5xx; refusals are clear',
    async ({ method, path, body }) => {
      const op = await t.operator();
      const res = await t.call(method, path, { token: op.token, body });
      // Some bodies are acceptable (unknown keys are dropped, unicode names are names):
      // what must never happen is a 5xx or a refusal without a message.
      expect(res.status).toBeLessThan(500);
      if (res.status >= 400) expect(res.json.message).toBeTruthy();
      else expect(JSON.stringify(res.json)).not.toContain('x'.repeat(1000));
    },
  );

  it.each(BODIES.filter(([what]) => what !== 'unicode'))('refuses %s as a quote request with 400', async (_what, body) => {
    const res = await t.call('POST', '/api/quotes/calculate', { body });
    expect(res.status).toBe(400);
    expect(res.json.message).toBeTruthy();
  });

  it('refuses a body over 3 MB with 413', async () => {
    const op = await t.operator();
    const res = await t.call('PUT', '/api/company', { token: op.token, body: JSON.stringify({ name: 'x'.repeat(3.5 * 1024 * 1024) }) });
    expect(res.status).toBe(413);
    expect(res.json.message).toBe('Request body too large');
  });

  it('answers unknown API paths with a JSON 404 and a request id', async () => {
    const res = await t.call('GET', '/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.json.requestId).toBe(res.headers.get('x-request-id'));
  });
});
