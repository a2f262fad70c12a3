// The outbox's lanes (decision 034): mail and texts are each sent by a lane of their own, with
// its own claim loop, sends at once and deadline, so a mail server or SMS provider that hangs
// holds up only its own channel; within a lane a booking's own messages go before alerts, and
// alerts before digests and summaries. Real transports against in-process fakes: a mail server
// that accepts the connection and never answers, the SMTP sink, the SMS fake. The clock is the
// test's; no test waits out a provider's hang.
import { markSmsNumberConfirmed } from '../bookings/sms-code-store';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mailOutbox } from '../platform/db/schema';
import { createTestApp, quoteBody, runnerFor } from '../test/harness';
import { startSmsFake, type SmsFake } from '../test/sms-fake';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink';
import { insertOutboxRows, type NewOutboxRow } from './store';
import { LANES, MAIL_OUTBOX_JOB, mailOutboxJobs, OUTBOX_LANE_JOB, type LaneSettings } from './worker';
import type { AlertChannel } from '#shared/leads';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const silent = { info: () => {}, warn: () => {}, error: () => {} };

/** A mail server that accepts every connection and never says a word. */
async function startHangingSmtp() {
  const sockets: Socket[] = [];
  const closed: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.on('close', () => closed.push(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const hanging = {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sockets,
    closed,
    /** Ends the hang: no new connection is taken, and every one held is dropped. */
    close: () => {
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      return closing;
    },
  };
  cleanup.push(() => hanging.close());
  return hanging;
}

async function setup(options: { smtpUrl?: string; lanes?: Partial<Record<AlertChannel, Partial<LaneSettings>>> } = {}) {
  const clock = { now: new Date('2026-06-10T12:00:00Z') };
  const sink: SmtpSink = await startSmtpSink();
  cleanup.push(() => sink.close());
  const sms: SmsFake = await startSmsFake();
  cleanup.push(() => sms.close());
  const now = () => clock.now;
  const t = createTestApp({ now, env: { SMTP_URL: options.smtpUrl ?? sink.url, ...sms.env() } });
  const worker = runnerFor(mailOutboxJobs({ db: t.deps.db, config: t.config, logger: silent, now, lanes: options.lanes }), { db: t.deps.db, now });
  cleanup.push(() => worker.stop());
  const op = await t.operator();
  expect((await t.call('PUT', '/api/booking-settings', { token: op.token, body: { smsNumber: '07700 900456' } })).status).toBe(200);
  // Confirmed as its texted code would (api/bookings/sms-verification.ts): only a confirmed number is texted.
  markSmsNumberConfirmed(t.deps.db, op.companyId, clock.now.toISOString());
  const book = async () => {
    const quote = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
    expect(quote.status).toBe(200);
    const res = await t.call('POST', '/api/bookings', {
      body: {
        quoteId: quote.json.quoteId,
        bookingKey: `lanes-test-form-key-${Math.random().toString(36).slice(2)}`,
        name: 'Jane Motorist',
        phone: '07700 900123',
        registration: 'AB12CDE',
      },
    });
    expect(res.status).toBe(201);
    return res.json as { jobToken: string; jobUrl: string };
  };
  const rows = () => t.deps.db.select().from(mailOutbox).all();
  const lane = (channel: AlertChannel) => worker.tickOf(OUTBOX_LANE_JOB[channel]);
  return { t, clock, sink, sms, worker, op, book, rows, lane };
}

/** Whether `promise` is still unsettled once everything already due has run. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  return (
    (await Promise.race([
      promise.then(
        () => undefined,
        () => undefined,
      ),
      new Promise((resolve) => setImmediate(() => resolve(marker))),
    ])) === marker
  );
}

describe('one lane per channel', () => {
  it('with the mail server hanging, a booking’s texts reach the SMS provider at once, while the mail lane is still stuck on its message', {
    timeout: 20_000,
  }, async () => {
    const hanging = await startHangingSmtp();
    const { sms, book, rows, lane, clock } = await setup({ smtpUrl: hanging.url });
    const booked = await book();
    const bookedAt = clock.now.getTime();

    const mailLane = lane('email');
    await vi.waitFor(() => expect(hanging.sockets).toHaveLength(1), { timeout: 10_000, interval: 10 });
    await lane('sms');

    // Both texts went while the operator's email is still waiting on the mail server.
    expect(sms.received.map((m) => m.to).sort()).toEqual(['+447700900123', '+447700900456']);
    expect(await pending(mailLane)).toBe(true);
    const email = rows().find((r) => r.channel === 'email')!;
    expect(email).toMatchObject({ status: 'pending', attempts: 0, sentAt: null });
    for (const text of rows().filter((r) => r.channel === 'sms')) {
      expect(text.status).toBe('sent');
      expect(Date.parse(text.sentAt!) - bookedAt).toBeLessThanOrEqual(2000);
    }
    // The motorist's text carries the working link to their job.
    expect(sms.received.find((m) => m.to === '+447700900123')?.body).toContain(booked.jobUrl);

    // The hang ends (the server goes away): the lane's send fails and is counted as a try.
    await hanging.close();
    await mailLane;
    expect(rows().find((r) => r.channel === 'email')).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('with the SMS provider hanging, the operator’s booking email goes at once', { timeout: 20_000 }, async () => {
    const { sms, sink, book, rows, lane } = await setup();
    sms.stallNext(10);
    await book();
    const textLane = lane('sms');
    await vi.waitFor(() => expect(sms.held).toBe(2), { timeout: 10_000, interval: 10 });
    await lane('email');
    expect(sink.received).toHaveLength(1);
    expect(sink.received[0].subject).toMatch(/^New booking TQ-/);
    expect(rows().find((r) => r.channel === 'email')?.status).toBe('sent');
    expect(await pending(textLane)).toBe(true);
    sms.release();
    await textLane;
    expect(
      rows()
        .filter((r) => r.channel === 'sms')
        .map((r) => r.status),
    ).toEqual(['sent', 'sent']);
  });

  it('sends a lane’s texts several at once: two stalled requests do not hold up a third', { timeout: 20_000 }, async () => {
    expect(LANES.sms.concurrency).toBeGreaterThanOrEqual(3);
    const { sms, book, lane } = await setup();
    sms.stallNext(2);
    await book();
    await book();
    const textLane = lane('sms');
    await vi.waitFor(() => expect(sms.received.length).toBe(2), { timeout: 10_000, interval: 10 });
    expect(sms.held).toBe(2);
    sms.release();
    await textLane;
    expect(sms.received).toHaveLength(4);
  });

  it('gives a send up at its lane’s deadline: the hanging connection is closed and the message retried later', { timeout: 20_000 }, async () => {
    const hanging = await startHangingSmtp();
    const { book, rows, lane, sink } = await setup({ smtpUrl: hanging.url, lanes: { email: { sendTimeoutMs: 150 } } });
    await book();
    await lane('email');
    const email = rows().find((r) => r.channel === 'email')!;
    expect(email).toMatchObject({ status: 'pending', attempts: 1, lastError: 'no answer from the mail server within 0.15 s' });
    expect(email.nextAttemptAt).toBe('2026-06-10T12:00:30.000Z');
    await vi.waitFor(() => expect(hanging.closed).toHaveLength(hanging.sockets.length), { timeout: 5_000, interval: 10 });
    expect(sink.received).toEqual([]);
  });

  it('gives a text up at its lane’s deadline: the request is aborted, and the provider never sends it', { timeout: 20_000 }, async () => {
    const { sms, book, rows, lane } = await setup({ lanes: { sms: { sendTimeoutMs: 150 } } });
    sms.stallNext(2);
    await book();
    await lane('sms');
    for (const text of rows().filter((r) => r.channel === 'sms')) {
      expect(text).toMatchObject({ status: 'pending', attempts: 1, lastError: 'no answer from the SMS provider within 0.15 s' });
    }
    await vi.waitFor(() => expect(sms.waiting).toBe(0), { timeout: 5_000, interval: 10 });
    sms.release();
    expect(sms.received).toEqual([]);
    expect(sms.abandoned).toBe(2);
  });
});

describe('the claim order within a lane', () => {
  it('sends a booking’s own mail before quote alerts, and those before digests and summaries, whatever was written first', async () => {
    const { t, op, sink, book, lane, clock } = await setup({ lanes: { email: { perTick: { idle: 1, busy: 1 } } } });
    const at = clock.now.toISOString();
    const mail = (kind: NewOutboxRow['kind'], dedupeKey: string, subject: string): NewOutboxRow => ({
      companyId: op.companyId,
      kind,
      dedupeKey,
      to: op.email,
      subject,
      text: subject,
      html: `<p>${subject}</p>`,
      status: 'pending',
      attempts: 0,
      // Written earlier than the booking: due first by time alone.
      nextAttemptAt: new Date(clock.now.getTime() - 60_000).toISOString(),
      createdAt: at,
    });
    insertOutboxRows(t.deps.db, [
      mail('daily', `daily:${op.companyId}:2026-06-09`, 'summary'),
      mail('quote', `quote-digest:${op.companyId}:2026-06-10T11:00:00.000Z`, 'digest'),
      mail('quote', 'quote:999999', 'alert'),
    ]);
    await book();
    for (let i = 0; i < 4; i++) await lane('email');
    expect(sink.received.map((m) => m.subject.replace(/^New booking .*/, 'booking'))).toEqual(['booking', 'alert', 'summary', 'digest']);
  });

  it('claims through the lane’s partial index, one look-up per priority', () => {
    const t = createTestApp();
    const plan = t.deps.db.$client
      .prepare(
        `explain query plan select id from mail_outbox where channel = 'sms' and priority = 0 and next_attempt_at <= '2026' and status = 'pending' order by next_attempt_at limit 1`,
      )
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('mail_outbox_claim');
  });
});

describe('the writer', () => {
  it('is a job of its own beside the lanes', () => {
    const t = createTestApp();
    const names = mailOutboxJobs({ db: t.deps.db, config: t.config, logger: silent, now: () => new Date() }).map((job) => job.name);
    expect(names).toEqual([MAIL_OUTBOX_JOB, OUTBOX_LANE_JOB.email, OUTBOX_LANE_JOB.sms]);
  });
});
