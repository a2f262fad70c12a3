// Every error body carries a stable `code` beside its product `message` (docs/architecture.md §4): the
// admin branches on the code, so each kind of failure must name its own.
import { describe, expect, it } from 'vitest';
import { codeForStatus, errorCodeOf } from '#shared/error-codes';
import { createTestApp, quoteBody } from '../../test/harness';

const t = createTestApp();

describe('error codes', () => {
  it('names bad input, a missing session, a failed sign-in and a refused origin', async () => {
    const invalid = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, pickupPostcode: '' } });
    expect(invalid.status).toBe(400);
    expect(invalid.json).toMatchObject({
      message: 'Pickup postcode is required',
      code: 'VALIDATION_FAILED',
      fields: { pickupPostcode: 'Pickup postcode is required' },
    });

    const malformed = await t.call('POST', '/api/quotes/calculate', { body: '{"pickup' });
    expect(malformed.status).toBe(400);
    expect(malformed.json.code).toBe('BAD_REQUEST');

    const anonymous = await t.call('GET', '/api/auth/user');
    expect(anonymous.json).toMatchObject({ message: 'Not signed in', code: 'UNAUTHORIZED' });

    const op = await t.operator();
    const wrongPassword = await t.call('POST', '/api/login', { body: { email: op.email, password: 'not-the-password' } });
    expect(wrongPassword.json).toMatchObject({ message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });

    const again = await t.call('POST', '/api/signup', { body: { name: 'Again', email: op.email, password: 'correct-horse', companyName: 'Again Ltd' } });
    expect(again.json).toMatchObject({ message: 'An account with this email already exists', code: 'EMAIL_TAKEN' });

    const foreign = await t.call('PUT', '/api/pricing', { body: {}, cookie: op.cookie, origin: 'https://evil.example' });
    expect(foreign.json).toMatchObject({ message: 'Cross-origin request refused', code: 'FORBIDDEN' });
  });

  it('names a postcode no data knows apart from other bad input', async () => {
    const res = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companySlug: 'demo', pickupPostcode: 'ZE9 9ZZ' } });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('POSTCODE_NOT_FOUND');
  });

  it('reads a code from a body, and only a known one', () => {
    expect(errorCodeOf('{"message":"x","code":"SLUG_TAKEN"}')).toBe('SLUG_TAKEN');
    expect(errorCodeOf('{"message":"x","code":"SOMETHING_ELSE"}')).toBeUndefined();
    expect(errorCodeOf('Bad Gateway')).toBeUndefined();
    expect([400, 401, 403, 404, 413, 415, 429, 418, 502].map(codeForStatus)).toEqual([
      'BAD_REQUEST',
      'UNAUTHORIZED',
      'FORBIDDEN',
      'NOT_FOUND',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'RATE_LIMITED',
      'REQUEST_FAILED',
      'INTERNAL',
    ]);
  });
});
