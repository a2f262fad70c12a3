// Phone jobs (docs/product.md §25) through the real app: a caller priced with the company's own
// engine and an adjustment, stored as taken by phone, its link texted by the real outbox worker
// to the fake SMS provider, its page, a booking made from it and one made for the caller, the
// Jobs list, numbers and CSV, and the voice webhook with requests signed here.
import { afterEach, describe, expect, it } from 'vitest';
import { accountJobs, bookings, mailOutbox, missedCalls, payments, phoneQuotes, quotes } from '../platform/db/schema';
import { createTestApp, quoteBody, runnerFor, TEST_ORIGIN } from '../test/harness';
import { startSmsFake, type SmsFake } from '../test/sms-fake';
import { mailOutboxJobs } from '../mail/worker';
import { retentionJob } from '../leads/retention';
import { updateCompany } from '../company/store';
import { updateUser } from '../auth/store';
import {
  ADJUSTMENT_REASON_REQUIRED,
  ADJUSTMENT_TOTAL_NEGATIVE,
  QUOTE_LINK_NEEDS_SUBSCRIPTION,
  QUOTE_LINK_NO_SMS,
  QUOTE_LINK_NOT_UK_MOBILE,
  QUOTE_LINK_TEXTS_PER_NUMBER,
  QUOTE_LINK_TEXTS_USED,
  PAYMENT_LINK_NO_PAYMENTS,
  PAYMENT_LINK_NOT_BOOKED,
  PAYMENT_LINK_ON_ACCOUNT,
} from '#shared/phone-jobs';
import { MOBILE_INVALID } from '#shared/booking-schemas';
import { BOOKING_EMAIL_INVALID } from '#shared/bookings';
import { ACCOUNT_NOT_FOUND, PO_REQUIRED, QUOTE_ON_ACCOUNT } from '#shared/accounts';
import { twilioSignature } from './twilio-signature';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const CALLER = '+447700900555';
const VOICE_URL = `${TEST_ORIGIN}/api/phone/voice`;

async function setup(options: { sms?: boolean } = {}) {
  const clock = { now: new Date('2026-06-10T11:00:00Z') };
  const now = () => clock.now;
  const fake: SmsFake = await startSmsFake();
  cleanup.push(() => fake.close());
  const t = createTestApp({ now, env: options.sms === false ? {} : fake.env() });
  const worker = runnerFor(mailOutboxJobs({ db: t.deps.db, config: t.config, logger: silent, now }), { db: t.deps.db, logger: silent, now, busy: () => false });
  cleanup.push(() => worker.stop());
  const op = await t.operator('active');
  const other = await t.operator('active');
  const { companySlug: _slug, ...body } = { companySlug: undefined, ...quoteBody };
  const create = (extra: Record<string, unknown> = {}, token = op.token) => t.call('POST', '/api/phone-quotes', { token, body: { ...body, ...extra } });
  const outbox = () => t.deps.db.select().from(mailOutbox).all();
  const advance = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));
  return { t, fake, worker, op, other, body, create, outbox, advance, clock };
}

describe('pricing a caller', () => {
  it('prices with the company’s engine, the adjustment its own last line, and stores nothing', async () => {
    const { t, op, body } = await setup();
    const web = await t.call('POST', '/api/quotes/calculate', { body: { ...body, companyId: op.companyId } });
    const before = t.deps.db.select().from(quotes).all().length;
    const priced = await t.call('POST', '/api/phone-quotes/price', {
      token: op.token,
      body: { ...body, adjustment: { amount: 40, reason: 'Second vehicle' } },
    });
    expect(priced.status).toBe(200);
    expect(priced.json.lines.slice(0, -1)).toEqual(web.json.lines);
    expect(priced.json.lines.at(-1)).toEqual({ label: 'Second vehicle', amount: 40 });
    expect(priced.json.totalPrice).toBeCloseTo(web.json.totalPrice + 40, 2);
    expect(t.deps.db.select().from(quotes).all()).toHaveLength(before);
  });

  it('refuses an adjustment without a reason, or one that takes the price below £0, with 400 and nothing stored', async () => {
    const { t, op, create } = await setup();
    const noReason = await create({ adjustment: { amount: 10, reason: ' ' } });
    expect(noReason.status).toBe(400);
    expect(noReason.json.fields['adjustment.reason']).toBe(ADJUSTMENT_REASON_REQUIRED);
    const negative = await create({ adjustment: { amount: -1000, reason: 'Goodwill' } });
    expect(negative.status).toBe(400);
    expect(negative.json).toMatchObject({ code: 'VALIDATION_FAILED', message: ADJUSTMENT_TOTAL_NEGATIVE });
    expect((await create({ adjustment: { amount: 10.001, reason: 'x' } })).status).toBe(400);
    expect(t.deps.db.select().from(phoneQuotes).all()).toEqual([]);
    expect((await t.call('GET', '/api/quotes', { token: op.token })).json.quotes).toEqual([]);
  });
});

