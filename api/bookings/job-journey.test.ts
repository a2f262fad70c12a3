// The job as the motorist and the driver live it, through the real app: the money said before
// sending and shown live after a decline, the driver's own live page, the texts of each step and
// the operator told of a cancellation. Local payments mode (the built-in card page) and the fake
// SMS provider and SMTP server on loopback.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '../platform/db/schema';
import { mailOutboxJobs } from '../mail/worker';
import { reviewRequestJob } from './reviews';
import { BOOKING_EMAIL_INVALID } from '#shared/bookings';
import { insertQuote } from '../quotes/store';
import { createTestApp, quoteBody, runnerFor, storedQuote, TEST_ORIGIN } from '../test/harness';
import { gsm7Length } from '../test/gsm7';
import { quote18720 } from '../test/payment-fixtures';
import { startSmsFake, type SmsFake } from '../test/sms-fake';
import { startSmtpSink } from '../test/smtp-sink';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const silent = { info: () => {}, warn: () => {}, error: () => {} };

async function setup(env: Record<string, string> = {}, status: 'active' | 'trialing' = 'active') {
  const clock = { now: new Date('2026-06-10T12:00:00Z') };
  const sink = await startSmtpSink();
  cleanup.push(() => sink.close());
  const fake: SmsFake = await startSmsFake();
  cleanup.push(() => fake.close());
  const now = () => clock.now;
  const t = createTestApp({ now, env: { SMTP_URL: sink.url, ...fake.env(), ...env } });
  const worker = runnerFor(mailOutboxJobs({ db: t.deps.db, config: t.config, logger: silent, now }), { db: t.deps.db, logger: silent, now, busy: () => false });
  cleanup.push(() => worker.stop());
  const op = await t.operator(status);
  let keys = 0;
  const book = (quoteId: string) =>
    t.call('POST', '/api/bookings', {
      body: { quoteId, bookingKey: `journey-booking-form-${(keys += 1)}`, name: 'Jane Motorist', phone: '07700 900123', registration: 'AB12 CDE' },
    });
  const form = async (path: string, body: string, cookie?: string) => {
    const res = await t.app.request(`${TEST_ORIGIN}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
      body,
      redirect: 'manual',
    });
    return res.status;
  };
  /** Local mode's stand-in account connected, and the rule set. */
  const takePayments = async (rule: Record<string, unknown>) => {
    expect(await form('/payments/connect', 'action=connect', op.cookie)).toBe(303);
    expect((await t.call('PUT', '/api/payments/rule', { token: op.token, body: rule })).json.active).toBe(true);
  };
  /** A £187.20 quote booked and its checkout paid on the built-in card page. */
  const paidBooking = async () => {
    const reference = await insertQuote(t.deps.db, quote18720(op.companyId));
    const booked = await book(reference);
    expect(booked.status).toBe(201);
    expect(await form(new URL(booked.json.checkoutUrl).pathname, '')).toBe(303);
    return { reference, token: booked.json.jobToken as string };
  };
  const quote = async () => {
    const res = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
    expect(res.status).toBe(200);
    return res.json.quoteId as string;
  };
  const outbox = () => t.deps.db.select().from(mailOutbox).all();
  return { t, op, sink, fake, worker, clock, book, takePayments, paidBooking, quote, outbox };
}

/** Reads Server-Sent Events from a response, one `data` object at a time. */
function events(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    async next(): Promise<{ event: string; data: Record<string, unknown> }> {
      while (!/\n\n/.test(text)) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error('stream ended');
        text += decoder.decode(chunk.value, { stream: true });
      }
      const end = text.indexOf('\n\n');
      const lines = text.slice(0, end).split('\n');
      text = text.slice(end + 2);
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      return { event, data: JSON.parse(lines.find((l) => l.startsWith('data: '))!.slice(6)) };
    },
    async rest(): Promise<string> {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return text;
        text += decoder.decode(chunk.value, { stream: true });
      }
    },
  };
}

describe('the money said plainly', () => {
  it('says before sending what is paid now and what later: a 20 % deposit, the full price, a hold, or nothing', async () => {
    const { t, op, takePayments } = await setup();
    const reference = await insertQuote(t.deps.db, quote18720(op.companyId));
    expect((await t.call('GET', `/api/bookings/due/${reference}`)).json).toEqual({ kind: 'none', now: 0, later: 187.2, percent: null });
    await takePayments({ rule: 'deposit', depositType: 'percent', depositPercent: 20 });
    const due = await t.call('GET', `/api/bookings/due/TQ-${reference.toLowerCase()}`);
    expect(due.status).toBe(200);
    expect(due.headers.get('access-control-allow-origin')).toBe('*');
    expect(due.json).toEqual({ kind: 'deposit', now: 37.44, later: 149.76, percent: 20 });
    await t.call('PUT', '/api/payments/rule', { token: op.token, body: { rule: 'deposit', depositType: 'fixed', depositAmount: 50 } });
    expect((await t.call('GET', `/api/bookings/due/${reference}`)).json).toEqual({ kind: 'deposit', now: 50, later: 137.2, percent: null });
    await t.call('PUT', '/api/payments/rule', { token: op.token, body: { rule: 'full' } });
    expect((await t.call('GET', `/api/bookings/due/${reference}`)).json).toEqual({ kind: 'full', now: 187.2, later: 0, percent: null });
    await t.call('PUT', '/api/payments/rule', { token: op.token, body: { rule: 'full', hold: true } });
    expect((await t.call('GET', `/api/bookings/due/${reference}`)).json).toEqual({ kind: 'hold', now: 187.2, later: 0, percent: null });
  });

  it('answers an unknown or malformed quote with 404 in the one error shape', async () => {
    const { t } = await setup();
    for (const typed of ['TQ-AAAAAAAAA', 'nonsense', '%00']) {
      const res = await t.call('GET', `/api/bookings/due/${typed}`);
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ code: 'NOT_FOUND', message: 'Quote not found' });
    }
  });

  it('shows the refund on the open status page after a decline, then ends the stream (before: the stream ended with the decline, the refund only after a reload)', async () => {
    const { t, op, takePayments, paidBooking } = await setup();
    await takePayments({ rule: 'deposit', depositType: 'percent', depositPercent: 20 });
    const { reference, token } = await paidBooking();
    const res = await t.app.request(`${TEST_ORIGIN}/api/jobs/${token}/events`);
    const stream = events(res);
    expect((await stream.next()).data).toMatchObject({ status: 'requested', payment: { kind: 'deposit', status: 'paid', amount: 37.44 } });
    expect((await t.call('POST', `/api/bookings/${reference}/decline`, { token: op.token, body: { reason: 'No truck free' } })).status).toBe(200);
    const sent: Record<string, unknown>[] = [];
    const rest = await stream.rest();
    for (const block of rest.split('\n\n').filter(Boolean))
      sent.push(
        JSON.parse(
          block
            .split('\n')
            .find((l) => l.startsWith('data: '))!
            .slice(6),
        ),
      );
    expect(sent.at(-1)).toMatchObject({ status: 'declined', payment: { status: 'refunded', refunded: 37.44 } });
    expect(t.bookings.live.size).toBe(0);
    // A page opened now is sent the refunded state and ends: nothing more will change.
    const again = await t.app.request(`${TEST_ORIGIN}/api/jobs/${token}/events`);
    expect(await again.text()).toContain('"status":"refunded"');
  });
});

describe('the driver knows', () => {
  it('shows the motorist’s cancel on the driver’s open page at once, in words, and tells the operator by email and text', async () => {
    const { t, op, sink, fake, worker, clock, book } = await setup();
    // The operator's booking text number, confirmed as its code would.
    t.deps.db.$client
      .prepare('update companies set booking_sms_number = ?, booking_sms_verified_at = ? where id = ?')
      .run('+447700900456', '2026-06-10T11:00:00.000Z', op.companyId);
    // Stored as the form stores its choices: codes, which the driver reads in words.
    const reference = await insertQuote(
      t.deps.db,
      storedQuote(op.companyId, {
        vehicleType: 'luton-van',
        gearboxType: 'automatic',
        rollingStatus: 'not-rolling',
        problemType: 'engine-failure',
        passengerCount: 2,
        createdAt: clock.now.toISOString(),
      }),
    );
    const booked = await book(reference);
    const accepted = await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 25, driverName: 'Sam Smith' } });
    const driverToken = new URL(accepted.json.driverUrl).pathname.split('/').at(-1);
    const page = await t.call('GET', `/api/driver/${driverToken}`);
    expect(page.json).toMatchObject({
      vehicleType: 'Luton van',
      gearbox: 'Automatic',
      rolling: 'Not rolling',
      problemType: 'Engine failure',
      passengers: 2,
      balance: 298,
      customerPhone: '+447700900123',
    });
    expect(page.json.balance).toBeGreaterThan(0);

    const res = await t.app.request(`${TEST_ORIGIN}/api/driver/${driverToken}/events`);
    expect(res.status).toBe(200);
    const stream = events(res);
    expect((await stream.next()).data).toMatchObject({ status: 'accepted', customerName: 'Jane Motorist' });
    expect((await t.call('POST', `/api/jobs/${booked.json.jobToken}/cancel`)).status).toBe(200);
    expect((await stream.next()).data).toMatchObject({ status: 'cancelled' });
    await stream.rest();
    expect(t.bookings.live.size).toBe(0);

    await worker.tick();
    const cancelledMail = sink.received.filter((m) => m.subject === `Booking TQ-${reference} cancelled by the customer`);
    expect(cancelledMail).toHaveLength(1);
    expect(cancelledMail[0].text).toContain('Tell Sam Smith not to go');
    const operatorTexts = fake.received.filter((m) => m.to === '+447700900456' && m.body.includes('cancelled by the customer'));
    expect(operatorTexts).toHaveLength(1);
    expect(operatorTexts[0].body).toBe(`Booking TQ-${reference} cancelled by the customer (Jane Motorist, M1 1AE). Tell your driver not to go.`);
  });

  it('answers a driver’s stream of an unknown token with 404, and of a finished job with its last state, then ends', async () => {
    const { t, op, quote, book } = await setup();
    expect((await t.app.request(`${TEST_ORIGIN}/api/driver/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g/events`)).status).toBe(404);
    const reference = await quote();
    const booked = await book(reference);
    const accepted = await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 25 } });
    const driverToken = new URL(accepted.json.driverUrl).pathname.split('/').at(-1);
    await t.call('POST', `/api/jobs/${booked.json.jobToken}/cancel`);
    const res = await t.app.request(`${TEST_ORIGIN}/api/driver/${driverToken}/events`);
    expect(await res.text()).toContain('"status":"cancelled"');
    expect(t.bookings.live.size).toBe(0);
  });
});

describe('a text at each step', () => {
  const steps = ['on_the_way', 'arrived', 'loaded', 'completed'] as const;

  it('texts the motorist once at each step, each one GSM-7 segment, the completed one with the receipt link', async () => {
    const { t, op, fake, worker, quote, book } = await setup();
    const reference = await quote();
    const booked = await book(reference);
    const accepted = await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 25, driverName: 'Sam Smith' } });
    const driverToken = new URL(accepted.json.driverUrl).pathname.split('/').at(-1);
    for (const status of steps) expect((await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status } })).status).toBe(200);
    await worker.tick();
    await worker.tick();
    const texts = fake.received.filter((m) => m.to === '+447700900123').map((m) => m.body);
    const company = t.deps.db.$client.prepare('select name from companies where id = ?').pluck().get(op.companyId) as string;
    expect(texts).toEqual([
      `${company}: we have your booking TQ-${reference} and will answer by 13:10. Follow it here: ${booked.json.jobUrl}`,
      `${company}: booking TQ-${reference} accepted. Sam is expected about 13:25 (25 min).`,
      `${company}: your driver is on the way (TQ-${reference}).`,
      `${company}: your driver has arrived (TQ-${reference}).`,
      `${company}: job TQ-${reference} is completed. Thank you. Receipt: ${booked.json.jobUrl}`,
    ]);
    for (const text of texts) {
      const length = gsm7Length(text);
      expect(length, text).not.toBeNull();
      expect(length, text).toBeLessThanOrEqual(160);
    }
    // Never twice: more ticks send nothing more.
    await worker.tick();
    expect(fake.received.filter((m) => m.to === '+447700900123')).toHaveLength(5);
  });

  it('keeps the platform’s own wording (a trial company) to one segment too, links and all, at every step', async () => {
    const { t, op, fake, worker, quote, book } = await setup({}, 'trialing');
    const reference = await quote();
    await book(reference);
    const accepted = await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 25 } });
    const driverToken = new URL(accepted.json.driverUrl).pathname.split('/').at(-1);
    for (const status of steps) await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status } });
    await worker.tick();
    await worker.tick();
    const texts = fake.received.filter((m) => m.to === '+447700900123').map((m) => m.body);
    expect(texts).toHaveLength(5);
    for (const text of texts) {
      expect(text.startsWith('RecoveryQuote: '), text).toBe(true);
      expect(gsm7Length(text) ?? 999, text).toBeLessThanOrEqual(160);
    }
  });

  it('texts the motorist when they cancel, and sends none of the texts the operator turned off', async () => {
    const { t, op, fake, worker, quote, book } = await setup();
    const off = await t.call('PUT', '/api/booking-settings', { token: op.token, body: { motoristTextsOff: ['arrived', 'on_the_way', 'arrived'] } });
    expect(off.status).toBe(200);
    expect(off.json.motoristTextsOff).toEqual(['on_the_way', 'arrived']);
    expect((await t.call('PUT', '/api/booking-settings', { token: op.token, body: { motoristTextsOff: ['marketing'] } })).status).toBe(400);

    const first = await quote();
    await book(first);
    const accepted = await t.call('POST', `/api/bookings/${first}/accept`, { token: op.token, body: { etaMinutes: 25 } });
    const driverToken = new URL(accepted.json.driverUrl).pathname.split('/').at(-1);
    for (const status of steps) await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status } });

    const second = await quote();
    const booked = (
      await t.call('POST', '/api/bookings', {
        body: { quoteId: second, bookingKey: 'journey-second-booking-form', name: 'Jane Motorist', phone: '07700 900124', registration: 'AB12 CDE' },
      })
    ).json;
    await t.call('POST', `/api/jobs/${booked.jobToken}/cancel`);
    await worker.tick();
    await worker.tick();
    const firstTexts = fake.received.filter((m) => m.to === '+447700900123').map((m) => m.body);
    expect(firstTexts.some((b) => b.includes('on the way') || b.includes('arrived'))).toBe(false);
    expect(firstTexts.some((b) => b.includes('is completed'))).toBe(true);
    const cancelled = fake.received.filter((m) => m.to === '+447700900124').map((m) => m.body);
    expect(cancelled.at(-1)).toMatch(new RegExp(`: booking TQ-${second} is cancelled, as you asked\\. To book again, call us on 07700 900321\\.$`));
  });
});

describe('the balance', () => {
  const PDFTOTEXT = '/usr/bin/pdftotext';
  const pdfText = (bytes: Uint8Array) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'balance-')), 'doc.pdf');
    writeFileSync(file, bytes);
    const run = spawnSync(PDFTOTEXT, ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`pdftotext failed: ${run.stderr}`);
    return run.stdout.replace(/[ \t]+/g, ' ');
  };
  async function completedWithDeposit(balanceMethod?: string) {
    const s = await setup();
    await s.takePayments({ rule: 'deposit', depositType: 'percent', depositPercent: 20 });
    const { reference, token } = await s.paidBooking();
    const accepted = await s.t.call('POST', `/api/bookings/${reference}/accept`, { token: s.op.token, body: { etaMinutes: 20 } });
    const driverToken = new URL(accepted.json.driverUrl).pathname.split('/').at(-1) as string;
    let last: Awaited<ReturnType<typeof s.t.call>> | undefined;
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) {
      last = await s.t.call('POST', `/api/driver/${driverToken}/status`, {
        body: status === 'completed' && balanceMethod ? { status, balanceMethod } : { status },
      });
      expect(last.status).toBe(200);
    }
    const receipt = async () => {
      const res = await s.t.app.request(`${TEST_ORIGIN}/api/jobs/${token}/receipt`);
      expect(res.status).toBe(200);
      return pdfText(new Uint8Array(await res.arrayBuffer()));
    };
    return { ...s, reference, token, driverToken, completed: last!, receipt };
  }

  it('records the balance with completion, and the receipt issued then says it was paid, with the method', async () => {
    const { t, completed, token, receipt } = await completedWithDeposit('card');
    expect(completed.json).toMatchObject({ status: 'completed', balance: 0, balanceRecorded: 'card' });
    expect((await t.call('GET', `/api/jobs/${token}`)).json).toMatchObject({ balance: 0, balanceRecorded: 'card' });
    const text = await receipt();
    // The label wraps in its column, clear of the amount.
    expect(text).toMatch(/Paid: deposit by card,[^\n]*£187\.20\n[^\n]*by card\n/);
    expect(text).not.toContain('Balance due');
  });

  it('says "Balance due" when not yet paid; a later record issues an updated receipt, the first left as it was; the open status page hears of it', async () => {
    const { t, op, reference, token, driverToken, completed, receipt } = await completedWithDeposit();
    expect(completed.json).toMatchObject({ status: 'completed', balance: 149.76, balanceRecorded: null });
    expect(await receipt()).toContain('Balance due £149.76');
    const stream = events(await t.app.request(`${TEST_ORIGIN}/api/jobs/${token}/events`));
    expect((await stream.next()).data).toMatchObject({ status: 'completed', balance: 149.76 });

    // Refused: an unknown method (400), changing nothing.
    const bad = await t.call('POST', `/api/driver/${driverToken}/balance`, { body: { method: 'cheque' } });
    expect(bad.status).toBe(400);
    expect(bad.json.fields.method).toBe('How the balance was paid must be one of card, cash, bank_transfer, on_account');

    const onAccount = await t.call('POST', `/api/bookings/${reference}/balance`, { token: op.token, body: { method: 'on_account' } });
    expect(onAccount.json).toMatchObject({ balance: 149.76, balanceRecorded: 'on_account' });
    // On account, nothing more is expected soon: the page has its last state, and its stream ends.
    expect((await stream.next()).data).toMatchObject({ balanceRecorded: 'on_account' });
    expect(await stream.rest()).toBe('');
    expect(t.bookings.live.size).toBe(0);
    expect(await receipt()).toContain('Balance due on account £149.76');
    const paid = await t.call('POST', `/api/driver/${driverToken}/balance`, { body: { method: 'cash' } });
    expect(paid.json).toMatchObject({ balance: 0, balanceRecorded: 'cash' });
    expect((await t.call('GET', `/api/jobs/${token}`)).json).toMatchObject({ balance: 0, balanceRecorded: 'cash' });
    expect(await receipt()).toMatch(/Paid: deposit by card,[^\n]*£187\.20\n[^\n]*in cash\n/);

    const listed = (await t.call('GET', `/api/jobs/${token}/documents`)).json as { number: string }[];
    expect(listed.map((d) => d.number)).toEqual(['000001', '000002', '000003', 'job-report']);
    // Recorded as paid: again with the same method answers as it is; another method is refused.
    expect((await t.call('POST', `/api/driver/${driverToken}/balance`, { body: { method: 'cash' } })).status).toBe(200);
    const twice = await t.call('POST', `/api/driver/${driverToken}/balance`, { body: { method: 'card' } });
    expect(twice).toMatchObject({ status: 409, json: { code: 'BALANCE_RECORDED' } });
    expect((await t.call('GET', `/api/jobs/${token}/documents`)).json).toHaveLength(4);
    // Each record is in the audit log with who made it and the method before and after; the refused ones are not.
    const logged = (await t.call('GET', '/api/audit', { token: op.token })).json.events as Array<Record<string, unknown>>;
    expect(logged.filter((e) => e.kind === 'balance-recorded').map((e) => [e.subject, e.personName, e.before, e.after])).toEqual([
      [reference, 'Driver (by link)', { balance: 'on_account' }, { balance: 'cash' }],
      [reference, op.user.name, { balance: null }, { balance: 'on_account' }],
    ]);
  });

  it('refuses a balance before completion, with a step other than completed, and when nothing is left to pay', async () => {
    const { t, op, quote, book } = await setup();
    const reference = await quote();
    await book(reference);
    const accepted = await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 20 } });
    const driverToken = new URL(accepted.json.driverUrl).pathname.split('/').at(-1);
    expect(await t.call('POST', `/api/driver/${driverToken}/balance`, { body: { method: 'cash' } })).toMatchObject({
      status: 409,
      json: { code: 'BOOKING_OUT_OF_ORDER', message: 'The balance is recorded once the job is completed.' },
    });
    const early = await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status: 'on_the_way', balanceMethod: 'cash' } });
    expect(early.status).toBe(400);
    expect(early.json.fields.balanceMethod).toBe('How the balance was paid is recorded only with Completed');
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status } });
    // No payment at booking: the whole price was the balance; recorded, the receipt says so.
    const recorded = await t.call('POST', `/api/bookings/${reference}/balance`, { token: op.token, body: { method: 'bank_transfer' } });
    expect(recorded.json).toMatchObject({ balance: 0, balanceRecorded: 'bank_transfer' });
    expect(await t.call('POST', `/api/bookings/${reference}/balance`, { token: op.token, body: { method: 'card' } })).toMatchObject({
      status: 409,
      json: { code: 'BALANCE_RECORDED' },
    });

    const other = await setup();
    await other.takePayments({ rule: 'full' });
    const full = await other.paidBooking();
    const acceptedFull = await other.t.call('POST', `/api/bookings/${full.reference}/accept`, { token: other.op.token, body: { etaMinutes: 20 } });
    const fullDriver = new URL(acceptedFull.json.driverUrl).pathname.split('/').at(-1);
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) await other.t.call('POST', `/api/driver/${fullDriver}/status`, { body: { status } });
    expect(await other.t.call('POST', `/api/driver/${fullDriver}/balance`, { body: { method: 'cash' } })).toMatchObject({
      status: 409,
      json: { code: 'NOTHING_DUE', message: 'Nothing is left to pay on this job.' },
    });
  });
});

describe('the balance by card through a pay link', () => {
  const PDFTOTEXT = '/usr/bin/pdftotext';
  const pdfText = (bytes: Uint8Array) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'pay-link-')), 'doc.pdf');
    writeFileSync(file, bytes);
    const run = spawnSync(PDFTOTEXT, ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`pdftotext failed: ${run.stderr}`);
    return run.stdout.replace(/[ \t]+/g, ' ');
  };
  /** A page outside the API (the pay link's, local mode's card page), as a browser on our own origin asks for it. */
  const pageOf =
    (t: { app: { request: (url: string, init: RequestInit) => Response | Promise<Response> } }) =>
    async (path: string, method: 'GET' | 'POST' = 'GET') => {
      const res = await t.app.request(`${TEST_ORIGIN}${path}`, {
        method,
        headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN } : {},
        body: method === 'POST' ? '' : undefined,
        redirect: 'manual',
      });
      return { status: res.status, location: res.headers.get('location'), text: await res.text() };
    };
  /** A £187.20 job with a 20 % deposit paid at booking, completed with the balance left to pay. */
  async function completedUnpaid() {
    const s = await setup();
    await s.takePayments({ rule: 'deposit', depositType: 'percent', depositPercent: 20 });
    const { reference, token } = await s.paidBooking();
    const accepted = await s.t.call('POST', `/api/bookings/${reference}/accept`, { token: s.op.token, body: { etaMinutes: 20 } });
    const driverToken = new URL(accepted.json.driverUrl).pathname.split('/').at(-1) as string;
    for (const status of ['on_the_way', 'arrived', 'loaded']) {
      expect((await s.t.call('POST', `/api/driver/${driverToken}/status`, { body: { status } })).status).toBe(200);
      // The pay link is for a completed job only.
      expect((await s.t.call('POST', `/api/driver/${driverToken}/pay-link`)).json.code).toBe('BOOKING_OUT_OF_ORDER');
    }
    const completed = await s.t.call('POST', `/api/driver/${driverToken}/status`, { body: { status: 'completed' } });
    expect(completed.json).toMatchObject({ status: 'completed', balance: 149.76, payByLink: true, payLink: null });
    // A completed job carries no old ETA, on the driver's page or the motorist's.
    expect(completed.json.eta).toBeNull();
    expect((await s.t.call('GET', `/api/jobs/${token}`)).json.eta).toBeNull();
    const page = pageOf(s.t);
    const receipt = async () => {
      const res = await s.t.app.request(`${TEST_ORIGIN}/api/jobs/${token}/receipt`);
      expect(res.status).toBe(200);
      return pdfText(new Uint8Array(await res.arrayBuffer()));
    };
    return { ...s, reference, token, driverToken, page, receipt };
  }

  it('makes the link once (stored hashed), texts it to the motorist once, and a card payment on it records the balance as card with a new receipt saying Paid', async () => {
    const { t, op, fake, worker, reference, token, driverToken, page, receipt } = await completedUnpaid();
    const made = await t.call('POST', `/api/driver/${driverToken}/pay-link`);
    expect(made.status).toBe(200);
    const link = made.json.payLink as string;
    expect(link).toMatch(new RegExp(`^${t.config.publicUrl}/balance/[A-Za-z0-9_-]{32}$`));
    const payToken = link.split('/').at(-1) as string;
    // The same link again, and the operator sees it too; the token itself is stored nowhere, only its hash.
    expect((await t.call('POST', `/api/driver/${driverToken}/pay-link`)).json.payLink).toBe(link);
    expect((await t.call('POST', `/api/bookings/${reference}/pay-link`, { token: op.token })).json).toMatchObject({ payLink: link, payByLink: true });
    const stored =
      JSON.stringify(t.deps.db.$client.prepare('select * from bookings').all()) + JSON.stringify(t.deps.db.$client.prepare('select * from mail_outbox').all());
    expect(stored).not.toContain(payToken);
    expect(stored).toContain(createHash('sha256').update(payToken).digest('base64url'));

    // One text to the motorist with the link, one GSM-7 segment; asked again, no second text.
    await worker.tick();
    await worker.tick();
    const texts = fake.received.filter((m) => m.to === '+447700900123' && m.body.includes('/balance/')).map((m) => m.body);
    const company = t.deps.db.$client.prepare('select name from companies where id = ?').pluck().get(op.companyId) as string;
    expect(texts).toEqual([`${company}: pay the balance of £149.76 for TQ-${reference} by card here: ${link}`]);
    expect(gsm7Length(texts[0]!)).toBeLessThanOrEqual(160);

    // The unpaid receipt says "Balance due" with the pay link.
    const unpaid = await receipt();
    expect(unpaid).toContain('Balance due £149.76');
    expect(unpaid).toContain('Pay the balance by card:');
    expect(unpaid.replace(/\s+/g, '')).toContain(link);

    // The link's page: what is left to pay, and a button that opens a checkout on the operator's account.
    const open = await page(`/balance/${payToken}`);
    expect(open.status).toBe(200);
    expect(open.text).toContain('Pay £149.76 by card');
    expect(open.text).toContain(`Balance for recovery TQ-${reference}`);
    const toCheckout = await page(`/balance/${payToken}`, 'POST');
    expect(toCheckout.status).toBe(303);
    expect(toCheckout.location).toMatch(/\/pay\/cs_local_/);
    // The same checkout while it is open.
    expect((await page(`/balance/${payToken}`, 'POST')).location).toBe(toCheckout.location);
    const card = await page(new URL(toCheckout.location as string).pathname);
    expect(card.text).toContain('Pay £149.76');
    const paid = await page(new URL(toCheckout.location as string).pathname, 'POST');
    expect(paid).toMatchObject({ status: 303, location: link });
    expect((await page(`/balance/${payToken}`)).text).toContain('Paid. Thank you.');

    expect((await t.call('GET', `/api/jobs/${token}`)).json).toMatchObject({ balance: 0, balanceRecorded: 'card' });
    expect((await t.call('GET', `/api/driver/${driverToken}`)).json).toMatchObject({ balance: 0, balanceRecorded: 'card', payByLink: false, payLink: null });
    const after = await receipt();
    expect(after).toMatch(/Paid: deposit by card,[^\n]*£187\.20\n[^\n]*by card\n/);
    expect(after).not.toContain('Balance due');
    expect(after).not.toContain('Pay the balance by card');
    // Two editions of the receipt (the first, and the one saying Paid), and the job report.
    const listed = ((await t.call('GET', `/api/jobs/${token}/documents`)).json as { kind: string }[]).map((d) => d.kind);
    expect(listed.filter((kind) => kind !== 'job_report')).toHaveLength(2);
    expect(listed).toContain('job_report');
    const logged = (await t.call('GET', '/api/audit', { token: op.token })).json.events as Array<Record<string, unknown>>;
    expect(logged.filter((e) => e.kind === 'balance-recorded').map((e) => [e.personName, e.after])).toEqual([['Pay link', { balance: 'card' }]]);
    // Paid: no more link, and a second payment cannot be opened.
    expect((await t.call('POST', `/api/driver/${driverToken}/pay-link`)).json.code).toBe('BALANCE_RECORDED');
    expect((await page(`/balance/${payToken}`, 'POST')).status).toBe(303);
    expect(t.deps.db.$client.prepare('select count(*) from balance_checkouts').pluck().get()).toBe(1);
  });

  /**
   * A job paid by deposit, accepted and given to a driver of the company, who has moved it to
   * Loaded on My jobs; with another driver of the company and another company's operator.
   */
  async function loadedOnMyJobs() {
    const setUp = await setup();
    const { t, op } = setUp;
    await setUp.takePayments({ rule: 'deposit', depositType: 'percent', depositPercent: 20 });
    const { reference } = await setUp.paidBooking();
    expect((await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 20 } })).status).toBe(200);
    const driver = await t.teammate(op, 'driver');
    const otherDriver = await t.teammate(op, 'driver');
    const stranger = await t.operator();
    const assigned = await t.call('POST', `/api/bookings/${reference}/assign`, { token: op.token, body: { driverId: driver.id, truckId: null } });
    expect(assigned.status).toBe(200);
    for (const status of ['on_the_way', 'arrived', 'loaded'] as const) {
      expect((await t.call('POST', `/api/my-jobs/${reference}/status`, { token: driver.token, body: { status } })).status).toBe(200);
    }
    return { ...setUp, reference, driver, otherDriver, stranger };
  }

  it('takes the balance by card from the signed-in driver’s My jobs: their own job only (404 for anyone else’s), the same link, one text', async () => {
    const { t, op, fake, worker, reference, driver, otherDriver, stranger } = await loadedOnMyJobs();
    const mine = `/api/my-jobs/${reference}/pay-link` as const;
    expect(await t.call('POST', mine, { token: driver.token })).toMatchObject({ status: 409, json: { code: 'BOOKING_OUT_OF_ORDER' } });
    expect((await t.call('POST', `/api/my-jobs/${reference}/status`, { token: driver.token, body: { status: 'completed' } })).json).toMatchObject({
      payByLink: true,
      payLink: null,
    });

    // Another driver of the company, and another company's people, find no such job; nothing is made or texted.
    for (const who of [otherDriver, stranger]) {
      expect(await t.call('POST', mine, { token: who.token })).toMatchObject({ status: 404, json: { code: 'NOT_FOUND' } });
    }
    expect((await t.call('POST', `/api/bookings/${reference}/pay-link`, { token: stranger.token })).status).toBe(404);
    expect(t.deps.db.$client.prepare('select pay_salt from bookings').pluck().get()).toBeNull();

    const made = await t.call('POST', mine, { token: driver.token });
    expect(made.status).toBe(200);
    const link = made.json.payLink as string;
    expect(link).toMatch(new RegExp(`^${t.config.publicUrl}/balance/[A-Za-z0-9_-]{32}$`));
    expect((await t.call('POST', mine, { token: driver.token })).json.payLink).toBe(link);
    expect((await t.call('GET', `/api/my-jobs/${reference}`, { token: driver.token })).json.payLink).toBe(link);
    expect((await t.call('POST', `/api/bookings/${reference}/pay-link`, { token: op.token })).json.payLink).toBe(link);
    await worker.tick();
    await worker.tick();
    expect(fake.received.filter((m) => m.to === '+447700900123' && m.body.includes('/balance/')).map((m) => m.body)).toEqual([
      expect.stringContaining(`by card here: ${link}`),
    ]);
  });

  it('records the balance from the signed-in driver’s My jobs: their own completed job only, in their name in the audit log', async () => {
    const { t, op, reference, driver, otherDriver, stranger } = await loadedOnMyJobs();
    const mine = `/api/my-jobs/${reference}/balance` as const;
    expect(await t.call('POST', mine, { token: driver.token, body: { method: 'cash' } })).toMatchObject({
      status: 409,
      json: { code: 'BOOKING_OUT_OF_ORDER' },
    });
    expect((await t.call('POST', `/api/my-jobs/${reference}/status`, { token: driver.token, body: { status: 'completed' } })).json).toMatchObject({
      balance: 149.76,
      balanceRecorded: null,
    });

    // A method it does not know (400), another driver of the company and another company's people (404): nothing recorded.
    const bad = await t.call('POST', mine, { token: driver.token, body: { method: 'cheque' } });
    expect(bad.status).toBe(400);
    expect(bad.json.fields.method).toBe('How the balance was paid must be one of card, cash, bank_transfer, on_account');
    for (const who of [otherDriver, stranger]) {
      expect(await t.call('POST', mine, { token: who.token, body: { method: 'cash' } })).toMatchObject({ status: 404, json: { code: 'NOT_FOUND' } });
    }
    expect(t.deps.db.$client.prepare('select balance_method from bookings').pluck().get()).toBeNull();

    const paid = await t.call('POST', mine, { token: driver.token, body: { method: 'bank_transfer' } });
    expect(paid).toMatchObject({ status: 200, json: { balance: 0, balanceRecorded: 'bank_transfer' } });
    expect((await t.call('GET', `/api/my-jobs/${reference}`, { token: driver.token })).json).toMatchObject({ balance: 0, balanceRecorded: 'bank_transfer' });
    expect(await t.call('POST', mine, { token: driver.token, body: { method: 'cash' } })).toMatchObject({ status: 409, json: { code: 'BALANCE_RECORDED' } });
    const logged = (await t.call('GET', '/api/audit', { token: op.token })).json.events as Array<Record<string, unknown>>;
    expect(logged.filter((e) => e.kind === 'balance-recorded').map((e) => [e.subject, e.personName, e.after])).toEqual([
      [reference, driver.user.name, { balance: 'bank_transfer' }],
    ]);
  });

  it('refuses a link without a ready payment account, and answers an unknown or cross-site pay link with a page, never a checkout', async () => {
    const { t, op, quote, book } = await setup();
    const page = pageOf(t);
    // No payment account: the balance is the whole price, but no link can be made.
    const reference = await quote();
    await book(reference);
    const accepted = await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 20 } });
    const driverToken = new URL(accepted.json.driverUrl).pathname.split('/').at(-1);
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed'])
      expect((await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status } })).status).toBe(200);
    expect((await t.call('GET', `/api/driver/${driverToken}`)).json).toMatchObject({ payByLink: false, payLink: null });
    expect(await t.call('POST', `/api/driver/${driverToken}/pay-link`)).toMatchObject({ status: 409, json: { code: 'PAY_LINK_UNAVAILABLE' } });
    expect(await t.call('POST', `/api/bookings/${reference}/pay-link`, { token: op.token })).toMatchObject({
      status: 409,
      json: { code: 'PAY_LINK_UNAVAILABLE' },
    });
    const unknown = await page('/balance/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('This pay link does not exist.');
    expect((await page('/balance/not-a-token', 'POST')).status).toBe(404);
    // The button's form is sent from its own page only: from another site, nothing is opened.
    const crossSite = await t.app.request(`${TEST_ORIGIN}/balance/Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://elsewhere.example' },
      body: '',
    });
    expect(crossSite.status).toBe(403);
  });
});

