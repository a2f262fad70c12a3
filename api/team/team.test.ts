// The team (docs/product.md, "The team"): invitations read out of the mail as the invitee would
// (a real SMTP server in process, the outbox worker on a fake clock), joining, roles and removal
// ending sessions at once, the last owner, the company's subscription for everyone in it.
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { mailOutbox, teamInvitations, users } from '../platform/db/schema';
import { mailOutboxJobs } from '../mail/worker';
import { createTestApp, quoteBody, runnerFor } from '../test/harness';
import { startSmtpSink } from '../test/smtp-sink';
import { LINK_PLACEHOLDER } from '../auth/account-mail';
import { updateUser } from '../auth/store';
import { hashToken } from '../auth/tokens';
import { INVITATIONS_PER_DAY } from '#shared/team';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const PASSWORD = 'gravel-lantern-kettle-51';
const DAY = 86_400_000;

async function setup() {
  const clock = { now: new Date('2026-06-10T12:00:00Z') };
  const sink = await startSmtpSink();
  cleanup.push(() => sink.close());
  const logger = { info: () => {}, warn: () => {}, error: () => {} };
  const t = createTestApp({ now: () => clock.now, logger, env: { SMTP_URL: sink.url } });
  const worker = runnerFor(mailOutboxJobs({ db: t.deps.db, config: t.config, logger, now: () => clock.now }), { db: t.deps.db, logger, now: () => clock.now });
  cleanup.push(() => worker.stop());
  const owner = await t.operator('active');
  const invite = (email: string, role = 'dispatcher', by = owner) => t.call('POST', '/api/team/invitations', { token: by.token, body: { email, role } });
  /** The links mailed to `email` so far, oldest first, as the invitee reads them. */
  const linksTo = async (email: string) => {
    await worker.tick();
    return sink.received
      .filter((m) => m.to.includes(email))
      .flatMap((m) => [...m.text.matchAll(/http:\/\/localhost:3999\/join\/([A-Za-z0-9_-]+)/g)].map((match) => match[1]));
  };
  const accept = (token: string, name = 'Alex Morgan', password = PASSWORD) => t.call('POST', '/api/invitations/accept', { body: { token, name, password } });
  const people = async (by = owner) =>
    (await t.call('GET', '/api/team/people', { token: by.token })).json as Array<{ id: number; role: string; email: string }>;
  return { t, clock, sink, owner, invite, linksTo, accept, people };
}

