// Texts cost money (docs/decisions/030-text-budgets.md): a public booking must not be a way to
// make the platform text any number it is given, as often as someone likes. Booked through the
// real app (client addresses through TRUST_PROXY and X-Forwarded-For), sent by the real outbox
// worker to the fake SMS provider, on a fake clock.
import { afterEach, describe, expect, it } from 'vitest';
import { bookings, mailOutbox } from '../platform/db/schema';
import { createTestApp, runnerFor } from '../test/harness';
import { startSmsFake, type SmsFake } from '../test/sms-fake';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink';
import { insertQuote } from '../quotes/store';
import { storedQuote } from '../test/harness';
import { quote18720 } from '../test/payment-fixtures';
import { mailOutboxJobs } from '../mail/worker';
import { COMPANY_DAILY_TEXTS, NOT_TEXTABLE, NUMBER_ALLOWANCE, NUMBER_ALLOWANCE_USED, TEXT_LIMIT_REACHED } from '../mail/sms-budget';
import { BOOKING_RATE_LIMITED, COMPANY_BOOKINGS_RATE_LIMITED, PHONE_NOT_TEXTABLE, PHONE_NOT_TEXTABLE_UK_IE } from './service';
import type { SubscriptionStatus } from '#shared/subscription';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const silent = { info: () => {}, warn: () => {}, error: () => {} };

async function setup(options: { env?: Record<string, string>; status?: SubscriptionStatus } = {}) {
  const clock = { now: new Date('2026-06-10T12:00:00Z') };
  const now = () => clock.now;
  const sink: SmtpSink = await startSmtpSink();
  cleanup.push(() => sink.close());
  const fake: SmsFake = await startSmsFake();
  cleanup.push(() => fake.close());
  const t = createTestApp({ now, env: { SMTP_URL: sink.url, ...fake.env(), TRUST_PROXY: '1', ...options.env } });
  const warnings: unknown[] = [];
  const logger = { ...silent, warn: (line: unknown) => warnings.push(line) };
  const newWorker = () => {
    const worker = runnerFor(mailOutboxJobs({ db: t.deps.db, config: t.config, logger, now }), { db: t.deps.db, logger: silent, now, busy: () => false });
    cleanup.push(() => worker.stop());
    return worker;
  };
  const worker = newWorker();
  const op = await t.operator(options.status ?? 'active');
  /** A quote of the operator's, stored as the quote path stores it, created now on the test's clock. */
  const quote = (companyId = op.companyId) => insertQuote(t.deps.db, storedQuote(companyId, { createdAt: clock.now.toISOString() }));
  let forms = 0;
  const book = (quoteId: string, phone: string, address = '192.0.2.1', key = `text-limits-booking-form-${String(++forms).padStart(4, '0')}`) =>
    t.call('POST', '/api/bookings', {
      body: { quoteId, bookingKey: key, name: 'Jane Motorist', phone, registration: 'AB12 CDE' },
      headers: { 'x-forwarded-for': address },
    });
  const outbox = () => t.deps.db.select().from(mailOutbox).all();
  const texts = () => outbox().filter((r) => r.channel === 'sms');
  const bookingCount = () => t.deps.db.select().from(bookings).all().length;
  const advance = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));
  return { t, sink, fake, clock, worker, newWorker, warnings, op, quote, book, outbox, texts, bookingCount, advance };
}

describe('textable numbers', () => {
  it('refuses a satellite, a US premium-rate and a UK personal number with 400 PHONE_NOT_TEXTABLE, storing and sending nothing', async () => {
    const { quote, book, outbox, bookingCount, worker, fake } = await setup();
    for (const phone of ['+881 6 1234 5678', '+1 900 555 1234', '07012 345678', '+263 77 123 4567', '+371 2000 0000', '+353 85 123 4567']) {
      const res = await book(await quote(), phone);
      expect(res.status, phone).toBe(400);
      expect(res.json).toMatchObject({ code: 'PHONE_NOT_TEXTABLE', message: PHONE_NOT_TEXTABLE, fields: { phone: PHONE_NOT_TEXTABLE } });
    }
    expect(bookingCount()).toBe(0);
    expect(outbox()).toEqual([]);
    await worker.tick();
    expect(fake.received).toEqual([]);
  });

  it('takes an Irish mobile only once the operator allows it, and shows that setting', async () => {
    const { t, op, quote, book, texts } = await setup();
    expect((await t.call('GET', '/api/booking-settings', { token: op.token })).json.textIrishMobiles).toBe(false);
    expect((await book(await quote(), '+353 85 123 4567')).status).toBe(400);
    const saved = await t.call('PUT', '/api/booking-settings', { token: op.token, body: { textIrishMobiles: true } });
    expect(saved.json).toMatchObject({ textIrishMobiles: true });
    expect((await book(await quote(), '+353 85 123 4567')).status).toBe(201);
    expect(texts().map((r) => r.to)).toEqual(['+353851234567']);
    // Still never a premium or Irish landline number; the message names both countries now.
    const premium = await book(await quote(), '+44 909 876 5432');
    expect(premium.status).toBe(400);
    const landline = await book(await quote(), '+353 1 234 5678');
    expect(landline.json).toMatchObject({ code: 'PHONE_NOT_TEXTABLE', fields: { phone: PHONE_NOT_TEXTABLE_UK_IE } });
    expect((await t.call('PUT', '/api/booking-settings', { token: op.token, body: { textIrishMobiles: 'yes' } })).status).toBe(400);
  });

  it('never texts a motorist’s number stored before bookings checked it, when its job moves on', async () => {
    const { t, op, fake, worker, quote, book, texts } = await setup();
    const booked = await book(await quote(), '07400 123456');
    await worker.tick();
    expect(fake.received).toHaveLength(1);
    t.deps.db.$client.prepare('update bookings set customer_phone = ?').run('+881612345678');
    expect((await t.call('POST', `/api/bookings/${booked.json.job.reference}/accept`, { token: op.token, body: { etaMinutes: 20 } })).status).toBe(200);
    await worker.tick();
    expect(fake.received).toHaveLength(1);
    expect(texts().find((r) => r.to === '+881612345678')).toMatchObject({ status: 'failed', lastError: NOT_TEXTABLE });
  });
});

