// The verified-seal memory of api/auth/session.ts: a seal is unsealed once, yet logout still
// revokes it at once, and an expired or altered seal is refused as before.
import * as iron from 'iron-session';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../test/harness';

vi.mock('iron-session', async (importOriginal) => {
  const original = await importOriginal<typeof iron>();
  return { ...original, unsealData: vi.fn(original.unsealData) };
});

const THIRTY_ONE_DAYS = 31 * 24 * 60 * 60 * 1000;

describe('signed-in requests', () => {
  const t = createTestApp();
  afterEach(() => vi.useRealTimers());

  it('unseal a session once, not on every request', async () => {
    const op = await t.operator();
    vi.mocked(iron.unsealData).mockClear();
    for (let i = 0; i < 5; i++) expect((await t.call('GET', '/api/auth/user', { token: op.token })).status).toBe(200);
    expect(iron.unsealData).toHaveBeenCalledTimes(1);
  });

  it('still lose a remembered session at logout', async () => {
    const op = await t.operator();
    expect((await t.call('GET', '/api/auth/user', { token: op.token })).status).toBe(200);
    expect((await t.call('POST', '/api/logout', { token: op.token })).status).toBe(200);
    expect((await t.call('GET', '/api/auth/user', { token: op.token })).status).toBe(401);
  });

  it('refuse a remembered session once it has expired', async () => {
    const op = await t.operator();
    expect((await t.call('GET', '/api/auth/user', { token: op.token })).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + THIRTY_ONE_DAYS);
    expect((await t.call('GET', '/api/auth/user', { token: op.token })).status).toBe(401);
  });

  it('refuse an altered seal whose original is remembered', async () => {
    const op = await t.operator();
    expect((await t.call('GET', '/api/auth/user', { token: op.token })).status).toBe(200);
    const fields = op.token.split('*');
    // A later expiry on a remembered seal: the HMAC no longer matches.
    fields[5] = String(Number(fields[5]) + THIRTY_ONE_DAYS);
    expect((await t.call('GET', '/api/auth/user', { token: fields.join('*') })).status).toBe(401);
  });
});

describe('session tokens are taken only in the exact form we seal them', () => {
  const t = createTestApp();

  it.each([
    ['trailing junk after the version', (s: string) => `${s}junk`],
    ['a second version suffix', (s: string) => `${s}~2`],
    ['a longer version number', (s: string) => `${s.slice(0, -1)}20`],
    ['no version suffix', (s: string) => s.slice(0, -2)],
    ['a padded field', (s: string) => s.replace('*', '**')],
    ['far too long', (s: string) => `${s}${'~2'.repeat(2000)}`],
  ])('refuses %s, and neither unseals it nor remembers it', async (_what, spell) => {
    const op = await t.operator();
    expect((await t.call('GET', '/api/auth/user', { token: op.token })).status).toBe(200);
    vi.mocked(iron.unsealData).mockClear();
    for (const via of ['token', 'cookie'] as const) {
      const variant = spell(op.token);
      const auth = via === 'token' ? { token: variant } : { cookie: `rq_session=${variant}` };
      expect((await t.call('GET', '/api/auth/user', auth)).status).toBe(401);
    }
    expect(iron.unsealData).not.toHaveBeenCalled();
  });

  it('keeps one entry per session in its memory, however many spellings are tried', async () => {
    const op = await t.operator();
    const before = t.deps.sessions.remembered();
    for (let i = 0; i < 50; i++) await t.call('GET', '/api/auth/user', { token: `${op.token}${'x'.repeat(i + 1)}` });
    expect((await t.call('GET', '/api/auth/user', { token: op.token })).status).toBe(200);
    expect(t.deps.sessions.remembered() - before).toBeLessThanOrEqual(1);
  });
});
