// Company colours become CSS custom properties on the form's root. Only strict #RRGGBB values
// are used (anything else falls back to the product's defaults), so company data can never smuggle CSS.
import type { CSSProperties } from 'react';
import { readableTextOn } from '#shared/contrast';
import { safeColour } from '#shared/patterns';
import type { PublicCompany } from '#shared/types';

const DEFAULT_COLOURS = {
  primaryColour: '#1976D2',
  secondaryColour: '#FFA726',
  accentColour: '#FF5722',
  backgroundColour: '#FAFAFA',
  textColour: '#0F172A',
} as const;

type ColourKey = keyof typeof DEFAULT_COLOURS;

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
