// Company colours become CSS custom properties on the form's root. Only strict #RRGGBB values
// are used (anything else falls back to SPEC's defaults), so company data can never smuggle CSS.
import type { CSSProperties } from 'react';
import { safeColour } from '../../shared/patterns';
import type { PublicCompany } from '../../shared/types';

const DEFAULT_COLOURS = {
  primaryColour: '#1976D2',
  secondaryColour: '#FFA726',
  accentColour: '#FF5722',
  backgroundColour: '#FAFAFA',
  textColour: '#0F172A',
} as const;

type ColourKey = keyof typeof DEFAULT_COLOURS;

const DARK_TEXT = '#111827';
const LIGHT_TEXT = '#FFFFFF';

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/**
 * White or near-black, whichever contrasts more with `background`: operators pick any colour
 * for their banner and buttons, and the text on them must stay readable (WCAG contrast).
 */
export function readableTextOn(background: string): string {
  const l = luminance(background);
  const withWhite = 1.05 / (l + 0.05);
  const withDark = (l + 0.05) / (luminance(DARK_TEXT) + 0.05);
  return withWhite >= withDark ? LIGHT_TEXT : DARK_TEXT;
}

/**
 * The company's colours, each behind a `--recovery-quote-*` property the host page may set on
 * the element (custom properties inherit into the shadow root): an operator embedding the form
 * in their own site can match it there without changing the hosted page. examples/theming.html.
 */
export function themeVariables(company: Partial<Pick<PublicCompany, ColourKey>> | null | undefined): CSSProperties {
  const colour = (key: ColourKey) => safeColour(company?.[key], DEFAULT_COLOURS[key]);
  const primary = colour('primaryColour');
  const secondary = colour('secondaryColour');
  const themable = (name: string, value: string) => `var(--recovery-quote-${name}, ${value})`;
  return {
    '--rq-primary': themable('primary', primary),
    '--rq-on-primary': themable('on-primary', readableTextOn(primary)),
    '--rq-secondary': themable('secondary', secondary),
    '--rq-on-secondary': themable('on-secondary', readableTextOn(secondary)),
    '--rq-accent': themable('accent', colour('accentColour')),
    '--rq-background': themable('background', colour('backgroundColour')),
    '--rq-text': themable('text', colour('textColour')),
  } as CSSProperties;
}
