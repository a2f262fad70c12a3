import { describe, expect, it } from 'vitest';
import { createReferenceCipher, MAX_SEQUENCE, REFERENCE_LENGTH } from './reference';

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

  describe('decode', () => {
    it('inverts encode on random and edge ids', () => {
      const random = Array.from({ length: 2000 }, () => Math.floor(Math.random() * MAX_SEQUENCE));
      const edges = [0, 1, 2, 2 ** 22 - 1, 2 ** 22, 2 ** 23 - 1, 2 ** 23, 2 ** 32 - 1, 2 ** 32, MAX_SEQUENCE - 2, MAX_SEQUENCE - 1];
      const ids = [...edges, ...random];
      const references = cipher.encode(ids);
      expect(references.map((r) => cipher.decode(r))).toEqual(ids);
    });

    it('reads the known vector back', () => {
      expect(['KJAECF76R', 'K4TJSGX5N', 'ATXZA5FS9', 'UKJ4CNYXM', 'D7XDRG4FY'].map((r) => cipher.decode(r))).toEqual([1, 2, 3, 1_000_000, MAX_SEQUENCE - 1]);
    });

    it('gives every 9-character reference an id, which a row may not have: the caller looks it up', () => {
      // Not a reference this key ever gave to a small id: it still decodes, to a large one.
      const id = cipher.decode('ZZZZZZZZZ');
      expect(id).not.toBeNull();
      expect(id).toBeGreaterThanOrEqual(0);
      expect(id).toBeLessThan(MAX_SEQUENCE);
      expect(cipher.encode([id as number])).toEqual(['ZZZZZZZZZ']);
      expect(cipher.decode('222222222')).toBeGreaterThan(1_000_000);
    });

    it('refuses what is not 9 characters of the alphabet', () => {
      for (const bad of ['', 'KJAECF76', 'KJAECF76RR', 'kjaecf76r', 'KJAECF760', 'KJAECF7OR', 'KJAECF7IR', 'KJAECF7 R']) {
        expect(cipher.decode(bad), bad).toBeNull();
      }
    });
  });
});