describe('a caller’s quote', () => {
  it('is stored as a web quote is, marked as taken by phone by whom, with only its link token’s hash kept', async () => {
    const { t, op, create } = await setup();
    const res = await create({ adjustment: { amount: 40, reason: 'Second vehicle' } });
    expect(res.status).toBe(201);
    expect(res.json.takenBy).toBe(op.user.name);
    const token = res.json.linkUrl.split('/q/')[1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(res.json.message).toContain(res.json.linkUrl);
    const detail = await t.call('GET', `/api/quotes/${res.json.reference}`, { token: op.token });
    expect(detail.status).toBe(200);
    expect(detail.json.lines.at(-1)).toEqual({ label: 'Second vehicle', amount: 40 });
    expect(detail.json.totalPrice).toBe(res.json.totalPrice);
    // No column of the database holds the token itself.
    const dump = JSON.stringify(t.deps.db.select().from(phoneQuotes).all());
    expect(dump).not.toContain(token);
  });

  it('is marked in the Quotes tab’s list with who took it, through its filters and pages; a web quote is not', async () => {
    const { t, op, create, body } = await setup();
    const phone = await create();
    const web = await t.call('POST', '/api/quotes/calculate', { body: { ...body, companyId: op.companyId } });
    const list = await t.call('GET', '/api/quotes', { token: op.token });
    const takenBy = Object.fromEntries(list.json.quotes.map((q: { reference: string; takenBy: string | null }) => [q.reference, q.takenBy]));
    expect(takenBy).toEqual({ [phone.json.reference]: op.user.name, [web.json.quoteId]: null });
    const filtered = await t.call('GET', '/api/quotes?status=new&urgency=immediate&limit=1', { token: op.token });
    expect(filtered.status).toBe(200);
    expect(filtered.json.quotes).toHaveLength(1);
    const next = await t.call('GET', `/api/quotes?status=new&urgency=immediate&limit=1&cursor=${filtered.json.nextCursor}`, { token: op.token });
    expect([...filtered.json.quotes, ...next.json.quotes].map((q: { takenBy: string | null }) => q.takenBy).sort()).toEqual([op.user.name, null].sort());
    expect((await t.call('GET', `/api/quotes/${phone.json.reference}`, { token: op.token })).json.takenBy).toBe(op.user.name);
  });

  it('answers another company’s reference, an unknown one and a web quote with 404', async () => {
    const { t, op, other, create, body } = await setup();
    const mine = await create();
    const web = await t.call('POST', '/api/quotes/calculate', { body: { ...body, companyId: op.companyId } });
    for (const [reference, token] of [
      [mine.json.reference, other.token],
      ['TQ-AAAAAAAAA', op.token],
      [web.json.quoteId, op.token],
    ]) {
      expect((await t.call('POST', `/api/phone-quotes/${reference}/text`, { token, body: { phone: CALLER } })).status).toBe(404);
      expect(
        (await t.call('POST', `/api/phone-quotes/${reference}/book`, { token, body: { name: 'A B', phone: CALLER, registration: 'AB12 CDE', etaMinutes: 20 } }))
          .status,
      ).toBe(404);
    }
  });
});

describe('texting the link', () => {
  it('sends the link through the outbox (no stored text holds it), and its page shows the quote', async () => {
    const { t, op, create, worker, fake, outbox } = await setup();
    const quote = await create();
    const sent = await t.call('POST', `/api/phone-quotes/${quote.json.reference}/text`, { token: op.token, body: { phone: '07700 900555' } });
    expect(sent.status).toBe(200);
    expect(sent.json).toEqual({ sentTo: CALLER, textsLeftToday: QUOTE_LINK_TEXTS_PER_NUMBER - 1 });
    const token = quote.json.linkUrl.split('/q/')[1];
    expect(JSON.stringify(outbox())).not.toContain(token);
    await worker.tick();
    expect(fake.received).toHaveLength(1);
    expect(fake.received[0].to).toBe(CALLER);
    expect(fake.received[0].body).toContain(quote.json.linkUrl);
    expect(outbox().find((r) => r.kind === 'quote-link')).toMatchObject({ status: 'sent' });

    const page = await t.call('GET', `/api/quote-links/${token}`);
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({ reference: quote.json.reference, totalPrice: quote.json.totalPrice, expired: false, booked: false, offerBooking: true });
    expect(page.json.lines).toEqual(quote.json.lines);
    expect((await t.call('GET', `/api/quote-links/${token.replace(/^./, (c: string) => (c === 'A' ? 'B' : 'A'))}`)).status).toBe(404);
    expect((await t.call('GET', '/api/quote-links/short')).status).toBe(404);
  });

  it('texts only UK mobiles, at most 3 quote links a number a day per company, counted against nothing else', async () => {
    const { t, op, other, create, outbox, advance } = await setup();
    const quote = await create();
    const text = (phone: string, token = op.token, reference = quote.json.reference) =>
      t.call('POST', `/api/phone-quotes/${reference}/text`, { token, body: { phone } });
    // A UK landline is no mobile number at all; a foreign mobile or a premium number is one we do not text.
    expect((await text('0121 496 0000')).json).toMatchObject({ code: 'VALIDATION_FAILED', fields: { phone: MOBILE_INVALID } });
    for (const phone of ['+353 85 123 4567', '+1 900 555 1234', '+881 6 1234 5678']) {
      const refused = await text(phone);
      expect(refused.status, phone).toBe(400);
      expect(refused.json).toMatchObject({ code: 'PHONE_NOT_TEXTABLE', fields: { phone: QUOTE_LINK_NOT_UK_MOBILE } });
    }
    expect(outbox()).toEqual([]);
    for (let i = 0; i < QUOTE_LINK_TEXTS_PER_NUMBER; i++) expect((await text(CALLER)).status).toBe(200);
    const fourth = await text(CALLER);
    expect(fourth.status).toBe(429);
    expect(fourth.json).toMatchObject({ code: 'RATE_LIMITED', message: QUOTE_LINK_TEXTS_USED });
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(outbox().filter((r) => r.kind === 'quote-link')).toHaveLength(QUOTE_LINK_TEXTS_PER_NUMBER);
    // Another number, or another company, has its own allowance.
    expect((await text('+447700900556')).status).toBe(200);
    const theirs = await create({}, other.token);
    expect((await text(CALLER, other.token, theirs.json.reference)).status).toBe(200);
    // A new UK day, a new allowance.
    advance(24 * 3_600_000);
    const fresh = await create();
    expect((await text(CALLER, op.token, fresh.json.reference)).status).toBe(200);
  });

  it('texts no link for a company whose subscription gives no access now, and texts no missed caller of it', async () => {
    const { t, op, create, outbox, fake } = await setup();
    const quote = await create();
    updateUser(t.deps.db, op.user.id, { subscriptionStatus: 'cancelled', currentPeriodEnd: '2026-06-01T00:00:00Z' });
    const refused = await t.call('POST', `/api/phone-quotes/${quote.json.reference}/text`, { token: op.token, body: { phone: CALLER } });
    expect(refused.status).toBe(402);
    expect(refused.json).toMatchObject({ code: 'SUBSCRIPTION_REQUIRED', message: QUOTE_LINK_NEEDS_SUBSCRIPTION });
    updateCompany(t.deps.db, op.companyId, { phone: '+441214960123' });
    const params = { From: CALLER, To: '+441214960123', CallStatus: 'no-answer' };
    const res = await t.app.request(VOICE_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(fake.authToken, VOICE_URL, params) },
      body: new URLSearchParams(params).toString(),
    });
    expect(res.status).toBe(200);
    expect((await t.call('GET', '/api/missed-calls', { token: op.token })).json).toMatchObject([{ caller: CALLER, texted: false }]);
    expect(outbox()).toEqual([]);
  });

  it('says an expired link has expired, refuses to text it, and books nothing from it', async () => {
    const { t, op, create, advance } = await setup();
    const quote = await create();
    const token = quote.json.linkUrl.split('/q/')[1];
    advance(25 * 3_600_000);
    expect((await t.call('GET', `/api/quote-links/${token}`)).json.expired).toBe(true);
    expect((await t.call('POST', `/api/phone-quotes/${quote.json.reference}/text`, { token: op.token, body: { phone: CALLER } })).json.code).toBe(
      'QUOTE_EXPIRED',
    );
    const booked = await t.call('POST', '/api/bookings', {
      origin: TEST_ORIGIN,
      body: { quoteId: quote.json.reference, bookingKey: 'phone-link-booking-form-0001', name: 'Jo Caller', phone: CALLER, registration: 'AB12 CDE' },
    });
    expect(booked.json.code).toBe('QUOTE_EXPIRED');
  });
});

