// Phone numbers as links (docs/product.md §7): shared by the widget's contact buttons and the hosted
// company page's header and footer.

/** docs/product.md §7: every character other than digits and + is removed from the number. */
const dialable = (number: string): string => number.replace(/[^\d+]/g, '');

/**
 * The number for a wa.me link, which only opens a chat for the international form. Operators
 * here are British and often type their number nationally (07700 900123): a leading 0 is the UK's
 * +44, and a leading 00 is the international prefix written as +.
 */
export function whatsappNumber(number: string): string {
  const digits = dialable(number);
  if (digits.startsWith('00')) return `+${digits.slice(2)}`;
  if (digits.startsWith('0')) return `+44${digits.slice(1)}`;
  return digits;
}

export const telUrl = (number: string): string => `tel:${dialable(number)}`;

/**
 * A UK number in E.164 as people write it ("+447700900123" → "07700 900123"), for the widget,
 * which cannot carry libphonenumber's metadata (the portal and hosted page use
 * shared/phone-number.ts). London and the other 02 areas 3-4-4, the 011x and 01x1 cities and
 * 03/08/09 numbers 4-3-4, everything else (mobiles, most 01 areas) 5-6. Anything else as given.
 */
export function ukNational(number: string): string {
  const match = /^\+44(\d{9,10})$/.exec(number);
  if (!match) return number;
  const n = `0${match[1]}`;
  if (n.length !== 11) return n;
  if (/^02/.test(n)) return `${n.slice(0, 3)} ${n.slice(3, 7)} ${n.slice(7)}`;
  if (/^01\d1|^011|^0[389]/.test(n)) return `${n.slice(0, 4)} ${n.slice(4, 7)} ${n.slice(7)}`;
  return `${n.slice(0, 5)} ${n.slice(5)}`;
}
