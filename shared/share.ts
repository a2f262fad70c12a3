// Share & Embed (docs/product.md §14): the operator's public link, the snippet for their own website, and
// the setup checklist's items, shaped once for the server and the portal.

/** The setup checklist's items, in the order the portal shows them. */
export const CHECKLIST_KEYS = ['pricing', 'problemCharge', 'contact', 'customUrl', 'firstQuote'] as const;
export type ChecklistKey = (typeof CHECKLIST_KEYS)[number];

export const CHECKLIST_LABELS: Record<ChecklistKey, string> = {
  pricing: 'Pricing saved',
  problemCharge: 'At least one problem charge',
  contact: 'Contact number',
  customUrl: 'Custom URL locked',
  firstQuote: 'First quote received',
};

/** Why there is no link, QR code or snippet yet (the 409 of the share routes). */
export const NO_CUSTOM_URL = 'Choose your custom URL to get your link';

const origin = (publicUrl: string) => publicUrl.replace(/\/+$/, '');

export const publicLink = (publicUrl: string, slug: string) => `${origin(publicUrl)}/company/${slug}`;

export const embedSnippet = (publicUrl: string, slug: string) =>
  `<script src="${origin(publicUrl)}/widget.js" async></script>\n<recovery-quote company="${slug}"></recovery-quote>`;
