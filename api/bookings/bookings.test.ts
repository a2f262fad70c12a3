// Bookings end to end through the real app on a SQLite file: a quote booked at its frozen price,
// the operator's alerts through the outbox to an in-process SMTP server and fake SMS provider,
// accept and decline, the driver's steps, expiry, the live stream, tokens and retention.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mailOutbox } from '../platform/db/schema';
import { createTestApp, quoteBody, runnerFor } from '../test/harness';
import { startSmsFake, type SmsFake } from '../test/sms-fake';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink';
import { COMPANY_NOT_LIVE, mailOutboxJobs, PERMANENT_REFUSAL_ATTEMPTS, QUOTE_ALERT_GRACE_MS } from '../mail/worker';
import { updateUser } from '../auth/store';
import { updateCompany } from '../company/store';
import type { SubscriptionStatus } from '#shared/subscription';
import { deleteLeads } from '../leads/store';
import { loggedPath } from '../platform/http/observability';
import { NO_SMS_PROVIDER } from './service';
import { BOOKING_ORIGIN_INVALID, BOOKING_ORIGIN_REFUSED, BOOKING_ORIGINS_TOO_MANY } from '#shared/bookings';
import { SMS_CODE_EXPIRED, SMS_CODE_LOCKED, SMS_CODE_WRONG } from './sms-verification';
import { TOO_MANY_SMS_CODES } from '../alerts/verification-allowance';
import type { JobChanged } from '../platform/events';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const KEY = 'k3Y-of-one-booking-form-0001';
const silent = { info: () => {}, warn: () => {}, error: () => {} };

async function setup(
  options: { sms?: boolean; env?: Record<string, string>; logger?: Parameters<typeof mailOutboxJobs>[0]['logger']; status?: SubscriptionStatus } = {},
) {
  const clock = { now: new Date('2026-06-10T12:00:00Z') };
  const sink: SmtpSink = await startSmtpSink();
  cleanup.push(() => sink.close());
  const fake: SmsFake | undefined = options.sms === false ? undefined : await startSmsFake();
  if (fake) cleanup.push(() => fake.close());
  const t = createTestApp({ now: () => clock.now, env: { SMTP_URL: sink.url, ...(fake ? fake.env() : {}), ...options.env } });
  const now = () => clock.now;
  const worker = runnerFor(mailOutboxJobs({ db: t.deps.db, config: t.config, logger: options.logger ?? silent, now }), {
    db: t.deps.db,
    logger: silent,
    now,
    busy: () => false,
  });
  cleanup.push(() => worker.stop());
  const op = await t.operator(options.status);
  const quote = async (companyId = op.companyId) => {
    const res = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId } });
    expect(res.status).toBe(200);
    return res.json as { quoteId: string; totalPrice: number; validUntil: string };
  };
  const book = (quoteId: string, extra: Record<string, unknown> = {}) =>
    t.call('POST', '/api/bookings', {
      body: {
        quoteId,
        bookingKey: KEY,
        name: 'Jane Motorist',
        phone: '07700 900123',
        registration: 'ab12cde',
        note: 'Hard shoulder, northbound, after junction 18',
        ...extra,
      },
    });
  const outbox = () => t.deps.db.select().from(mailOutbox).all();
  const advance = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));
  /** Sets the booking text number and confirms it with the code texted to it; the code's text is then forgotten by the fake. */
  const confirmedSmsNumber = async (number: string) => {
    expect((await t.call('PUT', '/api/booking-settings', { token: op.token, body: { smsNumber: number } })).status).toBe(200);
    expect((await t.call('POST', '/api/booking-settings/sms-code', { token: op.token })).status).toBe(200);
    await worker.tick();
    const code = (fake as SmsFake).received.at(-1)?.body.match(/\b(\d{6})\b/)?.[1];
    expect((await t.call('POST', '/api/booking-settings/sms-code/confirm', { token: op.token, body: { code: code ?? '' } })).status).toBe(200);
    (fake as SmsFake).received.length = 0;
  };
  return { t, sink, fake: fake as SmsFake, clock, worker, op, quote, book, outbox, advance, confirmedSmsNumber };
}

