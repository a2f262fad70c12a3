import { describe, expect, it } from 'vitest';
import { connectionCap, openFileLimit } from './connection-cap';

const limits = (soft: string) =>
  `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                20000                files\n`;

describe('connectionCap', () => {
  it('keeps descriptors for the database and the log below the process limit', () => {
    expect(openFileLimit(limits('20000'))).toBe(20_000);
    expect(connectionCap(50_000, 20_000)).toBe(19_744);
    expect(connectionCap(10_000, 20_000)).toBe(10_000);
    expect(connectionCap(10_000, 1024)).toBe(768);
  });

  it('takes the configured cap where the limit is unknown or unlimited', () => {
    expect(openFileLimit(limits('unlimited'))).toBeUndefined();
    expect(openFileLimit('')).toBeUndefined();
    expect(connectionCap(10_000, undefined)).toBe(10_000);
  });
});
