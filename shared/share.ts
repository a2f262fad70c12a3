// Share & Embed (docs/product.md §14): the operator's public link, the snippet for their own website, and
// the setup checklist's items, shaped once for the server and the portal.

/** The setup checklist's items, in the order the portal shows them. */
export const CHECKLIST_KEYS = ['contact', 'pricing', 'basePostcode', 'customUrl', 'problemCharge', 'logo', 'firstQuote'] as const;
export type ChecklistKey = (typeof CHECKLIST_KEYS)[number];

export const CHECKLIST_LABELS: Record<ChecklistKey, string> = {
  contact: 'Contact number',
  pricing: 'Pricing saved',
  basePostcode: 'Base postcode',
  customUrl: 'Custom URL locked',
  problemCharge: 'At least one problem charge',
  logo: 'Logo uploaded',
  firstQuote: 'First quote received',
};

/** Why there is no link, QR code or snippet yet (the 409 of the share routes). */
export const NO_CUSTOM_URL = 'Choose your custom URL to get your link';

const origin = (publicUrl: string) => publicUrl.replace(/\/+$/, '');

export const publicLink = (publicUrl: string, slug: string) => `${origin(publicUrl)}/company/${slug}`;

export const embedSnippet = (publicUrl: string, slug: string) =>
  `<script src="${origin(publicUrl)}/widget.js" async></script>\n<recovery-quote company="${slug}"></recovery-quote>`;

/** Whether motorists can reach the company: a phone or a WhatsApp number (docs/product.md §14). */
export const hasContactNumber = (company: { phone?: string | null; whatsapp?: string | null }): boolean =>
  Boolean(company.phone?.trim() || company.whatsapp?.trim());

/** Why a company without a phone or WhatsApp number cannot lock its URL or share its link (code NO_CONTACT_NUMBER). */
export const NO_CONTACT_NUMBER = 'Add a phone or WhatsApp number first, so customers who get a price can reach you';

/**
 * Whether a company's public page quotes (docs/product.md §13): `open`; `paused` while its
 * subscription gives no access; `not-set-up` while it has neither a phone nor a WhatsApp number.
 */
export const ONLINE_QUOTES = ['open', 'paused', 'not-set-up'] as const;
export type OnlineQuotes = (typeof ONLINE_QUOTES)[number];

/** What a motorist sees instead of a price when a company's page does not quote, naming the company. */
export const quotesClosedMessage = (name: string, state: Exclude<OnlineQuotes, 'open'>) =>
  `Online quotes from ${name} are ${state === 'paused' ? state : 'not set up yet'}`;

/** A pricing rule measured from the base postcode cannot be switched on without one (a 400 naming the field). */
export const BASE_POSTCODE_NEEDED = {
  enRouteRate: 'Add your base postcode (Branding tab) first: travel to you is measured from it',
  maximumRadius: 'Add your base postcode (Branding tab) first: the maximum radius is measured from it',
} as const;
