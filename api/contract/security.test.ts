// Security cases generated from the contract (docs/architecture.md), so a route is covered the
// day it is added: every `operator` route without a session → 401, naming another company's row
// in its path (`{id}`, `{reference}`: ROW_FIXTURES) → 404 and the row untouched, as a
// cookie-authenticated write from a foreign origin → 403, and with a body that is not JSON → 415;
// every route's CORS follows its access. Bodies are the examples the contract gives.
import { describe, expect, it } from 'vitest';
import { createTestApp, quoteBody, TEST_ORIGIN } from '../test/harness';
import { ROLES } from '#shared/roles';
import { jpegFile } from '../test/images';
import { bodyLimitOf, exampleBody, RATE_LIMITS, readsJson } from './define';
import { accessOf, allRoutes } from './index';

/** The example body of each route that takes one, by `METHOD /path`. */
const SAMPLE_BODIES: Record<string, unknown> = Object.fromEntries(allRoutes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, exampleBody(r)]));

const OPERATOR_ROUTES = allRoutes
  .filter((r) => accessOf(r) === 'operator')
  .map((r) => {
    const key = `${r.method.toUpperCase()} ${r.path}`;
    return { key, method: r.method.toUpperCase(), path: r.path, takesBody: r.request?.body !== undefined, body: SAMPLE_BODIES[key], roles: r['x-roles'] };
  });
/** Each operator route with each role of the company's people it refuses. */
const REFUSED_ROLES = OPERATOR_ROUTES.flatMap((r) => ROLES.filter((role) => !r.roles?.includes(role)).map((role) => ({ ...r, role })));
/** With any path parameter filled in, for the calls whose answer does not depend on the row. */
const anyId = (path: string) => path.replaceAll(/\{\w+\}/g, '1');
const WRITES = OPERATOR_ROUTES.filter((r) => r.method !== 'GET');
/** Those reading a JSON body; the ones reading an image have their own cases below (RAW_BODY_FIXTURES). */
const WITH_BODY = OPERATOR_ROUTES.filter(
  (r) => r.takesBody && readsJson(allRoutes.find((route) => route.path === r.path && route.method.toUpperCase() === r.method)!),
);

type TestApp = ReturnType<typeof createTestApp>;
type Operator = Awaited<ReturnType<TestApp['operator']>>;

/**
 * How to make one company's row for a path parameter, read it back as its owner, and ask whether
 * another operator's list shows it: a route on a row names its row by one of these parameters.
 */
interface RowFixture {
  /** Makes a row of `owner`'s company for the route at `path`; answers the parameter's value. */
  create(t: TestApp, owner: Operator, path: string): Promise<string>;
  /** The row as its owner sees it: must be the same after another company's call. */
  read(t: TestApp, owner: Operator, path: string, value: string): Promise<unknown>;
  /** Does `operator`'s own list show the row? */
  listedFor(t: TestApp, operator: Operator, path: string, value: string): Promise<boolean>;
}

/** `/x/{id}` and `/x/{id}/y`'s collection: `/x`, whose POST makes a row. */
const collectionOf = (path: string) => path.slice(0, path.indexOf('/{id}'));

const ROW_FIXTURES: Record<string, RowFixture> = {
  id: {
    async create(t, owner, path) {
      const row = await t.raw('POST', collectionOf(path), { token: owner.token, body: SAMPLE_BODIES[`POST ${collectionOf(path)}`] });
      expect(row.status).toBe(201);
      return String(row.json.id);
    },
    async read(t, owner, path, value) {
      return (await t.raw('GET', collectionOf(path), { token: owner.token })).json.find((r: { id: number }) => String(r.id) === value);
    },
    async listedFor(t, operator, path, value) {
      return (await t.raw('GET', collectionOf(path), { token: operator.token })).json.some((r: { id: number }) => String(r.id) === value);
    },
  },
  // A person of the owner's company (people join by invitation; the harness adds one directly).
  personId: {
    async create(t, owner) {
      return String((await t.teammate(owner, 'dispatcher')).id);
    },
    async read(t, owner, _path, value) {
      return (await t.call('GET', '/api/team/people', { token: owner.token })).json.find((p: { id: number }) => String(p.id) === value);
    },
    async listedFor(t, operator, _path, value) {
      return (await t.call('GET', '/api/team/people', { token: operator.token })).json.some((p: { id: number }) => String(p.id) === value);
    },
  },
  // A quote the owner's own page gave a motorist.
  reference: {
    async create(t, owner) {
      const quote = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: owner.companyId } });
      expect(quote.status).toBe(200);
      return quote.json.quoteId;
    },
    async read(t, owner, _path, value) {
      return (await t.call('GET', `/api/quotes/${value}`, { token: owner.token })).json;
    },
    async listedFor(t, operator, _path, value) {
      return (await t.call('GET', '/api/quotes', { token: operator.token })).json.quotes.some((q: { reference: string }) => q.reference === value);
    },
  },
};

