// The harness's operator factory signs up through the real route with one argon2id hash of its
// password made once for the run; every other sign-up, the sign-up tests' own, hashes its own.
import { describe, expect, it } from 'vitest';
import { findUserById } from '../auth/store';
import { createTestApp } from './harness';
import { FACTORY_PASSWORD } from './run-fixtures';

describe('the operator factory', () => {
  it('gives its operators the run’s one hash, which signs them in; a sign-up through the route gets a hash of its own', async () => {
    const t = createTestApp();
    const [a, b] = await Promise.all([t.operator(), t.operator()]);
    const hashOf = (id: number) => findUserById(t.deps.db, id)!.password;
    expect(hashOf(a.user.id)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(hashOf(b.user.id)).toBe(hashOf(a.user.id));
    const login = await t.call('POST', '/api/login', { body: { email: b.email, password: FACTORY_PASSWORD } });
    expect(login.status).toBe(200);

    const own = await t.call('POST', '/api/signup', {
      body: { name: 'Sam Signup', email: 'sam-signup@example.com', password: FACTORY_PASSWORD, companyName: 'Sam Recovery' },
    });
    expect(own.status).toBe(201);
    expect(hashOf(own.json.id)).toMatch(/^\$argon2id\$/);
    expect(hashOf(own.json.id)).not.toBe(hashOf(a.user.id));
  });
});
