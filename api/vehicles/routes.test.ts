// Number plate look-ups through the real app against the DVLA fake (api/test/dvla-fake.ts): the
// DVLA's published mock plates and the fake's own, mapped by the default and the operator's own
// rules; every failure falls back to "unavailable" within 2 s; one request per plate a day; the
// key in no answer and no log line; the route's own rate limit; the operator's rules; and the
// plate riding along with the quote.
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCharge } from '../charges/store';
import { quotes } from '../platform/db/schema';
import { DVLA_MOCK_PLATES, FAKE_DVLA_KEY, FAKE_PLATES, startDvlaFake } from '../test/dvla-fake';
import { createTestApp, quoteBody } from '../test/harness';
import { UNKNOWN_VEHICLE_TYPE } from './service';
import { VEHICLE_LOOKUP_RATE_LIMITED } from './routes';

type Fake = Awaited<ReturnType<typeof startDvlaFake>>;
let fake: Fake;
beforeAll(async () => {
  fake = await startDvlaFake({ slowMs: 5000 });
});
afterAll(() => fake.close());

const withDvla = (extra: Record<string, string> = {}) => ({ DVLA_API_KEY: FAKE_DVLA_KEY, DVLA_API_URL: fake.url, ...extra });

/** A log that keeps every record, to look for what must never be in one. */
function recordingLogger() {
  const lines: string[] = [];
  const keep = (record: Record<string, unknown>) => void lines.push(JSON.stringify(record));
  return { lines, logger: { info: keep, warn: keep, error: keep } };
}

