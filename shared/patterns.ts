// The text patterns both sides check, written once and free of zod, so the widget can use them
// without growing: company colours and custom URLs (docs/product.md §3, §4).

/** A company colour: strictly #RRGGBB, so company data can never smuggle CSS. */
export const HEX_COLOUR = /^#[0-9A-Fa-f]{6}$/;

/** The colour if it is #RRGGBB, else the fallback. */
export const safeColour = (value: string | null | undefined, fallback: string): string => (value && HEX_COLOUR.test(value) ? value : fallback);

export const SLUG_LENGTH = { min: 3, max: 40 } as const;

/** A custom URL: lowercase letters and digits in runs joined by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Whether `slug` could be a saved custom URL: worth a database lookup. */
export const isCustomSlug = (slug: string): boolean => slug.length >= SLUG_LENGTH.min && slug.length <= SLUG_LENGTH.max && SLUG_PATTERN.test(slug);
