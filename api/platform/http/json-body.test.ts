// Every route that reads a JSON body refuses any other media type with 415 and changes nothing
// (Hono's json validator alone reads them as `{}`), refuses an empty body and invalid UTF-8 with
// 400, and still takes application/json with a charset. Run through app.request() and, for the
// stream path of api/platform/http/body-limit.ts, through a real socket.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN } from '../../test/harness';
import { allRoutes } from '../../contract';
import { exampleBody, readsJson } from '../../contract/define';
import { EMPTY_JSON_BODY, INVALID_UTF8, INVALID_UTF8_FIELD, JSON_CONTENT_TYPE_REQUIRED } from './validate';

const BAD_TYPES: { label: string; type?: string }[] = [
  { label: 'no content type' },
  { label: 'text/plain', type: 'text/plain' },
  { label: 'text/plain with charset', type: 'text/plain;charset=UTF-8' },
  { label: 'form encoding', type: 'application/x-www-form-urlencoded' },
  { label: 'multipart', type: 'multipart/form-data; boundary=x' },
  { label: 'application/jsonx', type: 'application/jsonx' },
  { label: 'application/json-seq', type: 'application/json-seq' },
  { label: 'text/json', type: 'text/json' },
];

const RATES = {
  callOutFee: 61,
  labourRate: 52.5,
  mileRate: 3.1,
  labourTime: 1.5,
  afterHoursFee: 70,
  afterHoursStart: '19:00',
  afterHoursEnd: '07:00',
  afterHoursEnabled: false,
};

/** Stands for `{reference}` in paths. */
const A_REFERENCE = 'KJAECF76R';
/** Stands for a job's or driver's `{token}` in paths. */
const A_TOKEN = 'Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g';
/** Stands for a document's `{number}` in paths (an account's invoice). */
const A_NUMBER = '000012';
const filled = (path: string) => path.replace('{id}', '1').replace('{reference}', A_REFERENCE).replace('{token}', A_TOKEN).replace('{number}', A_NUMBER);

/** Every route that takes a JSON body, with the example the contract gives. */
const JSON_ROUTES = allRoutes
  .filter(readsJson)
  .map((r) => ({ method: r.method.toUpperCase(), path: filled(r.path), body: exampleBody(r), auth: r['x-access'] !== 'public' }));

/** Writes that read no JSON body: the webhook verifies its raw body, the others take none. */
const NO_JSON_BODY = allRoutes
  .filter((r) => ['post', 'put', 'patch'].includes(r.method) && !readsJson(r))
  .map((r) => `${r.method.toUpperCase()} ${filled(r.path)}`);

