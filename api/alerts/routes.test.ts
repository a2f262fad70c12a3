// The alert settings and the alert list (decision 016): what a new operator starts with, where
// alerts go, and bad input refused with a message per field and nothing changed.
import { describe, expect, it } from 'vitest';
import { findCompanyById, updateCompany } from '../company/store';
import { TOO_MANY_ALERT_ADDRESS_MAILS, VERIFICATION_SENDS } from './verification-allowance';
import { DEMO_COMPANY_ID } from '../platform/db/seed';
import { mailOutboxJobs, QUOTE_ALERT_GRACE_MS } from '../mail/worker';
import { createTestApp, quoteBody, runnerFor } from '../test/harness';

describe('lead settings', () => {
  const t = createTestApp();

  it('a new sign-up is alerted for each quote, at the account email, keeping quotes 24 months', async () => {
    const op = await t.operator();
    const res = await t.call('GET', '/api/lead-settings', { token: op.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      alertMode: 'each',
      alertEmail: null,
      alertRecipient: op.email,
      retentionMonths: 24,
      mailConfigured: false,
      accountVerified: true,
      alertRecipientVerified: true,
    });
  });

  it('companies from before alerts keep none', () => {
    expect(findCompanyById(t.deps.db, DEMO_COMPANY_ID)?.alertMode).toBe('none');
  });

  it('saves the given settings; the recipient follows the alert address, else the company email', async () => {
    const op = await t.operator();
    await t.call('PUT', '/api/company', { token: op.token, body: { email: 'office@tow.example' } });
    expect((await t.call('GET', '/api/lead-settings', { token: op.token })).json.alertRecipient).toBe('office@tow.example');

    const saved = await t.call('PUT', '/api/lead-settings', {
      token: op.token,
      body: { alertMode: 'daily', alertEmail: ' leads@tow.example ', retentionMonths: 36 },
    });
    expect(saved.status).toBe(200);
    expect(saved.json).toEqual({
      alertMode: 'daily',
      alertEmail: 'leads@tow.example',
      alertRecipient: 'leads@tow.example',
      retentionMonths: 36,
      mailConfigured: false,
      accountVerified: true,
      alertRecipientVerified: false,
    });

    // Only what is sent changes; a blank address goes back to the company email.
    const cleared = await t.call('PUT', '/api/lead-settings', { token: op.token, body: { alertEmail: '' } });
    expect(cleared.json).toEqual({
      alertMode: 'daily',
      alertEmail: null,
      alertRecipient: 'office@tow.example',
      retentionMonths: 36,
      mailConfigured: false,
      accountVerified: true,
      alertRecipientVerified: false,
    });
    const nothing = await t.call('PUT', '/api/lead-settings', { token: op.token, body: {} });
    expect(nothing.json).toEqual(cleared.json);
  });

  it.each([
    ['an alert mode outside the list', { alertMode: 'hourly' }, 'alertMode', 'Alert mode must be each, daily or none'],
    ['an alert mode of the wrong type', { alertMode: 1 }, 'alertMode', 'Alert mode must be each, daily or none'],
    ['a bad email', { alertEmail: 'not-an-email' }, 'alertEmail', 'Invalid email address'],
    ['an email with a header injected', { alertEmail: 'a@b.example\r\nBcc: c@d.example' }, 'alertEmail', 'Invalid email address'],
    ['retention of 2 months', { retentionMonths: 2 }, 'retentionMonths', 'Retention must be at least 3 months'],
    ['retention of 37 months', { retentionMonths: 37 }, 'retentionMonths', 'Retention cannot exceed 36 months'],
    ['retention of 12.5 months', { retentionMonths: 12.5 }, 'retentionMonths', 'Retention must be a whole number of months'],
    ['retention as text', { retentionMonths: '12' }, 'retentionMonths', 'Retention must be a number of months'],
  ])('refuses %s with 400 and the field’s message, changing nothing', async (_what, body, field, message) => {
    const op = await t.operator();
    const before = await t.call('GET', '/api/lead-settings', { token: op.token });
    // A valid field beside the bad one is not saved either.
    const res = await t.call('PUT', '/api/lead-settings', { token: op.token, body: { alertMode: 'none', ...body } });
    expect(res.status).toBe(400);
    expect(res.json.fields).toEqual({ [field]: message });
    expect((await t.call('GET', '/api/lead-settings', { token: op.token })).json).toEqual(before.json);
  });
});

