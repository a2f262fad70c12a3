// How the Quotes tab words a stored quote: UK time and en-GB formats whatever the operator's
// browser is set to, since the quotes, the alerts and the numbers all count UK days.
import type { ContactChannel } from '#shared/leads';
import { gearboxWords, neededWords, problemWords, rollingWords, vehicleWords } from '#shared/quote-words';
import type { Lead, LeadNumbers } from '#shared/types';

const UK = 'Europe/London';
const dateTime = new Intl.DateTimeFormat('en-GB', { timeZone: UK, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const time = new Intl.DateTimeFormat('en-GB', { timeZone: UK, hour: '2-digit', minute: '2-digit' });
const ukDate = new Intl.DateTimeFormat('en-GB', { timeZone: UK, day: 'numeric', month: 'short', year: 'numeric' });
// A calendar day (YYYY-MM-DD) is read as UTC midnight and written in UTC, so no zone shifts it.
const shortDay = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });

/** "24 Nov 2026, 14:02", UK time. */
export const formatDateTime = (iso: string): string => dateTime.format(new Date(iso));

const sameUkDay = (a: string, b: string) => ukDate.format(new Date(a)) === ukDate.format(new Date(b));

const CHANNEL_LABELS: Record<ContactChannel, string> = { whatsapp: 'WhatsApp', phone: 'Call' };

/** "Customer tapped WhatsApp at 14:02", with the day when it was not the quote's. */
export function contactText(contact: NonNullable<Lead['customerContact']>, quotedAt: string): string {
  const at = time.format(new Date(contact.at));
  const day = sameUkDay(contact.at, quotedAt) ? '' : ` on ${ukDate.format(new Date(contact.at))}`;
  return `Customer tapped ${CHANNEL_LABELS[contact.channel]} at ${at}${day}`;
}

/** "Now", or "Sat, 5 Dec 2026 at 14:30" for a scheduled recovery: worded as the alert email words it. */
export const whenText = (lead: Pick<Lead, 'urgency' | 'preferredDate' | 'preferredTime'>): string => neededWords(lead);

/** "Car · Automatic · Rolling · 2 passengers · Flat Tyre": the motorist's choices by their labels. */
export function vehicleText(lead: Pick<Lead, 'vehicleType' | 'gearboxType' | 'rollingStatus' | 'passengerCount' | 'problemType'>): string {
  return [
    vehicleWords(lead.vehicleType),
    lead.gearboxType && gearboxWords(lead.gearboxType),
    lead.rollingStatus && rollingWords(lead.rollingStatus),
    `${lead.passengerCount} ${lead.passengerCount === 1 ? 'passenger' : 'passengers'}`,
    problemWords(lead.problemType),
  ]
    .filter(Boolean)
    .join(' · ');
}

/** "SW1A 1AA → EC1A 1BB, 3.2 miles". */
export const routeText = (lead: Pick<Lead, 'pickupPostcode' | 'destinationPostcode' | 'distance'>): string =>
  `${lead.pickupPostcode} → ${lead.destinationPostcode}, ${lead.distance} miles`;

/** A share of 0–1 as a whole percentage: "40%". */
export const percent = (share: number): string => `${Math.round(share * 100)}%`;

/** A time to answer as the numbers say it: "45 s", "4 min", "1 h 5 min". */
export function durationText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

/** The funnel's steps in words: each after the first with its share of the step before. */
export function funnelSteps(
  numbers: Pick<LeadNumbers, 'last30Days' | 'bookings' | 'completedBookings'>,
): { label: string; count: number; share: string | null }[] {
  const share = (part: number, whole: number) => (whole === 0 ? null : percent(part / whole));
  return [
    { label: numbers.last30Days === 1 ? 'quote' : 'quotes', count: numbers.last30Days, share: null },
    { label: 'booked', count: numbers.bookings, share: share(numbers.bookings, numbers.last30Days) },
    { label: 'completed', count: numbers.completedBookings, share: share(numbers.completedBookings, numbers.bookings) },
  ];
}

/** "24 Nov" for the chart's axis and table. */
export const formatDay = (isoDate: string): string => shortDay.format(new Date(`${isoDate}T00:00:00Z`));

/** The chart in words, for those who cannot see it. */
export function perDaySummary(perDay: LeadNumbers['perDay']): string {
  const total = perDay.reduce((sum, day) => sum + day.count, 0);
  if (total === 0) return `No quotes in the last ${perDay.length} days.`;
  const busiest = perDay.reduce((best, day) => (day.count > best.count ? day : best));
  return `${total} ${total === 1 ? 'quote' : 'quotes'} in the last ${perDay.length} days; the busiest day was ${formatDay(busiest.date)} with ${busiest.count}.`;
}