describe('booking a quote', () => {
  it('prepares its SQL once: a booking after the first prepares no statement (drizzle building one costs more than the read; docs/budgets.md)', async () => {
    const { t, quote, book, confirmedSmsNumber } = await setup();
    // A text number too, so every alert of a booking is written.
    await confirmedSmsNumber('07700 900456');
    expect((await book((await quote()).quoteId)).status).toBe(201);
    const second = await quote();
    const prepare = vi.spyOn(t.deps.db.$client, 'prepare');
    expect((await book(second.quoteId)).status).toBe(201);
    expect(prepare.mock.calls.map(([source]) => String(source).replace(/\s+/g, ' ').slice(0, 80))).toEqual([]);
  });

  it('books at the quoted price, alerts the operator by email and text at once, and texts the motorist, each once', async () => {
    const { t, sink, fake, worker, op, quote, book, outbox, confirmedSmsNumber } = await setup();
    await confirmedSmsNumber('07700 900456');
    expect((await t.call('GET', '/api/booking-settings', { token: op.token })).json).toMatchObject({ smsNumber: '+447700900456', smsNumberConfirmed: true });
    // Quote alerts are off: a booking alerts whatever that setting says.
    expect((await t.call('PUT', '/api/lead-settings', { token: op.token, body: { alertMode: 'none' } })).status).toBe(200);
    const q = await quote();
    // A price change after the quote does not change the booking's price.
    expect((await t.call('PUT', '/api/pricing', { token: op.token, body: { callOutFee: 500 } })).status).toBe(200);

    const res = await book(q.quoteId);
    expect(res.status).toBe(201);
    expect(res.json.jobToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(res.json.jobUrl).toBe(`http://localhost:3999/job/${res.json.jobToken}`);
    expect(res.json.job).toMatchObject({ reference: q.quoteId, status: 'requested', price: q.totalPrice, registration: 'AB12 CDE', eta: null });
    expect(res.json.job.respondBy).toBe('2026-06-10T12:10:00.000Z');
    // Nothing of the motorist's on their own page's answer but the registration.
    expect(JSON.stringify(res.json.job)).not.toContain('Jane');

    expect(
      outbox()
        .filter((r) => r.kind === 'booking')
        .map((r) => [r.channel, r.to])
        .sort(),
    ).toEqual([
      ['email', op.email],
      ['sms', '+447700900123'],
      ['sms', '+447700900456'],
    ]);
    await worker.tick();
    expect(sink.received).toHaveLength(1);
    expect(sink.received[0].subject).toContain(`New booking TQ-${q.quoteId}`);
    expect(sink.received[0].text).toContain('Jane Motorist');
    expect(sink.received[0].text).toContain('07700 900123');
    expect(sink.received[0].text).toContain('AB12 CDE');
    expect(fake.received.map((m) => m.to).sort()).toEqual(['+447700900123', '+447700900456']);
    const operatorText = fake.received.find((m) => m.to === '+447700900456');
    expect(operatorText?.body).toContain(`TQ-${q.quoteId}`);
    expect(operatorText?.from).toBe('+447700900000');
    const motoristText = fake.received.find((m) => m.to === '+447700900123');
    expect(motoristText?.body).toContain(res.json.jobUrl);

    // Never twice: another tick, and a repeat of the booking, send nothing more.
    const again = await book(q.quoteId);
    expect(again.status).toBe(200);
    expect(again.json.jobToken).toBe(res.json.jobToken);
    await worker.tick();
    expect(sink.received).toHaveLength(1);
    expect(fake.received).toHaveLength(2);
    expect(outbox().every((r) => r.status === 'sent')).toBe(true);
  });

  it('still texts a booked motorist when the operator’s subscription lapses, while the operator’s own alerts stop', async () => {
    const { t, sink, fake, worker, op, quote, book, outbox } = await setup();
    expect((await book((await quote()).quoteId)).status).toBe(201);
    // The subscription lapses before the worker gets to the booking's messages.
    updateUser(t.deps.db, op.user.id, { subscriptionStatus: 'inactive', trialEndsAt: null, currentPeriodEnd: '2026-06-01T00:00:00.000Z' });
    await worker.tick();
    expect(sink.received).toHaveLength(0);
    expect(outbox().find((r) => r.channel === 'email')).toMatchObject({ status: 'failed', lastError: COMPANY_NOT_LIVE });
    expect(fake.received.map((m) => m.to)).toEqual(['+447700900123']);
    expect(outbox().find((r) => r.to === '+447700900123')?.status).toBe('sent');
  });

  it('retries a text the provider refused, and keeps texts unsent without a provider', async () => {
    const { fake, worker, quote, book, outbox, advance } = await setup();
    fake.refuseNext(1, 503);
    expect((await book((await quote()).quoteId)).status).toBe(201);
    await worker.tick();
    const sms = outbox().find((r) => r.channel === 'sms');
    expect(sms).toMatchObject({ status: 'pending', attempts: 1 });
    expect(sms?.lastError).toContain('503');
    advance(31_000);
    await worker.tick();
    expect(outbox().find((r) => r.channel === 'sms')?.status).toBe('sent');
    expect(fake.received).toHaveLength(1);

    const off = await setup({ sms: false });
    expect((await off.book((await off.quote()).quoteId)).status).toBe(201);
    await off.worker.tick();
    expect(off.outbox().find((r) => r.channel === 'sms')).toMatchObject({ status: 'unsent', lastError: NO_SMS_PROVIDER });
    const alerts = await off.t.call('GET', '/api/alerts', { token: off.op.token });
    const bookingAlerts = alerts.json.filter((a: { kind: string }) => a.kind === 'booking');
    expect(bookingAlerts.map((a: { channel: string; status: string }) => `${a.channel}:${a.status}`).sort()).toEqual(['email:sent', 'sms:unsent']);
  });

  it('gives a text the provider refuses for good (a 4xx) up after a few tries, logging it once with the provider’s answer', async () => {
    const logged: Record<string, unknown>[] = [];
    const logger = { info: (line: Record<string, unknown>) => logged.push(line), warn: (line: Record<string, unknown>) => logged.push(line), error: () => {} };
    const { fake, worker, quote, book, outbox, advance } = await setup({ logger });
    // Twilio's answer for a number it cannot text: asking again for 24 hours changes nothing.
    fake.refuseNext(10, 400);
    expect((await book((await quote()).quoteId)).status).toBe(201);
    const sms = () => outbox().find((r) => r.channel === 'sms');
    for (let i = 0; i < 10 && sms()?.status === 'pending'; i++) {
      await worker.tick();
      advance(3_600_000);
    }
    expect(sms()).toMatchObject({ status: 'failed', attempts: PERMANENT_REFUSAL_ATTEMPTS });
    expect(sms()?.lastError).toContain('400');
    const failing = logged.filter((line) => line.msg === 'Text delivery failing; retrying');
    expect(failing).toHaveLength(1);
    expect(failing[0]).toMatchObject({ status: 400 });
    // The email alert of the same booking went: its channel's episode is its own.
    expect(outbox().find((r) => r.channel === 'email')?.status).toBe('sent');
    expect(logged.some((line) => line.msg === 'Mail delivery failing; retrying')).toBe(false);
  });

  it('aborts a text still in flight at shutdown and hands it back: sent once, at the next start', { timeout: 20_000 }, async () => {
    const { t, fake, worker, quote, book, outbox, clock } = await setup();
    fake.stallNext(1);
    expect((await book((await quote()).quoteId)).status).toBe(201);
    const ticking = worker.tick();
    await vi.waitFor(() => expect(fake.held).toBe(1), { timeout: 10_000, interval: 20 });
    await worker.stop();
    await ticking;
    // Handed back: due at once, no try counted.
    const handedBack = outbox().filter((r) => r.channel === 'sms' && r.status === 'pending');
    expect(handedBack).toHaveLength(1);
    expect(handedBack[0]).toMatchObject({ attempts: 0, lastError: 'stopped before the SMS provider answered' });
    // The request itself was abandoned, so a late answer from the provider cannot send it too.
    await vi.waitFor(() => expect(fake.waiting).toBe(0), { timeout: 5_000, interval: 20 });
    fake.release();
    expect(fake.abandoned).toBe(1);
    expect(fake.received).toHaveLength(0);

    // The next start sends it, once.
    const now = () => clock.now;
    const next = runnerFor(mailOutboxJobs({ db: t.deps.db, config: t.config, logger: silent, now }), { db: t.deps.db, logger: silent, now, busy: () => false });
    cleanup.push(() => next.stop());
    await next.tick();
    expect(
      outbox()
        .filter((r) => r.channel === 'sms')
        .map((r) => r.status),
    ).toEqual(['sent']);
    expect(fake.received).toHaveLength(1);
    await next.tick();
    expect(fake.received).toHaveLength(1);
  });

  it('refuses a second form’s booking of a booked quote, an expired price, a company without bookings and an unknown quote', async () => {
    const { t, op, clock, quote, book, advance } = await setup();
    const q = await quote();
    expect((await book(q.quoteId)).status).toBe(201);
    const other = await book(q.quoteId, { bookingKey: 'another-form-key-000000000' });
    expect(other.status).toBe(409);
    expect(other.json.code).toBe('ALREADY_BOOKED');

    const late = await quote();
    advance(Date.parse(late.validUntil) - clock.now.getTime() + 60_000);
    const expired = await book(late.quoteId);
    expect(expired.status).toBe(409);
    expect(expired.json.code).toBe('QUOTE_EXPIRED');

    const off = await quote();
    await t.call('PUT', '/api/booking-settings', { token: op.token, body: { offerBooking: false } });
    expect((await book(off.quoteId)).json.code).toBe('BOOKING_NOT_OFFERED');
    // Unknown or malformed references, of every length a reference has had and none: the same 404.
    for (const unknown of ['TQ-ZZZZZZZZZ', 'TQ-ZZZZZZZZZZ', 'ZZZZ2222', 'TQ-123', 'O0O0O0O0O0', `${off.quoteId}X`]) {
      const res = await book(unknown);
      expect(res.status, unknown).toBe(404);
      expect(res.json.code).toBe('NOT_FOUND');
    }
  });

  it('validates the motorist’s details: control characters, over-long text, the number and the registration', async () => {
    const { t, quote, book } = await setup();
    const q = await quote();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'Jane\u0007' }, 'name', 'Name must not contain control characters or text direction overrides'],
      [{ name: 'x'.repeat(81) }, 'name', 'Name must be at most 80 characters'],
      [{ note: 'n'.repeat(301) }, 'note', 'Note must be at most 300 characters'],
      [{ note: 'left \u202E lane' }, 'note', 'Note must not contain control characters or text direction overrides'],
      [{ phone: '0161 496 0000' }, 'phone', 'Enter a valid mobile number, such as 07700 900123'],
      [{ phone: 'call me' }, 'phone', 'Enter a valid mobile number, such as 07700 900123'],
      [{ registration: 'NOT A PLATE' }, 'registration', 'Enter a UK registration, such as AB12 CDE'],
      [{ name: '' }, 'name', 'Name is required'],
      [{ position: { lat: 91, lng: 0 } }, 'position.lat', 'Latitude must be between -90 and 90'],
    ];
    for (const [extra, field, message] of cases) {
      const res = await book(q.quoteId, extra);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.json.fields[field], JSON.stringify(extra)).toBe(message);
    }
    expect((await t.call('GET', '/api/bookings', { token: (await t.operator()).token })).json.open).toEqual([]);
    const ok = await book(q.quoteId, { phone: '+44 (0)7700 900123', registration: ' a123 bcd ' });
    expect(ok.status).toBe(201);
    expect(ok.json.job.registration).toBe('A123 BCD');
  });
});

