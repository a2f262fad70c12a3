// The mail outbox end to end: quotes through the real app, the worker driven tick by tick on a
// fake clock, and a real SMTP server in-process receiving (or refusing) the messages.
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../platform/db/client';
import { updateCompany } from '../company/store';
import { updateUser } from '../auth/store';
import { mailOutbox } from '../platform/db/schema';
import type { MailTransport } from './transport';
import { createTestApp, quoteBody, runnerFor } from '../test/harness';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink';
import {
  ALERT_MAILS_PER_HOUR,
  COMPANY_NOT_LIVE,
  GIVE_UP_AFTER_MS,
  mailOutboxJobs,
  NO_MAIL_SERVER,
  PERMANENT_REFUSAL_ATTEMPTS,
  LANES,
  STOP_GRACE_MS,
} from './worker';
import { smtpTransport } from './transport';

const MAIL_FROM = 'Alerts <alerts@recovery.example>';
let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

interface LogLine {
  level: string;
  record: Record<string, unknown>;
}

async function setup(options: { smtp?: boolean; at?: string; busy?: boolean } = {}) {
  const clock = { now: new Date(options.at ?? '2026-06-10T12:00:00Z') };
  const sink = options.smtp === false ? undefined : await startSmtpSink();
  if (sink) cleanup.push(() => sink.close());
  const t = createTestApp({ now: () => clock.now, env: { MAIL_FROM, ...(sink ? { SMTP_URL: sink.url } : {}) } });
  const lines: LogLine[] = [];
  const logger = {
    info: (record: Record<string, unknown>) => lines.push({ level: 'info', record }),
    warn: (record: Record<string, unknown>) => lines.push({ level: 'warn', record }),
    error: (record: Record<string, unknown>) => lines.push({ level: 'error', record }),
  };
  const workerOn = (db = t.deps.db, transport?: MailTransport) => {
    const now = () => clock.now;
    // What follows a quote's grace is tested here; the grace itself with bookings (api/bookings/bookings.test.ts).
    const worker = runnerFor(mailOutboxJobs({ db, config: t.config, logger, now, quoteAlertGraceMs: 0, ...(transport ? { transport } : {}) }), {
      db,
      logger,
      now,
      busy: () => options.busy ?? false,
    });
    cleanup.push(() => worker.stop());
    return worker;
  };
  const worker = workerOn();
  const quote = async (companyId: number) => {
    const res = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId } });
    expect(res.status).toBe(200);
    return res.json as { quoteId: string; totalPrice: number; distance: number };
  };
  const outbox = () => t.deps.db.select().from(mailOutbox).all();
  const setMode = async (op: { token: string }, alertMode: string) =>
    expect((await t.call('PUT', '/api/lead-settings', { token: op.token, body: { alertMode } })).status).toBe(200);
  return { t, sink: sink as SmtpSink, clock, worker, workerOn, quote, outbox, lines, setMode };
}

const advance = (clock: { now: Date }, ms: number) => (clock.now = new Date(clock.now.getTime() + ms));

