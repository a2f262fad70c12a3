// The emailed sign-in link (docs/product.md, Accounts) and the sign-in slowing it gets past:
// through the real app, the mail worker on a fake clock and a real SMTP server in process; the
// link is read out of the mail, as the owner would.
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { mailOutbox, users } from '../platform/db/schema';
import { mailOutboxJobs } from '../mail/worker';
import { createTestApp, runnerFor } from '../test/harness';
import { startSmtpSink } from '../test/smtp-sink';
import { LINK_PLACEHOLDER } from './account-mail';
import { SIGN_IN_LINK_SENT, TOO_MANY_SIGN_IN_LINKS } from './recovery';
import { TOO_MANY_SIGN_INS_FOR_ACCOUNT } from './routes';
import { hashToken } from './tokens';
import { accountTokens } from '../platform/db/schema';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const PASSWORD = 'gravel-lantern-kettle-51';
const MINUTE = 60_000;

async function setup() {
  const clock = { now: new Date('2026-06-10T12:00:00Z') };
  const sink = await startSmtpSink();
  cleanup.push(() => sink.close());
  const logger = { info: () => {}, warn: () => {}, error: () => {} };
  const t = createTestApp({ now: () => clock.now, logger, env: { SMTP_URL: sink.url, TRUST_PROXY: '1' } });
  const worker = runnerFor(mailOutboxJobs({ db: t.deps.db, config: t.config, logger, now: () => clock.now }), {
    db: t.deps.db,
    logger,
    now: () => clock.now,
    busy: () => false,
  });
  cleanup.push(() => worker.stop());
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const email = `owner-${Math.random().toString(36).slice(2, 8)}@tow.example`;
  const signup = await t.call('POST', '/api/signup', {
    body: { name: 'Sam Owner', companyName: 'Sam Towing', email, password: PASSWORD },
    headers: from('203.0.113.10'),
  });
  expect(signup.status).toBe(201);
  const login = (password: string, address: string) => t.call('POST', '/api/login', { body: { email, password }, headers: from(address) });
  const askForLink = (address: string, to = email) => t.call('POST', '/api/sign-in-link', { body: { email: to }, headers: from(address) });
  const signInWithLink = (token: string, address: string) => t.call('POST', '/api/sign-in-with-link', { body: { token }, headers: from(address) });
  /** The mails are written after the answer; then the worker sends them. */
  const deliver = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await worker.tick();
  };
  const links = () =>
    sink.received
      .filter((m) => m.to.includes(email))
      .flatMap((m) => [...m.text.matchAll(/http:\/\/localhost:3999\/sign-in\/([A-Za-z0-9_-]+)/g)].map((match) => match[1]));
  const user = () => t.deps.db.select().from(users).where(eq(users.email, email)).get();
  return { t, clock, sink, email, userId: signup.json.id as number, login, askForLink, signInWithLink, deliver, links, user };
}

describe('sign-in slowing', () => {
  it('slows guesses per account and address: one address guessing never slows the owner at another new address', async () => {
    const { login } = await setup();
    for (let i = 0; i < 10; i++) expect((await login(`guess-${i}`, '192.0.2.66')).status).toBe(401);
    expect((await login('guess-x', '192.0.2.66')).status).toBe(429);
    expect((await login(PASSWORD, '198.51.100.77')).status).toBe(200);
  });
});

