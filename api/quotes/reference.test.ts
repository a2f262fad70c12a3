import { describe, expect, it } from 'vitest';
import { readReference } from '#shared/leads';
import { BUCKET_CHARACTERS, BUCKET_MS, BUCKETS, bucketPrefix, RANDOM_CHARACTERS, REFERENCE_ALPHABET, REFERENCE_LENGTH, randomReferences } from './reference';

const at = Date.parse('2026-06-10T12:00:00.000Z');

describe('quote references', () => {
  const draw = randomReferences();
  // One bucket's worth: every reference made within the same 100 ms.
  const many = Array.from({ length: 50_000 }, (_, i) => draw(at + (i % BUCKET_MS)));

  it('are 10 characters that are never confused when read out: 2 of the time bucket, 8 (40 bits) random', () => {
    expect(REFERENCE_LENGTH).toBe(10);
    expect(BUCKET_CHARACTERS + RANDOM_CHARACTERS).toBe(REFERENCE_LENGTH);
    expect(5 * RANDOM_CHARACTERS).toBeGreaterThanOrEqual(40);
    for (const reference of many) expect(reference).toMatch(/^[2-9A-HJ-NP-Z]{10}$/);
    expect(new Set(many.map((r) => r.slice(0, BUCKET_CHARACTERS)))).toEqual(new Set([bucketPrefix(at)]));
  });

  it('start with the bucket of their time: neighbouring buckets in turn round a cycle of 1,023, none written TQ', () => {
    const bucketStart = Math.floor(at / BUCKET_MS) * BUCKET_MS;
    expect(draw(bucketStart).slice(0, 2)).toBe(draw(bucketStart + BUCKET_MS - 1).slice(0, 2));
    const prefixes = Array.from({ length: BUCKETS }, (_, i) => bucketPrefix(bucketStart + i * BUCKET_MS));
    expect(new Set(prefixes).size).toBe(BUCKETS);
    expect(prefixes).not.toContain('TQ');
    expect(bucketPrefix(bucketStart + BUCKETS * BUCKET_MS)).toBe(prefixes[0]);
    // In turn they sort as the alphabet does, but for the wrap round the cycle: new references
    // land next to each other in the index.
    const wraps = prefixes.slice(1).filter((p, i) => p < prefixes[i]).length;
    expect(wraps).toBeLessThanOrEqual(1);
    // Before 1970 too (a clock that is wrong is not a crash).
    expect(bucketPrefix(-1)).toMatch(/^[2-9A-HJ-NP-Z]{2}$/);
    expect(() => bucketPrefix(Number.NaN)).toThrow(RangeError);
  });

  it('never begin with TQ, so a typed TQ before 8 characters is always the prefix', () => {
    // Every bucket's references, from one source.
    const everyBucket = Array.from({ length: BUCKETS }, (_, i) => draw(at + i * BUCKET_MS));
    expect([...many, ...everyBucket].some((r) => r.startsWith('TQ'))).toBe(false);
    // Each reads back as itself, however it is typed.
    for (const reference of [...many.slice(0, 1_000), ...everyBucket]) {
      expect(readReference(reference)).toBe(reference);
      expect(readReference(`tq-${reference.slice(0, 5)} ${reference.slice(5)}`.toLowerCase())).toBe(reference);
    }
  });

  it('use every character of the alphabet at every random position, about evenly', () => {
    // 50,000 draws: each character expected 1,562.5 times a position; 5 standard deviations either
    // side is about ±200. A biased mapping (a byte taken modulo a non-power of two) or a stuck
    // position would fall outside it.
    for (let position = BUCKET_CHARACTERS; position < REFERENCE_LENGTH; position++) {
      const counts = new Map<string, number>();
      for (const reference of many) counts.set(reference[position], (counts.get(reference[position]) ?? 0) + 1);
      expect(counts.size, `position ${position}`).toBe(REFERENCE_ALPHABET.length);
      for (const [ch, n] of counts) expect(Math.abs(n - 50_000 / 32), `${ch} at ${position}`).toBeLessThan(250);
    }
  });

  it('follow one another with no relation beyond the bucket: no order, no shared characters beyond chance', () => {
    const tails = many.map((r) => r.slice(BUCKET_CHARACTERS));
    // A counter or a permutation of one would climb, or keep characters from one to the next.
    const climbing = tails.slice(1).filter((tail, i) => tail > tails[i]).length;
    expect(Math.abs(climbing / (tails.length - 1) - 0.5)).toBeLessThan(0.02);
    for (let position = 0; position < RANDOM_CHARACTERS; position++) {
      const same = tails.slice(1).filter((tail, i) => tail[position] === tails[i][position]).length;
      // 1 in 32 by chance: 1,562 of 49,999, ± 5 standard deviations.
      expect(Math.abs(same - 49_999 / 32), `position ${position}`).toBeLessThan(200);
    }
    // Nor does the difference from one to the next repeat, as it would for any step through a sequence.
    const value = (tail: string) => Array.from(tail).reduce((n, ch) => n * 32 + REFERENCE_ALPHABET.indexOf(ch), 0);
    const steps = new Set(tails.slice(1).map((tail, i) => value(tail) - value(tails[i])));
    expect(steps.size).toBeGreaterThan(49_990);
  });

  it('do not repeat across draws, sources and the blocks of random bytes they read', () => {
    const other = randomReferences();
    const all = new Set([...many, ...Array.from({ length: 50_000 }, () => other(at))]);
    expect(all.size).toBe(100_000);
  });
});