describe('an email for every quote', () => {
  it('reaches the SMTP server with the reference, route, price and a link to the quote, in a text and an HTML part', async () => {
    const { t, sink, worker, quote, outbox } = await setup();
    const op = await t.operator();
    const q = await quote(op.companyId);
    await worker.tick();

    expect(sink.received).toHaveLength(1);
    const mail = sink.received[0];
    const price = `£${q.totalPrice.toFixed(2)}`;
    expect(mail.to).toEqual([op.email]);
    expect(mail.headers.from).toBe(MAIL_FROM);
    expect(mail.headers['auto-submitted']).toBe('auto-generated');
    expect(mail.subject).toBe(`New quote TQ-${q.quoteId}: ${price}, M1 1AE → M4 4BF`);
    const link = `http://localhost:3999/dashboard?tab=quotes&quote=${q.quoteId}`;
    for (const expected of [`TQ-${q.quoteId}`, `M1 1AE → M4 4BF (${q.distance} miles)`, price, link, 'Now', 'Car', 'Manual', 'Rolling', 'Other', 'Company 1']) {
      expect(mail.text).toContain(expected);
    }
    expect(mail.html).toContain(`href="${link.replace('&', '&amp;')}"`);
    expect(mail.html).toContain(`TQ-${q.quoteId}`);
    expect(mail.html).toContain('M1 1AE → M4 4BF');

    const [row] = outbox();
    expect(row).toMatchObject({ kind: 'quote', status: 'sent', attempts: 0, sentAt: '2026-06-10T12:00:00.000Z', lastError: null, to: op.email });
    expect(row.dedupeKey).toMatch(/^quote:\d+$/);

    // Nothing is sent twice by later ticks.
    await worker.tick();
    await worker.tick();
    expect(sink.received).toHaveLength(1);
  });

  it('escapes every operator string in the HTML part', async () => {
    const { t, sink, worker, quote } = await setup();
    const op = await t.operator();
    const name = `<script>alert("x")</script> & O'Brien`;
    updateCompany(t.deps.db, op.companyId, { name });
    await quote(op.companyId);
    await worker.tick();

    const { html, text } = sink.received[0];
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; O&#39;Brien');
    expect(text).toContain(name);
  });

  it('goes to the alert address when one is set, else the company email, else the account email', async () => {
    const { t, sink, worker, quote } = await setup();
    const op = await t.operator();
    t.verifyAddress(op.companyId, 'office@tow.example');
    await t.call('PUT', '/api/company', { token: op.token, body: { email: 'office@tow.example' } });
    await quote(op.companyId);
    await worker.tick();
    t.verifyAddress(op.companyId, 'leads@tow.example');
    await t.call('PUT', '/api/lead-settings', { token: op.token, body: { alertEmail: 'leads@tow.example' } });
    await quote(op.companyId);
    await worker.tick();
    expect(sink.received.map((m) => m.to[0])).toEqual(['office@tow.example', 'leads@tow.example']);
  });

  it('sends nothing for a company whose alerts are off', async () => {
    const { t, sink, worker, quote, outbox, setMode } = await setup();
    const op = await t.operator();
    await setMode(op, 'none');
    await quote(op.companyId);
    await worker.tick();
    expect(sink.received).toEqual([]);
    expect(outbox()).toEqual([]);
  });

  it.each([
    ['idle', false, LANES.email.perTick.idle],
    ['busy with requests', true, LANES.email.perTick.busy],
  ])(
    'turns a burst into alerts over several transactions, passing over companies without alerts, and sends them a tick’s worth at a time while %s',
    async (_, busy, perTick) => {
      const { t, sink, worker, quote, outbox, setMode, clock } = await setup({ busy });
      const [alerted, quiet] = [await t.operator(), await t.operator()];
      await setMode(quiet, 'none');
      for (let i = 0; i < 30; i++) {
        // Over two clock hours, each within the hourly cap.
        if (i === 15) advance(clock, 60 * 60_000);
        await quote(alerted.companyId);
        await quote(quiet.companyId);
      }
      await worker.tick();
      expect(outbox()).toHaveLength(30);
      expect(outbox().every((r) => r.companyId === alerted.companyId)).toBe(true);
      expect(sink.received).toHaveLength(Math.min(30, perTick));
      while (sink.received.length < 30) await worker.tick();
      expect(outbox().filter((r) => r.status === 'sent')).toHaveLength(30);
    },
  );

  it('does not alert for quotes stored before the worker first ran', async () => {
    const { t, sink, worker, workerOn, quote } = await setup();
    const op = await t.operator();
    await worker.stop();
    // A fresh database's marker starts at its last quote: an older quote is never mailed.
    t.deps.db.delete(mailOutbox).run();
    t.deps.db.$client.prepare("delete from job_state where name = 'mail.lastQuoteId'").run();
    await quote(op.companyId);
    const later = workerOn();
    await later.tick();
    expect(sink.received).toEqual([]);
    await quote(op.companyId);
    await later.tick();
    expect(sink.received).toHaveLength(1);
  });
});

