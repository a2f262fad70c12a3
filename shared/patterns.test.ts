import { describe, expect, it } from 'vitest';
import { isCustomSlug, safeColour } from './patterns';
import { customSlugSchema } from './schemas';

describe('patterns', () => {
  it('keeps only strict #RRGGBB colours', () => {
    expect(safeColour('#1976d2', '#000000')).toBe('#1976d2');
    expect(['#fff', 'red', '#1976D2;x:y', '', null, undefined].map((value) => safeColour(value, '#000000'))).toEqual(Array(6).fill('#000000'));
  });

  it('looks up exactly the slugs the custom URL schema can save', () => {
    for (const slug of ['abc', 'rapid-recovery', 'a1-b2-c3', 'x'.repeat(40), 'ab', 'x'.repeat(41), 'a--b', '-abc', 'abc-', 'Abc', '../etc']) {
      expect(isCustomSlug(slug), slug).toBe(customSlugSchema.safeParse(slug).success);
    }
  });
});