describe('the booking limits', () => {
  it('refuses a client over its limit before anything is read: another motorist’s open checkout stays open', async () => {
    const { t, op, book, bookingCount } = await setup({ env: { BOOKING_RATE_LIMIT: '1' } });
    // Payment at booking on the built-in provider: a booking awaits its payment with a checkout open.
    const page = (path: string, form: string) =>
      t.app.request(`http://localhost:3999${path}`, {
        method: 'POST',
        headers: { cookie: op.cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:3999' },
        body: form,
        redirect: 'manual',
      });
    expect((await page('/payments/connect', 'action=connect')).status).toBe(303);
    expect((await t.call('PUT', '/api/payments/rule', { token: op.token, body: { rule: 'full' } })).status).toBe(200);
    const reference = await insertQuote(t.deps.db, quote18720(op.companyId));
    const motorist = await book(reference, '07700 900123', '192.0.2.1');
    expect(motorist.json.job.status).toBe('awaiting_payment');

    // Another client has used its one booking of the hour, then books the same quote from another form.
    const other = await insertQuote(t.deps.db, quote18720(op.companyId));
    expect((await book(other, '07700 900124', '198.51.100.7')).status).toBe(201);
    const refused = await book(reference, '07700 900125', '198.51.100.7');
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: 'RATE_LIMITED', message: BOOKING_RATE_LIMITED });

    // Nothing changed: the first motorist's booking still awaits payment, and its checkout still takes it.
    expect(bookingCount()).toBe(2);
    // (Its form again, from another address: the first has used its one booking too.)
    const again = await book(reference, '07700 900123', '192.0.2.2', 'text-limits-booking-form-0001');
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ jobToken: motorist.json.jobToken, checkoutUrl: motorist.json.checkoutUrl, job: { status: 'awaiting_payment' } });
    // An unknown quote is refused the same way: the limit comes before the look-up.
    expect((await book('TQ-AAAAAAAAA', '07700 900125', '198.51.100.7')).status).toBe(429);
  });

  it('counts an IPv6 client by its /64, and each company’s bookings from every address together', async () => {
    const { quote, book } = await setup({ env: { BOOKING_RATE_LIMIT: '2', BOOKING_COMPANY_RATE_LIMIT: '4' } });
    expect((await book(await quote(), '07700 900123', '2001:db8:1:2::1')).status).toBe(201);
    expect((await book(await quote(), '07700 900123', '2001:db8:1:2::ffff')).status).toBe(201);
    expect((await book(await quote(), '07700 900123', '2001:db8:1:2:abcd::9')).status).toBe(429);
    // Another /64 is another client, but the company has had its 4 bookings of the hour.
    expect((await book(await quote(), '07700 900123', '2001:db8:1:3::1')).status).toBe(201);
    expect((await book(await quote(), '07700 900123', '192.0.2.10')).status).toBe(201);
    const fifth = await book(await quote(), '07700 900123', '192.0.2.11');
    expect(fifth.status).toBe(429);
    expect(fifth.json).toMatchObject({ code: 'RATE_LIMITED', message: COMPANY_BOOKINGS_RATE_LIMITED });
  });
});