describe('one email per booking (decision 054)', () => {
  const subjects = (sink: SmtpSink) => sink.received.map((m) => m.subject.replace(/:.*$/, ''));

  it('a quote booked within the grace sends the operator "New booking" alone, with the quote’s facts in words', async () => {
    const { sink, worker, quote, book, advance } = await setup({ sms: false });
    const q = await quote();
    await worker.tick();
    // Still within its grace: no quote alert yet.
    expect(sink.received).toEqual([]);
    advance(QUOTE_ALERT_GRACE_MS - 60_000);
    expect((await book(q.quoteId)).status).toBe(201);
    advance(60_000);
    await worker.tick();
    advance(QUOTE_ALERT_GRACE_MS);
    await worker.tick();
    expect(subjects(sink)).toEqual([`New booking TQ-${q.quoteId}`]);
    const { text } = sink.received[0];
    // What the quote's alert carried: the route, the vehicle and its state, the problem and the price, in words.
    for (const expected of ['M1 1AE to M4 4BF', 'Car', 'Manual', 'Rolling', 'Passengers:', 'Other', `£${q.totalPrice.toFixed(2)}`])
      expect(text).toContain(expected);
    expect(text).not.toMatch(/\bcar\b|engine-failure|not-rolling/);
  });

  it('a quote not booked gets its own alert once the grace is over, not before', async () => {
    const { sink, worker, quote, advance } = await setup({ sms: false });
    const q = await quote();
    advance(QUOTE_ALERT_GRACE_MS - 1);
    await worker.tick();
    expect(sink.received).toEqual([]);
    advance(1);
    await worker.tick();
    expect(subjects(sink)).toEqual([`New quote TQ-${q.quoteId}`]);
  });

  it('a quote booked after its alert went gets both: the quote’s alert is never held back longer than the grace', async () => {
    const { sink, worker, quote, book, advance } = await setup({ sms: false });
    const q = await quote();
    advance(QUOTE_ALERT_GRACE_MS);
    await worker.tick();
    expect((await book(q.quoteId)).status).toBe(201);
    await worker.tick();
    expect(subjects(sink)).toEqual([`New quote TQ-${q.quoteId}`, `New booking TQ-${q.quoteId}`]);
  });
});

