// The words of a completed job's balance by card (docs/product.md §22), apart from the QR code's
// component (PayLinkCode.tsx) so a screen that lazy-loads the code, and its QR library, only when a
// link is out (the portal's Jobs card) can show them without loading it.
import { formatPounds } from '#shared/money';

export const payLinkHeading = (balance: number) => `Scan to pay ${formatPounds(balance)} by card`;
export const PAY_LINK_SENT = 'The link is texted to the customer too. This page says when it is paid.';
/** The action where no balance question comes first (the portal's Jobs card): its heading, what it does, its button. */
export const TAKE_BY_CARD = 'Take the balance by card';
export const TAKE_BY_CARD_HINT = 'Shows a QR code for the customer to scan, and texts them the link.';
export const TEXT_THE_LINK = 'Text the link';