/** Routes on one row: those with a path parameter, which names the row. */
const ON_A_ROW = OPERATOR_ROUTES.flatMap((r) => {
  const parameter = /\{(\w+)\}/.exec(r.path)?.[1];
  return parameter ? [{ ...r, parameter }] : [];
});

describe('operator routes (generated from the contract)', () => {
  const t = createTestApp();
  // Refused calls change nothing (each case checks it), so their callers are made once for the
  // file, not once a case: a real sign-up each, and a teammate's real sign-in, is most of a case's time.
  let refusedOwner: Promise<Operator> | undefined;
  const owner = () => (refusedOwner ??= t.operator());
  const teammates = new Map<string, ReturnType<TestApp['teammate']>>();
  const teammate = async (role: (typeof ROLES)[number]) => {
    const made = teammates.get(role) ?? t.teammate(await owner(), role);
    teammates.set(role, made);
    return made;
  };

  it('has an example body for every operator route that takes one', () => {
    expect(WITH_BODY.filter((r) => r.body === undefined).map((r) => r.key)).toEqual([]);
  });

  it('has a row fixture for every route on one row, and a create route for each row by id', () => {
    for (const r of ON_A_ROW) expect(ROW_FIXTURES[r.parameter], r.key).toBeDefined();
    for (const r of ON_A_ROW.filter((route) => route.parameter === 'id')) expect(SAMPLE_BODIES[`POST ${collectionOf(r.path)}`], r.key).toBeDefined();
  });

  it.each(OPERATOR_ROUTES)('$key without a session → 401', async ({ method, path, body }) => {
    const res = await t.raw(method, anyId(path), { body });
    expect(res.status).toBe(401);
    expect(res.json.message).toBeTruthy();
  });

  it('names the roles of every operator route', () => {
    expect(OPERATOR_ROUTES.filter((r) => !r.roles?.length).map((r) => r.key)).toEqual([]);
  });

  it.each(REFUSED_ROLES)('$key as a $role → 403 before any work, nothing changed', async ({ method, path, body, role }) => {
    const { token } = await owner();
    const person = await teammate(role);
    const before = await t.call('GET', '/api/company', { token });
    const res = await t.raw(method, anyId(path), { token: person.token, body });
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('ROLE_NOT_ALLOWED');
    expect((await t.call('GET', '/api/company', { token })).json).toEqual(before.json);
  });

  it.each(WRITES)('$key with the cookie from a foreign origin → 403', async ({ method, path, body }) => {
    const op = await owner();
    const res = await t.raw(method, anyId(path), { body, cookie: op.cookie, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    const cross = await t.raw(method, anyId(path), { body, cookie: op.cookie, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(cross.status).toBe(403);
  });

  it.each(WITH_BODY)('$key with a body that is not JSON → 415, nothing changed', async ({ method, path, body }) => {
    const op = await owner();
    const before = await t.call('GET', '/api/company', { token: op.token });
    // Straight to the app: the harness's call() always sends JSON bodies as JSON.
    const res = await t.app.request(`${TEST_ORIGIN}${anyId(path)}`, {
      method,
      headers: { 'x-auth-token': op.token, 'content-type': 'text/plain' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message?: string }).message).toBeTruthy();
    expect((await t.call('GET', '/api/company', { token: op.token })).json).toEqual(before.json);
  });

  it.each(ON_A_ROW)("$key on another company's row → 404, the row unchanged", async ({ method, path, body, parameter }) => {
    const fixture = ROW_FIXTURES[parameter];
    const owner = await t.operator();
    const intruder = await t.operator();
    const value = await fixture.create(t, owner, path);
    const before = await fixture.read(t, owner, path, value);
    expect(before).toBeDefined();
    const res = await t.raw(method, path.replace(`{${parameter}}`, encodeURIComponent(value)), { token: intruder.token, body });
    expect(res.status).toBe(404);
    expect(await fixture.listedFor(t, intruder, path, value)).toBe(false);
    expect(await fixture.listedFor(t, owner, path, value)).toBe(true);
    expect(await fixture.read(t, owner, path, value)).toEqual(before);
  });

  it.each(OPERATOR_ROUTES)('$key is never stored by a cache (no-store), signed in or not', async ({ method, path, body }) => {
    const op = await t.operator();
    for (const auth of [{}, { 'x-auth-token': op.token }] as Record<string, string>[]) {
      // Only the headers are read: a live stream's body (the board's, a person's jobs') never ends.
      const res = await t.app.request(`${TEST_ORIGIN}${anyId(path)}`, {
        method,
        headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.headers.get('cache-control'), `${res.status}`).toBe('no-store');
      await res.body?.cancel();
    }
  });

  it.each(
    allRoutes
      .filter((r) => accessOf(r) === 'account')
      .map((r) => ({ key: `${r.method.toUpperCase()} ${r.path}`, method: r.method.toUpperCase(), path: r.path })),
  )('$key (account) is never stored by a cache (no-store)', async ({ method, path }) => {
    const res = await t.raw(method, path, { body: method === 'GET' ? undefined : {} });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers a sign-in with no-store: its body holds the session token', async () => {
    const op = await t.operator();
    const res = await t.call('POST', '/api/login', { body: { email: op.email, password: op.password } });
    expect(res.status).toBe(200);
    expect(res.json.authToken).toEqual(expect.any(String));
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('accepts the cookie from our own origin', async () => {
    const op = await t.operator();
    const res = await t.call('PUT', '/api/pricing', { body: {}, cookie: op.cookie, origin: 'http://localhost:3999' });
    expect(res.status).toBe(200);
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

/**
 * How to reach a route that reads a raw body (an image, not JSON) with a path that works: its
 * query and a real token, and how to see what it stored. Keyed by the path as declared.
 */
interface RawBodyFixture {
  /** The URL, and the headers of the credential it needs beyond the URL (a session), if any. */
  url(t: TestApp): Promise<{ url: string; headers?: Record<string, string> }>;
  /** What the route would have stored, as the job's reader sees it: must not change on a refusal. */
  stored(t: TestApp, url: string, headers?: Record<string, string>): Promise<unknown>;
}

/** A job booked with `op`'s company and accepted: its reference, and its driver's token. */
async function acceptedJob(t: TestApp, op: Operator) {
  const quote = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
  const booked = await t.call('POST', '/api/bookings', {
    body: {
      quoteId: quote.json.quoteId,
      bookingKey: `raw-body-fixture-${op.companyId}-000000`,
      name: 'Jane Motorist',
      phone: '07700 900123',
      registration: 'AB12CDE',
    },
  });
  expect(booked.status).toBe(201);
  const accepted = await t.call('POST', `/api/bookings/${quote.json.quoteId}/accept`, { token: op.token, body: { etaMinutes: 10 } });
  return { reference: quote.json.quoteId as string, driverToken: (accepted.json.driverUrl as string).split('/driver/')[1] };
}

const UPLOAD_QUERY = 'uploadId=raw-body-fixture-0001&stage=pickup&kind=photo&slot=front&takenAt=2026-06-10T12:00:00Z';

const RAW_BODY_FIXTURES: Record<string, RawBodyFixture> = {
  // A driver's upload: a job booked and accepted, its driver's token.
  '/api/driver/{token}/files': {
    async url(t) {
      const { driverToken } = await acceptedJob(t, await t.operator());
      return { url: `/api/driver/${driverToken}/files?${UPLOAD_QUERY}` };
    },
    async stored(t, url) {
      return (await t.raw('GET', url.replace(/\/files\?.*$/, '/proof'))).json.files;
    },
  },
  // The signed-in driver's own job: the same job, assigned to them, reached with their session.
  '/api/my-jobs/{reference}/files': {
    async url(t) {
      const owner = await t.operator();
      const driver = await t.teammate(owner, 'driver');
      const { reference } = await acceptedJob(t, owner);
      expect((await t.call('POST', `/api/bookings/${reference}/assign`, { token: owner.token, body: { driverId: driver.id, truckId: null } })).status).toBe(
        200,
      );
      return { url: `/api/my-jobs/${reference}/files?${UPLOAD_QUERY}`, headers: { 'x-auth-token': driver.token } };
    },
    async stored(t, url, headers) {
      return (await t.raw('GET', url.replace(/\/files\?.*$/, '/proof'), { headers })).json.files;
    },
  },
};

describe('routes reading a raw body (generated from the contract)', () => {
  const t = createTestApp();
  // The webhooks read theirs raw too, to check the provider's signature over it: their own tests cover them.
  const RAW = allRoutes
    .filter((r) => r.request?.body !== undefined && !readsJson(r) && accessOf(r) !== 'webhook')
    .map((r) => ({
      key: `${r.method.toUpperCase()} ${r.path}`,
      method: r.method.toUpperCase(),
      path: r.path,
      limit: bodyLimitOf(r),
      types: Object.keys(r.request!.body!.content),
    }));

  it('has a fixture for every route that reads a raw body, and each declares its media types and its limit', () => {
    expect(RAW.length).toBeGreaterThan(0);
    for (const r of RAW) {
      expect(RAW_BODY_FIXTURES[r.path], r.key).toBeDefined();
      expect(r.types.length, r.key).toBeGreaterThan(0);
      expect(r.limit, r.key).toBeGreaterThan(1024);
    }
  });

  it.each(RAW)('$key with a body not of its media types → 415, nothing stored', async ({ method, path }) => {
    const { url, headers: auth } = await RAW_BODY_FIXTURES[path].url(t);
    const before = await RAW_BODY_FIXTURES[path].stored(t, url, auth);
    for (const [type, body] of [
      ['text/plain', 'hello'],
      ['application/json', '{"stage":"pickup"}'],
      ['image/jpeg', '%PDF-1.7 not what it says it is'],
    ]) {
      const res = await t.app.request(`${TEST_ORIGIN}${url}`, { method, headers: { ...auth, 'content-type': type }, body });
      expect(res.status, type).toBe(415);
      expect(((await res.json()) as { message?: string }).message).toBeTruthy();
    }
    expect(await RAW_BODY_FIXTURES[path].stored(t, url, auth)).toEqual(before);
  });

  it.each(RAW)('$key over its x-body-limit → 413, nothing stored', async ({ method, path, limit }) => {
    const { url, headers: auth } = await RAW_BODY_FIXTURES[path].url(t);
    const before = await RAW_BODY_FIXTURES[path].stored(t, url, auth);
    const res = await t.app.request(`${TEST_ORIGIN}${url}`, {
      method,
      headers: { ...auth, 'content-type': 'image/jpeg' },
      body: new Uint8Array(jpegFile({ scanBytes: limit + 1 })),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code?: string }).code).toBe('PAYLOAD_TOO_LARGE');
    expect(await RAW_BODY_FIXTURES[path].stored(t, url, auth)).toEqual(before);
  });
});

describe('CORS follows each route’s access (generated from the contract)', () => {
  const t = createTestApp();
  // The demo company (id 1, slug demo) is always live.
  const demoPath = (path: string) => path.replaceAll('{slug}', 'demo').replaceAll(/\{\w+\}/g, '1');
  const ROUTES = allRoutes.map((r) => ({
    key: `${r.method.toUpperCase()} ${r.path}`,
    method: r.method.toUpperCase(),
    path: demoPath(r.path),
    access: accessOf(r),
  }));

  it.each(ROUTES)('$key ($access)', async ({ method, path, access }) => {
    const res = await t.raw(method, path, { origin: 'https://any-site.example', body: method === 'GET' ? undefined : {} });
    const preflight = await t.raw('OPTIONS', path, { origin: 'https://any-site.example', headers: { 'access-control-request-method': method } });
    if (access === 'public') {
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    } else {
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    }
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
  // Every route that reads a JSON body, a row named by an id or a reference that may not exist.
  const WRITES = allRoutes.filter(readsJson).map((r) => [r.method.toUpperCase(), r.path.replace('{id}', '1').replace('{reference}', 'KJAECF76R')] as const);

  // One operator a route for its bad bodies (a sign-up for every body was most of the time): most
  // are refused, and the state a body the route takes leaves is one more the next must not 5xx on.
  const operators = new Map<string, Promise<Operator>>();
  const operatorFor = (route: string) => {
    const made = operators.get(route) ?? t.operator();
    operators.set(route, made);
    return made;
  };

  it.each(WRITES.flatMap(([method, path]) => BODIES.map(([what, body]) => ({ method, path, what, body }))))(
    '$method $path with $what → never 5xx; refusals are clear',
    async ({ method, path, body }) => {
      const op = await operatorFor(`${method} ${path}`);
      const res = await t.raw(method, path, { token: op.token, body });
      // Some bodies are acceptable (unknown keys are dropped, unicode names are names):
      // what must never happen is a 5xx or a refusal without a message.
      expect(res.status).toBeLessThan(500);
      if (res.status >= 400) expect(res.json.message).toBeTruthy();
      else expect(JSON.stringify(res.json)).not.toContain('x'.repeat(1000));
    },
  );

  it.each(BODIES.filter(([what]) => what !== 'unicode' && what !== 'oversized strings'))('refuses %s as a quote request with 400', async (_what, body) => {
    const res = await t.call('POST', '/api/quotes/calculate', { body });
    expect(res.status).toBe(400);
    expect(res.json.message).toBeTruthy();
  });

  it('refuses oversized strings as a quote request with 413: the body is over the route’s limit', async () => {
    const res = await t.call('POST', '/api/quotes/calculate', { body: BODIES.find(([what]) => what === 'oversized strings')?.[1] });
    expect(res.status).toBe(413);
    expect(res.json.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses a body over 3 MB with 413', async () => {
    const op = await t.operator();
    const res = await t.call('PUT', '/api/company', { token: op.token, body: JSON.stringify({ name: 'x'.repeat(3.5 * 1024 * 1024) }) });
    expect(res.status).toBe(413);
    expect(res.json.message).toBe('Request body too large');
  });

  it('answers unknown API paths with a JSON 404 and a request id', async () => {
    const res = await t.raw('GET', '/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.json.requestId).toBe(res.headers.get('x-request-id'));
  });
});

describe('rate limits named in the contract refuse before any work (generated from the contract)', () => {
  const LIMITED = allRoutes
    .filter((r) => (r['x-rate-limit'] ?? []).length > 0)
    .map((r) => ({ key: `${r.method.toUpperCase()} ${r.path}`, route: r, names: r['x-rate-limit'] ?? [] }));
  // Any path parameter filled in with a value no row has (a token, an id): the handler's answer is a 404.
  const unknownRow = (path: string) => path.replaceAll(/\{\w+\}/g, (name) => (name === '{token}' ? 'Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g' : '000000001'));

  it('covers the routes that name a limit', () => {
    expect(LIMITED.map((r) => r.key)).toEqual(expect.arrayContaining(['POST /api/bookings', 'GET /api/jobs/{token}', 'POST /api/vehicles/lookup']));
  });

  it.each(LIMITED)('$key: over its first limit, 429 with Retry-After in place of what its handler would answer', async ({ route: r, names }) => {
    // Only the first limit is at 1; the others are off, so the answer is the first one's.
    const env = Object.fromEntries(Object.values(RATE_LIMITS).map((limit) => [limit.env, '0']));
    env[RATE_LIMITS[names[0]].env] = '1';
    const t = createTestApp({ env });
    const call = () => t.raw(r.method.toUpperCase(), unknownRow(r.path), { body: exampleBody(r) });
    const first = await call();
    expect(first.status).not.toBe(429);
    const second = await call();
    expect(second.status).toBe(429);
    expect(second.json).toMatchObject({ code: 'RATE_LIMITED', message: expect.any(String), requestId: expect.any(String) });
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    // A public route's refusal is readable by the page that asked.
    if (accessOf(r) === 'public') expect(second.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('documents each limit: a 429 answer naming it, and `x-rate-limit` on the operation', async () => {
    const t = createTestApp();
    const doc = (await t.call('GET', '/api/openapi.json')).json;
    for (const { route: r, names } of LIMITED) {
      const operation = doc.paths[r.path.replaceAll(/\{(\w+)\}/g, '{$1}')][r.method];
      expect(operation['x-rate-limit'], r.path).toEqual(names);
      expect(operation.responses['429'], r.path).toBeDefined();
    }
    expect(doc.paths['/api/bookings'].post.responses['429'].description).toContain('BOOKING_COMPANY_RATE_LIMIT');
  });
});