describe('emailed sign-in link', () => {
  it('signs the owner in during a guessing run from many addresses, once', async () => {
    const { t, clock, login, askForLink, signInWithLink, deliver, links, sink, email } = await setup();
    // More than 100 wrong guesses in the hour, 10 from each of 12 addresses: the account is slowed.
    let slowed: Awaited<ReturnType<typeof login>> | undefined;
    for (let a = 0; a < 12 && !slowed; a++) {
      for (let i = 0; i < 10; i++) {
        const res = await login(`guess-${a}-${i}`, `192.0.2.${a}`);
        if (res.status === 429) {
          slowed = res;
          break;
        }
        expect(res.status).toBe(401);
      }
      if (!slowed) clock.now = new Date(clock.now.getTime() + MINUTE);
    }
    expect(slowed?.json.message).toBe(TOO_MANY_SIGN_INS_FOR_ACCOUNT);
    // The owner, at an address the account does not know, with the right password: slowed too.
    const owner = '198.51.100.200';
    const refused = await login(PASSWORD, owner);
    expect(refused.status).toBe(429);
    expect(refused.json.message).toBe(TOO_MANY_SIGN_INS_FOR_ACCOUNT);

    // "Email me a sign-in link": the same answer as for an address with no account.
    const asked = await askForLink(owner);
    const nobody = await askForLink(owner, 'nobody@tow.example');
    expect([asked.status, nobody.status]).toEqual([200, 200]);
    expect(asked.text).toBe(nobody.text);
    expect(asked.json).toEqual({ message: SIGN_IN_LINK_SENT });
    await deliver();
    expect(sink.received.filter((m) => m.to.includes('nobody@tow.example'))).toHaveLength(0);
    const [token] = links();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The outbox keeps the placeholder, the database only the token's hash.
    const stored = t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'sign-in-link')).all();
    expect(stored).toHaveLength(1);
    expect(stored[0].text).toContain(LINK_PLACEHOLDER);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(
      t.deps.db
        .select()
        .from(accountTokens)
        .where(eq(accountTokens.tokenHash, hashToken(token)))
        .get()?.purpose,
    ).toBe('sign-in');

    const signedIn = await signInWithLink(token, owner);
    expect(signedIn.status).toBe(200);
    expect(signedIn.json.email).toBe(email);
    // Opening the link proved the mailbox.
    expect(signedIn.json.emailVerified).toBe(true);
    expect((await t.call('GET', '/api/auth/user', { token: signedIn.json.authToken })).status).toBe(200);

    // Once only.
    const again = await signInWithLink(token, owner);
    expect([again.status, again.json.code]).toEqual([400, 'LINK_USED']);
    // The address is the owner's now: the password works there while the run goes on.
    expect((await login('guess-more', '192.0.2.250')).status).toBe(429);
    expect((await login(PASSWORD, owner)).status).toBe(200);
  });

  it('refuses an expired link and changes nothing', async () => {
    const { t, clock, askForLink, signInWithLink, deliver, links, user } = await setup();
    expect((await askForLink('198.51.100.5')).status).toBe(200);
    await deliver();
    const [token] = links();
    clock.now = new Date(clock.now.getTime() + 15 * MINUTE + 1000);
    const before = user();
    const expired = await signInWithLink(token, '198.51.100.5');
    expect(expired.status).toBe(400);
    expect(expired.json.code).toBe('LINK_EXPIRED');
    expect(expired.json.authToken).toBeUndefined();
    expect(expired.headers.get('set-cookie')).toBeNull();
    expect(user()).toEqual(before);
    expect(
      t.deps.db
        .select()
        .from(accountTokens)
        .where(eq(accountTokens.tokenHash, hashToken(token)))
        .get()?.usedAt,
    ).toBeNull();
    const unknown = await signInWithLink('x'.repeat(43), '198.51.100.5');
    expect([unknown.status, unknown.json.code]).toEqual([400, 'LINK_INVALID']);
  });

  it('is limited per client address (429) and per account (silently)', async () => {
    const { askForLink, deliver, links } = await setup();
    // 5 mails an hour to one account, whoever asks; the other requests answer the same.
    for (let i = 0; i < 8; i++) {
      const res = await askForLink(`192.0.2.${i}`);
      expect(res.json).toEqual({ message: SIGN_IN_LINK_SENT });
      await deliver();
    }
    expect(links()).toHaveLength(5);
    // 10 requests an hour from one address, whatever the account.
    for (let i = 0; i < 10; i++) expect((await askForLink('198.51.100.9', `someone${i}@tow.example`)).status).toBe(200);
    const refused = await askForLink('198.51.100.9', 'someone-else@tow.example');
    expect(refused.status).toBe(429);
    expect(refused.json.message).toBe(TOO_MANY_SIGN_IN_LINKS);
  });

  it('a used link ends the account’s other sign-in links', async () => {
    const { askForLink, signInWithLink, deliver, links } = await setup();
    await askForLink('198.51.100.5');
    await deliver();
    await askForLink('198.51.100.5');
    await deliver();
    const [first, second] = links();
    expect((await signInWithLink(second, '198.51.100.5')).status).toBe(200);
    expect((await signInWithLink(first, '198.51.100.5')).json.code).toBe('LINK_USED');
  });
});
