// The quote API takes only the gearbox, rolling-status and problem values the company offers
// (docs/security.md): an unknown value, or one of its rows it has turned off, is a 400 naming the
// field, as a vehicle type is, and nothing is stored. the form's own values (automatic, manual, other;
// rolling, not-rolling, n-a; the problem 'other') stay valid unless the company turned that row off.
import { describe, expect, it } from 'vitest';
import { createTestApp, quoteBody } from '../test/harness';

describe('quote values', () => {
  const t = createTestApp();

  async function setup() {
    const op = await t.operator();
    const quote = (overrides: Record<string, unknown>) =>
      t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId, ...overrides } });
    const stored = async () => (await t.call('GET', '/api/quotes', { token: op.token })).json.quotes.length as number;
    return { op, quote, stored };
  }

  it.each([
    ['gearboxType', 'Hovercraft drive', 'This gearbox type is not offered. Please choose one from the list.'],
    ['rollingStatus', 'Floating', 'This rolling status is not offered. Please choose one from the list.'],
    ['problemType', '<b>Call 0900 now</b>', 'This problem is not offered. Please choose one from the list.'],
  ])('refuses an unknown %s with 400 naming the field, storing nothing', async (field, value, message) => {
    const { quote, stored } = await setup();
    const res = await quote({ [field]: value });
    expect(res.status).toBe(400);
    expect(res.json.fields).toEqual({ [field]: message });
    expect(await stored()).toBe(0);
  });

  it('refuses a value whose row the company turned off', async () => {
    const { op, quote, stored } = await setup();
    const manual = (await t.call('GET', '/api/gearbox-types', { token: op.token })).json.find((r: { name: string }) => r.name === 'Manual');
    expect((await t.call('PUT', `/api/gearbox-types/${manual.id}`, { token: op.token, body: { enabled: false } })).status).toBe(200);
    const res = await quote({ gearboxType: 'manual' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.fields)).toEqual(['gearboxType']);
    expect(await stored()).toBe(0);
  });

  it('takes the company’s rows in any spelling, and the form’s own values', async () => {
    const { op, quote, stored } = await setup();
    await t.call('POST', '/api/gearbox-types', { token: op.token, body: { name: 'Semi-Auto', basePrice: 7 } });
    for (const body of [
      { gearboxType: 'semi-auto' },
      { gearboxType: 'Manual' },
      { gearboxType: 'other', rollingStatus: 'n-a' },
      { rollingStatus: 'not-rolling', problemType: 'flat-tire' },
      { problemType: 'other' },
    ]) {
      expect((await quote(body)).status, JSON.stringify(body)).toBe(200);
    }
    expect(await stored()).toBe(5);
  });
});