describe('the driver on the motorist’s map', () => {
  async function onTheWay(env: Record<string, string>) {
    const s = await setup(env);
    const reference = await s.quote();
    const booked = await s.book(reference);
    const accepted = await s.t.call('POST', `/api/bookings/${reference}/accept`, { token: s.op.token, body: { etaMinutes: 25 } });
    const driverToken = new URL(accepted.json.driverUrl).pathname.split('/').at(-1);
    return { ...s, jobToken: booked.json.jobToken as string, driverToken };
  }

  it('gives the status page the driver’s shared position and the tiles to draw it on, only while on the way, and lets the page load those tiles', async () => {
    const tiles = 'http://127.0.0.1:4999/tiles/{z}/{x}/{y}.png';
    const { t, jobToken, driverToken } = await onTheWay({ MAP_TILES_URL: tiles, MAP_ATTRIBUTION: '© Test Tiles' });
    expect((await t.call('GET', `/api/jobs/${jobToken}`)).json).toMatchObject({ driverPosition: null, map: null });
    await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status: 'on_the_way' } });
    expect((await t.call('GET', `/api/jobs/${jobToken}`)).json).toMatchObject({ driverPosition: null, map: null });
    await t.call('POST', `/api/driver/${driverToken}/position`, { body: { lat: 53.5, lng: -2.3 } });
    expect((await t.call('GET', `/api/jobs/${jobToken}`)).json).toMatchObject({
      driverPosition: { lat: 53.5, lng: -2.3 },
      map: { tilesUrl: tiles, attribution: '© Test Tiles' },
    });
    await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status: 'arrived' } });
    expect((await t.call('GET', `/api/jobs/${jobToken}`)).json).toMatchObject({ driverPosition: null, map: null });
    const page = await t.raw('GET', `/job/${jobToken}`);
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self' data: blob: http://127.0.0.1:4999;");
  });

  it('without MAP_TILES_URL sends the position but no map, and the pages load images from nowhere else', async () => {
    const { t, jobToken, driverToken } = await onTheWay({});
    await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status: 'on_the_way' } });
    await t.call('POST', `/api/driver/${driverToken}/position`, { body: { lat: 53.5, lng: -2.3 } });
    expect((await t.call('GET', `/api/jobs/${jobToken}`)).json).toMatchObject({ driverPosition: { lat: 53.5, lng: -2.3 }, map: null });
    expect((await t.raw('GET', `/job/${jobToken}`)).headers.get('content-security-policy')).toContain("img-src 'self' data: blob:;");
  });
});

