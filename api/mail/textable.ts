// Which numbers a motorist's texts may go to (docs/decisions/030-text-budgets.md): UK mobiles,
// and Republic of Ireland mobiles when the operator allows them. Never premium-rate, satellite
// (+881, +882), personal (UK 070), shared-cost, VoIP-only or pager numbers, nor any other country's:
// a public booking form that texts any possible number is a way to make us pay for texts to
// numbers someone profits from. The server alone decides, with libphonenumber-js's `mobile`
// metadata (the number types of mobile ranges; the widget never carries it).
import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';

/**
 * Ofcom's drama range, 07700 900000 to 07700 900999: reserved for fiction, never allocated, so a
 * text to it reaches nobody and earns nobody anything. The product's examples and placeholders
 * use it, and libphonenumber's allocation data leaves it out.
 */
const UK_DRAMA_MOBILES = /^\+447700900\d{3}$/;

export interface TextableOptions {
  /** The operator allows Republic of Ireland mobiles (+353 8…) too. */
  irishMobiles: boolean;
}

/** May a motorist's texts go to `e164`? */
export function isTextable(e164: string, options: TextableOptions): boolean {
  if (UK_DRAMA_MOBILES.test(e164)) return true;
  const number = parsePhoneNumberFromString(e164);
  if (number?.getType() !== 'MOBILE') return false;
  return number.country === 'GB' || (options.irishMobiles && number.country === 'IE');
}
