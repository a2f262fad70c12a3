// Accounts an operator can trust (docs/product.md, Accounts): verification, forgot and reset
// password, change password, the address rule and the password rule, through the real app, the
// mail worker on a fake clock and a real SMTP server in process; links are read out of the mails.
import { afterEach, describe, expect, it } from 'vitest';
import { PASSWORD_ONLY_SPACES, PASSWORD_TOO_COMMON } from '#shared/account-schemas';
import { mailOutboxJobs, QUOTE_ALERT_GRACE_MS } from '../mail/worker';

import { accountTokens, mailOutbox, users } from '../platform/db/schema';
import { createTestApp, quoteBody, runnerFor } from '../test/harness';
import { startSmtpSink } from '../test/smtp-sink';
import { RESET_REQUESTED } from './recovery';
import { eq } from 'drizzle-orm';
import { updateUser } from './store';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const HOUR = 3_600_000;
const PASSWORD = 'tow-truck-lemon-42';

async function setup(options: { smtp?: boolean } = {}) {
  const clock = { now: new Date('2026-06-10T12:00:00Z') };
  const sink = options.smtp === false ? undefined : await startSmtpSink();
  if (sink) cleanup.push(() => sink.close());
  const lines: Array<Record<string, unknown>> = [];
  const logger = { info: (r: Record<string, unknown>) => lines.push(r), warn: () => {}, error: () => {} };
  const t = createTestApp({ now: () => clock.now, logger, env: sink ? { SMTP_URL: sink.url } : {} });
  const worker = runnerFor(mailOutboxJobs({ db: t.deps.db, config: t.config, logger, now: () => clock.now }), {
    db: t.deps.db,
    logger,
    now: () => clock.now,
    busy: () => false,
  });
  cleanup.push(() => worker.stop());
  let n = 0;
  /** A sign-up as the portal makes it (address not verified). */
  async function signup(email = `owner${++n}-${Math.random().toString(36).slice(2, 7)}@tow.example`, password = PASSWORD) {
    const res = await t.call('POST', '/api/signup', { body: { name: 'Sam Owner', companyName: 'Sam Recovery', email, password } });
    // In a trial, so the company's page is live and takes quotes.
    if (res.status === 201)
      updateUser(t.deps.db, res.json.id, { subscriptionStatus: 'trialing', trialEndsAt: new Date(clock.now.getTime() + 72 * HOUR).toISOString() });
    return { res, email, password, token: res.json?.authToken as string, userId: res.json?.id as number, companyId: res.json?.companyId as number };
  }
  /** The link in the newest mail to `to` whose path starts with `path`, and its token. */
  function linkIn(to: string, path: '/verify-email/' | '/reset-password/') {
    const mail = [...(sink?.received ?? [])].reverse().find((m) => m.to.includes(to) && m.text.includes(path));
    const match = mail?.text.match(new RegExp(`http://localhost:3999${path}([A-Za-z0-9_-]+)`));
    if (!match) throw new Error(`no ${path} link mailed to ${to}`);
    expect(mail?.html).toContain(match[0]);
    return match[1];
  }
  const mailsTo = (to: string) => (sink?.received ?? []).filter((m) => m.to.includes(to));
  const outbox = () => t.deps.db.select().from(mailOutbox).all();
  return { t, sink, clock, worker, signup, linkIn, mailsTo, outbox, lines };
}