describe('limits on alert mail', () => {
  it(`sends at most ${ALERT_MAILS_PER_HOUR} quote alerts a company an hour, then one "and N more" at the hour's end`, async () => {
    const { t, sink, worker, quote, clock } = await setup({ at: '2026-06-10T12:10:00Z' });
    const op = await t.operator();
    const other = await t.operator();
    const extra = 5;
    for (let i = 0; i < ALERT_MAILS_PER_HOUR + extra; i++) await quote(op.companyId);
    await quote(other.companyId);
    await worker.tick();
    await worker.tick();
    const mine = () => sink.received.filter((m) => m.to.includes(op.email));
    expect(mine()).toHaveLength(ALERT_MAILS_PER_HOUR);
    // Another company's alerts are its own.
    expect(sink.received.filter((m) => m.to.includes(other.email))).toHaveLength(1);

    // The rest are counted in one digest, sent when the hour is over.
    advance(clock, 50 * 60_000);
    await worker.tick();
    expect(mine()).toHaveLength(ALERT_MAILS_PER_HOUR + 1);
    const digest = mine().at(-1)!;
    expect(digest.subject).toBe(`And ${extra} more quotes for Company 1 between 13:00 and 14:00`);
    expect(digest.text).toContain(`…and ${extra} more quotes between 13:00 and 14:00`);
    expect(digest.text).toContain('http://localhost:3999/dashboard?tab=quotes');
    await worker.tick();
    expect(mine()).toHaveLength(ALERT_MAILS_PER_HOUR + 1);
  });

  it('sends no alert for a company that is not live, while account mails still go', async () => {
    const { t, sink, worker, quote, outbox } = await setup();
    const op = await t.operator();
    await quote(op.companyId);
    // The subscription lapses before the worker gets to the alert.
    updateUser(t.deps.db, op.user.id, { subscriptionStatus: 'inactive', trialEndsAt: null, currentPeriodEnd: new Date('2026-06-01T00:00:00Z').toISOString() });
    await worker.tick();
    expect(sink.received.filter((m) => m.to.includes(op.email))).toHaveLength(0);
    expect(outbox().find((r) => r.kind === 'quote')).toMatchObject({ status: 'failed', lastError: COMPANY_NOT_LIVE });

    // A password reset is the account's own mail: it goes whatever the subscription.
    expect((await t.call('POST', '/api/forgot-password', { body: { email: op.email } })).status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    await expect
      .poll(async () => {
        await worker.tick();
        return sink.received.filter((m) => m.to.includes(op.email) && /^Reset your/.test(m.subject)).length;
      })
      .toBe(1);
  });
});

describe('retries', () => {
  it('retries a refusal at DATA with a doubling backoff, then sends once', async () => {
    const { t, sink, clock, worker, quote, outbox } = await setup();
    const op = await t.operator();
    await quote(op.companyId);
    sink.refuseNext(2, 451, 'data');

    await worker.tick();
    expect(outbox()[0]).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: '2026-06-10T12:00:30.000Z' });
    expect(outbox()[0].lastError).toContain('451');
    // Not due yet: nothing is tried.
    advance(clock, 29_000);
    await worker.tick();
    expect(outbox()[0].attempts).toBe(1);

    advance(clock, 1_000);
    await worker.tick();
    expect(outbox()[0]).toMatchObject({ status: 'pending', attempts: 2, nextAttemptAt: '2026-06-10T12:01:30.000Z' });

    advance(clock, 60_000);
    await worker.tick();
    expect(outbox()[0]).toMatchObject({ status: 'sent', attempts: 2, sentAt: '2026-06-10T12:01:30.000Z', lastError: null, nextAttemptAt: null });
    expect(sink.received).toHaveLength(1);
    expect(sink.accepted).toBe(1);
  });

  it('retries a refused recipient (5xx at RCPT TO) too', async () => {
    const { t, sink, clock, worker, quote, outbox } = await setup();
    const op = await t.operator();
    await quote(op.companyId);
    sink.refuseNext(1, 550, 'rcpt');
    await worker.tick();
    expect(outbox()[0]).toMatchObject({ status: 'pending', attempts: 1 });
    expect(outbox()[0].lastError).toContain('550');
    advance(clock, 30_000);
    await worker.tick();
    expect(outbox()[0].status).toBe('sent');
    expect(sink.received).toHaveLength(1);
  });

  it('gives up on a passing refusal (4xx) 24 hours after the alert was written, and marks it failed with the last error', async () => {
    const { t, sink, clock, worker, quote, outbox } = await setup();
    const op = await t.operator();
    await quote(op.companyId);
    const written = clock.now.getTime();
    sink.refuseNext(Number.MAX_SAFE_INTEGER, 451, 'rcpt');

    const tries = [0];
    await worker.tick();
    for (let i = 0; i < 100 && outbox()[0].status === 'pending'; i++) {
      const due = outbox()[0].nextAttemptAt!;
      clock.now = new Date(due);
      tries.push(Date.parse(due) - written);
      await worker.tick();
    }
    const [row] = outbox();
    expect(row.status).toBe('failed');
    expect(row.lastError).toContain('451');
    expect(row.nextAttemptAt).toBeNull();
    // 0, 30 s, 1 min, 2 min … doubling to an hour apart, the last try at 24 h.
    expect(tries.slice(0, 4)).toEqual([0, 30_000, 90_000, 210_000]);
    expect(tries.at(-1)).toBe(GIVE_UP_AFTER_MS);
    expect(Math.max(...tries.slice(1).map((at, i) => at - tries[i]))).toBe(3_600_000);
    expect(row.attempts).toBe(tries.length);

    // Given up: a later tick tries no more.
    advance(clock, 3_600_000);
    await worker.tick();
    expect(outbox()[0].attempts).toBe(row.attempts);
    expect(sink.received).toEqual([]);
  });
});