describe('booking', () => {
  it('from the link: the job is listed as a phone job with who took it, in the numbers and the CSV', async () => {
    const { t, op, create } = await setup();
    const quote = await create();
    const booked = await t.call('POST', '/api/bookings', {
      origin: TEST_ORIGIN,
      body: { quoteId: quote.json.reference, bookingKey: 'phone-link-booking-form-0002', name: 'Jo Caller', phone: CALLER, registration: 'AB12 CDE' },
    });
    expect(booked.status).toBe(201);
    const token = quote.json.linkUrl.split('/q/')[1];
    expect((await t.call('GET', `/api/quote-links/${token}`)).json.booked).toBe(true);
    const jobs = await t.call('GET', '/api/bookings', { token: op.token });
    expect(jobs.json.open).toHaveLength(1);
    expect(jobs.json.open[0]).toMatchObject({ reference: quote.json.reference, source: 'phone', takenBy: op.user.name });
    const numbers = await t.call('GET', '/api/quotes/numbers', { token: op.token });
    expect(numbers.json).toMatchObject({ last30Days: 1, phoneQuotes: 1, bookings: 1, phoneBookings: 1 });
    const csv = await t.call('GET', '/api/quotes/export.csv', { token: op.token });
    const [header, row] = csv.text.replace(/^\uFEFF/, '').split('\r\n');
    const cells = row.split(',');
    expect(cells[header.split(',').indexOf('Source')]).toBe('phone');
    expect(cells[header.split(',').indexOf('Taken by')]).toBe(op.user.name);
  });

  it('a web booking from our hosted page or a website is told apart from a phone job', async () => {
    const { t, op, body } = await setup();
    const hosted = await t.call('POST', '/api/quotes/calculate', { body: { ...body, companyId: op.companyId } });
    const site = await t.call('POST', '/api/quotes/calculate', { body: { ...body, companyId: op.companyId } });
    const book = (quoteId: string, key: string, origin?: string) =>
      t.call('POST', '/api/bookings', { origin, body: { quoteId, bookingKey: key, name: 'Jo Web', phone: CALLER, registration: 'AB12 CDE' } });
    expect((await book(hosted.json.quoteId, 'web-booking-form-000000001', TEST_ORIGIN)).status).toBe(201);
    expect((await book(site.json.quoteId, 'web-booking-form-000000002')).status).toBe(201);
    const jobs = (await t.call('GET', '/api/bookings', { token: op.token })).json.open;
    expect(Object.fromEntries(jobs.map((j: { reference: string; source: string }) => [j.reference, j.source]))).toEqual({
      [hosted.json.quoteId]: 'hosted',
      [site.json.quoteId]: 'website',
    });
    expect((await t.call('GET', '/api/quotes/numbers', { token: op.token })).json).toMatchObject({ phoneQuotes: 0, bookings: 2, phoneBookings: 0 });
  });

  it('for the caller: accepted at once with the ETA, the caller texted the status page, which follows the driver', async () => {
    const { t, op, create, worker, fake } = await setup();
    const quote = await create();
    const res = await t.call('POST', `/api/phone-quotes/${quote.json.reference}/book`, {
      token: op.token,
      body: { name: 'Jo Caller', phone: '07700 900555', registration: 'ab12cde', etaMinutes: 25, driverName: 'Sam' },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      status: 'accepted',
      source: 'phone',
      takenBy: op.user.name,
      registration: 'AB12 CDE',
      eta: { minutes: 25 },
      payment: null,
    });
    expect(res.json.driverUrl).toMatch(/\/driver\/[A-Za-z0-9_-]{32}$/);
    await worker.tick();
    expect(fake.received).toHaveLength(1);
    expect(fake.received[0].to).toBe(CALLER);
    const jobUrl = /https?:\/\/\S+\/job\/[A-Za-z0-9_-]{32}/.exec(fake.received[0].body)?.[0];
    expect(jobUrl).toBeDefined();
    const jobToken = jobUrl?.split('/job/')[1];
    const driverToken = res.json.driverUrl.split('/driver/')[1];
    expect((await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status: 'on_the_way' } })).status).toBe(200);
    const job = await t.call('GET', `/api/jobs/${jobToken}`);
    expect(job.json).toMatchObject({ reference: quote.json.reference, status: 'on_the_way' });
    expect(job.json.history.map((h: { status: string }) => h.status)).toEqual(['requested', 'accepted', 'on_the_way']);

    const again = await t.call('POST', `/api/phone-quotes/${quote.json.reference}/book`, {
      token: op.token,
      body: { name: 'Jo Caller', phone: CALLER, registration: 'AB12 CDE', etaMinutes: 25 },
    });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('ALREADY_BOOKED');
    expect(t.deps.db.select().from(bookings).all()).toHaveLength(1);
  });

  it('for the caller: takes their optional email for a review request by email, checked as the motorist’s form checks it', async () => {
    const { t, op, create } = await setup();
    const quote = await create();
    const book = (email: string) =>
      t.call('POST', `/api/phone-quotes/${quote.json.reference}/book`, {
        token: op.token,
        body: { name: 'Jo Caller', phone: CALLER, registration: 'AB12 CDE', etaMinutes: 25, email },
      });
    const bad = await book('jo@');
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toEqual({ email: BOOKING_EMAIL_INVALID });
    expect(t.deps.db.select().from(bookings).all()).toEqual([]);
    expect((await book('Jo@Caller.example')).status).toBe(201);
    expect(
      t.deps.db
        .select()
        .from(bookings)
        .all()
        .map((b) => b.customerEmail),
    ).toEqual(['jo@caller.example']);
  });

  it('for the caller: refuses a number that is not a mobile it may text, storing nothing', async () => {
    const { t, op, create, outbox } = await setup();
    const quote = await create();
    const res = await t.call('POST', `/api/phone-quotes/${quote.json.reference}/book`, {
      token: op.token,
      body: { name: 'Jo Caller', phone: '+881 6 1234 5678', registration: 'AB12 CDE', etaMinutes: 25 },
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('PHONE_NOT_TEXTABLE');
    expect(t.deps.db.select().from(bookings).all()).toEqual([]);
    expect(outbox()).toEqual([]);
  });
});