describe('email verification', () => {
  it('mails a one-time link after sign-up, stored only as its hash; the link verifies the account once', async () => {
    const { t, worker, signup, linkIn } = await setup();
    const op = await signup();
    expect(op.res.status).toBe(201);
    expect(op.res.json.emailVerified).toBe(false);
    await worker.tick();
    const token = linkIn(op.email, '/verify-email/');
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    // Neither the token table nor the outbox holds the token itself.
    const dump = JSON.stringify([t.deps.db.select().from(accountTokens).all(), t.deps.db.select().from(mailOutbox).all()]);
    expect(dump).not.toContain(token);

    const first = await t.call('POST', '/api/verify-email', { body: { token } });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ success: true, email: op.email, accountVerified: true });
    expect((await t.call('GET', '/api/auth/user', { token: op.token })).json.emailVerified).toBe(true);

    const again = await t.call('POST', '/api/verify-email', { body: { token } });
    expect(again.status).toBe(400);
    expect(again.json.code).toBe('LINK_USED');
  });

  it('refuses a link after 24 hours, and an unknown or malformed one', async () => {
    const { t, clock, worker, signup, linkIn } = await setup();
    const op = await signup();
    await worker.tick();
    const token = linkIn(op.email, '/verify-email/');
    clock.now = new Date(clock.now.getTime() + 24 * HOUR + 1000);
    const late = await t.call('POST', '/api/verify-email', { body: { token } });
    expect([late.status, late.json.code]).toEqual([400, 'LINK_EXPIRED']);
    for (const bad of ['x'.repeat(43), 'not a token', `${token}x`]) {
      const res = await t.call('POST', '/api/verify-email', { body: { token: bad } });
      expect([res.status, res.json.code]).toEqual([400, 'LINK_INVALID']);
    }
    expect(t.deps.db.select().from(users).where(eq(users.id, op.userId)).get()?.emailVerifiedAt).toBeNull();
  });

  it('holds every alert "waiting for a verified address" until the account is verified, then sends them', async () => {
    const { t, clock, worker, signup, linkIn, mailsTo, outbox } = await setup();
    const op = await signup();
    await t.call('PUT', '/api/company', { token: op.token, body: { email: 'office@tow.example', phone: '0161 496 0000' } });
    const quote = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
    expect(quote.status).toBe(200);
    // The quote's alert is written once its grace for a booking is over.
    clock.now = new Date(clock.now.getTime() + QUOTE_ALERT_GRACE_MS);
    await worker.tick();
    const held = outbox().filter((r) => r.kind === 'quote');
    expect(held.map((r) => [r.to, r.status])).toEqual([['office@tow.example', 'unverified']]);
    expect(mailsTo('office@tow.example')).toHaveLength(0);
    const listed = await t.call('GET', '/api/alerts', { token: op.token });
    expect(listed.json.map((a: { status: string }) => a.status)).toEqual(['unverified']);

    // The account verified: the company email is still not proved, so the alert still waits.
    await t.call('POST', '/api/verify-email', { body: { token: linkIn(op.email, '/verify-email/') } });
    await worker.tick();
    expect(mailsTo('office@tow.example')).toHaveLength(0);
    const settings = await t.call('GET', '/api/lead-settings', { token: op.token });
    expect([settings.json.accountVerified, settings.json.alertRecipientVerified]).toEqual([true, false]);

    // "Send a verification link" to the recipient; once it is opened, the held alert goes.
    expect((await t.call('POST', '/api/lead-settings/verification', { token: op.token })).json).toEqual({ success: true, email: 'office@tow.example' });
    await worker.tick();
    const verified = await t.call('POST', '/api/verify-email', { body: { token: linkIn('office@tow.example', '/verify-email/') } });
    expect(verified.json).toEqual({ success: true, email: 'office@tow.example', accountVerified: true });
    await worker.tick();
    expect(mailsTo('office@tow.example').filter((m) => m.subject.startsWith('New quote'))).toHaveLength(1);
  });

  it('verifies a changed alert address before mail goes to it', async () => {
    const { t, clock, worker, signup, linkIn, mailsTo, outbox } = await setup();
    const op = await signup();
    await worker.tick();
    await t.call('POST', '/api/verify-email', { body: { token: linkIn(op.email, '/verify-email/') } });
    const saved = await t.call('PUT', '/api/lead-settings', { token: op.token, body: { alertEmail: 'leads@tow.example' } });
    expect(saved.json.alertRecipientVerified).toBe(false);
    await t.call('PUT', '/api/company', { token: op.token, body: { phone: '0161 496 0000' } });
    await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
    clock.now = new Date(clock.now.getTime() + QUOTE_ALERT_GRACE_MS);
    await worker.tick();
    expect(outbox().find((r) => r.kind === 'quote')?.status).toBe('unverified');
    expect(mailsTo('leads@tow.example').map((m) => m.subject)).toEqual(['Confirm leads@tow.example for quote alerts']);
    await t.call('POST', '/api/verify-email', { body: { token: linkIn('leads@tow.example', '/verify-email/') } });
    await worker.tick();
    expect(mailsTo('leads@tow.example').map((m) => m.subject.split(' ')[0])).toEqual(['Confirm', 'New']);
  });

  it('resends on request, at most once a minute, and not once verified', async () => {
    const { t, clock, worker, signup, linkIn, mailsTo } = await setup();
    const op = await signup();
    await worker.tick();
    const sent = await t.call('POST', '/api/email-verification', { token: op.token });
    expect(sent.json).toEqual({ success: true, email: op.email });
    const soon = await t.call('POST', '/api/email-verification', { token: op.token });
    expect(soon.status).toBe(429);
    await worker.tick();
    expect(mailsTo(op.email)).toHaveLength(2);
    clock.now = new Date(clock.now.getTime() + 61_000);
    await t.call('POST', '/api/verify-email', { body: { token: linkIn(op.email, '/verify-email/') } });
    const done = await t.call('POST', '/api/email-verification', { token: op.token });
    expect([done.status, done.json.code]).toEqual([409, 'ALREADY_VERIFIED']);
  });

  it('logs the link once at info level without SMTP_URL, and it works', async () => {
    const { t, signup, lines, outbox } = await setup({ smtp: false });
    const op = await signup();
    const logged = lines.filter((l) => typeof l.unsentLink === 'string');
    expect(logged).toHaveLength(1);
    const token = String(logged[0].unsentLink).split('/verify-email/')[1];
    expect(outbox().find((r) => r.kind === 'verify-email')?.status).toBe('unsent');
    expect((await t.call('POST', '/api/verify-email', { body: { token } })).json.email).toBe(op.email);
  });
});