describe('POST /api/vehicles/lookup with the DVLA', () => {
  const log = recordingLogger();
  let t: ReturnType<typeof createTestApp>;
  beforeAll(() => {
    t = createTestApp({ env: withDvla(), logger: log.logger });
  });
  const lookUp = (registration: string, company: { companyId?: number; companySlug?: string } = { companySlug: 'demo' }) =>
    t.call('POST', '/api/vehicles/lookup', { body: { registration, ...company }, origin: 'https://an-operators-site.example' });

  it.each([
    [DVLA_MOCK_PLATES.found, 'a red Ford', { value: 'car', name: 'Car', phrase: 'a car' }],
    // The demo company has no EV row: an electric car is still a car.
    [DVLA_MOCK_PLATES.electric, 'a red Ford', { value: 'car', name: 'Car', phrase: 'a car' }],
    [FAKE_PLATES.van, 'a white Ford', { value: 'van', name: 'Van', phrase: 'a van' }],
    [FAKE_PLATES.largeVan, 'a white Ford', { value: 'van', name: 'Van', phrase: 'a van' }],
    [FAKE_PLATES.motorcycle, 'a black Honda', { value: 'motorcycle', name: 'Motorcycle', phrase: 'a motorcycle' }],
    // A 44-tonne artic with no type approval: the demo's rules have nothing for it.
    [DVLA_MOCK_PLATES.artic, 'a red Ford', null],
  ])('%s is %s, %j', async (plate, vehicle, vehicleType) => {
    const res = await lookUp(plate);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.json).toEqual({ status: 'found', registration: plate, vehicle, vehicleType });
  });

  it.each([DVLA_MOCK_PLATES.notFound, DVLA_MOCK_PLATES.badRequest])('%s is not found', async (plate) => {
    expect((await lookUp(plate)).json).toEqual({ status: 'not-found', registration: plate });
  });

  it.each([DVLA_MOCK_PLATES.serverError, DVLA_MOCK_PLATES.maintenance, FAKE_PLATES.slow])('%s falls back to unavailable within 2 s', async (plate) => {
    const started = performance.now();
    const res = await lookUp(plate);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'unavailable', registration: plate });
  });

  it('asks the DVLA once per plate: spaces and case are the same plate, and a second look-up is answered from the cache', async () => {
    const plate = 'AA19AAA';
    await lookUp('aa19 aaa');
    const asked = fake.count(plate);
    expect(asked).toBeGreaterThanOrEqual(1);
    const again = await lookUp('AA19 AAA');
    expect(again.json.status).toBe('found');
    const notFound = fake.count(DVLA_MOCK_PLATES.notFound);
    expect((await lookUp(DVLA_MOCK_PLATES.notFound)).json.status).toBe('not-found');
    expect(fake.count(plate)).toBe(asked);
    expect(fake.count(DVLA_MOCK_PLATES.notFound)).toBe(notFound);
  });

  it('asks again after a failure: only answers are cached', async () => {
    const before = fake.count(DVLA_MOCK_PLATES.serverError);
    await lookUp(DVLA_MOCK_PLATES.serverError);
    expect(fake.count(DVLA_MOCK_PLATES.serverError)).toBe(before + 1);
  });

  it('maps with the company’s own vehicle types: an EV row takes electric vehicles, a large van row N1 over 3,000 kg', async () => {
    const op = await t.operator();
    createCharge(t.deps.db, 'vehicleTypes', op.companyId, { name: 'EV', basePricePence: 6000 });
    createCharge(t.deps.db, 'vehicleTypes', op.companyId, { name: 'Large Van', basePricePence: 7000 });
    const company = { companyId: op.companyId };
    expect((await lookUp(DVLA_MOCK_PLATES.electric, company)).json.vehicleType).toEqual({ value: 'ev', name: 'EV', phrase: 'an EV' });
    expect((await lookUp(FAKE_PLATES.largeVan, company)).json.vehicleType).toEqual({ value: 'large van', name: 'Large Van', phrase: 'a large van' });
    expect((await lookUp(FAKE_PLATES.van, company)).json.vehicleType).toEqual({ value: 'van', name: 'Van', phrase: 'a van' });
    expect((await lookUp(DVLA_MOCK_PLATES.found, company)).json.vehicleType?.value).toBe('car');
  });

  it('follows the rules the operator saves, and goes back to the defaults', async () => {
    const op = await t.operator();
    const rules = (await t.call('GET', '/api/vehicle-rules', { token: op.token })).json;
    expect(rules.defaults).toBe(true);
    expect(rules.lookupAvailable).toBe(true);
    const types = (await t.call('GET', '/api/vehicle-types', { token: op.token })).json as { id: number; name: string }[];
    const id = (name: string) => types.find((r) => r.name === name)?.id;
    expect(rules.rules).toEqual([
      { category: 'L', fuel: 'any', overKg: null, vehicleTypeId: id('Motorcycle') },
      { category: 'N1', fuel: 'any', overKg: null, vehicleTypeId: id('Van') },
      { category: 'M1', fuel: 'any', overKg: null, vehicleTypeId: id('Car') },
    ]);

    // Every petrol vehicle is a van for this operator.
    const mine = [{ category: 'any', fuel: 'petrol', overKg: null, vehicleTypeId: id('Van') }];
    const saved = await t.call('PUT', '/api/vehicle-rules', { token: op.token, body: { rules: mine } });
    expect(saved.status).toBe(200);
    expect(saved.json).toEqual({ rules: mine, defaults: false, lookupAvailable: true });
    expect((await lookUp(DVLA_MOCK_PLATES.found, { companyId: op.companyId })).json.vehicleType?.value).toBe('van');
    // No rule matches a diesel van now.
    expect((await lookUp(FAKE_PLATES.van, { companyId: op.companyId })).json.vehicleType).toBeNull();

    const reset = await t.call('PUT', '/api/vehicle-rules', { token: op.token, body: { rules: null } });
    expect(reset.json.defaults).toBe(true);
    expect((await lookUp(DVLA_MOCK_PLATES.found, { companyId: op.companyId })).json.vehicleType?.value).toBe('car');
  });

  it('refuses rules naming another company’s vehicle type, and bad rules, changing nothing', async () => {
    const op = await t.operator();
    const other = await t.operator();
    const theirs = ((await t.call('GET', '/api/vehicle-types', { token: other.token })).json as { id: number }[])[0].id;
    const res = await t.call('PUT', '/api/vehicle-rules', {
      token: op.token,
      body: { rules: [{ category: 'M1', fuel: 'any', overKg: null, vehicleTypeId: theirs }] },
    });
    expect(res.status).toBe(400);
    expect(res.json.fields).toEqual({ 'rules.0.vehicleTypeId': UNKNOWN_VEHICLE_TYPE });
    const bad = await t.call('PUT', '/api/vehicle-rules', {
      token: op.token,
      body: { rules: [{ category: 'X9', fuel: 'any', overKg: -1, vehicleTypeId: theirs }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.fields['rules.0.category']).toBeDefined();
    expect(bad.json.fields['rules.0.overKg']).toBe('Weight must not be negative');
    expect((await t.call('GET', '/api/vehicle-rules', { token: op.token })).json.defaults).toBe(true);
    expect((await t.call('GET', '/api/vehicle-rules')).status).toBe(401);
  });

  it('refuses a registration that is no UK shape, an unknown company and a company that is not live', async () => {
    const bad = await lookUp('NOT A PLATE!');
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toEqual({ registration: 'Please enter a valid UK registration' });
    expect((await lookUp(DVLA_MOCK_PLATES.found, { companySlug: 'no-such-company' })).status).toBe(404);
    const lapsed = await t.operator('inactive');
    expect((await lookUp(DVLA_MOCK_PLATES.found, { companyId: lapsed.companyId })).status).toBe(404);
    expect((await t.call('POST', '/api/vehicles/lookup', { body: { registration: DVLA_MOCK_PLATES.found } })).status).toBe(400);
  });

  it('never puts the key or a plate in a log line, nor the key in an answer', async () => {
    await lookUp(DVLA_MOCK_PLATES.maintenance);
    await lookUp('SL19 OOW');
    expect(log.lines.some((line) => line.includes('vehicle lookup unavailable'))).toBe(true);
    for (const line of log.lines) {
      expect(line).not.toContain(FAKE_DVLA_KEY);
      expect(line).not.toMatch(/AA19|ER19|SL19|VN19|MC19/);
    }
    const res = await lookUp(DVLA_MOCK_PLATES.found);
    expect(res.text).not.toContain(FAKE_DVLA_KEY);
    expect(fake.requests.every((r) => r.keyAccepted)).toBe(true);
  });
});

// Apps whose configuration needs the fake's address are made in beforeAll, before the fake exists at collection time.
const appWith = (env: () => Record<string, string>) => {
  const made: { t?: ReturnType<typeof createTestApp> } = {};
  beforeAll(() => {
    made.t = createTestApp({ env: env() });
  });
  return () => made.t as ReturnType<typeof createTestApp>;
};

describe('the DVLA’s own rate limit', () => {
  const app = appWith(() => withDvla());
  it('answers unavailable, and leaves the DVLA alone for its Retry-After', async () => {
    const t = app();
    const lookUp = (registration: string) => t.call('POST', '/api/vehicles/lookup', { body: { registration, companySlug: 'demo' } });
    expect((await lookUp(DVLA_MOCK_PLATES.rateLimited)).json).toEqual({ status: 'unavailable', registration: DVLA_MOCK_PLATES.rateLimited });
    const asked = fake.requests.length;
    expect((await lookUp('VN19AAB')).json.status).toBe('unavailable');
    expect(fake.requests.length).toBe(asked);
  });
});

describe('without DVLA_API_KEY', () => {
  const app = appWith(() => ({ DVLA_API_URL: fake.url }));
  it('looks nothing up: every plate is unavailable and the DVLA is never asked', async () => {
    const t = app();
    const asked = fake.requests.length;
    const res = await t.call('POST', '/api/vehicles/lookup', { body: { registration: 'AA19 AAA', companySlug: 'demo' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'unavailable', registration: 'AA19AAA' });
    expect(fake.requests.length).toBe(asked);
    const op = await t.operator();
    expect((await t.call('GET', '/api/vehicle-rules', { token: op.token })).json.lookupAvailable).toBe(false);
  });
});

describe('the look-up’s own rate limit', () => {
  const app = appWith(() => withDvla({ VEHICLE_LOOKUP_RATE_LIMIT: '2' }));
  it('answers 429 with Retry-After past VEHICLE_LOOKUP_RATE_LIMIT a minute, apart from the quote budget', async () => {
    const t = app();
    const lookUp = () => t.call('POST', '/api/vehicles/lookup', { body: { registration: 'AA19AAA', companySlug: 'demo' } });
    expect((await lookUp()).status).toBe(200);
    expect((await lookUp()).status).toBe(200);
    const limited = await lookUp();
    expect(limited.status).toBe(429);
    expect(limited.json.message).toBe(VEHICLE_LOOKUP_RATE_LIMITED);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companySlug: 'demo' } })).status).toBe(200);
  });
});