describe('JSON request bodies', () => {
  const t = createTestApp();

  it('classifies every API write the app serves by the contract, so each gets the 415 test', () => {
    const writes = new Set(
      t.app.routes
        .filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && r.path.startsWith('/api/'))
        .map(
          (r) =>
            `${r.method} ${r.path
              .replace(/:id(?=\/|$)/, '1')
              .replace(':reference', A_REFERENCE)
              .replace(':token', A_TOKEN)
              .replace(':number', A_NUMBER)
              // Any other parameter as the contract spells it ({personId}).
              .replace(/:(\w+)/g, '{$1}')}`,
        ),
    );
    expect([...writes].sort()).toEqual([...JSON_ROUTES.map((r) => `${r.method} ${r.path}`), ...NO_JSON_BODY].sort());
  });

  it('documents the 415 on the public quote route', async () => {
    const doc = await t.call('GET', '/api/openapi.json');
    expect(doc.json.paths['/api/quotes/calculate'].post.responses['415']).toBeDefined();
  });

  it.each(NO_JSON_BODY)('%s does not ask for a JSON content type', async (route) => {
    const [method, path] = route.split(' ');
    const op = await t.operator();
    const res = await send(method, path, { type: 'text/plain', body: 'raw', token: op.token });
    expect(res.status).not.toBe(415);
  });

  async function send(method: string, path: string, init: { type?: string; body?: BodyInit; token?: string }) {
    const headers: Record<string, string> = {};
    if (init.type) headers['content-type'] = init.type;
    if (init.token) headers['x-auth-token'] = init.token;
    const res = await t.app.request(`${TEST_ORIGIN}${path}`, { method, headers, body: init.body });
    return { status: res.status, json: (await res.json()) as { message: string; requestId?: string; fields?: Record<string, string> } };
  }

  it.each(BAD_TYPES)('PUT /api/pricing with $label is a 415 and leaves every rate as it was', async ({ type }) => {
    const op = await t.operator();
    expect((await t.call('PUT', '/api/pricing', { token: op.token, body: RATES })).status).toBe(200);
    const before = await t.call('GET', '/api/pricing', { token: op.token });
    const body = type === 'application/x-www-form-urlencoded' ? 'callOutFee=1' : '{}';
    const res = await send('PUT', '/api/pricing', { type, body, token: op.token });
    expect(res.status).toBe(415);
    expect(res.json).toMatchObject({ message: JSON_CONTENT_TYPE_REQUIRED });
    expect(res.json.requestId).toBeTruthy();
    const after = await t.call('GET', '/api/pricing', { token: op.token });
    expect(after.json).toEqual(before.json);
    expect(after.json).toMatchObject(RATES);
  });

  it.each(JSON_ROUTES)('$method $path refuses text/plain and no content type with 415', async ({ method, path, body, auth }) => {
    const token = auth ? (await t.operator()).token : undefined;
    for (const type of ['text/plain', undefined]) {
      const res = await send(method, path, { type, body: JSON.stringify(body), token });
      expect(res.status, `${method} ${path} as ${type ?? 'no type'}`).toBe(415);
      expect(res.json.message).toBe(JSON_CONTENT_TYPE_REQUIRED);
    }
  });

  it('refuses an empty application/json body with 400 instead of applying defaults', async () => {
    const op = await t.operator();
    await t.call('PUT', '/api/pricing', { token: op.token, body: RATES });
    for (const body of [undefined, '', '  \n']) {
      const res = await send('PUT', '/api/pricing', { type: 'application/json', body, token: op.token });
      expect(res.status).toBe(400);
      expect(res.json.message).toBe(EMPTY_JSON_BODY);
    }
    expect((await t.call('GET', '/api/pricing', { token: op.token })).json).toMatchObject(RATES);
  });

  it('refuses a body that is not UTF-8 with 400, and stores nothing', async () => {
    const op = await t.operator();
    const bytes = Buffer.concat([Buffer.from('{"name":"Bad '), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const res = await send('PUT', '/api/company', { type: 'application/json', body: bytes, token: op.token });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(INVALID_UTF8);
    expect(res.json.fields).toEqual({ name: INVALID_UTF8_FIELD });
    expect((await t.call('GET', '/api/company', { token: op.token })).json.name).not.toMatch(/Bad/);
  });

  it('names only the fields that hold the bytes that are not UTF-8, not one with a U+FFFD really sent', async () => {
    const op = await t.operator();
    const bytes = Buffer.concat([
      // U+FFFD as UTF-8 and as an escape: valid text, whatever it looks like.
      Buffer.from('{"name":"Real \uFFFD and \\ufffd","feature1Title":"Bad '),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('","companyDescription":"Also bad '),
      Buffer.from([0xe2, 0x82]),
      Buffer.from('"}'),
    ]);
    const res = await send('PUT', '/api/company', { type: 'application/json', body: bytes, token: op.token });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ message: INVALID_UTF8, fields: { feature1Title: INVALID_UTF8_FIELD, companyDescription: INVALID_UTF8_FIELD } });
    expect(Object.keys(res.json.fields ?? {}).sort()).toEqual(['companyDescription', 'feature1Title']);
    // Not JSON besides: still the one message, naming no field.
    const broken = await send('PUT', '/api/company', {
      type: 'application/json',
      body: Buffer.concat([Buffer.from('{"name": '), Buffer.from([0xff]), Buffer.from('}')]),
      token: op.token,
    });
    expect(broken.status).toBe(400);
    expect(broken.json.message).toBe(INVALID_UTF8);
    expect(broken.json.fields).toBeUndefined();
  });

  it('takes application/json with a charset, a +json type, and UTF-8 text', async () => {
    const op = await t.operator();
    for (const type of ['application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"', 'application/merge-patch+json']) {
      const res = await send('PUT', '/api/company', { type, body: JSON.stringify({ name: 'Café Récupération' }), token: op.token });
      expect(res.status, type).toBe(200);
      expect(res.json).toMatchObject({ name: 'Café Récupération' });
    }
  });
});

describe('JSON request bodies over a real socket', () => {
  const t = createTestApp();
  let server: ReturnType<typeof serve>;
  let origin = '';
  beforeAll(async () => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const put = (token: string, type: string | undefined, body: BodyInit) =>
    fetch(`${origin}/api/company`, { method: 'PUT', headers: { 'x-auth-token': token, ...(type ? { 'content-type': type } : {}) }, body });

  it('refuses invalid UTF-8 read from the stream, and other media types, and takes UTF-8', async () => {
    const op = await t.operator();
    const bad = await put(op.token, 'application/json', Buffer.concat([Buffer.from('{"name":"Bad '), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ message: INVALID_UTF8, fields: { name: INVALID_UTF8_FIELD } });
    const form = await put(op.token, 'application/x-www-form-urlencoded', 'name=Form');
    expect(form.status).toBe(415);
    const good = await put(op.token, 'application/json', JSON.stringify({ name: 'Ørsted Recovery' }));
    expect(good.status).toBe(200);
    expect(await good.json()).toMatchObject({ name: 'Ørsted Recovery' });
  });
});
