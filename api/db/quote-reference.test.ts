import { describe, expect, it } from 'vitest';
import { createReferenceCipher, MAX_SEQUENCE, REFERENCE_LENGTH } from './quote-reference';

const key = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
const cipher = createReferenceCipher(key);

describe('quote references', () => {
  it('are 9 characters that are never confused when read out', () => {
    const [reference] = cipher.encode([1]);
    expect(reference).toHaveLength(REFERENCE_LENGTH);
    expect(reference).toMatch(/^[2-9A-HJ-NP-Z]{9}$/);
  });

  // Stored references must never change meaning: a change to the algorithm would let new
  // references meet ones already given. These are this key's first references, for good.
  it('stay the same from one version to the next', () => {
    expect(cipher.encode([1, 2, 3, 1_000_000, MAX_SEQUENCE - 1])).toEqual(['KJAECF76R', 'K4TJSGX5N', 'ATXZA5FS9', 'UKJ4CNYXM', 'D7XDRG4FY']);
  });

  it('are a permutation: every row id has its own, however they are batched', () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => i + 1);
    const references = cipher.encode(ids);
    expect(new Set(references).size).toBe(ids.length);
    expect(ids.slice(0, 50).flatMap((id) => cipher.encode([id]))).toEqual(references.slice(0, 50));
    const edges = [0, 1, 2 ** 23 - 1, 2 ** 23, 2 ** 32, MAX_SEQUENCE - 1];
    expect(new Set([...cipher.encode(edges), ...references]).size).toBe(edges.length - 1 + ids.length);
  });

  it('say nothing about order or volume without the key', () => {
    const references = cipher.encode(Array.from({ length: 100 }, (_, i) => i + 1));
    expect([...references].sort()).not.toEqual(references);
    // Neighbouring ids share no leading characters more than chance would have them.
    const sharedFirstChar = references.slice(1).filter((r, i) => r[0] === references[i][0]).length;
    expect(sharedFirstChar).toBeLessThan(15);
    const otherKey = createReferenceCipher(Buffer.alloc(16, 7));
    expect(otherKey.encode([1, 2, 3])).not.toEqual(cipher.encode([1, 2, 3]));
  });

  it('refuses a key that is not 16 bytes, and ids outside the domain', () => {
    expect(() => createReferenceCipher(Buffer.alloc(15))).toThrow(/16 bytes/);
    expect(() => cipher.encode([MAX_SEQUENCE])).toThrow(RangeError);
    expect(() => cipher.encode([-1])).toThrow(RangeError);
    expect(() => cipher.encode([1.5])).toThrow(RangeError);
  });
});
