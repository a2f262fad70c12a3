// Loose numbers and control characters (docs/product.md §18): refused with the field's
// message and a 400, and nothing is stored.
import { describe, expect, it } from 'vitest';
import { forbiddenCharacterMessage } from '#shared/schemas';
import { createTestApp } from '../test/harness';

describe('numbers in request bodies', () => {
  const t = createTestApp();

  it.each([
    [{ callOutFee: '0x10' }, 'callOutFee', 'Must be an amount in pounds'],
    [{ labourRate: '0b101' }, 'labourRate', 'Must be an amount in pounds'],
    [{ mileRate: '.5e1' }, 'mileRate', 'Must be an amount in pounds'],
    [{ afterHoursFee: '1e2' }, 'afterHoursFee', 'Must be an amount in pounds'],
    [{ callOutFee: ' 12 ' }, 'callOutFee', 'Must be an amount in pounds'],
    [{ callOutFee: 'Infinity' }, 'callOutFee', 'Must be an amount in pounds'],
    [{ callOutFee: 0.001 }, 'callOutFee', 'Use at most 2 decimal places'],
    [{ labourTime: 0.001 }, 'labourTime', 'Labour time must have at most 2 decimal places'],
    [{ labourTime: '0x1' }, 'labourTime', 'Labour time must be a number'],
  ])('PUT /api/pricing %j is a 400 on %s and changes nothing', async (body, field, message) => {
    const op = await t.operator();
    const before = await t.call('GET', '/api/pricing', { token: op.token });
    const res = await t.call('PUT', '/api/pricing', { token: op.token, body });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ message, fields: { [field]: message } });
    expect((await t.call('GET', '/api/pricing', { token: op.token })).json).toEqual(before.json);
  });

  it('refuses a service radius of 0.001 miles instead of storing 0', async () => {
    const op = await t.operator();
    const res = await t.call('PUT', '/api/company', { token: op.token, body: { serviceRadius: 0.001 } });
    expect(res.status).toBe(400);
    expect(res.json.fields).toEqual({ serviceRadius: 'Service radius must have at most 2 decimal places' });
    expect((await t.call('GET', '/api/company', { token: op.token })).json.serviceRadius).toBe(25);
  });

  it('refuses a hex amount on a charge row', async () => {
    const op = await t.operator();
    const res = await t.call('POST', '/api/vehicle-types', { token: op.token, body: { name: 'Hex', basePrice: '0x10' } });
    expect(res.status).toBe(400);
    expect(res.json.fields).toEqual({ basePrice: 'Must be an amount in pounds' });
  });
});

describe('control and text-direction characters in request bodies', () => {
  const t = createTestApp();

  it('refuses a right-to-left override in the company name, naming the field, and keeps the name', async () => {
    const op = await t.operator();
    const before = (await t.call('GET', '/api/company', { token: op.token })).json.name;
    const res = await t.call('PUT', '/api/company', { token: op.token, body: { name: 'Acme \u202Eyrevocer' } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ message: forbiddenCharacterMessage('Company name'), fields: { name: forbiddenCharacterMessage('Company name') } });
    expect((await t.call('GET', '/api/company', { token: op.token })).json.name).toBe(before);
  });

  it.each([
    ['/api/company', 'PUT', { companyDescription: 'Fast\u0000' }, 'companyDescription', 'Company description'],
    ['/api/company', 'PUT', { feature1Title: 'Bell\u0007' }, 'feature1Title', 'Feature 1 title'],
    ['/api/vehicle-types', 'POST', { name: 'Van\u0085' }, 'name', 'Vehicle type name'],
    ['/api/surcharges', 'POST', { problemType: 'Ditch', description: 'Deep\u2066' }, 'description', 'Description'],
  ])('%s %s %j is a 400 naming %s', async (path, method, body, field, label) => {
    const op = await t.operator();
    const res = await t.raw(method, path, { token: op.token, body });
    expect(res.status).toBe(400);
    expect(res.json.fields).toEqual({ [field]: forbiddenCharacterMessage(label) });
  });

  it('refuses NUL in the sign-up name, and keeps a description’s new lines', async () => {
    const res = await t.call('POST', '/api/signup', {
      body: { name: 'Eve\u0000', email: 'nul@example.com', password: 'correct-horse', companyName: 'Eve Co' },
    });
    expect(res.status).toBe(400);
    expect(res.json.fields).toEqual({ name: forbiddenCharacterMessage('Name') });
    const op = await t.operator();
    const ok = await t.call('PUT', '/api/company', { token: op.token, body: { companyDescription: '24/7\nGreater Manchester' } });
    expect(ok.status).toBe(200);
    expect(ok.json.companyDescription).toBe('24/7\nGreater Manchester');
  });
});