describe('the registration rides along with the quote', () => {
  const t = createTestApp();
  const latest = () => t.deps.db.select({ registration: quotes.registration }).from(quotes).where(eq(quotes.companyId, 1)).orderBy(desc(quotes.id)).get();

  it('is stored as its letters and digits in capitals, and a quote without one stores none', async () => {
    expect((await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companySlug: 'demo', registration: 'ab12 cde' } })).status).toBe(200);
    expect(latest()?.registration).toBe('AB12CDE');
    expect((await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companySlug: 'demo', registration: 'ab12-cde' } })).status).toBe(200);
    expect(latest()?.registration).toBe('AB12CDE');
    expect((await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companySlug: 'demo', registration: '  ' } })).status).toBe(200);
    expect(latest()?.registration).toBeNull();
    expect((await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companySlug: 'demo' } })).status).toBe(200);
    expect(latest()?.registration).toBeNull();
  });

  it('refuses one too long to be a plate, or not text, with a field message, storing nothing', async () => {
    const before = latest();
    const res = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companySlug: 'demo', registration: 'ABCDEFGH12345678X' } });
    expect(res.status).toBe(400);
    expect(res.json.fields).toEqual({ registration: 'Please enter a valid UK registration' });
    const notText = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companySlug: 'demo', registration: 12 } });
    expect(notText.status).toBe(400);
    expect(notText.json.fields).toEqual({ registration: 'Registration must be text' });
    expect(latest()).toEqual(before);
  });
});