describe('the job, from accept to completed', () => {
  it('is accepted with an ETA, followed by the driver’s steps in order, kept in the lead history, and closes a day after', async () => {
    const { t, fake, worker, op, quote, book, advance } = await setup();
    const q = await quote();
    const booked = await book(q.quoteId, { position: { lat: 53.4794, lng: -2.2453 } });
    const jobToken = booked.json.jobToken as string;

    const early = await t.call('POST', `/api/bookings/${q.quoteId}/decline`, { token: op.token, body: { reason: '' } });
    expect(early.json.fields.reason).toBe('Reason is required');
    const accepted = await t.call('POST', `/api/bookings/TQ-${q.quoteId.toLowerCase()}/accept`, {
      token: op.token,
      body: { etaMinutes: 25, driverName: 'Sam' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ status: 'accepted', driverName: 'Sam', eta: { minutes: 25, at: '2026-06-10T12:25:00.000Z', fromPosition: false } });
    const driverUrl = accepted.json.driverUrl as string;
    const driverToken = driverUrl.split('/driver/')[1];
    expect(driverToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(driverToken).not.toBe(jobToken);
    // Accepting twice is out of order.
    expect((await t.call('POST', `/api/bookings/${q.quoteId}/accept`, { token: op.token, body: { etaMinutes: 5 } })).json.code).toBe('BOOKING_OUT_OF_ORDER');

    const job = await t.call('GET', `/api/jobs/${jobToken}`);
    expect(job.json).toMatchObject({ status: 'accepted', driverName: 'Sam', eta: { minutes: 25 } });
    const driver = await t.call('GET', `/api/driver/${driverToken}`);
    expect(driver.json).toMatchObject({
      customerName: 'Jane Motorist',
      customerPhone: '+447700900123',
      registration: 'AB12 CDE',
      position: { lat: 53.4794, lng: -2.2453 },
    });

    const step = (status: string) => t.call('POST', `/api/driver/${driverToken}/status`, { body: { status } });
    const early2 = await step('completed');
    expect(early2.status).toBe(409);
    expect(early2.json.code).toBe('BOOKING_OUT_OF_ORDER');
    expect((await t.call('POST', `/api/driver/${driverToken}/position`, { body: { lat: 53.5, lng: -2.3 } })).status).toBe(409);
    expect((await step('on_the_way')).json.status).toBe('on_the_way');
    // The driver's position, about 3 miles away, recomputes the motorist's ETA.
    const moved = await t.call('POST', `/api/driver/${driverToken}/position`, { body: { lat: 53.5, lng: -2.3 } });
    expect(moved.status).toBe(200);
    const eta = (await t.call('GET', `/api/jobs/${jobToken}`)).json.eta;
    expect(eta.fromPosition).toBe(true);
    expect(eta.minutes).toBeGreaterThan(3);
    expect(eta.minutes).toBeLessThan(15);
    // A position far from the job (another continent; or in the UK but over 150 miles from both
    // ends) is stored for the driver's page, but the ETA stays as it was.
    for (const far of [
      { lat: -33.87, lng: 151.21 },
      { lat: 40.71, lng: -74.0 },
      { lat: 50.12, lng: -5.53 },
    ]) {
      const away = await t.call('POST', `/api/driver/${driverToken}/position`, { body: far });
      expect(away.status).toBe(200);
      expect(t.deps.db.$client.prepare('select driver_lat as lat, driver_lng as lng from bookings where driver_lat is not null').get()).toEqual(far);
      expect((await t.call('GET', `/api/jobs/${jobToken}`)).json.eta).toEqual(eta);
    }
    expect((await step('arrived')).json.status).toBe('arrived');
    expect((await t.call('POST', `/api/driver/${driverToken}/position`, { body: { lat: 53.48, lng: -2.25 } })).status).toBe(409);
    expect((await step('loaded')).json.status).toBe('loaded');
    const done = await step('completed');
    expect(done.json).toMatchObject({ status: 'completed', position: null, sharingPosition: false });
    const row = t.deps.db.$client.prepare('select pickup_lat, driver_lat from bookings').get();
    expect(row).toEqual({ pickup_lat: null, driver_lat: null });

    const lead = await t.call('GET', `/api/quotes/${q.quoteId}`, { token: op.token });
    expect(lead.json.status).toBe('won');
    const history = t.deps.db.$client.prepare('select booking_status as b, status from lead_events order by id').all();
    expect(history).toEqual([
      { b: 'requested', status: 'contacted' },
      { b: 'accepted', status: 'won' },
      { b: 'on_the_way', status: 'won' },
      { b: 'arrived', status: 'won' },
      { b: 'loaded', status: 'won' },
      { b: 'completed', status: 'won' },
    ]);
    expect((await t.call('GET', `/api/jobs/${jobToken}`)).json.history.map((h: { status: string }) => h.status)).toEqual([
      'requested',
      'accepted',
      'on_the_way',
      'arrived',
      'loaded',
      'completed',
    ]);

    await worker.tick();
    const texts = fake.received.map((m) => m.body);
    expect(texts.some((b) => b.includes('accepted') && b.includes('25 min'))).toBe(true);
    expect(texts.some((b) => b.includes('on the way'))).toBe(true);
    expect(texts.some((b) => b.includes('arrived'))).toBe(true);
    expect(texts.some((b) => b.includes('completed'))).toBe(true);
    expect(texts).toHaveLength(5);

    advance(24 * 3_600_000 + 1000);
    const closed = await t.call('GET', `/api/jobs/${jobToken}`);
    expect(closed.status).toBe(410);
    expect(closed.json.code).toBe('JOB_CLOSED');
  });

  it('expires a booking nobody answered within the response time, and the motorist is told to call', async () => {
    const { t, op, quote, book, advance } = await setup({ status: 'active' });
    await t.call('PUT', '/api/company', { token: op.token, body: { phone: '0161 496 0000' } });
    expect((await t.call('PUT', '/api/booking-settings', { token: op.token, body: { responseMinutes: 5 } })).json.responseMinutes).toBe(5);
    const q = await quote();
    const booked = await book(q.quoteId);
    advance(4 * 60_000);
    expect(await t.bookings.service.expireDue()).toBe(0);
    advance(61_000);
    expect(await t.bookings.service.expireDue()).toBe(1);
    const job = await t.call('GET', `/api/jobs/${booked.json.jobToken}`);
    expect(job.json).toMatchObject({ status: 'expired', company: { phone: '+441614960000' } });
    expect((await t.call('POST', `/api/bookings/${q.quoteId}/accept`, { token: op.token, body: { etaMinutes: 10 } })).status).toBe(409);
    const sms = t.deps.db.$client.prepare("select text from mail_outbox where dedupe_key like '%motorist:expired'").pluck().get();
    expect(sms).toContain('0161 496 0000');
  });

  it('lets the motorist cancel before the driver sets off, and the operator decline with a reason', async () => {
    const { t, op, quote, book } = await setup();
    const a = await book((await quote()).quoteId);
    const cancelled = await t.call('POST', `/api/jobs/${a.json.jobToken}/cancel`);
    expect(cancelled.json.status).toBe('cancelled');
    expect((await t.call('POST', `/api/jobs/${a.json.jobToken}/cancel`)).status).toBe(409);

    const q = await quote();
    await book(q.quoteId);
    const declined = await t.call('POST', `/api/bookings/${q.quoteId}/decline`, { token: op.token, body: { reason: 'No truck free' } });
    expect(declined.json).toMatchObject({ status: 'declined', declineReason: 'No truck free', driverUrl: null });
    const list = await t.call('GET', '/api/bookings', { token: op.token });
    expect(list.json.open).toEqual([]);
    expect(list.json.recent.map((b: { status: string }) => b.status).sort()).toEqual(['cancelled', 'declined']);
  });
});

describe('tokens and scope', () => {
  it('answers 404 to an unknown, malformed or other page’s token and to another company’s booking, changing nothing', async () => {
    const { t, op, quote, book } = await setup();
    const q = await quote();
    const booked = await book(q.quoteId);
    const token = booked.json.jobToken as string;
    for (const url of [`/api/jobs/${'A'.repeat(32)}`, '/api/jobs/short', `/api/driver/${token}`, `/api/jobs/${token}x`]) {
      const res = await t.raw('GET', url);
      expect(res.status, url).toBe(404);
      expect(res.json.code).toBe('NOT_FOUND');
    }
    expect((await t.call('POST', `/api/driver/${token}/status`, { body: { status: 'on_the_way' } })).status).toBe(404);
    const stranger = await t.operator();
    expect((await t.call('POST', `/api/bookings/${q.quoteId}/accept`, { token: stranger.token, body: { etaMinutes: 5 } })).status).toBe(404);
    // A malformed or unknown reference in the operator's own actions: 404 too, never a 500.
    for (const typed of ['TQ-123', 'ZZZZZZZZZZ', 'O0O0O0O0O0', `TQ-${q.quoteId}X`, '%25', 'x'.repeat(300)]) {
      const res = await t.call('POST', `/api/bookings/${encodeURIComponent(typed)}/accept`, { token: op.token, body: { etaMinutes: 5 } });
      expect(res.status, typed).toBe(404);
      expect(res.json.code).toBe('NOT_FOUND');
    }
    expect((await t.call('GET', '/api/bookings', { token: stranger.token })).json.open).toEqual([]);
    expect((await t.call('GET', '/api/bookings', { token: op.token })).json.open[0]).toMatchObject({ status: 'requested', customerName: 'Jane Motorist' });
  });

  it('keeps tokens out of the request log', () => {
    expect(loggedPath('/job/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g')).toBe('/job/:token');
    expect(loggedPath('/driver/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g')).toBe('/driver/:token');
    expect(loggedPath('/api/jobs/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g/events')).toBe('/api/jobs/:token/events');
    expect(loggedPath('/api/driver/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g/status')).toBe('/api/driver/:token/status');
    expect(loggedPath('/api/quotes/ABC')).toBe('/api/quotes/ABC');
  });

  it('rate-limits bookings per client address', async () => {
    const { quote, book } = await setup({ env: { BOOKING_RATE_LIMIT: '2' } });
    expect((await book((await quote()).quoteId)).status).toBe(201);
    expect((await book((await quote()).quoteId)).status).toBe(201);
    const third = await book((await quote()).quoteId);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBeTruthy();
  });
});

describe('the job changed event', () => {
  it('tells the app of each change of a job once it is stored: its company, booking, kind and whether it wrote messages; a refused change tells nothing', async () => {
    const { t, op, quote, book } = await setup();
    const heard: JobChanged[] = [];
    t.deps.events.on('job.changed', (change) => {
      heard.push(change);
    });
    const q = await quote();
    const booked = await book(q.quoteId);
    expect(booked.status).toBe(201);
    const accepted = await t.call('POST', `/api/bookings/${q.quoteId}/accept`, { token: op.token, body: { etaMinutes: 20 } });
    const driverToken = String(accepted.json.driverUrl).split('/').pop() ?? '';
    expect((await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status: 'on_the_way' } })).status).toBe(200);
    expect((await t.call('POST', `/api/driver/${driverToken}/position`, { body: { lat: 53.4808, lng: -2.2426 } })).status).toBe(200);
    // Too late for the motorist to cancel: refused, and nothing changed.
    expect((await t.call('POST', `/api/jobs/${booked.json.jobToken}/cancel`)).status).toBe(409);
    const { id } = t.deps.db.$client.prepare('select id from bookings').get() as { id: number };
    const change = (kind: JobChanged['kind']) => ({ companyId: op.companyId, bookingId: id, kind });
    expect(heard).toEqual([change('requested'), change('accepted'), change('on_the_way'), change('position')]);
  });
});

