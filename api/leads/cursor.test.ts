import { describe, expect, it } from 'vitest';
import { ValidationFailed } from '../platform/errors';
import { decodeCursor, encodeCursor } from './service';

describe('page cursors', () => {
  it('carry (created_at, id) through opaque text, for any timestamp a row may hold', () => {
    for (const createdAt of ['2026-06-10T12:00:00.000Z', '2026-06-10 12:00:00', '2026-06-10T12:00:00+01:00']) {
      const cursor = encodeCursor({ createdAt, id: 42 });
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(cursor)).toEqual({ createdAt, id: 42 });
    }
  });

  it('refuse anything else as a 400', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    for (const bad of [
      '',
      '!!',
      b64('2026-06-10T12:00:00.000Z'),
      b64('2026-06-10T12:00:00.000Z|0'),
      b64('2026-06-10T12:00:00.000Z|1e3'),
      b64("x' or 1=1|5"),
      b64('2026-06-10T12:00:00.000Z|99999999999999999'),
    ]) {
      expect(() => decodeCursor(bad), bad).toThrow(ValidationFailed);
    }
  });
});
