// The rule for a company's or a person's name (docs/product.md §5, "Names"): a name names, it does
// not carry a web address, an email address or a phone number. A name leads the texts and mails
// the platform sends for a company (a motorist's booking texts, alert and verification mails), so a
// name such as "HMRC: tax refund, claim at https://…" would turn them into a lure. Written once:
// the sign-up, company, checkout and booking schemas refuse such a name with `nameContactMessage`,
// and the motorist's texts check a stored name again (api/bookings/messages.ts), since a name stored
// before this rule may break it.

/** The field message: `label` is the field's name as the form shows it ("Company name", "Name"). */
export const nameContactMessage = (label: string) => `${label} must not contain a web address, email address or phone number`;

// Top-level domains a web address in a name would end with: every two-letter one (country codes),
// and the generic ones seen in links. "St.Helens Recovery" is a name; "x.co", "quick.tow.uk" and
// "claim.online" are addresses.
const GENERIC_TLDS = [
  'com',
  'net',
  'org',
  'info',
  'biz',
  'app',
  'dev',
  'xyz',
  'online',
  'site',
  'top',
  'link',
  'click',
  'shop',
  'store',
  'live',
  'life',
  'pro',
  'club',
  'website',
  'web',
  'space',
  'tech',
  'fun',
  'icu',
  'vip',
  'gov',
  'edu',
  'mobi',
  'name',
  'page',
  'help',
  'support',
  'services',
  'claims',
  'money',
  'loan',
  'bank',
  'finance',
  'cash',
  'win',
  'bid',
  'work',
  'today',
  'world',
  'email',
  'network',
  'cloud',
  'digital',
  'agency',
  'company',
  'ltd',
  'limited',
  'plc',
  'global',
  'london',
  'scot',
  'wales',
  'cymru',
  'uk',
  'gb',
  'eu',
  'asia',
  'ru',
  'cn',
  'tk',
  'ml',
  'ga',
  'cf',
  'gq',
  'zip',
  'mov',
];
// A host: labels joined by dots, the last one a top-level domain, not followed by more letters.
// Anchored at the start of a word, so a long word is tried once, not from each of its letters.
const DOMAIN = new RegExp(`(?<![a-z0-9-])[a-z0-9-]+\\.(?:[a-z0-9-]+\\.)*(?:[a-z]{2}|${GENERIC_TLDS.join('|')})(?![a-z0-9-])`, 'i');
// A scheme ("https://", "hxxp://", "mailto:", "tel:", "sms:", "whatsapp:") or a leading "www.".
const SCHEME = /(?:\b[a-z][a-z0-9+.-]*:\/\/|\b(?:mailto|tel|sms|whatsapp|callto):|\bwww\d?\.)/i;
const EMAIL = /\S@\S/;
/** Seven digits or more in one run (spaces, dots, dashes and brackets between them allowed): a phone number's shape. */
const PHONE = /\+?\d(?:[\s().-]*\d){6,}/;

/** The name as it is read for the checks: NFKC folds full-width and look-alike dots and digits into plain ones, and "[.]" or " . " becomes ".". */
function normalised(value: string): string {
  return value
    .normalize('NFKC')
    .replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, '')
    .replace(/\s*[[({]\s*(?:\.|dot)\s*[\])}]\s*/gi, '.')
    .replace(/(\S)\s+\.\s+(?=[a-z0-9])/gi, '$1.');
}

/** How much of a value is read for contact details: well beyond any name's longest. */
const NAME_CHECK_LENGTH = 1000;

export type NameContact = 'web address' | 'email address' | 'phone number';

/** What contact detail `value` carries, if any (a web address, an email address or a phone number's shape). */
export function contactInName(value: string): NameContact | undefined {
  // Names are short (at most 120 characters): a longer value is refused for its length anyway,
  // and reading only its start keeps the checks linear on a body of megabytes.
  const name = normalised(value.slice(0, NAME_CHECK_LENGTH));
  if (EMAIL.test(name)) return 'email address';
  if (SCHEME.test(name) || DOMAIN.test(name)) return 'web address';
  if (PHONE.test(name)) return 'phone number';
  return undefined;
}

/** Does `value` read as a name only, with no web address, email address or phone number in it? */
export const isPlainName = (value: string): boolean => contactInName(value) === undefined;
