// No token in any stored message (decision 034): after bookings, their service texts, the driver's
// steps and the account's own mails have all gone through the outbox, no `/job/`, `/driver/`,
// `/verify-email/` or `/reset-password/` token is in any text column of mail_outbox, while the
// messages actually sent (the SMS fake, the SMTP sink) carry links that work.
import { markSmsNumberConfirmed } from './sms-code-store';
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bookings, mailOutbox } from '../platform/db/schema';
import { createTestApp, quoteBody, runnerFor, TEST_ORIGIN } from '../test/harness';
import { insertQuote } from '../quotes/store';
import { quote18720 } from '../test/payment-fixtures';
import { startSmsFake, type SmsFake } from '../test/sms-fake';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink';
import { mailOutboxJobs } from '../mail/worker';
import { JOB_LINK_SHOWN } from './job-link';
import { jobTokenBox } from './tokens';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const silent = { info: () => {}, warn: () => {}, error: () => {} };
/** A token-bearing link of ours: a path that carries a token, then at least 16 token characters. */
const TOKEN_LINK = /\/(job|driver|verify-email|reset-password)\/[A-Za-z0-9_-]{16,}/;

async function setup() {
  const clock = { now: new Date('2026-06-10T12:00:00Z') };
  const sink: SmtpSink = await startSmtpSink();
  cleanup.push(() => sink.close());
  const sms: SmsFake = await startSmsFake();
  cleanup.push(() => sms.close());
  const now = () => clock.now;
  const t = createTestApp({ now, env: { SMTP_URL: sink.url, ...sms.env() } });
  const worker = runnerFor(mailOutboxJobs({ db: t.deps.db, config: t.config, logger: silent, now }), { db: t.deps.db, now });
  cleanup.push(() => worker.stop());
  /** Every text column of every outbox row, as stored. */
  const storedText = () => {
    const columns = (t.deps.db.$client.prepare('pragma table_info(mail_outbox)').all() as { name: string; type: string }[])
      .filter((c) => c.type.toLowerCase() === 'text')
      .map((c) => c.name);
    expect(columns).toEqual(expect.arrayContaining(['subject', 'text', 'html', 'last_error', 'dedupe_key', 'to']));
    return (t.deps.db.$client.prepare(`select ${columns.map((c) => `"${c}"`).join(', ')} from mail_outbox`).all() as Record<string, string | null>[]).flatMap(
      (row) => Object.entries(row).map(([column, value]) => ({ column, value: value ?? '' })),
    );
  };
  return { t, clock, sink, sms, worker, storedText };
}