describe('refusals and failures', () => {
  it('stops asking after a few permanent refusals (5xx) instead of for 24 hours', async () => {
    const { t, sink, clock, worker, quote, outbox } = await setup();
    const op = await t.operator();
    await quote(op.companyId);
    sink.refuseNext(Number.MAX_SAFE_INTEGER, 554, 'rcpt');
    await worker.tick();
    for (let i = 0; i < 10 && outbox()[0].status === 'pending'; i++) {
      clock.now = new Date(outbox()[0].nextAttemptAt!);
      await worker.tick();
    }
    expect(outbox()[0]).toMatchObject({ status: 'failed', attempts: PERMANENT_REFUSAL_ATTEMPTS, nextAttemptAt: null });
    expect(outbox()[0].lastError).toContain('554');
    expect(sink.received).toEqual([]);
  });

  it("logs a delivery failure once per episode, with the server's answer, and once when mail goes again", async () => {
    const { t, sink, clock, worker, quote, lines } = await setup();
    const op = await t.operator();
    await quote(op.companyId);
    await quote(op.companyId);
    sink.refuseNext(2, 451, 'data');
    await worker.tick();
    const failing = lines.filter((l) => l.record.msg === 'Mail delivery failing; retrying');
    expect(failing).toHaveLength(1);
    expect(failing[0]).toMatchObject({ level: 'warn', record: { replyCode: 451, willRetry: true } });
    expect(String(failing[0].record.answer)).toContain('451');
    advance(clock, 30_000);
    await worker.tick();
    expect(lines.filter((l) => l.record.msg === 'Mail delivery works again')).toHaveLength(1);
    expect(sink.received).toHaveLength(2);
  });

  it('a send still stalled at shutdown is cut off within the grace and its message kept to send at once', { timeout: 20_000 }, async () => {
    // A mail server that accepts the connection and never says hello.
    const { createServer } = await import('node:net');
    const held: import('node:net').Socket[] = [];
    const stalled = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => {
      for (const socket of held) socket.destroy();
      return new Promise<void>((resolve) => stalled.close(() => resolve()));
    });
    const port = (stalled.address() as import('node:net').AddressInfo).port;
    const { t, workerOn, quote, outbox, lines } = await setup({ smtp: false });
    const op = await t.operator();
    await quote(op.companyId);
    const worker = workerOn(t.deps.db, smtpTransport(`smtp://127.0.0.1:${port}`));
    const ticking = worker.tick();
    const deadline = Date.now() + 5000;
    while (held.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(held).toHaveLength(1);
    const started = performance.now();
    await worker.stop();
    await ticking;
    expect(performance.now() - started).toBeLessThan(STOP_GRACE_MS + 1500);
    expect(outbox()[0]).toMatchObject({ status: 'pending', attempts: 0 });
    expect(Date.parse(outbox()[0].nextAttemptAt!)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(lines.filter((l) => String(l.record.msg).startsWith('Mail send still going at shutdown'))).toHaveLength(1);
  });
});

describe('across restarts and workers', () => {
  it('a new worker over the same database file sends nothing already sent', async () => {
    const { t, sink, worker, workerOn, quote, outbox } = await setup();
    const op = await t.operator();
    await quote(op.companyId);
    await worker.tick();
    await worker.stop();

    const reopened = openDatabase(t.dbFile);
    cleanup.push(() => void reopened.$client.close());
    const restarted = workerOn(reopened);
    await restarted.tick();
    await restarted.tick();
    expect(sink.received).toHaveLength(1);
    expect(outbox()).toHaveLength(1);
  });

  it('a row claimed by a worker that died mid-send is not taken while leased, then sent once after the lease', async () => {
    const { t, sink, clock, workerOn, worker, quote, outbox } = await setup();
    const op = await t.operator();
    await worker.stop();
    await quote(op.companyId);
    // The first worker's send never returns: the process "dies" with the row claimed.
    let claimed!: () => void;
    const sending = new Promise<void>((resolve) => (claimed = resolve));
    const hung: MailTransport = {
      send: () => {
        claimed();
        return new Promise(() => {});
      },
      close() {},
    };
    const reopened = openDatabase(t.dbFile);
    cleanup.push(() => void reopened.$client.close());
    const dying = runnerFor(
      mailOutboxJobs({
        db: reopened,
        config: t.config,
        logger: { info() {}, warn() {}, error() {} },
        now: () => clock.now,
        transport: hung,
        quoteAlertGraceMs: 0,
      }),
      { db: reopened, now: () => clock.now },
    );
    void dying.tick();
    await sending;
    expect(outbox()[0]).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: '2026-06-10T12:05:00.000Z' });

    const restarted = workerOn();
    await restarted.tick();
    expect(sink.received).toEqual([]);
    advance(clock, 5 * 60_000);
    await restarted.tick();
    await restarted.tick();
    expect(sink.received).toHaveLength(1);
    expect(outbox()[0].status).toBe('sent');
  });

  it('two workers on two connections at once send each quote once', async () => {
    const { t, sink, worker, workerOn, quote, outbox } = await setup();
    const ops = [await t.operator(), await t.operator()];
    for (let i = 0; i < 5; i++) for (const op of ops) await quote(op.companyId);
    const other = openDatabase(t.dbFile);
    cleanup.push(() => void other.$client.close());
    const second = workerOn(other);
    await Promise.all([worker.tick(), second.tick(), worker.tick(), second.tick()]);
    expect(outbox()).toHaveLength(10);
    expect(sink.received).toHaveLength(10);
    expect(new Set(sink.received.map((m) => m.subject)).size).toBe(10);
  });
});

