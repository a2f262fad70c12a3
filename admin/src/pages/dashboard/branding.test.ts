import { describe, expect, it } from 'vitest';
import { COLOUR_PRESETS, LOGO_MAX_BYTES } from '#shared/constants';
import {
  customUrlState,
  customUrlUnchanged,
  hasDisplayOption,
  initialTheme,
  LOGO_NOT_IMAGE,
  LOGO_TOO_LARGE,
  logoProblem,
  matchingPreset,
  presetColours,
  roundingLocked,
  setDisplayOption,
  showRoundingChoices,
} from './branding';

describe('colour presets', () => {
  const red = COLOUR_PRESETS.find((p) => p.name === 'Emergency Red')!;

  it('marks the preset whose five colours all match, ignoring case', () => {
    const colours = presetColours(red);
    const lower = Object.fromEntries(Object.entries(colours).map(([k, v]) => [k, v.toLowerCase()]));
    expect(matchingPreset(lower)?.name).toBe('Emergency Red');
    expect(initialTheme(colours)).toEqual({ colours, applied: 'Emergency Red' });
  });

  it('marks nothing when any colour differs', () => {
    const custom = { ...presetColours(red), accentColour: '#123456' };
    expect(initialTheme(custom).applied).toBeNull();
    expect(initialTheme(custom).colours.accentColour).toBe('#123456');
  });

  it('applies Professional Blue when the primary or secondary colour is missing', () => {
    const blue = presetColours(COLOUR_PRESETS[0]);
    expect(initialTheme({ ...presetColours(red), primaryColour: null })).toEqual({ colours: blue, applied: 'Professional Blue' });
    expect(initialTheme({ ...presetColours(red), secondaryColour: '' })).toEqual({ colours: blue, applied: 'Professional Blue' });
  });
});

describe('display options', () => {
  const both = (showPriceBreakdown: boolean, enablePriceRounding: boolean) => ({ showPriceBreakdown, enablePriceRounding });

  it('turning breakdown on turns rounding off', () => {
    expect(setDisplayOption(both(false, true), 'showPriceBreakdown', true)).toEqual(both(true, false));
  });

  it('turning rounding on turns breakdown off, but not while breakdown is on', () => {
    expect(setDisplayOption(both(false, false), 'enablePriceRounding', true)).toEqual(both(false, true));
    expect(setDisplayOption(both(true, false), 'enablePriceRounding', true)).toEqual(both(true, false));
  });

  it('turning either off leaves the other alone', () => {
    expect(setDisplayOption(both(true, false), 'showPriceBreakdown', false)).toEqual(both(false, false));
    expect(setDisplayOption(both(false, true), 'enablePriceRounding', false)).toEqual(both(false, false));
  });

  it('locks rounding under breakdown and offers £5/£10 only with rounding alone', () => {
    expect(roundingLocked(both(true, false))).toBe(true);
    expect(showRoundingChoices(both(false, true))).toBe(true);
    expect(showRoundingChoices(both(true, true))).toBe(false);
    expect(showRoundingChoices(both(false, false))).toBe(false);
  });

  it('needs at least one option to save', () => {
    expect(hasDisplayOption(both(false, false))).toBe(false);
    expect(hasDisplayOption(both(true, false))).toBe(true);
    expect(hasDisplayOption(both(false, true))).toBe(true);
  });
});

describe('custom URL lock', () => {
  it('offers the lock while unsaved, even before an edit (the "No changes" case)', () => {
    expect(customUrlState(null)).toEqual({ locked: false, canLock: true });
    expect(customUrlState('')).toEqual({ locked: false, canLock: true });
  });

  it('is locked for good once saved', () => {
    expect(customUrlState('acme')).toEqual({ locked: true, canLock: false });
  });

  it('refuses an empty or unchanged save', () => {
    expect(customUrlUnchanged(null, ' ')).toBe(true);
    expect(customUrlUnchanged('acme', 'acme ')).toBe(true);
    expect(customUrlUnchanged(null, 'acme')).toBe(false);
  });
});

describe('logo files', () => {
  it('accepts PNG, JPEG, GIF and WebP up to 2MB', () => {
    expect(logoProblem({ type: 'image/png', size: LOGO_MAX_BYTES })).toBeNull();
    expect(logoProblem({ type: 'image/webp', size: 10 })).toBeNull();
  });

  it('refuses other files, SVG, and anything over 2MB', () => {
    expect(logoProblem({ type: 'application/pdf', size: 10 })).toBe(LOGO_NOT_IMAGE);
    expect(logoProblem({ type: 'image/svg+xml', size: 10 })).toBe(LOGO_NOT_IMAGE);
    expect(logoProblem({ type: 'image/jpeg', size: LOGO_MAX_BYTES + 1 })).toBe(LOGO_TOO_LARGE);
  });
});
