// The guided set-up's sample quote (docs/product.md §14): the engine prices a fixed trip with the
// rates as typed over the saved ones, whatever the hour, and stores nothing.
import { describe, expect, it } from 'vitest';
import { countQuotes } from '../quotes/store';
import { createTestApp } from '../test/harness';

// 23:00 UK time: after hours, which the sample leaves out (it is about the base rates).
const t = createTestApp({ now: () => new Date('2026-12-10T23:00:00Z') });

const amountOf = (lines: { label: string; amount: number }[], label: string) => lines.find((line) => line.label === label)?.amount;

describe('POST /api/pricing/sample', () => {
  it('prices the first vehicle type over 10 miles with the typed rates, and stores nothing', async () => {
    const op = await t.operator();
    const res = await t.call('POST', '/api/pricing/sample', { token: op.token, body: { callOutFee: '80', mileRate: 3, labourRate: 40 } });
    expect(res.status).toBe(200);
    expect(res.json.miles).toBe(10);
    expect(res.json.vehicleType).toBe('Car');
    const { lines, totalPrice } = res.json;
    expect(amountOf(lines, 'Call-out Fee')).toBe(80);
    expect(amountOf(lines, 'Distance (10 miles)')).toBe(30);
    expect(amountOf(lines, 'Labour Fee')).toBe(40);
    expect(lines.map((line: { label: string }) => line.label)).not.toContain('After-hours fee');
    const sum = lines.reduce((total: number, line: { amount: number }) => total + Math.round(line.amount * 100), 0);
    expect(Math.round(totalPrice * 100)).toBe(sum);
    expect(countQuotes(t.deps.db, op.companyId)).toBe(0);

    // Nothing was saved either: the operator's rates are as they were.
    const saved = await t.call('GET', '/api/pricing', { token: op.token });
    expect(saved.json.callOutFee).not.toBe(80);
  });

  it('takes the saved rate for a blank field', async () => {
    const op = await t.operator();
    await t.call('PUT', '/api/pricing', { token: op.token, body: { callOutFee: 65, labourRate: 30, mileRate: 2 } });
    const res = await t.call('POST', '/api/pricing/sample', { token: op.token, body: { callOutFee: '', mileRate: 4 } });
    expect(res.status).toBe(200);
    expect(amountOf(res.json.lines, 'Call-out Fee')).toBe(65);
    expect(amountOf(res.json.lines, 'Distance (10 miles)')).toBe(40);
    expect(amountOf(res.json.lines, 'Labour Fee')).toBe(30);
  });

  it('refuses a bad rate with 400 under its field', async () => {
    const op = await t.operator();
    const res = await t.call('POST', '/api/pricing/sample', { token: op.token, body: { mileRate: -1 } });
    expect(res.status).toBe(400);
    expect(res.json.fields.mileRate).toBe('Must not be negative');
  });

  it('answers 409 NO_VEHICLE_TYPE when the company offers no vehicle type', async () => {
    const op = await t.operator();
    const types = await t.call('GET', '/api/vehicle-types', { token: op.token });
    for (const row of types.json) await t.call('DELETE', `/api/vehicle-types/${row.id}`, { token: op.token });
    const res = await t.call('POST', '/api/pricing/sample', { token: op.token, body: {} });
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('NO_VEHICLE_TYPE');
  });
});