describe('where a booking may come from', () => {
  it('takes a browser’s booking only from our own pages and the websites the company listed; another origin is 403 and changes nothing', async () => {
    const { t, op, quote, book, outbox } = await setup();
    const q = await quote();
    const from = (origin: string, quoteId = q.quoteId) =>
      t.call('POST', '/api/bookings', {
        origin,
        body: { quoteId, bookingKey: KEY, name: 'Jane Motorist', phone: '07700 900123', registration: 'ab12cde' },
      });
    for (const origin of ['https://elsewhere.example', 'null', 'http://localhost:4174', 'https://www.tow.example.evil.example']) {
      const refused = await from(origin);
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ code: 'BOOKING_ORIGIN_REFUSED', message: BOOKING_ORIGIN_REFUSED });
      // The refusal is readable by the page, so the form can send the motorist to the company's own page.
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    }
    expect(t.deps.db.$client.prepare('select count(*) as n from bookings').get()).toEqual({ n: 0 });
    expect(outbox()).toEqual([]);

    // The company lists its website (typed as a page's address: its origin is kept).
    const saved = await t.call('PUT', '/api/booking-settings', {
      token: op.token,
      body: { bookingOrigins: ['https://WWW.Tow.example/quote?from=home', ' ', 'https://www.tow.example'] },
    });
    expect(saved.status).toBe(200);
    expect(saved.json.bookingOrigins).toEqual(['https://www.tow.example']);
    expect((await t.call('GET', '/api/booking-settings', { token: op.token })).json.bookingOrigins).toEqual(['https://www.tow.example']);
    expect((await from('https://www.tow.example')).status).toBe(201);
    // Our own origin (the hosted page, the status page) and a program with no Origin always may.
    expect((await from('http://localhost:3999', (await quote()).quoteId)).status).toBe(201);
    expect((await book((await quote()).quoteId)).status).toBe(201);
  });

  it('checks the websites: https addresses only (http only on this machine), at most 10, each kept once', async () => {
    const { t, op } = await setup();
    const put = (bookingOrigins: unknown) => t.call('PUT', '/api/booking-settings', { token: op.token, body: { bookingOrigins } });
    for (const bad of [
      ['http://www.tow.example'],
      ['www.tow.example'],
      ['https://user:pass@tow.example'],
      ['ftp://tow.example'],
      'https://tow.example',
      [42],
    ]) {
      const res = await put(bad);
      expect(res.status).toBe(400);
      expect([bad, res.json.fields]).toEqual([bad, { bookingOrigins: BOOKING_ORIGIN_INVALID }]);
    }
    const many = Array.from({ length: 11 }, (_, i) => `https://site${i}.example`);
    expect((await put(many)).json.fields.bookingOrigins).toBe(BOOKING_ORIGINS_TOO_MANY);
    expect((await t.call('GET', '/api/booking-settings', { token: op.token })).json.bookingOrigins).toEqual([]);
    expect((await put(['http://127.0.0.1:4174/', 'https://tow.example:8443'])).json.bookingOrigins).toEqual([
      'http://127.0.0.1:4174',
      'https://tow.example:8443',
    ]);
    expect((await put([])).json.bookingOrigins).toEqual([]);
  });
});