const address = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@tow.example`;

describe('invitations', () => {
  it('mails a one-time link (kept only hashed, never in the outbox) that signs the invitee in with their own name and password, the address verified', async () => {
    const { t, invite, linksTo, accept, people, owner } = await setup();
    const email = address('dispatcher');
    const res = await invite(email);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ email, role: 'dispatcher' });
    const row = t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).get();
    expect(row?.text).toContain(LINK_PLACEHOLDER);
    const [token] = await linksTo(email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = t.deps.db.select().from(teamInvitations).where(eq(teamInvitations.email, email)).get();
    expect(stored?.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(t.deps.db.select().from(mailOutbox).all())).not.toContain(token);

    const preview = await t.call('POST', '/api/invitations/lookup', { body: { token } });
    expect(preview.status).toBe(200);
    expect(preview.json).toMatchObject({ email, role: 'dispatcher' });

    const joined = await accept(token);
    expect(joined.status).toBe(200);
    expect(joined.json).toMatchObject({ email, name: 'Alex Morgan', role: 'dispatcher', companyId: owner.companyId, emailVerified: true });
    const me = await t.call('GET', '/api/auth/user', { token: joined.json.authToken });
    expect(me.json.role).toBe('dispatcher');
    // Their own password works from now on.
    expect((await t.call('POST', '/api/login', { body: { email, password: PASSWORD } })).status).toBe(200);
    expect((await people()).map((p) => p.email)).toContain(email);
    // The dispatcher may use the office's routes, not the owner's.
    expect((await t.call('GET', '/api/quotes', { token: joined.json.authToken })).status).toBe(200);
    expect((await t.call('GET', '/api/team', { token: joined.json.authToken })).status).toBe(403);
  });

  it('works once: a used link answers 410 and changes nothing', async () => {
    const { invite, linksTo, accept, people } = await setup();
    const email = address('once');
    await invite(email);
    const [token] = await linksTo(email);
    expect((await accept(token)).status).toBe(200);
    const before = await people();
    const again = await accept(token, 'Someone Else');
    expect(again.status).toBe(410);
    expect(again.json.code).toBe('INVITATION_USED');
    expect(await people()).toEqual(before);
  });

  it('expires after 7 days (410), and an unknown or malformed link is 404, nothing changed', async () => {
    const { t, clock, invite, linksTo, accept, people } = await setup();
    const email = address('late');
    await invite(email);
    const [token] = await linksTo(email);
    const before = await people();
    clock.now = new Date(clock.now.getTime() + 7 * DAY + 1);
    const late = await accept(token);
    expect(late.status).toBe(410);
    expect(late.json.code).toBe('INVITATION_EXPIRED');
    expect((await t.call('POST', '/api/invitations/lookup', { body: { token } })).status).toBe(410);
    const unknown = await accept('A'.repeat(43));
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe('NOT_FOUND');
    expect((await accept('not a token')).status).toBe(404);
    expect(await people()).toEqual(before);
  });

  it('a withdrawn invitation, or one replaced by a newer one, stops working (410)', async () => {
    const { t, owner, invite, linksTo, accept } = await setup();
    const email = address('withdrawn');
    const first = await invite(email);
    const [old] = await linksTo(email);
    await invite(email, 'driver');
    expect((await accept(old)).status).toBe(410);
    const [, newer] = await linksTo(email);
    const open = (await t.call('GET', '/api/team/invitations', { token: owner.token })).json;
    expect(open).toHaveLength(1);
    expect((await t.call('DELETE', `/api/team/invitations/${open[0].id}`, { token: owner.token })).status).toBe(200);
    expect((await t.call('DELETE', `/api/team/invitations/${first.json.id}`, { token: owner.token })).status).toBe(404);
    expect((await accept(newer)).status).toBe(410);
  });

  it('refuses an address already in another company (409) or in the team, at invitation and at acceptance', async () => {
    const { t, owner, invite, linksTo, accept, people } = await setup();
    const other = await t.operator();
    const taken = await invite(other.email);
    expect(taken.status).toBe(409);
    expect(taken.json.code).toBe('EMAIL_IN_OTHER_COMPANY');
    expect(taken.json.message).toMatch(/another company/);
    const mine = await invite(owner.email);
    expect(mine.status).toBe(409);
    expect(mine.json.code).toBe('ALREADY_IN_TEAM');

    // The address joins another company between the invitation and its acceptance.
    const email = address('race');
    await invite(email);
    const [token] = await linksTo(email);
    const elsewhere = await t.operator();
    const second = await invite(email, 'driver', elsewhere);
    const [, token2] = await linksTo(email);
    expect((await accept(token2)).status).toBe(200);
    expect(second.status).toBe(201);
    const before = await people();
    const late = await accept(token);
    expect(late.status).toBe(409);
    expect(late.json.code).toBe('EMAIL_IN_OTHER_COMPANY');
    expect(await people()).toEqual(before);
  });

  it('holds the invitee to the account rules (a weak password, a name with contact details: 400) and uses nothing', async () => {
    const { invite, linksTo, accept } = await setup();
    const email = address('weak');
    await invite(email);
    const [token] = await linksTo(email);
    const weak = await accept(token, 'Alex', 'password');
    expect(weak.status).toBe(400);
    expect(weak.json.fields.password).toBeTruthy();
    expect((await accept(token, 'call me on 07700900123')).status).toBe(400);
    expect((await accept(token)).status).toBe(200);
  });

  it('sends at most the daily number of invitations a company may (429 past it)', async () => {
    const { invite } = await setup();
    for (let i = 0; i < INVITATIONS_PER_DAY; i++) expect((await invite(address(`bulk${i}`))).status).toBe(201);
    const over = await invite(address('over'));
    expect(over.status).toBe(429);
  });
});

describe('people and roles', () => {
  it('a role change ends that person’s sessions at once (401), and they sign in again with the new role', async () => {
    const { t, owner } = await setup();
    const person = await t.teammate(owner, 'dispatcher');
    expect((await t.call('GET', '/api/quotes', { token: person.token })).status).toBe(200);
    const res = await t.call('PUT', `/api/team/people/${person.id}`, { token: owner.token, body: { role: 'driver' } });
    expect(res.status).toBe(200);
    expect(res.json.role).toBe('driver');
    expect((await t.call('GET', '/api/auth/user', { token: person.token })).status).toBe(401);
    const again = await t.call('POST', '/api/login', { body: { email: person.email, password: person.password } });
    expect(again.json.role).toBe('driver');
    expect((await t.call('GET', '/api/quotes', { token: again.json.authToken })).status).toBe(403);
  });

  it('removing a person ends their sessions at once (401) and frees their address for another company', async () => {
    const { t, owner, people, invite, linksTo, accept } = await setup();
    const person = await t.teammate(owner, 'driver');
    const res = await t.call('DELETE', `/api/team/people/${person.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect((await t.call('GET', '/api/auth/user', { token: person.token })).status).toBe(401);
    expect((await t.call('POST', '/api/login', { body: { email: person.email, password: person.password } })).status).toBe(401);
    expect((await people()).map((p) => p.id)).not.toContain(person.id);
    const other = await t.operator();
    expect((await invite(person.email, 'driver', other)).status).toBe(201);
    const [token] = await linksTo(person.email);
    expect((await accept(token)).status).toBe(200);
  });

  it('keeps at least one owner (409), and an owner may step down once another owner exists', async () => {
    const { t, owner } = await setup();
    const self = owner.user.id as number;
    const demote = await t.call('PUT', `/api/team/people/${self}`, { token: owner.token, body: { role: 'dispatcher' } });
    expect(demote.status).toBe(409);
    expect(demote.json.code).toBe('LAST_OWNER');
    const remove = await t.call('DELETE', `/api/team/people/${self}`, { token: owner.token });
    expect(remove.status).toBe(409);
    expect((await t.call('GET', '/api/auth/user', { token: owner.token })).json.role).toBe('owner');

    const partner = await t.teammate(owner, 'owner');
    expect((await t.call('PUT', `/api/team/people/${self}`, { token: partner.token, body: { role: 'dispatcher' } })).status).toBe(200);
    // The subscription went with the company: the partner (and everyone) still has access, and the page still quotes.
    const me = await t.call('POST', '/api/login', { body: { email: partner.email, password: partner.password } });
    expect(me.json.subscriptionStatus).toBe('active');
    const former = await t.call('POST', '/api/login', { body: { email: owner.email, password: owner.password } });
    expect(former.json).toMatchObject({ role: 'dispatcher', subscriptionStatus: 'active' });
    const quote = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: owner.companyId } });
    expect(quote.status).toBe(200);
    expect((await t.call('DELETE', `/api/team/people/${partner.id}`, { token: me.json.authToken })).status).toBe(409);
  });

  it('another company’s person is a 404, like a missing one', async () => {
    const { t, owner } = await setup();
    const other = await t.operator();
    const theirs = await t.teammate(other, 'driver');
    expect((await t.call('PUT', `/api/team/people/${theirs.id}`, { token: owner.token, body: { role: 'owner' } })).status).toBe(404);
    expect((await t.call('DELETE', `/api/team/people/${theirs.id}`, { token: owner.token })).status).toBe(404);
    expect((await t.call('PUT', '/api/team/people/abc', { token: owner.token, body: { role: 'owner' } })).status).toBe(404);
    expect((await t.call('GET', '/api/auth/user', { token: theirs.token })).json.role).toBe('driver');
  });

  it('shows each person’s last sign-in', async () => {
    const { t, owner, clock } = await setup();
    const person = await t.teammate(owner, 'dispatcher');
    const list = (await t.call('GET', '/api/team', { token: owner.token })).json;
    expect(list.people.find((p: { id: number }) => p.id === person.id).lastSignInAt).toBe(clock.now.toISOString());
  });
});

describe('the company’s subscription', () => {
  it('a dispatcher or driver follows the owner’s: active company, access; lapsed company, none', async () => {
    const { t, owner } = await setup();
    const person = await t.teammate(owner, 'dispatcher');
    expect((await t.call('GET', '/api/auth/user', { token: person.token })).json.subscriptionStatus).toBe('active');
    updateUser(t.deps.db, owner.user.id, { subscriptionStatus: 'inactive' });
    expect((await t.call('GET', '/api/auth/user', { token: person.token })).json.subscriptionStatus).toBe('inactive');
    // The people's own rows carry no state of their own that could grant access.
    const lapsed = await t.operator('inactive');
    const driver = await t.teammate(lapsed, 'driver');
    t.deps.db.update(users).set({ subscriptionStatus: 'active' }).where(eq(users.id, driver.id)).run();
    expect((await t.call('GET', '/api/auth/user', { token: driver.token })).json.subscriptionStatus).toBe('inactive');
  });
});