describe('the text budgets', () => {
  it('texts one number at most its allowance a day about bookings not accepted, from 11 bookings from 11 addresses; an accepted job’s texts still go', async () => {
    const { t, op, fake, worker, quote, book, texts, advance } = await setup();
    const victim = '+447400123456';
    for (let i = 0; i < 11; i++) expect((await book(await quote(), '07400 123456', `203.0.113.${i + 1}`)).status).toBe(201);
    await worker.tick();
    expect(fake.received.filter((m) => m.to === victim)).toHaveLength(NUMBER_ALLOWANCE);
    const refused = texts().filter((r) => r.status === 'failed');
    expect(refused).toHaveLength(11 - NUMBER_ALLOWANCE);
    expect(refused.every((r) => r.lastError === NUMBER_ALLOWANCE_USED)).toBe(true);

    // Their expiry texts are refused too; nothing more reaches the number.
    advance(11 * 60_000);
    expect(await t.bookings.service.expireDue()).toBe(11);
    await worker.tick();
    expect(fake.received.filter((m) => m.to === victim)).toHaveLength(NUMBER_ALLOWANCE);

    // A job the operator accepts is the motorist's own: its texts go.
    const accepted = await book(await quote(), '07400 123456', '203.0.113.99');
    const reference = accepted.json.job.reference;
    expect((await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 30 } })).status).toBe(200);
    await worker.tick();
    const toVictim = fake.received.filter((m) => m.to === victim);
    expect(toVictim).toHaveLength(NUMBER_ALLOWANCE + 1);
    expect(toVictim.at(-1)?.body).toContain('accepted');

    // A new UK day, a new allowance.
    advance(24 * 3_600_000);
    expect((await book(await quote(), '07400 123456', '203.0.113.100')).status).toBe(201);
    await worker.tick();
    expect(fake.received.filter((m) => m.to === victim)).toHaveLength(NUMBER_ALLOWANCE + 2);
  });

  it('holds a trial company’s texts past its daily budget until the next UK day, tells the owner once, and keeps counting across a restart', async () => {
    const { op, fake, sink, worker, newWorker, quote, book, texts, outbox, advance } = await setup({ status: 'trialing' });
    const limit = COMPANY_DAILY_TEXTS.trial;
    // Each booking from its own address to its own mobile: only the company's budget is in the way.
    const bookMany = async (count: number, from: number) => {
      for (let i = from; i < from + count; i++)
        expect((await book(await quote(), `07400 1234${String(i).padStart(2, '0')}`, `203.0.113.${i + 1}`)).status).toBe(201);
    };
    await bookMany(limit - 2, 0);
    await worker.tick();
    expect(fake.received).toHaveLength(limit - 2);
    // A restart: a new worker counts what the old one sent (the count is in the database).
    const restarted = newWorker();
    await bookMany(4, limit - 2);
    await restarted.tick();
    expect(fake.received).toHaveLength(limit);
    const held = texts().filter((r) => r.status === 'pending');
    expect(held).toHaveLength(2);
    expect(held.every((r) => r.lastError === TEXT_LIMIT_REACHED && r.nextAttemptAt === '2026-06-10T23:00:00.000Z')).toBe(true);
    // The owner is told once that day, however many texts wait.
    await bookMany(2, limit + 2);
    await restarted.tick();
    await worker.tick();
    const notices = outbox().filter((r) => r.kind === 'sms-limit');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ to: op.email, status: 'sent', dedupeKey: `sms-limit:${op.companyId}:2026-06-10` });
    expect(sink.received.filter((m) => m.subject.startsWith('Texts paused for today'))).toHaveLength(1);
    expect(fake.received).toHaveLength(limit);

    // From midnight UK time (23:00 UTC in summer) the held texts go, within the new day's budget.
    advance(11 * 3_600_000 - 1);
    await worker.tick();
    expect(fake.received).toHaveLength(limit);
    advance(1);
    await worker.tick();
    expect(fake.received).toHaveLength(limit + 4);
    expect(texts().filter((r) => r.status === 'pending')).toEqual([]);
  });

  it('holds every text past SMS_DAILY_LIMIT, logging it once a day, and tells no owner', async () => {
    const { fake, worker, warnings, quote, book, texts, outbox } = await setup({ env: { SMS_DAILY_LIMIT: '2' } });
    for (let i = 0; i < 4; i++) expect((await book(await quote(), `07400 1234${String(i).padStart(2, '0')}`, `203.0.113.${i + 1}`)).status).toBe(201);
    await worker.tick();
    await worker.tick();
    expect(fake.received).toHaveLength(2);
    expect(texts().filter((r) => r.status === 'pending' && r.lastError === TEXT_LIMIT_REACHED)).toHaveLength(2);
    expect(warnings.filter((w) => JSON.stringify(w).includes('SMS_DAILY_LIMIT reached'))).toHaveLength(1);
    expect(outbox().filter((r) => r.kind === 'sms-limit')).toEqual([]);
  });

  it('gives up a held text that still cannot go at the next midnight, a day after it was written', async () => {
    const { fake, worker, quote, book, texts, advance } = await setup({ env: { SMS_DAILY_LIMIT: '1' } });
    for (let i = 0; i < 3; i++) expect((await book(await quote(), `07400 1234${String(i).padStart(2, '0')}`, `203.0.113.${i + 1}`)).status).toBe(201);
    await worker.tick();
    expect(fake.received).toHaveLength(1);
    expect(texts().filter((r) => r.status === 'pending' && r.lastError === TEXT_LIMIT_REACHED)).toHaveLength(2);
    // Midnight UK time: the new day's one text goes; the other could wait only past its day, so it is given up.
    advance(11 * 3_600_000);
    await worker.tick();
    expect(fake.received).toHaveLength(2);
    expect(texts().filter((r) => r.status === 'pending')).toEqual([]);
    expect(
      texts()
        .filter((r) => r.status === 'failed')
        .map((r) => r.lastError),
    ).toEqual([TEXT_LIMIT_REACHED]);
  });
});
