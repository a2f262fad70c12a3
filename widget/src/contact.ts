// The customer's next step after a quote (docs/product.md §7): a prefilled WhatsApp chat or a phone call.
import { api, call } from '#shared/api-client';
import { formatLongDate, formatPounds } from '#shared/money';
import { telUrl, whatsappNumber } from '#shared/phone';
import type { ContactDetail } from './QuoteResult';

/** What the customer asked for, in the words they saw on the form, kept with the quote. */
export interface QuoteSummary {
  pickupPostcode: string;
  destinationPostcode: string;
  distance: number;
  vehicle: string;
  gearbox?: string;
  rollingStatus?: string;
  passengerCount: number;
  problem: string;
  /** `YYYY-MM-DD` and a `2:30 PM` style label, for a scheduled recovery only. */
  scheduled?: { date: string; time: string };
  totalPrice: number;
  quoteId: string;
}

/** A `YYYY-MM-DD` day read in the visitor's calendar (not UTC midnight, which can shift it). */
function localDay(isoDate: string): Date {
  const [year, month, day] = isoDate.split('-').map(Number);
  return new Date(year, month - 1, day);
}

export function whatsappMessage(summary: QuoteSummary): string {
  const when = summary.scheduled ? `${formatLongDate(localDay(summary.scheduled.date))} at ${summary.scheduled.time}` : 'Now (Emergency)';
  return [
    'Hello, I would like to book a vehicle recovery.',
    '',
    `Pickup: ${summary.pickupPostcode}`,
    `Destination: ${summary.destinationPostcode} (${summary.distance} miles)`,
    `Vehicle: ${summary.vehicle}`,
    summary.gearbox ? `Gearbox: ${summary.gearbox}` : null,
    summary.rollingStatus ? `Rolling Status: ${summary.rollingStatus}` : null,
    `Passengers: ${summary.passengerCount}`,
    `Problem: ${summary.problem}`,
    `When: ${when}`,
    `Quoted Price: ${formatPounds(summary.totalPrice)} (Quote ID: TQ-${summary.quoteId})`,
    '',
    'Please confirm the cost and your availability.',
  ]
    .filter((line) => line !== null)
    .join('\n');
}

export function whatsappUrl(number: string, message: string): string {
  return `https://wa.me/${whatsappNumber(number)}?text=${encodeURIComponent(message)}`;
}

export { telUrl };

/**
 * Marks the quote with the customer's tap, for the operator's inbox (decision 016). Fire and forget:
 * keepalive lets it outlive a page the tap leaves, and its failure is no concern of the customer's.
 */
export const markContact = (apiBase: string, { channel, quoteId }: ContactDetail) =>
  void call(api(apiBase).quotes[':reference'].contact.$post, { param: { reference: quoteId }, json: { channel } }, { anonymous: true, keepalive: true }).catch(
    () => {},
  );