describe('the live status page', () => {
  it('streams the job at once and again at each change, with its own cap per address', async () => {
    const { t, op, quote, book } = await setup({ env: { LIVE_STREAMS_PER_ADDRESS: '1' } });
    const q = await quote();
    const token = (await book(q.quoteId)).json.jobToken as string;
    const res = await t.app.request(`http://localhost:3999/api/jobs/${token}/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const nextEvent = async () => {
      while (!/\n\n/.test(text)) text += decoder.decode((await reader.read()).value, { stream: true });
      const end = text.indexOf('\n\n');
      const event = text.slice(0, end);
      text = text.slice(end + 2);
      return JSON.parse(
        event
          .split('\n')
          .find((line) => line.startsWith('data: '))!
          .slice(6),
      );
    };
    expect((await nextEvent()).status).toBe('requested');

    const second = await t.app.request(`http://localhost:3999/api/jobs/${token}/events`);
    expect(second.status).toBe(429);
    expect(((await second.json()) as { code: string }).code).toBe('STREAMS_FULL');

    await t.call('POST', `/api/bookings/${q.quoteId}/accept`, { token: op.token, body: { etaMinutes: 25 } });
    expect(await nextEvent()).toMatchObject({ status: 'accepted', eta: { minutes: 25 } });
    expect(t.bookings.live.size).toBe(1);
    t.bookings.live.closeAll();
    for (;;) if ((await reader.read()).done) break;
    expect(t.bookings.live.size).toBe(0);
  });
});

describe('the live stream’s end', () => {
  it('ends when its job finishes, after sending the finished state; a finished job’s stream sends its state and ends', async () => {
    const { t, op, quote, book } = await setup();
    const q = await quote();
    const token = (await book(q.quoteId)).json.jobToken as string;
    const res = await t.app.request(`http://localhost:3999/api/jobs/${token}/events`);
    expect(res.status).toBe(200);
    expect(t.bookings.live.size).toBe(1);
    expect((await t.call('POST', `/api/bookings/${q.quoteId}/decline`, { token: op.token, body: { reason: 'No truck free' } })).status).toBe(200);
    const text = await res.text();
    expect(text).toContain('"status":"requested"');
    expect(text).toContain('"status":"declined"');
    expect(t.bookings.live.size).toBe(0);

    const again = await t.app.request(`http://localhost:3999/api/jobs/${token}/events`);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('"status":"declined"');
    expect(t.bookings.live.size).toBe(0);
  });
});

describe('retention', () => {
  it('deletes the motorist’s details and their messages with the quote', async () => {
    const { t, quote, book, outbox } = await setup();
    const q = await quote();
    await book(q.quoteId, { email: 'jane@example.com' });
    expect(outbox().filter((r) => r.kind === 'booking').length).toBe(2);
    expect(t.deps.db.$client.prepare('select customer_email from bookings').pluck().get()).toBe('jane@example.com');
    const id = t.deps.db.$client.prepare('select quote_id from bookings').pluck().get() as number;
    deleteLeads(t.deps.db, [id]);
    expect(t.deps.db.$client.prepare('select count(*) from bookings').pluck().get()).toBe(0);
    expect(JSON.stringify(t.deps.db.$client.prepare('select * from bookings, mail_outbox').all())).not.toContain('jane@example.com');
    expect(outbox().filter((r) => r.kind === 'booking')).toEqual([]);
  });
});

describe('in the numbers and the export', () => {
  it('counts the bookings, the median time to accept and the completed jobs, and exports each booking with its quote', async () => {
    const { t, op, quote, book, advance } = await setup();
    const other = await t.operator();
    await book((await quote(other.companyId)).quoteId, { bookingKey: 'another-company-booking-01' });
    const first = await quote();
    const second = await quote();
    await quote();

    await book(first.quoteId, { bookingKey: 'first-booking-form-key-0001' });
    advance(3 * 60_000);
    const accepted = await t.call('POST', `/api/bookings/${first.quoteId}/accept`, { token: op.token, body: { etaMinutes: 25, driverName: 'Sam' } });
    const driverToken = (accepted.json.driverUrl as string).split('/driver/')[1];
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) {
      expect((await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status } })).status).toBe(200);
    }
    await book(second.quoteId, { bookingKey: 'second-booking-form-key-001' });
    advance(5 * 60_000);
    expect((await t.call('POST', `/api/bookings/${second.quoteId}/accept`, { token: op.token, body: { etaMinutes: 40 } })).status).toBe(200);

    const numbers = await t.call('GET', '/api/quotes/numbers', { token: op.token });
    expect(numbers.json).toMatchObject({ last30Days: 3, bookings: 2, completedBookings: 1, medianAcceptanceSeconds: 240 });

    const csv = (await t.call('GET', '/api/quotes/export.csv', { token: op.token })).text.split('\r\n');
    expect(csv[0]).toMatch(
      /,Booking,Booked,Customer name,Customer mobile,Registration,Booking note,Accepted,ETA \(minutes\),Driver,Decline reason,Payment status,Amount paid \(£\),Amount refunded \(£\),Source,Taken by$/,
    );
    const row = (reference: string) => csv.find((line) => line.startsWith(`TQ-${reference},`)) ?? '';
    expect(row(first.quoteId)).toMatch(
      /,Completed,10\/06\/2026 13:00,Jane Motorist,07700 900123,AB12 CDE,"Hard shoulder, northbound, after junction 18",10\/06\/2026 13:03,25,Sam,,,,,website,$/,
    );
    expect(row(second.quoteId)).toMatch(
      /,Accepted,10\/06\/2026 13:03,Jane Motorist,07700 900123,AB12 CDE,"Hard shoulder, northbound, after junction 18",10\/06\/2026 13:08,40,,,,,,website,$/,
    );
    expect(csv.filter((line) => line.endsWith(',,,,,,,,,,,,,,web,'))).toHaveLength(1);
  });

  it('has no bookings and no time to accept before the first booking', async () => {
    const { t, op, quote } = await setup();
    await quote();
    const numbers = await t.call('GET', '/api/quotes/numbers', { token: op.token });
    expect(numbers.json).toMatchObject({ last30Days: 1, bookings: 0, completedBookings: 0, medianAcceptanceSeconds: null });
  });
});