describe('forgot and reset password', () => {
  it('answers the same status and body whether or not the address has an account, and mails only an account', async () => {
    const { t, worker, signup, mailsTo } = await setup();
    const op = await signup();
    const known = await t.call('POST', '/api/forgot-password', { body: { email: op.email.toUpperCase() } });
    const unknown = await t.call('POST', '/api/forgot-password', { body: { email: 'nobody@tow.example' } });
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(known.text).toBe(unknown.text);
    expect(known.json).toEqual({ message: RESET_REQUESTED });
    await new Promise((resolve) => setImmediate(resolve));
    await worker.tick();
    expect(mailsTo(op.email).filter((m) => m.text.includes('/reset-password/'))).toHaveLength(1);
    expect(mailsTo('nobody@tow.example')).toHaveLength(0);
  });

  it('sets the new password once with the link, ends every other session and signs this one in', async () => {
    const { t, clock, worker, signup, linkIn } = await setup();
    const op = await signup();
    await t.call('POST', '/api/forgot-password', { body: { email: op.email } });
    await new Promise((resolve) => setImmediate(resolve));
    await worker.tick();
    const token = linkIn(op.email, '/reset-password/');

    const common = await t.call('POST', '/api/reset-password', { body: { token, password: 'password1' } });
    expect([common.status, common.json.fields?.password]).toEqual([400, PASSWORD_TOO_COMMON]);

    const reset = await t.call('POST', '/api/reset-password', { body: { token, password: 'new-harbour-crane-7' } });
    expect(reset.status).toBe(200);
    expect(reset.json.email).toBe(op.email);
    // The reset proved the address too.
    expect(reset.json.emailVerified).toBe(true);
    expect((await t.call('GET', '/api/auth/user', { token: op.token })).status).toBe(401);
    expect((await t.call('GET', '/api/auth/user', { token: reset.json.authToken })).status).toBe(200);
    expect((await t.call('POST', '/api/login', { body: { email: op.email, password: op.password } })).status).toBe(401);
    expect((await t.call('POST', '/api/login', { body: { email: op.email, password: 'new-harbour-crane-7' } })).status).toBe(200);

    const again = await t.call('POST', '/api/reset-password', { body: { token, password: 'another-one-99' } });
    expect([again.status, again.json.code]).toEqual([400, 'LINK_USED']);

    // A new link lasts an hour.
    clock.now = new Date(clock.now.getTime() + 2 * HOUR);
    await t.call('POST', '/api/forgot-password', { body: { email: op.email } });
    await new Promise((resolve) => setImmediate(resolve));
    await worker.tick();
    const later = linkIn(op.email, '/reset-password/');
    clock.now = new Date(clock.now.getTime() + HOUR + 1000);
    const expired = await t.call('POST', '/api/reset-password', { body: { token: later, password: 'another-one-99' } });
    expect([expired.status, expired.json.code]).toEqual([400, 'LINK_EXPIRED']);
  });

  it('mails an account at most 3 links an hour (silently), and refuses a client address after 10 requests with 429', async () => {
    const { t, worker, signup, mailsTo } = await setup();
    const op = await signup();
    for (let i = 0; i < 5; i++) expect((await t.call('POST', '/api/forgot-password', { body: { email: op.email } })).text).toContain(RESET_REQUESTED);
    await new Promise((resolve) => setImmediate(resolve));
    await worker.tick();
    expect(mailsTo(op.email).filter((m) => m.text.includes('/reset-password/'))).toHaveLength(3);
    for (let i = 0; i < 5; i++) expect((await t.call('POST', '/api/forgot-password', { body: { email: `x${i}@tow.example` } })).status).toBe(200);
    const limited = await t.call('POST', '/api/forgot-password', { body: { email: 'y@tow.example' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });
});

describe('change password', () => {
  it('needs the current password, applies the password rule, ends every other session and keeps this one', async () => {
    const { t, signup } = await setup({ smtp: false });
    const op = await signup();
    const other = await t.call('POST', '/api/login', { body: { email: op.email, password: op.password } });

    const wrong = await t.call('POST', '/api/change-password', { token: op.token, body: { currentPassword: 'nope-nope', newPassword: 'fresh-paint-88' } });
    expect([wrong.status, wrong.json.code, wrong.json.fields]).toEqual([400, 'WRONG_PASSWORD', { currentPassword: 'Current password is incorrect' }]);
    const blank = await t.call('POST', '/api/change-password', { token: op.token, body: { currentPassword: op.password, newPassword: '        ' } });
    expect(blank.json.fields).toEqual({ newPassword: PASSWORD_ONLY_SPACES });
    const common = await t.call('POST', '/api/change-password', { token: op.token, body: { currentPassword: op.password, newPassword: 'iloveyou' } });
    expect(common.json.fields).toEqual({ newPassword: PASSWORD_TOO_COMMON });
    expect((await t.call('GET', '/api/auth/user', { token: other.json.authToken })).status).toBe(200);

    const changed = await t.call('POST', '/api/change-password', { token: op.token, body: { currentPassword: op.password, newPassword: 'fresh-paint-88' } });
    expect(changed.status).toBe(200);
    expect((await t.call('GET', '/api/auth/user', { token: other.json.authToken })).status).toBe(401);
    expect((await t.call('GET', '/api/auth/user', { token: op.token })).status).toBe(401);
    expect((await t.call('GET', '/api/auth/user', { token: changed.json.authToken })).status).toBe(200);
    expect((await t.call('POST', '/api/login', { body: { email: op.email, password: 'fresh-paint-88' } })).status).toBe(200);
  });

  it('refuses a common password at sign-up, under the field', async () => {
    const { signup } = await setup({ smtp: false });
    const res = (await signup(undefined, 'Password')).res;
    expect([res.status, res.json.fields?.password]).toEqual([400, PASSWORD_TOO_COMMON]);
  });
});

describe('the address belongs to whoever verifies it', () => {
  it('an unverified account blocks the address for 7 days, then a new sign-up takes it once verified', async () => {
    const { t, clock, worker, signup, linkIn } = await setup();
    const first = await signup();
    const early = await signup(first.email, 'second-owner-pass');
    expect([early.res.status, early.res.json.code]).toEqual([409, 'EMAIL_TAKEN']);

    clock.now = new Date(clock.now.getTime() + 7 * 24 * HOUR + 1000);
    const second = await signup(first.email.toUpperCase(), 'second-owner-pass');
    expect(second.res.status).toBe(201);
    // Until one of them verifies, each signs in with its own password.
    expect((await t.call('POST', '/api/login', { body: { email: first.email, password: first.password } })).json.id).toBe(first.userId);
    expect((await t.call('POST', '/api/login', { body: { email: first.email, password: 'second-owner-pass' } })).json.id).toBe(second.userId);

    await worker.tick();
    await t.call('POST', '/api/verify-email', { body: { token: linkIn(first.email, '/verify-email/') } });
    expect((await t.call('POST', '/api/login', { body: { email: first.email, password: 'second-owner-pass' } })).json.id).toBe(second.userId);
    expect((await t.call('POST', '/api/login', { body: { email: first.email, password: first.password } })).status).toBe(401);
    expect((await t.call('GET', '/api/auth/user', { token: first.token })).status).toBe(401);
  });

  it('a sign-up with a verified owner’s address answers as before and mails the owner (once an hour)', async () => {
    const { t, worker, signup, linkIn, mailsTo } = await setup();
    const owner = await signup();
    await worker.tick();
    await t.call('POST', '/api/verify-email', { body: { token: linkIn(owner.email, '/verify-email/') } });
    const tries = [await signup(owner.email, 'someone-else-1'), await signup(owner.email, 'someone-else-2')];
    for (const attempt of tries) expect([attempt.res.status, attempt.res.json.code]).toEqual([409, 'EMAIL_TAKEN']);
    await worker.tick();
    const warned = mailsTo(owner.email).filter((m) => m.subject === 'Someone tried to sign up with your address');
    expect(warned).toHaveLength(1);
    expect(warned[0].text).toContain('reset your password');
  });
});