describe('the review request', () => {
  it('texts the operator’s review link once, an hour after completion, with a one-tap opt-out that stops the next job’s', async () => {
    const { t, op, fake, worker, clock, quote, book } = await setup();
    const badUrl = await t.call('PUT', '/api/booking-settings', { token: op.token, body: { reviewMode: 'sms', reviewUrl: 'http://g.page/r/x' } });
    expect(badUrl).toMatchObject({ status: 400, json: { fields: { reviewUrl: 'Enter your review page’s address, starting with https://' } } });
    // A message's link placeholder in the operator's address would put the motorist's own status link in it.
    const placeholder = await t.call('PUT', '/api/booking-settings', {
      token: op.token,
      body: { reviewMode: 'sms', reviewUrl: 'https://g.page/r/x?from={{job-link}}' },
    });
    expect(placeholder).toMatchObject({ status: 400, json: { fields: { reviewUrl: 'Enter your review page’s address, starting with https://' } } });
    const set = await t.call('PUT', '/api/booking-settings', { token: op.token, body: { reviewMode: 'sms', reviewUrl: 'https://g.page/r/abc123/review' } });
    expect(set.json).toMatchObject({ reviewMode: 'sms', reviewUrl: 'https://g.page/r/abc123/review' });
    const reviews = runnerFor(reviewRequestJob(t.bookings.service), { db: t.deps.db, logger: silent, now: () => clock.now, busy: () => false });

    const complete = async () => {
      const reference = await quote();
      const booked = await book(reference);
      const accepted = await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 25 } });
      const driverToken = new URL(accepted.json.driverUrl).pathname.split('/').at(-1);
      for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status } });
      return booked.json.jobUrl as string;
    };
    const reviewTexts = () => fake.received.filter((m) => m.body.includes('Please review us'));
    const jobUrl = await complete();
    await reviews.tick();
    await worker.tick();
    expect(reviewTexts()).toEqual([]);
    expect((await t.call('GET', '/api/quotes/numbers', { token: op.token })).json.reviewRequests).toBe(0);
    clock.now = new Date(clock.now.getTime() + 60 * 60_000);
    await reviews.tick();
    await reviews.tick();
    await worker.tick();
    expect(reviewTexts()).toHaveLength(1);
    const company = t.deps.db.$client.prepare('select name from companies where id = ?').pluck().get(op.companyId) as string;
    expect(reviewTexts()[0].body).toBe(`${company}: thank you! Please review us: https://g.page/r/abc123/review Stop these: ${jobUrl}?reviews=off`);
    expect(gsm7Length(reviewTexts()[0].body) ?? 999).toBeLessThanOrEqual(160);

    // One tap on the status page: this number gets no more from this company.
    const token = new URL(jobUrl).pathname.split('/').at(-1);
    expect((await t.call('POST', `/api/jobs/${token}/review-opt-out`)).status).toBe(200);
    await complete();
    clock.now = new Date(clock.now.getTime() + 2 * 60 * 60_000);
    await reviews.tick();
    await worker.tick();
    expect(reviewTexts()).toHaveLength(1);
    // The numbers card counts the one sent; the opted-out number's job is not.
    expect((await t.call('GET', '/api/quotes/numbers', { token: op.token })).json.reviewRequests).toBe(1);
    await reviews.stop();
  });

  it('sends none for a company whose name is not checked yet (on a trial), and the numbers card counts none', async () => {
    const { t, op, fake, worker, clock, quote, book } = await setup({}, 'trialing');
    await t.call('PUT', '/api/booking-settings', { token: op.token, body: { reviewMode: 'sms', reviewUrl: 'https://g.page/r/abc123/review' } });
    const reviews = runnerFor(reviewRequestJob(t.bookings.service), { db: t.deps.db, logger: silent, now: () => clock.now, busy: () => false });
    const reference = await quote();
    await book(reference);
    const accepted = await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 25 } });
    const driverToken = new URL(accepted.json.driverUrl).pathname.split('/').at(-1);
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status } });
    clock.now = new Date(clock.now.getTime() + 60 * 60_000);
    await reviews.tick();
    await worker.tick();
    expect(fake.received.filter((m) => m.body.includes('review'))).toEqual([]);
    expect((await t.call('GET', '/api/quotes/numbers', { token: op.token })).json.reviewRequests).toBe(0);
    await reviews.stop();
  });

  it('by email: one email to the address given at booking, none without one, never twice, and the one tap stops them', async () => {
    const { t, op, sink, fake, worker, clock, quote, outbox } = await setup();
    const set = await t.call('PUT', '/api/booking-settings', { token: op.token, body: { reviewMode: 'email', reviewUrl: 'https://g.page/r/abc123/review' } });
    expect(set.json).toMatchObject({ reviewMode: 'email', reviewUrl: 'https://g.page/r/abc123/review' });
    const reviews = runnerFor(reviewRequestJob(t.bookings.service), { db: t.deps.db, logger: silent, now: () => clock.now, busy: () => false });
    let keys = 0;
    const complete = async (contact: { phone: string; email?: string }) => {
      const reference = await quote();
      const booked = await t.call('POST', '/api/bookings', {
        body: { quoteId: reference, bookingKey: `review-email-booking-form-${(keys += 1)}`, name: 'Jane Motorist', registration: 'AB12 CDE', ...contact },
      });
      expect(booked.status).toBe(201);
      const accepted = await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 25 } });
      const driverToken = new URL(accepted.json.driverUrl).pathname.split('/').at(-1);
      for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status } });
      return booked.json.jobUrl as string;
    };
    const reviewMails = () => sink.received.filter((m) => m.subject.endsWith('thank you! Please review us'));
    const jobUrl = await complete({ phone: '07700 900123', email: '  Jane.Motorist@Example.COM ' });
    await complete({ phone: '07700 900124' });
    await reviews.tick();
    await worker.tick();
    expect(reviewMails()).toEqual([]);
    clock.now = new Date(clock.now.getTime() + 60 * 60_000);
    await reviews.tick();
    await reviews.tick();
    await worker.tick();
    await worker.tick();
    // One email, to the address as given (in lower case); no text, and none for the job without an address.
    expect(reviewMails().map((m) => m.to)).toEqual([['jane.motorist@example.com']]);
    expect(fake.received.filter((m) => m.body.includes('Please review us'))).toEqual([]);
    const company = t.deps.db.$client.prepare('select name from companies where id = ?').pluck().get(op.companyId) as string;
    const [mail] = reviewMails();
    expect(mail.subject).toBe(`${company}: thank you! Please review us`);
    expect(mail.text).toContain('please review us: https://g.page/r/abc123/review');
    expect(mail.text).toContain(`To get no more of these emails from ${company}: ${jobUrl}?reviews=off`);
    expect(mail.html).toContain(`href="${jobUrl}?reviews=off"`);
    // The stored message holds the link's placeholder, never the job's token.
    const token = new URL(jobUrl).pathname.split('/').at(-1) as string;
    const stored = outbox().find((r) => r.to === 'jane.motorist@example.com');
    expect(stored).toMatchObject({ channel: 'email', status: 'sent' });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored?.text).toContain('{{job-link}}?reviews=off');
    expect((await t.call('GET', '/api/quotes/numbers', { token: op.token })).json.reviewRequests).toBe(1);

    // Never twice: later runs write nothing more.
    clock.now = new Date(clock.now.getTime() + 60 * 60_000);
    await reviews.tick();
    await worker.tick();
    expect(reviewMails()).toHaveLength(1);

    // The one tap stops this address (and number): a later job with the same address, from another phone, is not asked.
    expect((await t.call('POST', `/api/jobs/${token}/review-opt-out`)).status).toBe(200);
    await complete({ phone: '07700 900125', email: 'jane.motorist@example.com' });
    clock.now = new Date(clock.now.getTime() + 2 * 60 * 60_000);
    await reviews.tick();
    await worker.tick();
    expect(reviewMails()).toHaveLength(1);

    // A number that tapped the opt-out (on a job booked without an address) is not emailed at a new address either.
    const noAddress = await complete({ phone: '07700 900126' });
    expect((await t.call('POST', `/api/jobs/${new URL(noAddress).pathname.split('/').at(-1)}/review-opt-out`)).status).toBe(200);
    await complete({ phone: '07700 900126', email: 'someone.new@example.com' });
    clock.now = new Date(clock.now.getTime() + 2 * 60 * 60_000);
    await reviews.tick();
    await worker.tick();
    expect(reviewMails()).toHaveLength(1);
    expect((await t.call('GET', '/api/quotes/numbers', { token: op.token })).json.reviewRequests).toBe(1);
    await reviews.stop();
  });

  it('takes an optional email with a booking: blank is none, a bad or over-long address is 400 under the field and nothing is stored', async () => {
    const { t, quote } = await setup();
    const booking = async (email: unknown, key: string) =>
      t.call('POST', '/api/bookings', {
        body: { quoteId: await quote(), bookingKey: `email-check-form-${key}`, name: 'Jane Motorist', phone: '07700 900123', registration: 'AB12 CDE', email },
      });
    const emails = () => t.deps.db.$client.prepare('select customer_email from bookings order by id').pluck().all();
    for (const [bad, key] of [
      ['jane@', 'a1'],
      ['jane@example.com\r\nBcc: x@evil.example', 'a2'],
      [`${'j'.repeat(250)}@example.com`, 'a3'],
      [42, 'a4'],
    ] as const) {
      const res = await booking(bad, `${key}-0000000000000000000`);
      expect(res.status).toBe(400);
      expect(res.json.fields).toEqual({ email: BOOKING_EMAIL_INVALID });
    }
    expect(emails()).toEqual([]);
    expect((await booking('', 'b1-0000000000000000000')).status).toBe(201);
    expect((await booking('Jane@Example.com', 'b2-0000000000000000000')).status).toBe(201);
    expect(emails()).toEqual([null, 'jane@example.com']);
  });
});
