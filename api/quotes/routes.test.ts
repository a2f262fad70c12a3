import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createDistanceService } from '../engine/distance/distance';
import { countQuotes } from '../quotes/store';
import { createTestApp } from '../test/harness';

const demoQuote = {
  pickupPostcode: 'm11ae',
  destinationPostcode: 'M4 4BF',
  vehicleType: 'car',
  gearboxType: 'manual',
  rollingStatus: 'rolling',
  passengerCount: 0,
  problemType: 'engine-failure',
  urgency: 'immediate',
  companyId: 1,
};

// 12:00 UTC on a weekday: outside any 18:00–08:00 window.
const noon = () => new Date('2026-06-10T12:00:00Z');

describe('POST /api/quotes/calculate', () => {
  const t = createTestApp({ now: noon });

  it('prices the demo company and stores the quote', async () => {
    const before = countQuotes(t.deps.db, 1);
    const res = await t.call('POST', '/api/quotes/calculate', { body: demoQuote, origin: 'https://someone-elses-site.example' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const q = res.json;
    expect(q.currency).toBe('GBP');
    expect(q.quoteId).toMatch(/^[2-9A-HJ-NP-Z]{10}$/);
    expect(q.distance).toBeGreaterThan(0.5);
    expect(q.distance).toBeLessThan(5);
    expect(q.breakdown).toMatchObject({
      vehicleBasePrice: 25,
      callOutFee: 50,
      labourFee: 45,
      extraFees: 45,
      gearboxFee: 0,
      rollingStatusFee: 0,
      passengerFee: 0,
    });
    expect(q.breakdown.distanceFee).toBeCloseTo(Math.round(q.distance * 250) / 100, 2);
    const sum = Object.values(q.breakdown as Record<string, number>).reduce((a, b) => a + Math.round(b * 100), 0);
    expect(Math.round(q.totalPrice * 100)).toBe(sum);
    expect(q.extras).toEqual([{ label: 'Engine Failure surcharge', amount: 45 }]);
    expect(countQuotes(t.deps.db, 1)).toBe(before + 1);
  });

  it('accepts companySlug and answers the CORS preflight', async () => {
    const res = await t.call('POST', '/api/quotes/calculate', { body: { ...demoQuote, companyId: undefined, companySlug: 'demo' } });
    expect(res.status).toBe(200);
    const pre = await t.app.request('http://localhost:3999/api/quotes/calculate', {
      method: 'OPTIONS',
      headers: { origin: 'https://a.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
  });

  it.each([
    [{ pickupPostcode: '' }, 'pickupPostcode', 'Pickup postcode is required'],
    [{ pickupPostcode: undefined }, 'pickupPostcode', 'Pickup postcode is required'],
    [{ destinationPostcode: '' }, 'destinationPostcode', 'Destination postcode is required'],
    [{ pickupPostcode: 'HELLO' }, 'pickupPostcode', 'Please enter a valid UK postcode for pickup location'],
    [{ destinationPostcode: '12345' }, 'destinationPostcode', 'Please enter a valid UK postcode for destination'],
    [{ vehicleType: '' }, 'vehicleType', 'Vehicle type is required'],
    [{ gearboxType: undefined }, 'gearboxType', 'Gearbox type is required'],
    [{ problemType: '' }, 'problemType', 'Problem type is required'],
    [{ urgency: 'tomorrow' }, 'urgency', 'Urgency level is required'],
    [{ urgency: undefined }, 'urgency', 'Urgency level is required'],
    [{ passengerCount: -1 }, 'passengerCount', 'Passenger count must be at least 0'],
    [{ passengerCount: 6 }, 'passengerCount', 'Passenger count cannot exceed 5'],
    [{ passengerCount: 'two' }, 'passengerCount', 'Passenger count must be a number'],
    [{ vehicleType: 'tank' }, 'vehicleType', undefined],
    [{ preferredDate: '2026-13-45', urgency: 'later' }, 'preferredDate', undefined],
    [{ preferredDate: '2026-02-31', preferredTime: '10:00', urgency: 'later' }, 'preferredDate', 'Preferred date must be a real date'],
    [{ preferredTime: '10:00', urgency: 'later' }, 'preferredDate', 'Preferred date is required'],
    [{ preferredDate: '2099-06-11', urgency: 'later' }, 'preferredTime', 'Preferred time is required'],
    [{ preferredDate: '2020-06-11', preferredTime: '10:00', urgency: 'later' }, 'preferredDate', 'Preferred date cannot be in the past'],
  ])('%j → 400 on %s', async (patch, field, message) => {
    const before = countQuotes(t.deps.db);
    const res = await t.call('POST', '/api/quotes/calculate', { body: { ...demoQuote, ...patch } });
    expect(res.status).toBe(400);
    if (message) expect(res.json.fields[field]).toBe(message);
    else expect(res.json.fields[field]).toBeTruthy();
    expect(countQuotes(t.deps.db)).toBe(before);
  });

  it('answers 422 naming a valid postcode no data level knows', async () => {
    const res = await t.call('POST', '/api/quotes/calculate', { body: { ...demoQuote, destinationPostcode: 'ZE9 9ZZ' } });
    expect(res.status).toBe(422);
    expect(res.json.message).toContain('ZE9 9ZZ');
    expect(res.json.fields.destinationPostcode).toContain('ZE9 9ZZ');
  });

  it('answers 404 for a missing company and 400 when none is named', async () => {
    expect((await t.call('POST', '/api/quotes/calculate', { body: { ...demoQuote, companyId: 99999 } })).status).toBe(404);
    expect((await t.call('POST', '/api/quotes/calculate', { body: { ...demoQuote, companyId: undefined } })).status).toBe(400);
  });

  it('quotes a signed-in operator previewing their own company, and refuses others without access', async () => {
    const op = await t.operator('inactive');
    const own = await t.call('POST', '/api/quotes/calculate', { token: op.token, body: { ...demoQuote, companyId: undefined, vehicleType: 'van' } });
    expect(own.status).toBe(200);
    expect(own.json.breakdown.vehicleBasePrice).toBe(35);
    await t.call('PUT', '/api/company', { token: op.token, body: { name: 'Lapsed Recovery' } });
    const anon = await t.call('POST', '/api/quotes/calculate', { body: { ...demoQuote, companyId: op.companyId } });
    expect(anon.status).toBe(409);
    expect(anon.json).toMatchObject({ code: 'QUOTES_PAUSED', message: 'Online quotes from Lapsed Recovery are paused' });
    expect(anon.json).not.toHaveProperty('totalPrice');
  });

  it('refuses a price for a company with neither a phone nor a WhatsApp number, naming it, and stores nothing', async () => {
    const op = await t.operator('trialing', { contact: false });
    await t.call('PUT', '/api/company', { token: op.token, body: { name: 'Silent Towing' } });
    const res = await t.call('POST', '/api/quotes/calculate', { body: { ...demoQuote, companyId: op.companyId } });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({
      code: 'QUOTES_NOT_SET_UP',
      message: 'Online quotes from Silent Towing are not set up yet',
      requestId: expect.any(String),
    });
    expect(countQuotes(t.deps.db, op.companyId)).toBe(0);
    // A blank number is no number; a WhatsApp number alone is enough.
    await t.call('PUT', '/api/company', { token: op.token, body: { phone: '', whatsapp: '07700 900111' } });
    expect((await t.call('POST', '/api/quotes/calculate', { body: { ...demoQuote, companyId: op.companyId } })).status).toBe(200);
  });

  it('applies the operator’s changes at once (the config cache is invalidated)', async () => {
    const op = await t.operator();
    const body = { ...demoQuote, companyId: op.companyId, passengerCount: 2 };
    const first = await t.call('POST', '/api/quotes/calculate', { body });
    expect(first.json.breakdown.passengerFee).toBe(10);
    await t.call('PUT', '/api/pricing', { token: op.token, body: { callOutFee: 99 } });
    await t.call('POST', '/api/passenger-charges', { token: op.token, body: { passengerCount: 2, basePrice: 3 } });
    await t.call('PUT', '/api/company', { token: op.token, body: { basePostcode: 'EH1 1YZ', serviceRadius: 10, extraRadiusFee: 20 } });
    const second = await t.call('POST', '/api/quotes/calculate', { body });
    expect(second.json.breakdown.callOutFee).toBe(99);
    expect(second.json.breakdown.passengerFee).toBe(3);
    expect(second.json.extras).toContainEqual({ label: 'Out-of-area fee', amount: 20 });
  });

  it('asks for the trip and the distance from the base at once, not one after the other', async () => {
    // Neither distance answers until both have been asked: asked in turn, the quote never answers.
    const asked: string[] = [];
    let bothAsked!: () => void;
    const both = new Promise<void>((resolve) => (bothAsked = resolve));
    const distance = {
      async distanceMiles(from: string, to: string) {
        asked.push(`${from} → ${to}`);
        if (asked.length === 2) bothAsked();
        await both;
        return from === 'EH1 1YZ' ? 25 : 5;
      },
    };
    const app = createTestApp({ now: noon, distance });
    const op = await app.operator();
    await app.call('PUT', '/api/company', { token: op.token, body: { basePostcode: 'EH1 1YZ', serviceRadius: 10, extraRadiusFee: 20 } });
    const res = await app.call('POST', '/api/quotes/calculate', { body: { ...demoQuote, companyId: op.companyId } });
    expect(res.status).toBe(200);
    expect(asked).toHaveLength(2);
    expect(res.json.extras).toContainEqual({ label: 'Out-of-area fee', amount: 20 });
  }, 5000);

  it('prices alike whether the distances answer at once (the built-in estimate) or as promises (OSRM)', async () => {
    const builtin = createDistanceService();
    expect(builtin.milesNow).toBeTypeOf('function');
    const promisesOnly = { distanceMiles: (from: string, to: string) => builtin.distanceMiles(from, to) };
    const apps = [createTestApp({ now: noon }), createTestApp({ now: noon, distance: promisesOnly })];
    const answers = [];
    for (const app of apps) {
      const op = await app.operator();
      const quote = (body: Record<string, unknown>) => app.call('POST', '/api/quotes/calculate', { body: { ...demoQuote, companyId: op.companyId, ...body } });
      const seen = [];
      for (const body of [
        {},
        { pickupPostcode: 'ZZ99 9ZZ' },
        { destinationPostcode: 'ZZ99 9ZZ' },
        { pickupPostcode: 'EH1 1YZ', destinationPostcode: 'G1 1XQ' },
      ]) {
        const res = await quote(body);
        seen.push([res.status, { ...res.json, quoteId: undefined, requestId: undefined }]);
      }
      // And from a base the pickup is outside of: the out-of-area fee.
      await app.call('PUT', '/api/company', { token: op.token, body: { basePostcode: 'EH1 1YZ', serviceRadius: 10, extraRadiusFee: 20 } });
      seen.push([(await quote({})).status, (await quote({})).json.extras]);
      answers.push(seen);
    }
    expect(answers[0][1]).toEqual([422, expect.objectContaining({ fields: { pickupPostcode: expect.stringContaining('ZZ99 9ZZ') } })]);
    expect(answers[0][2]).toEqual([422, expect.objectContaining({ fields: { destinationPostcode: expect.stringContaining('ZZ99 9ZZ') } })]);
    expect(answers[0][4]).toEqual([200, expect.arrayContaining([{ label: 'Out-of-area fee', amount: 20 }])]);
    expect(answers[1]).toEqual(answers[0]);
  });

  it('takes today in London as the earliest preferred date', async () => {
    // 23:30 UTC on 30 June is already 1 July in London (BST).
    const lateEvening = createTestApp({ now: () => new Date('2026-06-30T23:30:00Z') });
    const later = (preferredDate: string) =>
      lateEvening.call('POST', '/api/quotes/calculate', { body: { ...demoQuote, urgency: 'later', preferredDate, preferredTime: '10:00' } });
    expect((await later('2026-06-30')).status).toBe(400);
    expect((await later('2026-07-01')).status).toBe(200);
  });

  it('applies the after-hours fee at night in UK time', async () => {
    const night = createTestApp({ now: () => new Date('2026-06-10T22:30:00Z') });
    const op = await night.operator();
    await night.call('PUT', '/api/pricing', { token: op.token, body: { afterHoursEnabled: true } });
    const res = await night.call('POST', '/api/quotes/calculate', { body: { ...demoQuote, companyId: op.companyId, problemType: 'other' } });
    expect(res.json.extras).toEqual([{ label: 'After-hours fee', amount: 50 }]);
    const later = await night.call('POST', '/api/quotes/calculate', {
      body: { ...demoQuote, companyId: op.companyId, problemType: 'other', urgency: 'later', preferredDate: '2026-06-11', preferredTime: '10:00' },
    });
    expect(later.json.extras).toEqual([]);
  });

  it('rate-limits quote calculation per client', async () => {
    const limited = createTestApp({ env: { QUOTE_RATE_LIMIT: '3' } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await limited.call('POST', '/api/quotes/calculate', { body: demoQuote })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // Refused input is not a calculation: it still gets its field messages, not a 429.
    const typo = await limited.call('POST', '/api/quotes/calculate', { body: { ...demoQuote, pickupPostcode: 'HELLO' } });
    expect(typo.status).toBe(400);
    const other = await limited.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(other.status).toBe(429); // X-Forwarded-For is ignored unless TRUST_PROXY is set
    const proxied = createTestApp({ env: { QUOTE_RATE_LIMIT: '1', TRUST_PROXY: '1' } });
    const a = await proxied.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: { 'x-forwarded-for': '203.0.113.1' } });
    const b = await proxied.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: { 'x-forwarded-for': '203.0.113.2' } });
    const c = await proxied.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: { 'x-forwarded-for': '203.0.113.1' } });
    expect([a.status, b.status, c.status]).toEqual([200, 200, 429]);
    // The proxy appends the address it saw; what the client wrote before it is not believed.
    const spoofed = await proxied.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: { 'x-forwarded-for': '198.51.100.7, 203.0.113.1' } });
    expect(spoofed.status).toBe(429);
    const fresh = await proxied.call('POST', '/api/quotes/calculate', { body: demoQuote, headers: { 'x-forwarded-for': '203.0.113.1, 203.0.113.3' } });
    expect(fresh.status).toBe(200);
  });
});

