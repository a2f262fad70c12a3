// Phone numbers as links (SPEC.md §7): shared by the widget's contact buttons and the hosted
// company page's header and footer.

/** SPEC.md §7: every character other than digits and + is removed from the number. */
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
