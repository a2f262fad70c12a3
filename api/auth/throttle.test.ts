// Sign-in throttling and the sign-up limit (docs/product.md §18). The password module is
// replaced by a fast, counting stand-in whose verifications wait at a gate the test opens, so
// "how many guesses were checked" is observable and parallel requests really overlap.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../test/harness';
import { TOO_MANY_SIGN_INS, TOO_MANY_SIGN_INS_FOR_ACCOUNT, TOO_MANY_SIGN_UPS } from './routes';

const passwords = vi.hoisted(() => {
  const state = {
    verified: 0,
    gate: Promise.resolve(),
    open: () => {},
    /** Verifications wait until the test calls open(). */
    close() {
      state.gate = new Promise<void>((resolve) => {
        state.open = resolve;
      });
    },
  };
  return state;
});

vi.mock('../auth/password', () => ({
  hashPassword: async (password: string) => `plain:${password}`,
  timingSafeDummy: async () => 'plain:\u0000no-user',
  verifyPassword: async (stored: string, password: string) => {
    passwords.verified += 1;
    await passwords.gate;
    return stored === `plain:${password}`;
  },
}));

const HOUR = 60 * 60_000;

function setup(env: Record<string, string> = {}) {
  const clock = { now: new Date('2026-06-10T12:00:00.000Z') };
  const t = createTestApp({ now: () => clock.now, env: { TRUST_PROXY: '1', ...env } });
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const login = (email: string, password: string, address = '198.51.100.1') =>
    t.call('POST', '/api/login', { body: { email, password }, headers: from(address) });
  const signup = (email: string, address = '198.51.100.1') =>
    t.call('POST', '/api/signup', { body: { name: 'Owner', email, password: 'winch-cable-lorry-9', companyName: 'Owner Recovery' }, headers: from(address) });
  return { t, clock, login, signup };
}

beforeEach(() => {
  passwords.verified = 0;
  passwords.gate = Promise.resolve();
});

describe('sign-in: parallel guesses', () => {
  /** Fires the sign-ins at once; they wait at the gate until every one has either been refused or reached verification. */
  async function inParallel(requests: Array<() => Promise<{ status: number }>>) {
    passwords.close();
    let settled = 0;
    const pending = requests.map((send) =>
      send().then((res) => {
        settled += 1;
        return res.status;
      }),
    );
    await vi.waitFor(() => expect(settled + passwords.verified).toBe(requests.length));
    passwords.open();
    return Promise.all(pending);
  }

  it('verifies at most the limit of 40 parallel wrong passwords', async () => {
    const { signup, login } = setup();
    expect((await signup('parallel@example.com')).status).toBe(201);
    const statuses = await inParallel(Array.from({ length: 40 }, (_, i) => () => login('parallel@example.com', `guess-${i}`)));
    expect(passwords.verified).toBe(10);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });

  it('refuses the right password sent as the 30th of 30 parallel guesses', async () => {
    const { signup, login } = setup();
    await signup('thirtieth@example.com');
    const statuses = await inParallel(
      Array.from({ length: 30 }, (_, i) => () => login('thirtieth@example.com', i === 29 ? 'winch-cable-lorry-9' : `guess-${i}`)),
    );
    expect(statuses[29]).toBe(429);
    expect(statuses).not.toContain(200);
    expect(passwords.verified).toBe(10);
  });
});

