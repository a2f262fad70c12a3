// UK postcode validation and formatting (docs/product.md §5). The `postcode` package does the parsing;
// The product's own pattern is the minimum we must accept, so either passing makes a postcode valid.
import { isValid as isValidByLibrary } from 'postcode';

const SPEC_PATTERN = /^[A-Z]{1,2}\d{1,2}[A-Z]?\d[A-Z]{2}$/i;

export const compactPostcode = (value: string): string => value.replace(/\s+/g, '').toUpperCase();

/** Removes all whitespace, upper-cases, and puts one space before the last 3 when 5 or more remain. */
export function formatPostcode(value: string): string {
  const compact = compactPostcode(value);
  return compact.length >= 5 ? `${compact.slice(0, -3)} ${compact.slice(-3)}` : compact;
}

export function isValidPostcode(value: string): boolean {
  const compact = compactPostcode(value);
  // The product's pattern spans 5 to 8 characters (real postcodes stop at 7).
  if (compact.length < 5 || compact.length > 8) return false;
  return SPEC_PATTERN.test(compact) || isValidByLibrary(compact);
}
