// The Branding tab's rules from docs/product.md §4 "Portal behaviours", kept free of React so they are
// tested on their own: colour preset marking, the display-option exclusion, the custom URL lock
// and the logo checks.
import { COLOUR_PRESETS, LOGO_MAX_BYTES, type ColourTheme } from '#shared/constants';

export type ThemeColours = Omit<ColourTheme, 'name'>;
export const COLOUR_KEYS = ['primaryColour', 'secondaryColour', 'accentColour', 'backgroundColour', 'textColour'] as const;

const sameColour = (a: string | null | undefined, b: string) => (a ?? '').toLowerCase() === b.toLowerCase();

/** The preset whose five colours all equal these, if any. */
export function matchingPreset(colours: Partial<Record<keyof ThemeColours, string | null>>): ColourTheme | null {
  return COLOUR_PRESETS.find((preset) => COLOUR_KEYS.every((key) => sameColour(colours[key], preset[key]))) ?? null;
}

export function presetColours(preset: ColourTheme): ThemeColours {
  const { name: _name, ...colours } = preset;
  return colours;
}

/**
 * Colours and the APPLIED mark when the Branding form loads: a company missing its primary or
 * secondary colour gets the first preset (Professional Blue); otherwise the matching preset,
 * if any, is marked.
 */
export function initialTheme(company: Partial<Record<keyof ThemeColours, string | null>>): {
  colours: ThemeColours;
  applied: string | null;
} {
  if (!company.primaryColour || !company.secondaryColour) {
    const first = COLOUR_PRESETS[0];
    return { colours: presetColours(first), applied: first.name };
  }
  const fallback = presetColours(COLOUR_PRESETS[0]);
  const colours = Object.fromEntries(COLOUR_KEYS.map((key) => [key, company[key] || fallback[key]])) as ThemeColours;
  return { colours, applied: matchingPreset(colours)?.name ?? null };
}

export interface DisplayOptions {
  showPriceBreakdown: boolean;
  enablePriceRounding: boolean;
}

/**
 * Breakdown and rounding exclude each other: a rounded total can't match an itemised breakdown.
 * Turning one on turns the other off; rounding can't be turned on while breakdown is on.
 */
export function setDisplayOption(current: DisplayOptions, option: keyof DisplayOptions, on: boolean): DisplayOptions {
  if (option === 'enablePriceRounding' && on && current.showPriceBreakdown) return current;
  if (!on) return { ...current, [option]: false };
  return option === 'showPriceBreakdown' ? { showPriceBreakdown: true, enablePriceRounding: false } : { showPriceBreakdown: false, enablePriceRounding: true };
}

export const roundingLocked = (options: DisplayOptions): boolean => options.showPriceBreakdown;
export const showRoundingChoices = (options: DisplayOptions): boolean => options.enablePriceRounding && !options.showPriceBreakdown;
export const hasDisplayOption = (options: DisplayOptions): boolean => options.showPriceBreakdown || options.enablePriceRounding;

/** Custom URL state: once saved it is locked for good; until then the lock button shows. */
export function customUrlState(saved: string | null | undefined): { locked: boolean; canLock: boolean } {
  const locked = Boolean(saved);
  // The lock button shows whenever the URL is unlocked, even before an edit: pressing it with an
  // empty or unchanged value is how docs/product.md §5's "No changes" toast is reached.
  return { locked, canLock: !locked };
}

/** Why a custom URL save is refused before calling the server, if it is. */
export function customUrlUnchanged(saved: string | null | undefined, draft: string): boolean {
  const value = draft.trim();
  return value === '' || value === (saved ?? '');
}

export const LOGO_TOO_LARGE = 'Logo must be 2MB or smaller. Please choose a smaller image.';
export const LOGO_NOT_IMAGE = 'Please choose a PNG, JPG, GIF or WebP image.';
/** What the server stores (docs/architecture.md §3): SVG is refused because it can carry script. */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** The reason a chosen logo file is refused, or null when it can be used. */
export function logoProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return LOGO_NOT_IMAGE;
  if (file.size > LOGO_MAX_BYTES) return LOGO_TOO_LARGE;
  return null;
}