describe('sign-in: who gets locked out', () => {
  it('locks guesses from one address out, but not the owner signing in from their own address', async () => {
    const { signup, login } = setup();
    await signup('owner@example.com', '203.0.113.10');
    for (let i = 0; i < 10; i++) expect((await login('owner@example.com', `guess-${i}`, '192.0.2.66')).status).toBe(401);
    const blocked = await login('owner@example.com', 'winch-cable-lorry-9', '192.0.2.66');
    expect(blocked.status).toBe(429);
    expect(blocked.json.message).toBe(TOO_MANY_SIGN_INS);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login('owner@example.com', 'winch-cable-lorry-9', '203.0.113.10')).status).toBe(200);
  });

  it('slows guesses spread over many addresses with a growing delay past 100 instead of locking the account out, never for the owner’s own address', async () => {
    const { signup, login, clock } = setup();
    await signup('spread@example.com');
    expect((await login('spread@example.com', 'winch-cable-lorry-9', '203.0.113.10')).status).toBe(200);
    // 140 wrong guesses from 14 addresses within the hour, each waiting the delay it is told.
    const waits: number[] = [];
    for (let a = 0; a < 14; a++) {
      for (let i = 0; i < 10; i++) {
        let res = await login('spread@example.com', `guess-${i}`, `192.0.2.${a}`);
        if (res.status === 429) {
          expect(res.json.message).toBe(TOO_MANY_SIGN_INS_FOR_ACCOUNT);
          const wait = Number(res.headers.get('retry-after'));
          waits.push(wait);
          clock.now = new Date(clock.now.getTime() + wait * 1000);
          res = await login('spread@example.com', `guess-${i}`, `192.0.2.${a}`);
        }
        expect(res.status).toBe(401);
      }
    }
    // The first 100 guesses are free, then each waits longer, up to a minute: slowed, never locked out for the hour.
    expect(waits.length).toBeGreaterThan(30);
    expect(waits.length).toBeLessThanOrEqual(40);
    expect(waits).toEqual([...waits].sort((x, y) => x - y));
    expect(Math.max(...waits)).toBeLessThanOrEqual(60);
    // The owner's own address is never slowed by the strangers.
    expect((await login('spread@example.com', 'winch-cable-lorry-9', '203.0.113.10')).status).toBe(200);
    // At a new address the owner waits the current delay (a minute at most), not an hour.
    const fresh = await login('spread@example.com', 'winch-cable-lorry-9', '192.0.2.200');
    expect(fresh.status).toBe(429);
    expect(Number(fresh.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    clock.now = new Date(clock.now.getTime() + Number(fresh.headers.get('retry-after')) * 1000);
    expect((await login('spread@example.com', 'winch-cable-lorry-9', '192.0.2.200')).status).toBe(200);
  });

  it('never slows the owner at a new address for a steady guess a minute from anywhere, however long it lasts', async () => {
    const { signup, login, clock } = setup();
    await signup('steady@example.com', '203.0.113.10');
    // Three hours of one wrong guess a minute, from 30 addresses in turn.
    for (let i = 0; i < 180; i++) {
      expect((await login('steady@example.com', `guess-${i}`, `192.0.2.${i % 30}`)).status).toBe(401);
      // The owner, now and then, somewhere the account has never seen.
      if (i % 30 === 29) expect((await login('steady@example.com', 'winch-cable-lorry-9', `198.51.100.${i}`)).status).toBe(200);
      clock.now = new Date(clock.now.getTime() + 60_000);
    }
  });

  it('keeps the addresses an account signed in from in the database (hashed), so a restart still knows them', async () => {
    const { t, signup, login, clock } = setup();
    await signup('known@example.com');
    expect((await login('known@example.com', 'winch-cable-lorry-9', '203.0.113.10')).status).toBe(200);
    const rows = t.deps.db.$client.prepare('select * from known_sign_in_addresses').all() as Array<{ address_hash: string }>;
    // The sign-up's address and the sign-in's.
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toMatch(/203\.0\.113\.10|198\.51\.100\.1/);

    // The server restarts on the same database: its memory of failures and addresses is gone.
    const restarted = createTestApp({ now: () => clock.now, env: { TRUST_PROXY: '1', DATABASE_PATH: t.dbFile } });
    const again = (password: string, address: string) =>
      restarted.call('POST', '/api/login', { body: { email: 'known@example.com', password }, headers: { 'x-forwarded-for': address } });
    for (let i = 0; i < 120; i++) {
      const res = await again(`guess-${i}`, `192.0.2.${i % 12}`);
      if (res.status === 429) break;
      expect(res.status).toBe(401);
    }
    expect((await again('winch-cable-lorry-9', '192.0.2.201')).status).toBe(429);
    expect((await again('winch-cable-lorry-9', '203.0.113.10')).status).toBe(200);
  });

  it('still lets a busy office sign in over and over: successes give their slot back', async () => {
    const { signup, login } = setup();
    await signup('office@example.com');
    for (let i = 0; i < 120; i++) expect((await login('office@example.com', 'winch-cable-lorry-9', `192.0.2.${i % 3}`)).status).toBe(200);
  });
});

describe('sign-up limit per address', () => {
  it('answers 429 with Retry-After after 20 sign-ups an hour from one address, creating nothing', async () => {
    const { t, signup, clock } = setup({ SIGNUP_RATE_LIMIT: '20' });
    for (let i = 0; i < 20; i++) expect((await signup(`many${i}@example.com`, '192.0.2.1')).status).toBe(201);
    const refused = await signup('many20@example.com', '192.0.2.1');
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ message: TOO_MANY_SIGN_UPS, requestId: expect.any(String) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.call('POST', '/api/login', { body: { email: 'many20@example.com', password: 'winch-cable-lorry-9' } })).status).toBe(401);
    // Another address (behind the trusted proxy) is not affected; the first one again after the hour.
    expect((await signup('other@example.com', '192.0.2.2')).status).toBe(201);
    clock.now = new Date(clock.now.getTime() + HOUR);
    expect((await signup('many20@example.com', '192.0.2.1')).status).toBe(201);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    const { signup } = setup({ SIGNUP_RATE_LIMIT: '1', TRUST_PROXY: 'false' });
    expect((await signup('first@example.com', '192.0.2.1')).status).toBe(201);
    expect((await signup('second@example.com', '192.0.2.2')).status).toBe(429);
  });
});