describe('tokens in stored messages', () => {
  it('none in mail_outbox after bookings, their texts, the driver’s steps and account mails, while the sent messages’ links work', async () => {
    const { t, sink, sms, worker, storedText } = await setup();
    // A paying company, so its texts lead with its name ('… we have your booking'; api/bookings/sender.ts).
    const op = await t.operator('active');
    expect((await t.call('PUT', '/api/booking-settings', { token: op.token, body: { smsNumber: '07700 900456' } })).status).toBe(200);
    // Confirmed as its texted code would (sms-verification.ts): only a confirmed number is texted.
    markSmsNumberConfirmed(t.deps.db, op.companyId, new Date().toISOString());
    // An account's own mails: a second sign-up's verification (not verified) and a password reset.
    const other = await t.operator('trialing', { verified: false });
    expect((await t.call('POST', '/api/forgot-password', { body: { email: op.email } })).status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));

    const jobUrls: string[] = [];
    for (let i = 0; i < 2; i++) {
      const quote = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
      const booked = await t.call('POST', '/api/bookings', {
        body: {
          quoteId: quote.json.quoteId,
          bookingKey: `stored-tokens-form-key-${i}-000000`,
          name: 'Jane Motorist',
          phone: '07700 900123',
          registration: 'AB12CDE',
        },
      });
      expect(booked.status).toBe(201);
      jobUrls.push(booked.json.jobUrl);
      const accepted = await t.call('POST', `/api/bookings/${quote.json.quoteId}/accept`, { token: op.token, body: { etaMinutes: 20, driverName: 'Sam' } });
      expect(accepted.status).toBe(200);
      const driverToken = (accepted.json.driverUrl as string).split('/driver/')[1];
      expect((await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status: 'on_the_way' } })).status).toBe(200);
    }
    await worker.tick();
    await worker.tick();

    // Every message went.
    const statuses = t.deps.db.select({ status: mailOutbox.status, kind: mailOutbox.kind }).from(mailOutbox).all();
    expect(statuses.length).toBeGreaterThanOrEqual(10);
    expect(statuses.filter((r) => r.status !== 'sent')).toEqual([]);

    // Nothing stored carries a token: text, subject, HTML, or any other text column.
    const leaks = storedText().filter(({ value }) => TOKEN_LINK.test(value));
    expect(leaks).toEqual([]);
    // The operator's alert list shows a text's subject: the link's place, not the link.
    const alerts = await t.call('GET', '/api/alerts', { token: op.token });
    const received = alerts.json.filter((a: { subject: string }) => a.subject.includes('we have your booking'));
    expect(received).toHaveLength(2);
    for (const alert of received) expect(alert.subject).toContain(JOB_LINK_SHOWN);
    expect(JSON.stringify(alerts.json)).not.toMatch(TOKEN_LINK);

    // What was sent carries the links, and they work.
    const received0 = sms.received.filter((m) => m.body.includes('we have your booking'));
    expect(received0.map((m) => m.body.match(/http\S+\/job\/[A-Za-z0-9_-]{32}/)?.[0]).sort()).toEqual([...jobUrls].sort());
    for (const url of jobUrls) {
      const token = url.split('/job/')[1];
      expect((await t.call('GET', `/api/jobs/${token}`)).status).toBe(200);
    }
    const verify = sink.received.find((m) => m.to.includes(other.email) && /verify-email\//.test(m.text));
    const verifyToken = verify?.text.match(/\/verify-email\/([A-Za-z0-9_-]+)/)?.[1];
    expect((await t.call('POST', '/api/verify-email', { body: { token: verifyToken } })).status).toBe(200);
    const reset = sink.received.find((m) => m.to.includes(op.email) && /reset-password\//.test(m.text));
    expect(reset?.text).toMatch(/\/reset-password\/[A-Za-z0-9_-]{16,}/);
  });

  it('keeps the job token only encrypted with the booking: a changed byte or another secret opens nothing', async () => {
    const { t } = await setup();
    const op = await t.operator();
    const quote = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
    const booked = await t.call('POST', '/api/bookings', {
      body: {
        quoteId: quote.json.quoteId,
        bookingKey: 'stored-tokens-sealed-key-000001',
        name: 'Jane Motorist',
        phone: '07700 900123',
        registration: 'AB12CDE',
      },
    });
    const [row] = t.deps.db.select({ sealed: bookings.jobTokenSealed }).from(bookings).all();
    expect(row.sealed).toMatch(/^v1\./);
    expect(row.sealed).not.toContain(booked.json.jobToken);
    const box = jobTokenBox(t.config.sessionSecret);
    expect(box.open(row.sealed!)).toBe(booked.json.jobToken);
    expect(jobTokenBox('another-secret-another-secret-0123456789').open(row.sealed!)).toBeUndefined();
    const bytes = Buffer.from(row.sealed!.slice(3), 'base64url');
    bytes[bytes.length - 1] ^= 1;
    expect(box.open(`v1.${bytes.toString('base64url')}`)).toBeUndefined();
    // Two seals of one token differ (a fresh nonce each).
    expect(box.seal(booked.json.jobToken)).not.toBe(box.seal(booked.json.jobToken));
  });

  it('opens a job token sealed before the seal had one construction for every secret at rest', () => {
    // Made by the job token's own AES-256-GCM code, before it became api/platform/sealed-secret.ts.
    const older = 'v1.vxrvgMfh9TW3y6Ar-NkNtuBjF8fVuIICsKsbL1zte8s_UOi7lpGWhV81KETcoFbQ7zwCr_EiCSVs94_H';
    const box = jobTokenBox('a-session-secret-of-at-least-thirty-two-chars');
    expect(box.open(older)).toBe('abcdefghijklmnopqrstuvwxyzABCDEF');
    expect(box.open(box.seal('abcdefghijklmnopqrstuvwxyzABCDEF'))).toBe('abcdefghijklmnopqrstuvwxyzABCDEF');
    // Not a job token, though sealed under the same key: refused.
    expect(box.open(box.seal('short'))).toBeUndefined();
  });

  it('does not send a text whose link cannot be made (its token sealed under another secret), and says why', async () => {
    const { t, sms, worker } = await setup();
    const op = await t.operator();
    const quote = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
    expect(
      (
        await t.call('POST', '/api/bookings', {
          body: {
            quoteId: quote.json.quoteId,
            bookingKey: 'stored-tokens-sealed-key-000002',
            name: 'Jane Motorist',
            phone: '07700 900123',
            registration: 'AB12CDE',
          },
        })
      ).status,
    ).toBe(201);
    t.deps.db
      .update(bookings)
      .set({ jobTokenSealed: jobTokenBox('an-older-secret-an-older-secret-0123').seal('A'.repeat(32)) })
      .run();
    await worker.tick();
    expect(sms.received).toEqual([]);
    const [text] = t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.channel, 'sms')).all();
    expect(text).toMatchObject({ status: 'failed', attempts: 0 });
    expect(text.lastError).toContain('link to the job cannot be made');
  });

  it('a booking paid at booking: the motorist’s text, written as the payment lands, gets its link at send time too', async () => {
    const { t, sms, worker, storedText } = await setup();
    const op = await t.operator();
    const form = async (path: string, cookie?: string, body = '') =>
      t.app.request(`${TEST_ORIGIN}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
        body,
        redirect: 'manual',
      });
    expect((await form('/payments/connect', op.cookie, 'action=connect')).status).toBe(303);
    expect(
      (await t.call('PUT', '/api/payments/rule', { token: op.token, body: { rule: 'deposit', depositType: 'percent', depositPercent: 20 } })).json.active,
    ).toBe(true);
    const reference = await insertQuote(t.deps.db, quote18720(op.companyId));
    const booked = await t.call('POST', '/api/bookings', {
      body: { quoteId: reference, bookingKey: 'stored-tokens-paid-key-000001', name: 'Jane Motorist', phone: '07700 900123', registration: 'AB12CDE' },
    });
    expect(booked.json, booked.text).toHaveProperty('job.status', 'awaiting_payment');
    expect((await form(new URL(booked.json.checkoutUrl).pathname)).status).toBe(303);
    await worker.tick();
    expect(sms.received.find((m) => m.to === '+447700900123')?.body).toContain(booked.json.jobUrl);
    expect(storedText().filter(({ value }) => TOKEN_LINK.test(value))).toEqual([]);
  });
});