describe('who the motorist’s texts are from', () => {
  const motoristTexts = (outbox: () => Array<typeof mailOutbox.$inferSelect>) =>
    outbox()
      .filter((r) => r.to === '+447700900123')
      .map((r) => r.text);

  it('a trial company’s texts carry the platform’s fixed wording, with nothing the company typed', async () => {
    const { t, op, quote, book, outbox } = await setup();
    // A name stored before names were checked, and a driver's name with a number in it.
    updateCompany(t.deps.db, op.companyId, { name: 'HMRC: tax refund, claim at https://refund.example', phone: '+449098790000' });
    const q = await quote();
    expect((await book(q.quoteId)).status).toBe(201);
    expect(motoristTexts(outbox)).toEqual([
      `RecoveryQuote: booking TQ-${q.quoteId} has been received. Answer by 13:10. Follow it: ${
        outbox()
          .find((r) => r.to === '+447700900123')
          ?.text.split('Follow it: ')[1]
      }`,
    ]);
    updateCompany(t.deps.db, op.companyId, { name: 'A1 Recovery' });
    expect((await t.call('POST', `/api/bookings/${q.quoteId}/decline`, { token: op.token, body: { reason: 'No truck free' } })).status).toBe(200);
    const texts = motoristTexts(outbox);
    expect(texts[1]).toBe(`RecoveryQuote: sorry, your recovery booking TQ-${q.quoteId} cannot be taken. Please call the recovery company.`);
    for (const text of texts) {
      expect(text).not.toContain('HMRC');
      expect(text).not.toContain('A1 Recovery');
      expect(text).not.toContain('909');
    }
  });

  it('a paying company’s texts begin with its name, unless its stored name carries a contact detail', async () => {
    const { t, op, quote, book, outbox } = await setup({ status: 'active' });
    updateCompany(t.deps.db, op.companyId, { name: 'Smith & Sons Towing Ltd' });
    const first = await quote();
    expect((await book(first.quoteId)).status).toBe(201);
    expect((await t.call('POST', `/api/bookings/${first.quoteId}/accept`, { token: op.token, body: { etaMinutes: 20, driverName: 'Dave' } })).status).toBe(200);
    const named = motoristTexts(outbox);
    expect(named[0]).toMatch(/^Smith & Sons Towing Ltd: we have your booking TQ-/);
    expect(named[1]).toBe(`Smith & Sons Towing Ltd: booking TQ-${first.quoteId} accepted. Dave is expected about 13:20 (20 min).`);
    // The driver's name is refused when it carries a number.
    expect(
      (await t.call('POST', `/api/bookings/${first.quoteId}/accept`, { token: op.token, body: { etaMinutes: 20, driverName: 'Call 07700 900999' } })).json
        .fields?.driverName,
    ).toBe('Driver name must not contain a web address, email address or phone number');

    // A name saved before the rule: the platform's wording instead.
    updateCompany(t.deps.db, op.companyId, { name: 'Claim at www.refund.example' });
    const before = outbox().length;
    const second = await quote();
    expect(
      (
        await t.call('POST', '/api/bookings', {
          body: { quoteId: second.quoteId, bookingKey: 'another-booking-form-key-02', name: 'Jane Motorist', phone: '07700 900123', registration: 'ab12cde' },
        })
      ).status,
    ).toBe(201);
    const text = outbox()
      .slice(before)
      .find((r) => r.to === '+447700900123')?.text;
    expect(text).toMatch(new RegExp(`^RecoveryQuote: booking TQ-${second.quoteId} has been received\\.`));
    expect(text).not.toContain('refund');
  });
});

