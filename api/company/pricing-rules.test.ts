// The "More rules" of pricing through the API (docs/product.md §10): saved per field with a clear 400, applied to the next
// quote, refused outside the maximum radius, and kept with each stored quote.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { countQuotes } from '../quotes/store';
import { quotes } from '../platform/db/schema';
import { createTestApp, quoteBody } from '../test/harness';

// Thursday 10 December 2026, 12:00 GMT: no holiday, not after hours.
const t = createTestApp({ now: () => new Date('2026-12-10T12:00:00Z') });

const RULES_OFF = {
  bankHolidayNation: 'england-and-wales',
  bankHolidayFee: 0,
  enRouteRate: 0,
  freeMiles: 0,
  minimumCharge: 0,
  maximumRadius: null,
  vatRegistered: false,
  pricesIncludeVat: true,
  quoteValidityHours: 24,
};

const pence = (pounds: number) => Math.round(pounds * 100);

describe('pricing rules settings', () => {
  it('refuse travel to you or a maximum radius without a base postcode, with a 400 naming the field', async () => {
    const op = await t.operator();
    for (const [body, field, message] of [
      [{ enRouteRate: 1.5 }, 'enRouteRate', 'Add your base postcode (Branding tab) first: travel to you is measured from it'],
      [{ maximumRadius: 60 }, 'maximumRadius', 'Add your base postcode (Branding tab) first: the maximum radius is measured from it'],
    ] as const) {
      const res = await t.call('PUT', '/api/pricing', { token: op.token, body });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ message, code: 'VALIDATION_FAILED', fields: { [field]: message, basePostcode: message } });
      expect((await t.call('GET', '/api/pricing', { token: op.token })).json).toMatchObject(RULES_OFF);
    }
    // Free miles alone, or a rate of 0, switch nothing on.
    expect((await t.call('PUT', '/api/pricing', { token: op.token, body: { enRouteRate: 0, freeMiles: 5 } })).status).toBe(200);
    await t.call('PUT', '/api/company', { token: op.token, body: { basePostcode: 'SK1 1AA' } });
    expect((await t.call('PUT', '/api/pricing', { token: op.token, body: { enRouteRate: 1.5, maximumRadius: 60 } })).status).toBe(200);
  });

  it('start with every rule off, and save and read back each one', async () => {
    const op = await t.operator();
    await t.call('PUT', '/api/company', { token: op.token, body: { basePostcode: 'SK1 1AA' } });
    expect((await t.call('GET', '/api/pricing', { token: op.token })).json).toMatchObject(RULES_OFF);
    const rules = {
      bankHolidayNation: 'scotland',
      bankHolidayFee: 30,
      enRouteRate: 1.5,
      freeMiles: 5,
      minimumCharge: 120,
      maximumRadius: 60,
      vatRegistered: true,
      pricesIncludeVat: false,
      quoteValidityHours: 48,
    };
    const saved = await t.call('PUT', '/api/pricing', { token: op.token, body: rules });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject(rules);
    expect((await t.call('GET', '/api/pricing', { token: op.token })).json).toMatchObject(rules);
    expect((await t.call('GET', `/api/pricing/${op.companyId}`)).json).toMatchObject(rules);
    // A save that leaves them blank turns them off again, as blank base-rate fields take their defaults.
    const blank = await t.call('PUT', '/api/pricing', { token: op.token, body: { bankHolidayFee: '', maximumRadius: '' } });
    expect(blank.json).toMatchObject(RULES_OFF);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a negative bank-holiday fee', { bankHolidayFee: -1 }, 'bankHolidayFee'],
    ['an en-route rate over £100,000', { enRouteRate: 100_001 }, 'enRouteRate'],
    ['a minimum charge with 3 decimals', { minimumCharge: 1.005 }, 'minimumCharge'],
    ['a negative minimum charge', { minimumCharge: -20 }, 'minimumCharge'],
    ['free miles over 1,000', { freeMiles: 1001 }, 'freeMiles'],
    ['negative free miles', { freeMiles: -1 }, 'freeMiles'],
    ['a maximum radius below the service radius (25)', { maximumRadius: 24.9 }, 'maximumRadius'],
    ['an unknown nation', { bankHolidayNation: 'wales' }, 'bankHolidayNation'],
    ['VAT registered as a string', { vatRegistered: 'yes' }, 'vatRegistered'],
    ['prices include VAT as a number', { pricesIncludeVat: 1 }, 'pricesIncludeVat'],
    ['a validity of 0 hours', { quoteValidityHours: 0 }, 'quoteValidityHours'],
    ['a validity of 73 hours', { quoteValidityHours: 73 }, 'quoteValidityHours'],
    ['a validity of 1.5 hours', { quoteValidityHours: 1.5 }, 'quoteValidityHours'],
  ])('refuse %s with a 400 naming the field, and save nothing', async (_, body, field) => {
    const op = await t.operator();
    await t.call('PUT', '/api/company', { token: op.token, body: { basePostcode: 'SK1 1AA' } });
    await t.call('PUT', '/api/pricing', { token: op.token, body: { callOutFee: 61, minimumCharge: 10 } });
    const before = (await t.call('GET', '/api/pricing', { token: op.token })).json;
    const res = await t.call('PUT', '/api/pricing', { token: op.token, body: { callOutFee: 70, ...body } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.fields)).toEqual([field]);
    expect(res.json.requestId).toBeTruthy();
    expect((await t.call('GET', '/api/pricing', { token: op.token })).json).toEqual(before);
  });

  it('refuse a service radius above the maximum radius', async () => {
    const op = await t.operator();
    await t.call('PUT', '/api/company', { token: op.token, body: { basePostcode: 'SK1 1AA' } });
    await t.call('PUT', '/api/pricing', { token: op.token, body: { maximumRadius: 40 } });
    const res = await t.call('PUT', '/api/company', { token: op.token, body: { serviceRadius: 41 } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.fields)).toEqual(['serviceRadius']);
    expect((await t.call('GET', '/api/company', { token: op.token })).json.serviceRadius).toBe(25);
    expect((await t.call('PUT', '/api/company', { token: op.token, body: { serviceRadius: 40 } })).status).toBe(200);
  });
});

