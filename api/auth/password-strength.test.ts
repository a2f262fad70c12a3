// A new password must be hard to guess (docs/product.md, Accounts): zxcvbn-ts scores it with the
// account's own words as guessable, at sign-up, reset and change, and the refusal says why.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PASSWORD_TOO_WEAK } from '#shared/account-schemas';
import { write } from '../platform/db/write';
import { createTestApp } from '../test/harness';
import { estimatePassword, MIN_PASSWORD_SCORE } from './password-strength';
import { findAccountsByEmail } from './store';
import { issueToken } from './tokens';

const WEAK = ['aaaaaaa', 'Welcome1', 'letmein1', 'recovery'];
const STRONG = 'gravel-lantern-kettle-51';

const t = createTestApp();
let n = 0;
const signup = (password: string, extra: Partial<{ name: string; companyName: string; email: string }> = {}) =>
  t.call('POST', '/api/signup', { body: { name: 'Sam Carter', companyName: 'Carter Recovery', email: `strength-${++n}@example.com`, password, ...extra } });

describe('password strength', () => {
  it.each(WEAK)('refuses %s at sign-up with the reason, creating nothing', async (password) => {
    const email = `weak-${++n}@example.com`;
    const res = await signup(password, { email });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('PASSWORD_TOO_WEAK');
    expect(res.json.message.startsWith(`${PASSWORD_TOO_WEAK} `)).toBe(true);
    // The reason follows the product's sentence: zxcvbn's warning or suggestion.
    expect(res.json.message.length).toBeGreaterThan(PASSWORD_TOO_WEAK.length + 10);
    expect(res.json.fields).toEqual({ password: res.json.message });
    expect(findAccountsByEmail(t.deps.db, email)).toHaveLength(0);
  });

  it('accepts a strong password, and the harness’s own test password scores enough', async () => {
    expect((await signup(STRONG)).status).toBe(201);
    expect((await estimatePassword('correct-horse', { name: 'Operator 1', companyName: 'Company 1', email: 'op@example.com' })).score).toBeGreaterThanOrEqual(
      MIN_PASSWORD_SCORE,
    );
  });

  it('counts the account’s own name, company and email as guessable', async () => {
    const context = { name: 'Jolene Pemberton', companyName: 'Pemberton Haulage', email: 'jolene@pemberton.example' };
    expect((await estimatePassword('PembertonHaulage', {})).score).toBeGreaterThanOrEqual(MIN_PASSWORD_SCORE);
    expect((await estimatePassword('PembertonHaulage', context)).score).toBeLessThan(MIN_PASSWORD_SCORE);
    const res = await signup('PembertonHaulage', { ...context, email: `pemberton-${++n}@example.com` });
    expect([res.status, res.json.code]).toEqual([400, 'PASSWORD_TOO_WEAK']);
  });

  it('refuses a weak new password at change, keeping the old one', async () => {
    const op = await t.operator();
    for (const password of WEAK) {
      const res = await t.call('POST', '/api/change-password', { token: op.token, body: { currentPassword: op.password, newPassword: password } });
      expect([res.status, res.json.code]).toEqual([400, 'PASSWORD_TOO_WEAK']);
      expect(res.json.fields.newPassword).toBe(res.json.message);
    }
    expect((await t.call('POST', '/api/login', { body: { email: op.email, password: op.password } })).status).toBe(200);
    const ok = await t.call('POST', '/api/change-password', { token: op.token, body: { currentPassword: op.password, newPassword: STRONG } });
    expect(ok.status).toBe(200);
  });

  it('refuses a weak password at reset, leaving the link unused', async () => {
    const op = await t.operator();
    const token = await write(t.deps.db, () => issueToken(t.deps.db, { purpose: 'reset-password', userId: op.user.id, email: op.email, now: new Date() }));
    for (const password of WEAK) {
      const res = await t.call('POST', '/api/reset-password', { body: { token, password } });
      expect([res.status, res.json.code]).toEqual([400, 'PASSWORD_TOO_WEAK']);
      expect(res.json.fields.password).toBe(res.json.message);
    }
    const ok = await t.call('POST', '/api/reset-password', { body: { token, password: STRONG } });
    expect(ok.status).toBe(200);
    expect((await t.call('POST', '/api/login', { body: { email: op.email, password: STRONG } })).status).toBe(200);
  });
});

describe('where the estimator loads', () => {
  it('is imported by the server only, never by the widget, the portal or shared code', () => {
    const importers: string[] = [];
    for (const root of ['widget', 'admin', 'shared']) {
      for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.(ts|tsx)$/.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        if (readFileSync(file, 'utf8').includes('@zxcvbn-ts')) importers.push(file);
      }
    }
    expect(importers).toEqual([]);
  });
});