describe('the voice webhook', () => {
  const form = (params: Record<string, string>) => new URLSearchParams(params).toString();
  async function post(t: ReturnType<typeof createTestApp>, params: Record<string, string>, signature?: string) {
    const res = await t.app.request(VOICE_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature === undefined ? {} : { 'x-twilio-signature': signature }) },
      body: form(params),
    });
    return { status: res.status, text: await res.text() };
  }

  async function withCompanyNumber() {
    const s = await setup();
    updateCompany(s.t.deps.db, s.op.companyId, { phone: '+441214960123', customSlug: 'phone-test-recovery' });
    const call = (status: string, from = CALLER) => ({
      CallSid: `CA${Math.random().toString(16).slice(2)}`,
      From: from,
      To: '+441214960123',
      CallStatus: status,
    });
    const sign = (params: Record<string, string>) => twilioSignature(s.fake.authToken, VOICE_URL, params);
    return { ...s, call, sign };
  }

  it('answers an unsigned or wrongly signed request 403 and changes nothing', async () => {
    const { t, call, sign, outbox } = await withCompanyNumber();
    const params = call('no-answer');
    expect((await post(t, params)).status).toBe(403);
    expect((await post(t, params, sign({ ...params, From: '+447700900999' }))).status).toBe(403);
    expect((await post(t, params, `${sign(params).slice(0, -2)}AA`)).status).toBe(403);
    expect(t.deps.db.select().from(missedCalls).all()).toEqual([]);
    expect(outbox()).toEqual([]);
  });

  it('lists a missed call and texts the caller the quote page and number once a day', async () => {
    const { t, op, call, sign, worker, fake, advance } = await withCompanyNumber();
    const first = call('no-answer');
    const res = await post(t, first, sign(first));
    expect(res.status).toBe(200);
    expect(res.text).toContain('<Response>');
    const busy = call('busy');
    expect((await post(t, busy, sign(busy))).status).toBe(200);
    // An answered call is no missed call.
    const answered = call('completed');
    expect((await post(t, answered, sign(answered))).status).toBe(200);
    await worker.tick();
    expect(fake.received).toHaveLength(1);
    expect(fake.received[0].to).toBe(CALLER);
    expect(fake.received[0].body).toContain(`${TEST_ORIGIN}/company/phone-test-recovery`);
    expect(fake.received[0].body).toContain('0121 496 0123');
    const listed = await t.call('GET', '/api/missed-calls', { token: op.token });
    expect(listed.json.map((c: { callStatus: string; texted: boolean }) => [c.callStatus, c.texted])).toEqual([
      ['busy', false],
      ['no-answer', true],
    ]);
    advance(24 * 3_600_000);
    const nextDay = call('failed');
    expect((await post(t, nextDay, sign(nextDay))).status).toBe(200);
    await worker.tick();
    expect(fake.received).toHaveLength(2);
  });

  it('lists a landline caller without texting them, and ignores a number no company has', async () => {
    const { t, op, call, sign, outbox } = await withCompanyNumber();
    const landline = call('no-answer', '+441214960999');
    expect((await post(t, landline, sign(landline))).status).toBe(200);
    const elsewhere = { ...call('no-answer'), To: '+441214960000' };
    expect((await post(t, elsewhere, sign(elsewhere))).status).toBe(200);
    expect((await t.call('GET', '/api/missed-calls', { token: op.token })).json).toMatchObject([{ caller: '+441214960999', texted: false }]);
    expect(outbox()).toEqual([]);
  });

  it('forgets a missed caller’s number after 30 days, at the nightly retention, with no later call needed', async () => {
    const { t, op, call, sign, advance, clock } = await withCompanyNumber();
    const first = call('no-answer');
    expect((await post(t, first, sign(first))).status).toBe(200);
    advance(29 * 86_400_000);
    const second = call('busy', '+447700900556');
    expect((await post(t, second, sign(second))).status).toBe(200);
    advance(2 * 86_400_000);
    const now = () => new Date(Date.UTC(clock.now.getUTCFullYear(), clock.now.getUTCMonth(), clock.now.getUTCDate(), 3, 30));
    await runnerFor(retentionJob({ db: t.deps.db, logger: silent }), { db: t.deps.db, logger: silent, now }).tick();
    expect(
      t.deps.db
        .select()
        .from(missedCalls)
        .all()
        .map((c) => c.caller),
    ).toEqual(['+447700900556']);
    expect((await t.call('GET', '/api/missed-calls', { token: op.token })).json).toMatchObject([{ caller: '+447700900556' }]);
  });

  it('is off (404) without an SMS provider, and the operator is told at once that no text can go', async () => {
    const { t } = await setup({ sms: false });
    expect((await post(t, { From: CALLER, To: '+441214960123', CallStatus: 'no-answer' }, 'anything')).status).toBe(404);
    const op = await t.operator('active');
    const quote = await t.call('POST', '/api/phone-quotes', { token: op.token, body: quoteBody });
    const text = await t.call('POST', `/api/phone-quotes/${quote.json.reference}/text`, { token: op.token, body: { phone: CALLER } });
    expect(text.status).toBe(409);
    expect(text.json).toMatchObject({ code: 'SMS_NOT_CONFIGURED', message: QUOTE_LINK_NO_SMS });
    expect(t.deps.db.select().from(mailOutbox).all()).toEqual([]);
  });
});