describe('POST /api/quotes/calculate with an OSRM that accepts and never answers', () => {
  it('answers with the built-in estimate, fast once the circuit is open, holding at most 8 OSRM sockets', { timeout: 15_000 }, async () => {
    const held = new Set<unknown>();
    let asked = 0;
    let mostHeld = 0;
    const osrm = createServer((_req, res) => {
      asked++;
      held.add(res);
      mostHeld = Math.max(mostHeld, held.size);
      res.once('close', () => held.delete(res));
    });
    await new Promise<void>((resolve) => osrm.listen(0, '127.0.0.1', resolve));
    try {
      const t = createTestApp({ now: noon, env: { DISTANCE_PROVIDER: 'osrm', OSRM_URL: `http://127.0.0.1:${(osrm.address() as AddressInfo).port}` } });
      const op = await t.operator();
      await t.call('PUT', '/api/company', { token: op.token, body: { basePostcode: 'EH1 1YZ', serviceRadius: 10, extraRadiusFee: 20 } });
      const quote = (pickupPostcode: string) => t.call('POST', '/api/quotes/calculate', { body: { ...demoQuote, companyId: op.companyId, pickupPostcode } });

      // Five quotes, two OSRM calls each: eight wait out the 2 s timeout, the two past the cap get
      // the estimate at once, and the failures open the circuit.
      const first = await Promise.all(['CB2 1TN', 'OX1 2JD', 'LS1 4DY', 'BS1 4DJ', 'B1 1BB'].map(quote));
      expect(first.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(asked).toBe(8);
      expect(mostHeld).toBe(8);

      const started = performance.now();
      const next = await quote('WC1E 6BT');
      expect(next.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(asked).toBe(8);
    } finally {
      osrm.closeAllConnections();
      await new Promise((resolve) => osrm.close(resolve));
    }
  });
});
