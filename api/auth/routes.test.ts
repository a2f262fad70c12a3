import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness';

describe('auth', () => {
  const t = createTestApp();
  const signup = (body: unknown) => t.call('POST', '/api/signup', { body });

  it('signs up with a company, session cookie, token and a checkout URL', async () => {
    const res = await signup({ name: 'Sam Driver', email: 'Sam@Example.com', password: 'tow-truck-42', companyName: 'Sam Recovery' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ email: 'sam@example.com', name: 'Sam Driver', subscriptionStatus: 'inactive' });
    expect(res.json.companyId).toBeGreaterThan(1);
    expect(typeof res.json.authToken).toBe('string');
    expect(res.json.checkoutUrl).toMatch(/^http/);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/rq_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(res.json.password).toBeUndefined();

    const me = await t.call('GET', '/api/auth/user', { token: res.json.authToken });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ id: res.json.id, email: 'sam@example.com', subscriptionStatus: 'inactive' });

    const company = await t.call('GET', '/api/company', { token: res.json.authToken });
    expect(company.json.name).toBe('Sam Recovery');
    const vehicles = await t.call('GET', '/api/vehicle-types', { token: res.json.authToken });
    expect(vehicles.json.map((v: { name: string }) => v.name)).toEqual(['Car', 'Van', 'Motorcycle']);
    expect(vehicles.json.map((v: { basePrice: number }) => v.basePrice)).toEqual([25, 35, 20]);
  });

  it("gives a new company the demo's vehicle prices and its ten problems as enabled £0 charges, offered on its page", async () => {
    const res = await signup({ name: 'New', email: 'starter@example.com', password: 'tow-truck-42', companyName: 'Starter Recovery' });
    const token = res.json.authToken as string;
    const charges = await t.call('GET', '/api/surcharges', { token });
    expect(charges.json.map((s: { problemType: string; amount: number; enabled: boolean }) => [s.problemType, s.amount, s.enabled])).toEqual(
      ['Engine Failure', 'Accident Recovery', 'Flat Tyre', 'Fuel Delivery', 'No Keys', 'Flat Battery', 'Puncture', 'Out of Fuel', 'Locked Out', 'Other'].map(
        (name) => [name, 0, true],
      ),
    );
    const demoVehicles = await t.call('GET', '/api/vehicle-types/1');
    const vehicles = await t.call('GET', '/api/vehicle-types', { token });
    const priced = (rows: Array<{ name: string; basePrice: number }>) => rows.map((v) => [v.name, v.basePrice]);
    expect(priced(vehicles.json)).toEqual(priced(demoVehicles.json));
  });

  it("leaves the demo company's own charges as they were", async () => {
    const demo = await t.call('GET', '/api/surcharges/1');
    expect(demo.json.map((s: { problemType: string; amount: number }) => [s.problemType, s.amount])).toEqual([
      ['Engine Failure', 45],
      ['Flat Tyre', 25],
      ['Accident Recovery', 55],
    ]);
  });

  it.each([
    [
      {},
      { name: 'Name is required', email: 'Invalid email address', password: 'Password must be at least 6 characters', companyName: 'Company name is required' },
    ],
    [
      { name: '  ', email: 'nope', password: '12345', companyName: '' },
      { name: 'Name is required', email: 'Invalid email address', password: 'Password must be at least 6 characters', companyName: 'Company name is required' },
    ],
    [
      { name: 1, email: ['a'], password: null, companyName: {} },
      { name: 'Name is required', email: 'Invalid email address', password: 'Password must be at least 6 characters', companyName: 'Company name is required' },
    ],
  ])('refuses a bad signup with the product messages %#', async (body, fields) => {
    const res = await signup(body);
    expect(res.status).toBe(400);
    expect(res.json.fields).toEqual(fields);
    expect(res.json.requestId).toBeTruthy();
  });

  it('refuses a taken email case-insensitively with 409', async () => {
    await signup({ name: 'A', email: 'taken@example.com', password: 'tow-truck-42', companyName: 'A' });
    const res = await signup({ name: 'B', email: 'TAKEN@example.com', password: 'tow-truck-42', companyName: 'B' });
    expect(res.status).toBe(409);
    expect(res.json.message).toMatch(/already exists/);
  });

  it('logs in case-insensitively and refuses a wrong password with 401', async () => {
    await signup({ name: 'L', email: 'login@example.com', password: 'tow-truck-42', companyName: 'L' });
    const ok = await t.call('POST', '/api/login', { body: { email: 'LOGIN@example.com', password: 'tow-truck-42' } });
    expect(ok.status).toBe(200);
    expect(ok.json.email).toBe('login@example.com');
    const bad = await t.call('POST', '/api/login', { body: { email: 'login@example.com', password: 'wrong-one' } });
    expect(bad.status).toBe(401);
    expect(bad.json.message).toBe('Invalid email or password');
    const missing = await t.call('POST', '/api/login', { body: { email: 'x', password: '' } });
    expect(missing.status).toBe(400);
    expect(missing.json.fields).toEqual({ email: 'Invalid email address', password: 'Password is required' });
    const long = await t.call('POST', '/api/login', { body: { email: 'login@example.com', password: 'x'.repeat(201) } });
    expect(long.status).toBe(400);
    expect(long.json.fields).toEqual({ password: 'Password must be at most 200 characters' });
  });

  it('throttles repeated failed logins with 429', async () => {
    await signup({ name: 'B', email: 'brute@example.com', password: 'tow-truck-42', companyName: 'B' });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await t.call('POST', '/api/login', { body: { email: 'brute@example.com', password: `guess${i}` } })).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const right = await t.call('POST', '/api/login', { body: { email: 'brute@example.com', password: 'tow-truck-42' } });
    expect(right.status).toBe(429);
  });

  it('never counts successful sign-ins against anyone', async () => {
    await signup({ name: 'Busy', email: 'busy@example.com', password: 'tow-truck-42', companyName: 'Busy' });
    for (let i = 0; i < 60; i++) {
      const res = await t.call('POST', '/api/login', { body: { email: 'busy@example.com', password: 'tow-truck-42' } });
      expect(res.status).toBe(200);
    }
  });

  it('answers 401 for no user, and logout revokes copies of the session', async () => {
    expect((await t.call('GET', '/api/auth/user')).status).toBe(401);
    const op = await t.operator();
    expect((await t.call('GET', '/api/auth/user', { cookie: op.cookie })).status).toBe(200);
    const out = await t.call('POST', '/api/logout', { cookie: op.cookie, origin: 'http://localhost:3999' });
    expect(out.status).toBe(200);
    expect((await t.call('GET', '/api/auth/user', { cookie: op.cookie })).status).toBe(401);
    expect((await t.call('GET', '/api/auth/user', { token: op.token })).status).toBe(401);
    expect((await t.call('GET', '/api/auth/user', { token: 'garbage' })).status).toBe(401);
  });
});
