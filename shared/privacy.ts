// The operator's privacy page (docs/product.md §13, "The privacy page"): `/privacy/{slug}`, linked
// from the booking form's privacy line, the hosted page's footer and the wrapper page. Its text is
// the operator's own when they wrote one (Contact Info in the portal), else a default that names
// them as the controller. Small on purpose: the booking form (widget-booking.js) imports it.

/** The longest notice an operator may write, in characters. */
export const PRIVACY_TEXT_MAX = 10_000;

/** The page's path for a company's custom URL. */
export const privacyPath = (slug: string) => `/privacy/${encodeURIComponent(slug)}`;

/** The words of the links to it. */
export const PRIVACY_LINK = 'Privacy notice';