describe('a caller’s quote on a trade account', () => {
  const LEEDS = { name: 'Leeds Motors', email: 'accounts@leeds.example', accountCode: '4010', poRequired: true, creditLimit: 10, rateCard: { callOutFee: 45 } };

  it('is priced on the account’s card (the changed line named), and only on an account of the company', async () => {
    const { t, op, other, body } = await setup();
    const account = await t.call('POST', '/api/accounts', { token: op.token, body: LEEDS });
    expect(account.status).toBe(201);
    const theirs = await t.call('POST', '/api/accounts', { token: other.token, body: LEEDS });
    const plain = await t.call('POST', '/api/phone-quotes/price', { token: op.token, body });
    const priced = await t.call('POST', '/api/phone-quotes/price', { token: op.token, body: { ...body, accountId: account.json.id } });
    expect(priced.status).toBe(200);
    expect(priced.json.lines).toContainEqual({ label: 'Call-out Fee (account rate)', amount: 45 });
    expect(plain.json.lines.some((line: { label: string }) => line.label.endsWith('(account rate)'))).toBe(false);
    const foreign = await t.call('POST', '/api/phone-quotes/price', { token: op.token, body: { ...body, accountId: theirs.json.id } });
    expect(foreign).toMatchObject({ status: 404, json: { code: 'NOT_FOUND', message: ACCOUNT_NOT_FOUND } });
    const stored = await t.call('POST', '/api/phone-quotes', { token: op.token, body: { ...body, accountId: theirs.json.id } });
    expect(stored.status).toBe(404);
    expect(t.deps.db.select().from(phoneQuotes).all()).toEqual([]);
    expect((await t.call('POST', '/api/phone-quotes/price', { token: op.token, body: { ...body, accountId: 'leeds' } })).status).toBe(400);
  });

  it('keeps an account’s price on the account: its link is not texted, and booking it as anyone’s quote is refused, storing nothing', async () => {
    const { t, op, body } = await setup();
    const account = await t.call('POST', '/api/accounts', { token: op.token, body: LEEDS });
    const quote = await t.call('POST', '/api/phone-quotes', { token: op.token, body: { ...body, accountId: account.json.id } });
    expect(quote.status).toBe(201);
    const texted = await t.call('POST', `/api/phone-quotes/${quote.json.reference}/text`, { token: op.token, body: { phone: CALLER } });
    expect(texted).toMatchObject({ status: 409, json: { code: 'QUOTE_ON_ACCOUNT', message: QUOTE_ON_ACCOUNT } });
    const booked = await t.call('POST', '/api/bookings', {
      origin: TEST_ORIGIN,
      body: { quoteId: quote.json.reference, bookingKey: 'account-quote-booking-form-01', name: 'Jo Caller', phone: CALLER, registration: 'AB12 CDE' },
    });
    expect(booked).toMatchObject({ status: 409, json: { code: 'QUOTE_ON_ACCOUNT' } });
    expect(t.deps.db.select().from(bookings).all()).toEqual([]);
    expect(
      t.deps.db
        .select()
        .from(mailOutbox)
        .all()
        .filter((row) => row.channel === 'sms'),
    ).toEqual([]);
  });

  it('booked for the caller goes on the account: the PO refused by name when missing, the credit limit confirmed, no card, a delivery note', async () => {
    const { t, op, body } = await setup();
    const account = await t.call('POST', '/api/accounts', { token: op.token, body: LEEDS });
    const quote = await t.call('POST', '/api/phone-quotes', { token: op.token, body: { ...body, accountId: account.json.id } });
    expect(quote.status).toBe(201);
    expect(quote.json.lines).toContainEqual({ label: 'Call-out Fee (account rate)', amount: 45 });
    const book = (extra: Record<string, unknown>) =>
      t.call('POST', `/api/phone-quotes/${quote.json.reference}/book`, {
        token: op.token,
        body: { name: 'Sam Fitter', phone: CALLER, registration: 'AB12 CDE', etaMinutes: 30, ...extra },
      });
    const noPo = await book({});
    expect(noPo).toMatchObject({ status: 400, json: { code: 'PO_REQUIRED', fields: { poNumber: PO_REQUIRED } } });
    const overLimit = await book({ poNumber: 'PO-77' });
    expect(overLimit).toMatchObject({ status: 409, json: { code: 'CREDIT_LIMIT_EXCEEDED' } });
    expect(overLimit.json.message).toContain('Leeds Motors over its credit limit of £10.00');
    expect(t.deps.db.select().from(bookings).all()).toEqual([]);

    const booked = await book({ poNumber: 'PO-77', confirmOverLimit: true });
    expect(booked.status).toBe(201);
    expect(booked.json).toMatchObject({ status: 'accepted', source: 'phone', takenBy: op.user.name, eta: { minutes: 30 }, payment: null });
    expect(t.deps.db.select().from(accountJobs).all()).toMatchObject([{ accountId: account.json.id, poNumber: 'PO-77', overLimit: true }]);
    const driver = (booked.json.driverUrl as string).split('/driver/')[1];
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) {
      expect((await t.call('POST', `/api/driver/${driver}/status`, { body: { status } })).status).toBe(200);
    }
    expect(t.deps.db.select().from(payments).all()).toEqual([]);
    const documents = await t.call('GET', `/api/bookings/${quote.json.reference}/documents`, { token: op.token });
    expect(documents.json).toMatchObject([{ kind: 'delivery_note', title: 'Delivery note' }, { kind: 'job_report' }]);
    expect((await t.call('GET', `/api/accounts/${account.json.id}/statement`, { token: op.token })).json.uninvoiced).toBe(booked.json.price);
  });

  it('a quote not priced on an account books for the caller as before, whatever PO is sent', async () => {
    const { t, op, create } = await setup();
    const quote = await create();
    const booked = await t.call('POST', `/api/phone-quotes/${quote.json.reference}/book`, {
      token: op.token,
      body: { name: 'Jo Caller', phone: CALLER, registration: 'AB12 CDE', etaMinutes: 20, poNumber: 'PO-1' },
    });
    expect(booked.status).toBe(201);
    expect(t.deps.db.select().from(accountJobs).all()).toEqual([]);
  });
});