describe('quotes under the rules', () => {
  const quote = (companyId: number, body: Record<string, unknown> = {}) =>
    t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId, ...body } });

  it('price each rule as its own line, lines adding to the total, and store the snapshot with VAT and validity', async () => {
    const op = await t.operator();
    await t.call('PUT', '/api/company', { token: op.token, body: { basePostcode: 'SK1 1AA', serviceRadius: 1 } });
    const plain = await quote(op.companyId);
    expect(plain.json.vat).toBeNull();
    const fromBase = await t.deps.distance.distanceMiles('SK1 1AA', 'M1 1AE');

    await t.call('PUT', '/api/pricing', {
      token: op.token,
      body: { enRouteRate: 2, freeMiles: 1, vatRegistered: true, pricesIncludeVat: false, quoteValidityHours: 2 },
    });
    const res = await quote(op.companyId);
    expect(res.status).toBe(200);
    const travel = Math.floor((Math.round((fromBase - 1) * 1000) * 200 + 500) / 1000);
    const net = pence(plain.json.totalPrice) + travel;
    const vat = Math.floor((net * 20 + 50) / 100);
    expect(res.json.extras).toEqual([
      { label: 'Out-of-area fee', amount: 15 },
      { label: `Travel to you: ${Math.round((fromBase - 1) * 10) / 10} miles after 1 free`, amount: travel / 100 },
      { label: 'VAT (20%)', amount: vat / 100 },
    ]);
    expect(pence(res.json.totalPrice)).toBe(net + vat);
    expect(res.json.lines.reduce((sum: number, line: { amount: number }) => sum + pence(line.amount), 0)).toBe(net + vat);
    expect(res.json.lines.at(-1)).toEqual({ label: 'VAT (20%)', amount: vat / 100 });
    expect(res.json.vat).toEqual({ rate: 20, amount: vat / 100, includedInPrices: false });
    expect(res.json.validUntil).toBe('2026-12-10T14:00:00.000Z');

    const stored = t.deps.db.select().from(quotes).where(eq(quotes.publicId, res.json.quoteId)).get()!;
    expect(stored).toMatchObject({ totalPricePence: net + vat, vatPence: vat, vatRatePercent: 20, validUntil: '2026-12-10T14:00:00.000Z' });
    const snapshot = res.json.lines.map((line: { label: string; amount: number }) => ({ label: line.label, amountPence: pence(line.amount) }));
    expect(JSON.parse(stored.lines!)).toEqual(snapshot);

    // A later price change never alters the stored quote.
    await t.call('PUT', '/api/pricing', { token: op.token, body: { callOutFee: 99 } });
    const after = t.deps.db.select().from(quotes).where(eq(quotes.publicId, res.json.quoteId)).get()!;
    expect(JSON.parse(after.lines!)).toEqual(snapshot);
    expect(after.totalPricePence).toBe(net + vat);
  });

  it('add the bank-holiday fee on a later job’s holiday, then the minimum charge adjustment', async () => {
    const op = await t.operator();
    const boxingDaySubstitute = { urgency: 'later', preferredDate: '2026-12-28', preferredTime: '09:00' };
    await t.call('PUT', '/api/pricing', { token: op.token, body: { bankHolidayFee: 40 } });
    const holiday = await quote(op.companyId, boxingDaySubstitute);
    expect(holiday.json.extras).toEqual([{ label: 'Bank holiday fee', amount: 40 }]);
    expect((await quote(op.companyId)).json.extras).toEqual([]);

    await t.call('PUT', '/api/pricing', { token: op.token, body: { bankHolidayFee: 40, minimumCharge: 500 } });
    const res = await quote(op.companyId, boxingDaySubstitute);
    expect(res.json.extras).toEqual([
      { label: 'Bank holiday fee', amount: 40 },
      { label: 'Minimum charge adjustment', amount: (50_000 - pence(holiday.json.totalPrice)) / 100 },
    ]);
    expect(res.json.totalPrice).toBe(500);
  });

  it('refuse a pickup beyond the maximum radius with the company’s own words, storing nothing', async () => {
    const op = await t.operator();
    await t.call('PUT', '/api/company', { token: op.token, body: { name: 'Pennine Recovery', phone: '0161 496 0000', basePostcode: 'EH1 1YZ' } });
    await t.call('PUT', '/api/pricing', { token: op.token, body: { maximumRadius: 100 } });
    const before = countQuotes(t.deps.db, op.companyId);
    const res = await quote(op.companyId);
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({
      message: "This pickup is outside Pennine Recovery's area. Please call us on 0161 496 0000.",
      code: 'OUTSIDE_SERVICE_AREA',
      phone: '+441614960000',
    });
    expect(res.json.requestId).toBeTruthy();
    expect(countQuotes(t.deps.db, op.companyId)).toBe(before);
    // Edinburgh base, Edinburgh pickup: inside.
    expect((await quote(op.companyId, { pickupPostcode: 'EH2 2BY' })).status).toBe(200);
  });
});

describe('/api/openapi.json', () => {
  it('documents every rule setting, for the save and the read, and the quote’s new lines', async () => {
    const doc = (await t.call('GET', '/api/openapi.json')).json;
    const rules = Object.keys(RULES_OFF);
    const schemaOf = (ref: { $ref?: string } & Record<string, unknown>) => (ref.$ref ? doc.components.schemas[ref.$ref.split('/').at(-1)!] : ref);
    const save = schemaOf(doc.paths['/api/pricing'].put.requestBody.content['application/json'].schema);
    const read = schemaOf(doc.paths['/api/pricing'].get.responses['200'].content['application/json'].schema);
    for (const rule of rules) {
      expect(Object.keys(save.properties), rule).toContain(rule);
      expect(Object.keys(read.properties), rule).toContain(rule);
    }
    const quote = schemaOf(doc.paths['/api/quotes/calculate'].post.responses['200'].content['application/json'].schema);
    expect(Object.keys(quote.properties)).toEqual(expect.arrayContaining(['extras', 'lines', 'vat', 'validUntil']));
  });
});
