import { describe, expect, it } from 'vitest';
import { sameSlug, slugify } from './slug';

describe('slugify', () => {
  it.each([
    ['Not Rolling', 'not-rolling'],
    ['N/A', 'n-a'],
    ['Engine Failure', 'engine-failure'],
    ['  Flat   Tire!! ', 'flat-tire'],
    ['Car', 'car'],
    ['car', 'car'],
    ['not-rolling', 'not-rolling'],
    ['4x4 / SUV', '4x4-suv'],
    ['Low-Loader (7.5t)', 'low-loader-7-5t'],
    ['--Van--', 'van'],
    ['Café Car', 'caf-car'],
    ['!!!', ''],
    ['', ''],
  ])('%j → %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });
});

describe('sameSlug agrees with comparing slugify results', () => {
  it.each([
    ['Not Rolling', 'not-rolling', true],
    ['N/A', 'n-a', true],
    ['N/A', 'na', false],
    ['Engine Failure', 'engine-failure', true],
    ['  Flat   Tire!! ', 'flat-tire', true],
    ['Car', 'car', true],
    ['Car', 'CAR', true],
    ['Car', 'cars', false],
    ['Cars', 'car', false],
    ['Car ', 'car', true],
    ['car', '-car-', true],
    ['Van', 'car', false],
    ['not rolling', 'notrolling', false],
    ['!!!', '', true],
    ['', '', true],
    ['', 'a', false],
    ['Café', 'caf', true],
  ])('%j vs %j → %s', (a, b, same) => {
    expect(sameSlug(a, b)).toBe(same);
    expect(sameSlug(b, a)).toBe(same);
    expect(slugify(a) === slugify(b)).toBe(same);
  });

  it('on generated pairs of names', () => {
    // A small seeded generator over an alphabet heavy in separators and case, so near misses
    // (a dash in one, a trailing space in the other) come up often.
    const alphabet = 'aAbB1 -/_.!é';
    let seed = 7;
    const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    const randomName = (): string => {
      let s = '';
      for (let n = next() % 7; n > 0; n--) s += alphabet[next() % alphabet.length];
      return s;
    };
    const disagreements: string[][] = [];
    for (let k = 0; k < 20_000; k++) {
      const a = randomName();
      const b = randomName();
      if (sameSlug(a, b) !== (slugify(a) === slugify(b))) disagreements.push([a, b]);
    }
    expect(disagreements).toEqual([]);
  });
});
