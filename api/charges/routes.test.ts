import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness';

describe('charge list names are unique within a list', () => {
  const t = createTestApp();

  it.each([
    ['/api/vehicle-types', 'name', 'Car'],
    ['/api/gearbox-types', 'name', 'Manual'],
    ['/api/rolling-status-types', 'name', 'Rolling'],
  ])('%s refuses a starter row name, trimmed and in any case, and adds nothing', async (path, field, starter) => {
    const op = await t.operator();
    const before = await t.raw('GET', path, { token: op.token });
    const res = await t.raw('POST', path, { token: op.token, body: { [field]: `  ${starter.toUpperCase()} `, basePrice: 10 } });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ message: `${starter.toUpperCase()} already exists` });
    expect(res.json.requestId).toEqual(expect.any(String));
    expect((await t.raw('GET', path, { token: op.token })).json).toEqual(before.json);
  });

  it('problem charges refuse a second charge for the same problem', async () => {
    const op = await t.operator();
    const first = await t.call('POST', '/api/surcharges', { token: op.token, body: { problemType: 'Ditch Recovery', amount: 5 } });
    expect(first.status).toBe(201);
    const again = await t.call('POST', '/api/surcharges', { token: op.token, body: { problemType: 'ditch recovery ', amount: 9 } });
    expect(again.status).toBe(409);
    expect(again.json.message).toBe('ditch recovery already exists');
  });

  it('refuses renaming a row to another row’s name, but not to its own in another case', async () => {
    const op = await t.operator();
    const rows = (await t.call('GET', '/api/vehicle-types', { token: op.token })).json as Array<{ id: number; name: string }>;
    const van = rows.find((r) => r.name === 'Van')!;
    const clash = await t.call('PUT', `/api/vehicle-types/${van.id}`, { token: op.token, body: { name: 'car' } });
    expect(clash.status).toBe(409);
    expect(clash.json.message).toBe('car already exists');
    const own = await t.call('PUT', `/api/vehicle-types/${van.id}`, { token: op.token, body: { name: 'VAN', basePrice: 40 } });
    expect(own.status).toBe(200);
    expect(own.json).toMatchObject({ name: 'VAN', basePrice: 40 });
  });

  it('the same name in another company or another list is fine; a missing row is still 404', async () => {
    const a = await t.operator();
    const b = await t.operator();
    expect((await t.call('POST', '/api/vehicle-types', { token: a.token, body: { name: 'Luton Van' } })).status).toBe(201);
    expect((await t.call('POST', '/api/vehicle-types', { token: b.token, body: { name: 'Luton Van' } })).status).toBe(201);
    expect((await t.call('POST', '/api/gearbox-types', { token: a.token, body: { name: 'Car' } })).status).toBe(201);
    expect((await t.call('PUT', '/api/vehicle-types/999999', { token: a.token, body: { name: 'Car' } })).status).toBe(404);
  });
});