describe('a payment link for a job booked for the caller', () => {
  async function withPayments() {
    const s = await setup();
    const { t, op } = s;
    const form = (action: string) =>
      t.app.request(`${TEST_ORIGIN}/payments/connect`, {
        method: 'POST',
        headers: { cookie: op.cookie, origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
        body: `action=${action}`,
        redirect: 'manual',
      });
    expect((await form('connect')).status).toBe(303);
    const rule = await t.call('PUT', '/api/payments/rule', { token: op.token, body: { rule: 'deposit', depositType: 'percent', depositPercent: 20 } });
    expect(rule.json.active).toBe(true);
    const quote = await s.create();
    const paymentLink = (reference = quote.json.reference, token = op.token) => t.call('GET', `/api/phone-quotes/${reference}/payment-link`, { token });
    const bookIt = () =>
      t.call('POST', `/api/phone-quotes/${quote.json.reference}/book`, {
        token: op.token,
        body: { name: 'Jo Caller', phone: CALLER, registration: 'AB12 CDE', etaMinutes: 25 },
      });
    const linkToken = (quote.json.linkUrl as string).split('/q/')[1];
    return { ...s, quote, paymentLink, bookIt, linkToken, form };
  }

  it('is the quote’s own link, texted within the quote links’ limits; its page pays the deposit into the operator’s account and the job stays booked', async () => {
    const { t, op, other, quote, paymentLink, bookIt, linkToken, worker, fake, outbox } = await withPayments();
    const early = await paymentLink();
    expect(early).toMatchObject({ status: 409, json: { code: 'PAYMENT_LINK_UNAVAILABLE', message: PAYMENT_LINK_NOT_BOOKED } });
    expect((await bookIt()).status).toBe(201);

    const link = await paymentLink();
    expect(link.status).toBe(200);
    const deposit = Math.round(quote.json.totalPrice * 20) / 100;
    expect(link.json).toMatchObject({ linkUrl: quote.json.linkUrl, amount: deposit, kind: 'deposit' });
    expect(link.json.message).toContain(quote.json.linkUrl);
    expect((await paymentLink(quote.json.reference, other.token)).status).toBe(404);

    const sent = await t.call('POST', `/api/phone-quotes/${quote.json.reference}/payment-link/text`, { token: op.token, body: { phone: '07700 900555' } });
    expect(sent).toMatchObject({ status: 200, json: { sentTo: CALLER, textsLeftToday: QUOTE_LINK_TEXTS_PER_NUMBER - 1 } });
    await worker.tick();
    const text = fake.received.find((m) => m.body.includes('/q/'));
    expect(text?.body).toContain(`pay £${deposit.toFixed(2)} for your recovery TQ-${quote.json.reference} here: ${quote.json.linkUrl}`);
    expect(JSON.stringify(outbox())).not.toContain(linkToken);

    const view = await t.call('GET', `/api/quote-links/${linkToken}`);
    expect(view.json).toMatchObject({ booked: true, paid: false, payNow: { amount: deposit, kind: 'deposit' } });
    const pay = await t.call('POST', `/api/quote-links/${linkToken}/pay`);
    expect(pay.status).toBe(200);
    expect(pay.json.checkoutUrl).toMatch(new RegExp(`^${TEST_ORIGIN}/pay/cs_local_[A-Za-z0-9_-]{32}$`));
    // A second tap answers the same open checkout.
    expect((await t.call('POST', `/api/quote-links/${linkToken}/pay`)).json.checkoutUrl).toBe(pay.json.checkoutUrl);
    const paid = await t.app.request(pay.json.checkoutUrl, { method: 'POST', headers: { origin: TEST_ORIGIN }, redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toMatch(/\/job\/[A-Za-z0-9_-]{32}$/);

    const job = (await t.call('GET', '/api/bookings', { token: op.token })).json.open[0];
    expect(job).toMatchObject({ reference: quote.json.reference, status: 'accepted', payment: { kind: 'deposit', status: 'paid', amount: deposit } });
    expect((await t.call('GET', `/api/quote-links/${linkToken}`)).json).toMatchObject({ paid: true, payNow: null });
    expect(await paymentLink()).toMatchObject({ status: 409, json: { code: 'ALREADY_PAID' } });
    expect(await t.call('POST', `/api/quote-links/${linkToken}/pay`)).toMatchObject({ status: 409, json: { code: 'ALREADY_PAID' } });
    expect((await t.call('POST', `/api/quote-links/${'x'.repeat(32)}/pay`)).status).toBe(404);
  });

  it('counts its texts with the quote links’ (3 a number a day), and refuses numbers that are not UK mobiles', async () => {
    const { t, op, quote, bookIt } = await withPayments();
    expect((await bookIt()).status).toBe(201);
    for (let i = 0; i < QUOTE_LINK_TEXTS_PER_NUMBER - 1; i++) {
      expect((await t.call('POST', `/api/phone-quotes/${quote.json.reference}/text`, { token: op.token, body: { phone: CALLER } })).status).toBe(200);
    }
    const textPay = (phone: string) => t.call('POST', `/api/phone-quotes/${quote.json.reference}/payment-link/text`, { token: op.token, body: { phone } });
    expect((await textPay(CALLER)).status).toBe(200);
    expect(await textPay(CALLER)).toMatchObject({ status: 429, json: { message: QUOTE_LINK_TEXTS_USED } });
    expect(await textPay('+353 85 123 4567')).toMatchObject({ status: 400, json: { code: 'PHONE_NOT_TEXTABLE', fields: { phone: QUOTE_LINK_NOT_UK_MOBILE } } });
  });

  it('a checkout that lapses unpaid goes, the job stays booked, and the link opens a new one', async () => {
    const { t, op, advance, bookIt, linkToken } = await withPayments();
    expect((await bookIt()).status).toBe(201);
    const first = await t.call('POST', `/api/quote-links/${linkToken}/pay`);
    expect(first.status).toBe(200);
    advance(31 * 60_000);
    await t.bookings.payments.reconcile();
    expect(t.deps.db.select().from(payments).all()).toEqual([]);
    expect((await t.call('GET', '/api/bookings', { token: op.token })).json.open[0]).toMatchObject({ status: 'accepted', payment: null });
    const again = await t.call('POST', `/api/quote-links/${linkToken}/pay`);
    expect(again.status).toBe(200);
    expect(again.json.checkoutUrl).not.toBe(first.json.checkoutUrl);
  });

  it('is refused for a job on account and where the company takes no payment at booking', async () => {
    const { t, op, body, paymentLink, bookIt } = await withPayments();
    const account = await t.call('POST', '/api/accounts', { token: op.token, body: { name: 'Leeds Motors', email: 'a@leeds.example', accountCode: '4010' } });
    const onAccount = await t.call('POST', '/api/phone-quotes', { token: op.token, body: { ...body, accountId: account.json.id } });
    expect(
      (
        await t.call('POST', `/api/phone-quotes/${onAccount.json.reference}/book`, {
          token: op.token,
          body: { name: 'Sam Fitter', phone: CALLER, registration: 'AB12 CDE', etaMinutes: 30 },
        })
      ).status,
    ).toBe(201);
    expect(await paymentLink(onAccount.json.reference)).toMatchObject({
      status: 409,
      json: { code: 'PAYMENT_LINK_UNAVAILABLE', message: PAYMENT_LINK_ON_ACCOUNT },
    });
    expect((await bookIt()).status).toBe(201);
    expect((await t.call('PUT', '/api/payments/rule', { token: op.token, body: { rule: 'none' } })).status).toBe(200);
    expect(await paymentLink()).toMatchObject({ status: 409, json: { code: 'PAYMENT_LINK_UNAVAILABLE', message: PAYMENT_LINK_NO_PAYMENTS } });
  });
});