describe('the operator’s booking text number is confirmed by a texted code before any alert goes to it', () => {
  const operatorTexts = (fake: SmsFake) => fake.received.filter((m) => m.to === '+447700900456');
  const codeOf = (fake: SmsFake) =>
    operatorTexts(fake)
      .at(-1)
      ?.body.match(/\b(\d{6})\b/)?.[1] ?? '';
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('an unconfirmed number gets no alert text; after the right code it does; a new number is unconfirmed again', async () => {
    const { t, fake, worker, op, quote, book, outbox } = await setup();
    const saved = await t.call('PUT', '/api/booking-settings', { token: op.token, body: { smsNumber: '07700 900456' } });
    expect(saved.json).toMatchObject({ smsNumber: '+447700900456', smsNumberConfirmed: false });
    expect((await book((await quote()).quoteId)).status).toBe(201);
    await worker.tick();
    expect(operatorTexts(fake)).toEqual([]);
    expect(outbox().some((r) => r.to === '+447700900456')).toBe(false);

    const sent = await t.call('POST', '/api/booking-settings/sms-code', { token: op.token });
    expect(sent.json).toEqual({ success: true, smsNumber: '+447700900456' });
    await worker.tick();
    const [text] = operatorTexts(fake);
    expect(text.body).toMatch(/^RecoveryQuote: your code to confirm this number for booking texts is \d{6}\. It works for 15 minutes\./);
    const code = codeOf(fake);
    // Neither the outbox nor the company row holds the code itself.
    const stored = JSON.stringify([outbox(), t.deps.db.$client.prepare('select * from companies where id = ?').get(op.companyId)]);
    expect(stored).not.toContain(code);
    expect(outbox().find((r) => r.kind === 'sms-code')?.text).toContain('{{code}}');

    const confirmed = await t.call('POST', '/api/booking-settings/sms-code/confirm', {
      token: op.token,
      body: { code: `${code.slice(0, 3)} ${code.slice(3)}` },
    });
    expect(confirmed.status).toBe(200);
    expect((await t.call('GET', '/api/booking-settings', { token: op.token })).json.smsNumberConfirmed).toBe(true);
    const q = await quote();
    expect((await book(q.quoteId, { bookingKey: 'second-booking-form-key-0002' })).status).toBe(201);
    await worker.tick();
    expect(operatorTexts(fake).at(-1)?.body).toContain(`New booking TQ-${q.quoteId}`);

    // The code works once; a new number (not the same one saved again) needs its own.
    expect((await t.call('POST', '/api/booking-settings/sms-code/confirm', { token: op.token, body: { code } })).json.code).toBe('ALREADY_VERIFIED');
    expect(
      (await t.call('PUT', '/api/booking-settings', { token: op.token, body: { smsNumber: '+447700900456', responseMinutes: 12 } })).json.smsNumberConfirmed,
    ).toBe(true);
    expect((await t.call('PUT', '/api/booking-settings', { token: op.token, body: { smsNumber: '07700 900789' } })).json.smsNumberConfirmed).toBe(false);
    expect((await t.call('PUT', '/api/booking-settings', { token: op.token, body: { smsNumber: '07700 900456' } })).json.smsNumberConfirmed).toBe(false);
  });

  it('5 wrong codes lock it, even against the right one, until a new code is sent', async () => {
    const { t, fake, worker, op } = await setup();
    await t.call('PUT', '/api/booking-settings', { token: op.token, body: { smsNumber: '07700 900456' } });
    await t.call('POST', '/api/booking-settings/sms-code', { token: op.token });
    await worker.tick();
    const code = codeOf(fake);
    for (let i = 0; i < 5; i++) {
      const res = await t.call('POST', '/api/booking-settings/sms-code/confirm', { token: op.token, body: { code: wrong(code) } });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: 'SMS_CODE_WRONG', message: SMS_CODE_WRONG, fields: { code: SMS_CODE_WRONG } });
    }
    const locked = await t.call('POST', '/api/booking-settings/sms-code/confirm', { token: op.token, body: { code } });
    expect(locked.status).toBe(429);
    expect(locked.json).toMatchObject({ code: 'SMS_CODE_LOCKED', message: SMS_CODE_LOCKED });
    expect((await t.call('GET', '/api/booking-settings', { token: op.token })).json.smsNumberConfirmed).toBe(false);

    await t.call('POST', '/api/booking-settings/sms-code', { token: op.token });
    await worker.tick();
    expect(codeOf(fake)).not.toBe('');
    // The earlier code is dead once a new one is sent (unless the new one happens to be equal).
    const fresh = codeOf(fake);
    expect((await t.call('POST', '/api/booking-settings/sms-code/confirm', { token: op.token, body: { code: fresh } })).status).toBe(200);
  });

  it('an expired code is refused with 400 and changes nothing; a malformed one is a field message', async () => {
    const { t, fake, worker, op, advance } = await setup();
    await t.call('PUT', '/api/booking-settings', { token: op.token, body: { smsNumber: '07700 900456' } });
    const never = await t.call('POST', '/api/booking-settings/sms-code/confirm', { token: op.token, body: { code: '123456' } });
    expect(never.status).toBe(400);
    expect(never.json.code).toBe('SMS_CODE_EXPIRED');
    await t.call('POST', '/api/booking-settings/sms-code', { token: op.token });
    await worker.tick();
    const code = codeOf(fake);
    advance(15 * 60_000 + 1000);
    const before = t.deps.db.$client.prepare('select * from companies where id = ?').get(op.companyId);
    const expired = await t.call('POST', '/api/booking-settings/sms-code/confirm', { token: op.token, body: { code } });
    expect(expired.status).toBe(400);
    expect(expired.json).toMatchObject({ code: 'SMS_CODE_EXPIRED', message: SMS_CODE_EXPIRED });
    expect(t.deps.db.$client.prepare('select * from companies where id = ?').get(op.companyId)).toEqual(before);
    expect((await t.call('GET', '/api/booking-settings', { token: op.token })).json.smsNumberConfirmed).toBe(false);
    const bad = await t.call('POST', '/api/booking-settings/sms-code/confirm', { token: op.token, body: { code: '12ab56' } });
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toEqual({ code: 'Enter the 6-digit code from the text' });
  });

  it('sends at most 3 codes an hour per company and 3 a day per number; refuses with no number or no SMS provider', async () => {
    const { t, fake, worker, op, advance } = await setup();
    expect((await t.call('POST', '/api/booking-settings/sms-code', { token: op.token })).json.code).toBe('NO_SMS_NUMBER');
    await t.call('PUT', '/api/booking-settings', { token: op.token, body: { smsNumber: '07700 900456' } });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await t.call('POST', '/api/booking-settings/sms-code', { token: op.token })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    const refused = await t.call('POST', '/api/booking-settings/sms-code', { token: op.token });
    expect(refused.json).toMatchObject({ code: 'RATE_LIMITED', message: TOO_MANY_SMS_CODES });
    await worker.tick();
    expect(operatorTexts(fake)).toHaveLength(3);
    // An hour on, the company may ask again, but the number has had its 3 for the day.
    advance(3_600_000 + 1000);
    expect((await t.call('POST', '/api/booking-settings/sms-code', { token: op.token })).status).toBe(429);

    const off = await setup({ sms: false });
    await off.t.call('PUT', '/api/booking-settings', { token: off.op.token, body: { smsNumber: '07700 900111' } });
    const none = await off.t.call('POST', '/api/booking-settings/sms-code', { token: off.op.token });
    expect(none.status).toBe(409);
    expect(none.json.code).toBe('SMS_NOT_CONFIGURED');
  });
});
