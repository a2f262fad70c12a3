// WCAG contrast for the operator's colours (docs/product.md §14): the widget picks readable button text with
// it, and the Branding tab warns about a pair below 4.5:1 and suggests the nearest readable colour.

/** WCAG AA for normal text. */
export const MIN_CONTRAST = 4.5;

const DARK_TEXT = '#111827';
const LIGHT_TEXT = '#FFFFFF';

/** Relative luminance of a #RRGGBB colour (WCAG 2). */
export function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The WCAG contrast ratio of two #RRGGBB colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/**
 * White or near-black, whichever contrasts more with `background`: operators pick any colour
 * for their banner and buttons, and the text on them must stay readable (WCAG contrast).
 */
export function readableTextOn(background: string): string {
  return contrastRatio(LIGHT_TEXT, background) >= contrastRatio(DARK_TEXT, background) ? LIGHT_TEXT : DARK_TEXT;
}

/** The contrast of the button text the form puts on this primary colour. */
export const buttonTextContrast = (primary: string) => contrastRatio(readableTextOn(primary), primary);

const toHex = (rgb: number[]) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`.toUpperCase();
const channels = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/**
 * The colour closest to `colour` (the least mixed with black or white, same hue) for which
 * `readable` holds; `colour` itself when it already does.
 */
function nearest(colour: string, readable: (candidate: string) => boolean): string {
  const rgb = channels(colour);
  for (let step = 0; step <= 100; step++) {
    const t = step / 100;
    const darker = toHex(rgb.map((c) => c * (1 - t)));
    const lighter = toHex(rgb.map((c) => c + (255 - c) * t));
    if (readable(darker)) return darker;
    if (readable(lighter)) return lighter;
  }
  return DARK_TEXT;
}

/** The nearest text colour readable on `background`. */
export const nearestReadableText = (text: string, background: string) => nearest(text, (candidate) => contrastRatio(candidate, background) >= MIN_CONTRAST);

/** The nearest primary colour whose button text is readable. */
export const nearestReadablePrimary = (primary: string) => nearest(primary, (candidate) => buttonTextContrast(candidate) >= MIN_CONTRAST);