describe('without SMTP_URL', () => {
  it('keeps alerts in the outbox as unsent, shows them so, and logs it once', async () => {
    const { t, worker, quote, outbox, lines } = await setup({ smtp: false });
    const op = await t.operator();
    await quote(op.companyId);
    await worker.tick();
    await quote(op.companyId);
    await worker.tick();

    expect(outbox().map((r) => [r.status, r.nextAttemptAt, r.attempts])).toEqual([
      ['unsent', null, 0],
      ['unsent', null, 0],
    ]);
    expect(lines.filter((l) => l.record.msg === NO_MAIL_SERVER)).toEqual([{ level: 'warn', record: { msg: NO_MAIL_SERVER, alerts: 1 } }]);
    const alerts = await t.call('GET', '/api/alerts', { token: op.token });
    expect(alerts.json.map((a: { status: string }) => a.status)).toEqual(['unsent', 'unsent']);
    const settings = await t.call('GET', '/api/lead-settings', { token: op.token });
    expect(settings.json.mailConfigured).toBe(false);
  });
});

describe('the daily summary at 08:00 UK time', () => {
  /** Quotes at the given instants for a company on the daily summary, then the worker ticked at each of `ticks`. */
  async function summaryOf(quotesAt: string[], ticks: string[]) {
    const s = await setup({ at: quotesAt[0] });
    const op = await s.t.operator();
    await s.setMode(op, 'daily');
    const references: Record<string, string> = {};
    for (const at of quotesAt) {
      s.clock.now = new Date(at);
      references[at] = (await s.quote(op.companyId)).quoteId;
    }
    const sentBy: Record<string, number> = {};
    for (const at of ticks) {
      s.clock.now = new Date(at);
      await s.worker.tick();
      sentBy[at] = s.sink.received.length;
    }
    return { ...s, op, references, sentBy };
  }

  it('in winter (GMT) goes at 08:00 UTC with the day before’s quotes', async () => {
    const { sink, references, sentBy, outbox, op } = await summaryOf(
      ['2026-01-13T23:59:00Z', '2026-01-14T00:00:00Z', '2026-01-14T23:30:00Z', '2026-01-15T00:10:00Z'],
      ['2026-01-15T07:59:59Z', '2026-01-15T08:00:00Z', '2026-01-15T09:00:00Z'],
    );
    expect(sentBy).toEqual({ '2026-01-15T07:59:59Z': 0, '2026-01-15T08:00:00Z': 1, '2026-01-15T09:00:00Z': 1 });
    const [mail] = sink.received;
    expect(mail.to).toEqual([op.email]);
    expect(mail.subject).toBe('Your quotes for Wed, 14 Jan 2026: 2 quotes');
    expect(mail.text).toContain(`TQ-${references['2026-01-14T00:00:00Z']}`);
    expect(mail.text).toContain(`TQ-${references['2026-01-14T23:30:00Z']}`);
    expect(mail.text).not.toContain(references['2026-01-13T23:59:00Z']);
    expect(mail.text).not.toContain(references['2026-01-15T00:10:00Z']);
    expect(mail.text).toContain(`http://localhost:3999/dashboard?tab=quotes&quote=${references['2026-01-14T23:30:00Z']}`);
    expect(mail.html).toContain('23:30');
    expect(outbox()[0].dedupeKey).toBe(`daily:${op.companyId}:2026-01-14`);
  });

  it('in summer (BST) goes at 07:00 UTC, with the UK day’s quotes (an hour ahead of UTC)', async () => {
    const { sink, references, sentBy } = await summaryOf(
      ['2026-07-13T22:59:00Z', '2026-07-13T23:30:00Z', '2026-07-14T22:30:00Z', '2026-07-14T23:10:00Z'],
      ['2026-07-15T06:59:59Z', '2026-07-15T07:00:00Z'],
    );
    expect(sentBy).toEqual({ '2026-07-15T06:59:59Z': 0, '2026-07-15T07:00:00Z': 1 });
    const { text, subject } = sink.received[0];
    expect(subject).toBe('Your quotes for Tue, 14 Jul 2026: 2 quotes');
    expect(text).toContain(references['2026-07-13T23:30:00Z']);
    expect(text).toContain(references['2026-07-14T22:30:00Z']);
    expect(text).not.toContain(references['2026-07-13T22:59:00Z']);
    expect(text).not.toContain(references['2026-07-14T23:10:00Z']);
  });

  it('on the spring change (a 23-hour day) goes at 08:00 BST, and summarises that short day', async () => {
    const { sink, references, sentBy } = await summaryOf(
      ['2026-03-28T23:30:00Z', '2026-03-29T00:30:00Z', '2026-03-29T22:30:00Z', '2026-03-29T23:30:00Z'],
      // 29 March itself: 08:00 is BST already (07:00 UTC); then 30 March's summary of the 29th.
      ['2026-03-29T06:59:00Z', '2026-03-29T07:00:00Z', '2026-03-30T06:59:00Z', '2026-03-30T07:00:00Z'],
    );
    expect(sentBy).toEqual({ '2026-03-29T06:59:00Z': 0, '2026-03-29T07:00:00Z': 1, '2026-03-30T06:59:00Z': 1, '2026-03-30T07:00:00Z': 2 });
    expect(sink.received[0].subject).toBe('Your quotes for Sat, 28 Mar 2026: 1 quote');
    const { text, subject } = sink.received[1];
    expect(subject).toBe('Your quotes for Sun, 29 Mar 2026: 2 quotes');
    expect(text).toContain(references['2026-03-29T00:30:00Z']);
    expect(text).toContain(references['2026-03-29T22:30:00Z']);
    expect(text).not.toContain(references['2026-03-29T23:30:00Z']);
  });

  it('on the autumn change (a 25-hour day) goes at 08:00 GMT, and summarises that long day', async () => {
    const { sink, references, sentBy } = await summaryOf(
      ['2026-10-24T22:30:00Z', '2026-10-24T23:30:00Z', '2026-10-25T00:30:00Z', '2026-10-25T23:30:00Z', '2026-10-26T00:00:00Z'],
      ['2026-10-25T07:59:00Z', '2026-10-25T08:00:00Z', '2026-10-26T07:59:00Z', '2026-10-26T08:00:00Z'],
    );
    expect(sentBy).toEqual({ '2026-10-25T07:59:00Z': 0, '2026-10-25T08:00:00Z': 1, '2026-10-26T07:59:00Z': 1, '2026-10-26T08:00:00Z': 2 });
    expect(sink.received[0].subject).toBe('Your quotes for Sat, 24 Oct 2026: 1 quote');
    const { text, subject } = sink.received[1];
    expect(subject).toBe('Your quotes for Sun, 25 Oct 2026: 3 quotes');
    for (const at of ['2026-10-24T23:30:00Z', '2026-10-25T00:30:00Z', '2026-10-25T23:30:00Z']) expect(text).toContain(references[at]);
    expect(text).not.toContain(references['2026-10-26T00:00:00Z']);
  });

  it('sends nothing for a day without quotes', async () => {
    const { sink, outbox, sentBy } = await summaryOf(['2026-01-12T12:00:00Z'], ['2026-01-15T08:00:00Z', '2026-01-16T08:00:00Z']);
    expect(sentBy).toEqual({ '2026-01-15T08:00:00Z': 0, '2026-01-16T08:00:00Z': 0 });
    expect(sink.received).toEqual([]);
    expect(outbox()).toEqual([]);
  });
});
