import { describe, expect, it } from 'vitest';
import { COLOUR_PRESETS } from './constants';
import { buttonTextContrast, contrastRatio, MIN_CONTRAST, nearestReadablePrimary, nearestReadableText, readableTextOn } from './contrast';

describe('colour contrast', () => {
  it('measures WCAG contrast', () => {
    expect(contrastRatio('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrastRatio('#FFFFFF', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
    // A known pair: #767676 on white is the lightest grey that passes AA.
    expect(contrastRatio('#767676', '#FFFFFF')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#777777', '#FFFFFF')).toBeLessThan(4.5);
  });

  it.each(COLOUR_PRESETS.map((p) => [p.name, p] as const))('preset %s is readable: text on background and button text on primary', (_name, preset) => {
    expect(contrastRatio(preset.textColour, preset.backgroundColour)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(buttonTextContrast(preset.primaryColour)).toBeGreaterThanOrEqual(MIN_CONTRAST);
  });

  it('suggests the nearest readable text colour, keeping a readable one as it is', () => {
    const suggestion = nearestReadableText('#AAAAAA', '#FFFFFF');
    expect(contrastRatio(suggestion, '#FFFFFF')).toBeGreaterThanOrEqual(MIN_CONTRAST);
    // Nearest: a darker grey of the same hue, only just past the line.
    expect(suggestion).toMatch(/^#([0-9A-F]{2})\1\1$/);
    expect(contrastRatio(suggestion, '#FFFFFF')).toBeLessThan(5);
    expect(nearestReadableText('#0F172A', '#FAFAFA')).toBe('#0F172A');
    // On a dark background the text gets lighter.
    expect(contrastRatio(nearestReadableText('#444444', '#222222'), '#222222')).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(parseInt(nearestReadableText('#444444', '#222222').slice(1, 3), 16)).toBeGreaterThan(0x44);
  });

  it('suggests the nearest primary colour whose button text is readable', () => {
    for (const primary of ['#E91E63', '#7E7E7E']) {
      expect(buttonTextContrast(primary)).toBeLessThan(MIN_CONTRAST);
      const suggestion = nearestReadablePrimary(primary);
      expect(buttonTextContrast(suggestion)).toBeGreaterThanOrEqual(MIN_CONTRAST);
      expect(suggestion).not.toBe(primary);
    }
    expect(nearestReadablePrimary('#1976D2')).toBe('#1976D2');
    expect(readableTextOn('#FFEB3B')).toBe('#111827');
  });
});
