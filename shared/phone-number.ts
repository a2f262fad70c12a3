// Phone and WhatsApp numbers in E.164 (docs/product.md §17): parsed with libphonenumber-js's smallest
// metadata, defaulting to the UK, so "+44 (0)7700 900456", "07700 900456" and "+447700900456"
// are one number, stored once as "+447700900456". The server stores what toE164 answers and the
// portal shows formatPhoneNational's form of it. The widget never imports this module: it receives
// E.164 and builds wa.me and tel: links from it as they are.
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** What an operator may type: digits, spaces, brackets, hyphens, a leading + (no letters or extensions). */
const PHONE_CHARACTERS = /^\+?[\d\s()-]{5,29}$/;

/**
 * The number in E.164, or undefined if it cannot be a phone number. "Possible" (the right length
 * for its country) rather than "valid" (an allocated range): the library's allocation data
 * refuses Ofcom's drama range 07700 900xxx, which is what examples and the portal's placeholders
 * use, and would refuse any range allocated after the metadata was published.
 */
export function toE164(input: string): string | undefined {
  const text = input.trim();
  if (!PHONE_CHARACTERS.test(text)) return undefined;
  const number = parsePhoneNumberFromString(text, 'GB');
  return number?.isPossible() ? number.number : undefined;
}

/** A stored number as a person reads it: UK numbers nationally ("07700 900456"), others internationally. */
export function formatPhoneNational(stored: string): string {
  const number = parsePhoneNumberFromString(stored, 'GB');
  if (!number) return stored;
  return number.country === 'GB' || number.countryCallingCode === '44' ? number.formatNational() : number.formatInternational();
}
