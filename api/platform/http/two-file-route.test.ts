// A route is two pieces: its contract entry and its handler (docs/style.md, decision 039). This
// fixture writes exactly those two for a route the product does not have, hands them to the app as
// the contract's table and the FEATURES list would, and shows that everything else the contract
// promises follows from the entry alone: the sign-in and role checks and the company scope, CSRF, the body's
// media type, size and schema, the rate limit it names, CORS, and its OpenAPI document.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OFFICE } from '#shared/roles';
import { currentUser } from '../../auth/session';
import { body, json, route } from '../../contract/define';
import { serve, type Feature } from '../../routes';
import { createTestApp, TEST_ORIGIN } from '../../test/harness';

const NAME_REQUIRED = 'Name is required';
const noteSchema = z.object({ name: z.string().trim().min(1, NAME_REQUIRED).max(40) });
const savedSchema = z.object({ companyId: z.number(), name: z.string() });

// 1. The contract entry.
const notes = {
  create: {
    ...route({
      method: 'post',
      path: '/api/fixture-notes',
      'x-access': 'operator',
      'x-roles': OFFICE,
      'x-rate-limit': ['contact'],
      tags: ['Fixture'],
      summary: 'Saves a note for the signed-in operator’s company (a test fixture)',
      request: { body: body(noteSchema, { name: 'Spare wheel' }) },
      responses: { 201: json(savedSchema, 'Saved') },
    }),
    operationId: 'fixtureNotesCreate',
  },
};

// 2. The handler.
let handled = 0;
const noteRoutes: Feature = (parts) =>
  serve(parts, notes, {
    create: (c) => {
      handled += 1;
      return c.json({ companyId: currentUser(c).companyId, name: c.req.valid('json').name }, 201);
    },
  });

describe('a route written as its contract entry and its handler only', () => {
  const t = createTestApp({ env: { CONTACT_RATE_LIMIT: '3' }, extraRoutes: { routes: [notes.create], features: [noteRoutes] } });
  const post = (init: Parameters<typeof t.raw>[2]) => t.raw('POST', '/api/fixture-notes', init);

  it('is served for a signed-in operator, scoped to their company', async () => {
    const op = await t.operator();
    const before = handled;
    const saved = await post({ token: op.token, body: { name: ' Spare wheel ' } });
    expect(saved.status).toBe(201);
    expect(saved.json).toEqual({ companyId: op.companyId, name: 'Spare wheel' });
    expect(handled).toBe(before + 1);
  });

  it('refuses without a session (401), a role it does not name (403), a cookie from another origin (403), a body that is not JSON (415), too large (413) or invalid (400), before the handler', async () => {
    const op = await t.operator();
    const driver = await t.teammate(op, 'driver');
    const before = handled;
    expect((await post({ body: { name: 'x' } })).status).toBe(401);
    expect((await post({ token: driver.token, body: { name: 'x' } })).status).toBe(403);
    expect((await post({ cookie: op.cookie, origin: 'https://evil.example', body: { name: 'x' } })).status).toBe(403);
    const notJson = await t.app.request(`${TEST_ORIGIN}/api/fixture-notes`, {
      method: 'POST',
      headers: { 'x-auth-token': op.token, 'content-type': 'text/plain' },
      body: '{"name":"x"}',
    });
    expect(notJson.status).toBe(415);
    expect((await post({ token: op.token, body: { name: 'x'.repeat(20_000) } })).status).toBe(413);
    const invalid = await post({ token: op.token, body: { name: ' ' } });
    expect(invalid.status).toBe(400);
    expect(invalid.json.fields).toEqual({ name: NAME_REQUIRED });
    expect(handled).toBe(before);
  });

  it('is under the rate limit it names: 429 with Retry-After before the handler runs', async () => {
    const fresh = createTestApp({ env: { CONTACT_RATE_LIMIT: '2' }, extraRoutes: { routes: [notes.create], features: [noteRoutes] } });
    const op = await fresh.operator();
    const send = () => fresh.raw('POST', '/api/fixture-notes', { token: op.token, body: { name: 'Jack' } });
    expect((await send()).status).toBe(201);
    expect((await send()).status).toBe(201);
    const before = handled;
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: 'RATE_LIMITED', requestId: expect.any(String) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(handled).toBe(before);
  });

  it('keeps CORS closed, as for every operator route', async () => {
    const op = await t.operator();
    const res = await post({ token: op.token, origin: 'https://any-site.example', body: { name: 'x' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('is in the OpenAPI document with its security, its limit and every answer its kind shares', async () => {
    const doc = (await t.call('GET', '/api/openapi.json')).json;
    const operation = doc.paths['/api/fixture-notes'].post;
    expect(operation.operationId).toBe('fixtureNotesCreate');
    expect(operation['x-access']).toBe('operator');
    expect(operation['x-rate-limit']).toEqual(['contact']);
    expect(operation['x-roles']).toEqual(['owner', 'dispatcher']);
    expect(operation.security).toEqual([{ sessionCookie: [] }, { authToken: [] }]);
    expect(Object.keys(operation.responses).sort()).toEqual(['201', '400', '401', '403', '413', '415', '429', '503']);
  });
});
