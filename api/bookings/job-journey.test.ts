// The job as the motorist and the driver live it, through the real app: the money said before
// sending and shown live after a decline, the driver's own live page, the texts of each step and
// the operator told of a cancellation. Local payments mode (the built-in card page) and the fake
// SMS provider and SMTP server on loopback.
import { afterEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '../platform/db/schema';
import { mailOutboxJobs } from '../mail/worker';
import { insertQuote } from '../quotes/store';
import { createTestApp, quoteBody, runnerFor, TEST_ORIGIN } from '../test/harness';
import { quote18720 } from '../test/payment-fixtures';
import { startSmsFake, type SmsFake } from '../test/sms-fake';
import { startSmtpSink } from '../test/smtp-sink';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const silent = { info: () => {}, warn: () => {}, error: () => {} };

async function setup(env: Record<string, string> = {}) {
  const clock = { now: new Date('2026-06-10T12:00:00Z') };
  const sink = await startSmtpSink();
  cleanup.push(() => sink.close());
  const fake: SmsFake = await startSmsFake();
  cleanup.push(() => fake.close());
  const now = () => clock.now;
  const t = createTestApp({ now, env: { SMTP_URL: sink.url, ...fake.env(), ...env } });
  const worker = runnerFor(mailOutboxJobs({ db: t.deps.db, config: t.config, logger: silent, now }), { db: t.deps.db, logger: silent, now, busy: () => false });
  cleanup.push(() => worker.stop());
  const op = await t.operator('active');
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
    for (const block of rest.split('\n\n').filter(Boolean)) sent.push(JSON.parse(block.split('\n').find((l) => l.startsWith('data: '))!.slice(6)));
    expect(sent.at(-1)).toMatchObject({ status: 'declined', payment: { status: 'refunded', refunded: 37.44 } });
    expect(t.bookings.live.size).toBe(0);
    // A page opened now is sent the refunded state and ends: nothing more will change.
    const again = await t.app.request(`${TEST_ORIGIN}/api/jobs/${token}/events`);
    expect(await again.text()).toContain('"status":"refunded"');
  });
});