describe('the alert list', () => {
  it('shows the company’s newest 20 alerts, newest first, and no other company’s', async () => {
    let clock = new Date('2026-06-10T12:00:00Z');
    const t = createTestApp({ now: () => clock, env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    const [op, other] = [await t.operator(), await t.operator()];
    const worker = runnerFor(
      mailOutboxJobs({ db: t.deps.db, config: t.config, logger: t.deps.logger, now: t.deps.now, transport: { send: async () => {}, close() {} } }),
      t.deps,
    );
    // Over two clock hours, each within the hourly cap on alert mails.
    for (let i = 0; i < 22; i++) {
      if (i === 11) clock = new Date('2026-06-10T13:00:00Z');
      await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
    }
    const theirs = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: other.companyId } });
    // Each quote's alert is written once its grace is over (decision 054).
    clock = new Date(clock.getTime() + QUOTE_ALERT_GRACE_MS);
    await worker.tick();
    await worker.stop();

    const res = await t.call('GET', '/api/alerts', { token: op.token });
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(20);
    expect(res.json[0]).toEqual({
      id: expect.any(Number),
      kind: 'quote',
      channel: 'email',
      to: op.email,
      subject: expect.stringMatching(/^New quote TQ-\w+: £[\d.,]+, M1 1AE → M4 4BF$/),
      status: 'sent',
      attempts: 0,
      createdAt: expect.any(String),
      sentAt: expect.any(String),
      lastError: null,
    });
    const ids = res.json.map((a: { id: number }) => a.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(JSON.stringify(res.json)).not.toContain(theirs.json.quoteId);
    expect((await t.call('GET', '/api/lead-settings', { token: op.token })).json.mailConfigured).toBe(true);
  });

  it('is empty for a company without alerts', async () => {
    const t = createTestApp();
    const op = await t.operator();
    expect((await t.call('GET', '/api/alerts', { token: op.token })).json).toEqual([]);
  });
});

describe('verification mails to alert addresses', () => {
  const clock = { now: new Date('2026-06-10T12:00:00Z') };
  const t = createTestApp({ now: () => clock.now });
  const verificationMails = (companyId?: number) =>
    t.deps.db.$client
      .prepare(`select "to" from mail_outbox where kind = 'verify-email' and "to" like '%@victim.example'${companyId ? ' and company_id = ?' : ''} order by id`)
      .pluck()
      .all(...(companyId ? [companyId] : [])) as string[];

  it('an unverified, unpaid sign-up switching its alert address 40 times mails at most 3 links an hour; the rest are refused with 429 and change nothing', async () => {
    const op = await t.operator('trialing', { verified: false });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const before = (await t.call('GET', '/api/lead-settings', { token: op.token })).json.alertEmail;
      const res = await t.call('PUT', '/api/lead-settings', { token: op.token, body: { alertEmail: i % 2 === 0 ? 'a@victim.example' : 'b@victim.example' } });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.json).toMatchObject({ code: 'RATE_LIMITED', message: TOO_MANY_ALERT_ADDRESS_MAILS });
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect((await t.call('GET', '/api/lead-settings', { token: op.token })).json.alertEmail).toBe(before);
      }
    }
    expect(verificationMails(op.companyId)).toHaveLength(VERIFICATION_SENDS.email.perCompanyPerHour);
    // The first 3 switches are saved; every later switch to the other address is refused (one back to the address kept is no change, and mails nothing).
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.filter((s, i) => i >= 3 && i % 2 === 1 && s === 429)).toHaveLength(19);
    // "Send a verification link" again counts against the same allowance.
    expect((await t.call('POST', '/api/lead-settings/verification', { token: op.token })).status).toBe(429);
    expect(verificationMails(op.companyId)).toHaveLength(3);

    // An hour on, the account may send again, up to the same allowance.
    clock.now = new Date(clock.now.getTime() + 3_600_000 + 1000);
    expect((await t.call('PUT', '/api/lead-settings', { token: op.token, body: { alertEmail: 'c@victim.example' } })).status).toBe(200);
    expect(verificationMails(op.companyId)).toHaveLength(4);
  });

  it('one address gets at most 3 links a day, whichever accounts ask', async () => {
    clock.now = new Date('2026-06-12T12:00:00Z');
    const sent: number[] = [];
    for (let i = 0; i < 5; i++) {
      const op = await t.operator();
      sent.push((await t.call('PUT', '/api/lead-settings', { token: op.token, body: { alertEmail: 'target@victim.example' } })).status);
    }
    expect(sent).toEqual([200, 200, 200, 429, 429]);
    expect(verificationMails().filter((to) => to === 'target@victim.example')).toHaveLength(VERIFICATION_SENDS.email.perDestinationPerDay);
    clock.now = new Date(clock.now.getTime() + 24 * 3_600_000 + 1000);
    const later = await t.operator();
    expect((await t.call('PUT', '/api/lead-settings', { token: later.token, body: { alertEmail: 'TARGET@victim.example' } })).status).toBe(200);
  });

  it('the link to an alert address greets nobody by name and names the company only when its name is plain', async () => {
    clock.now = new Date('2026-06-20T12:00:00Z');
    const op = await t.operator();
    updateCompany(t.deps.db, op.companyId, { name: 'Claim your refund at www.refund.example' });
    expect((await t.call('PUT', '/api/lead-settings', { token: op.token, body: { alertEmail: 'lure@victim.example' } })).status).toBe(200);
    const text = t.deps.db.$client.prepare(`select text from mail_outbox where "to" = 'lure@victim.example'`).pluck().get() as string;
    expect(text).toMatch(/^Hello,\n/);
    expect(text).not.toContain('refund');
    expect(text).not.toContain('Operator');
    expect(text).toContain('Please confirm that quote alerts from RecoveryQuote may be sent to lure@victim.example.');
  });
});
