// What a booking's alerts and service messages say: the operator's email and text at booking and
// at a motorist's cancellation, and the motorist's service texts (received, accepted with ETA, on
// the way, arrived, completed with the receipt link, "please call" when the operator declined or
// did not answer, and cancelled). Never marketing. Pure functions. Texts are plain GSM-7 (no
// arrows or curly quotes, which would make them Unicode texts of 70 characters a segment).
// A motorist's text begins with the company's name only when api/bookings/sender.ts has checked
// it; otherwise it is the platform's fixed wording (docs/product.md §20).
import { clockTime } from '#shared/bookings';
import { PRODUCT_NAME } from '#shared/constants';
import { isPlainName } from '#shared/names';
import { formatPence } from '#shared/money';
import { formatPhoneNational } from '#shared/phone-number';
import { gearboxWords, problemWords, rollingWords, vehicleWords } from '#shared/quote-words';
import { escapeHtml, type MailContent } from '../mail/message';

export interface BookingFacts {
  reference: string;
  companyName: string;
  companyPhone: string | null;
  customerName: string;
  customerPhone: string;
  registration: string;
  note: string | null;
  position: { lat: number; lng: number } | null;
  pickupPostcode: string;
  destinationPostcode: string;
  vehicleType: string;
  /** The quote's gearbox and rolling status as stored (null when not asked), passengers and miles: the booking's email says all the quote's alert said (decision 054). */
  gearboxType: string | null;
  rollingStatus: string | null;
  passengerCount: number;
  distance: number;
  problemType: string;
  pricePence: number;
  respondBy: string;
}

const jobsUrl = (publicUrl: string, reference: string) => `${publicUrl}/dashboard?tab=quotes&booking=${encodeURIComponent(reference)}`;

export function operatorBookingEmail(b: BookingFacts, publicUrl: string): MailContent {
  const ref = `TQ-${b.reference}`;
  const facts: [string, string][] = [
    ['Reference', ref],
    ['Name', b.customerName],
    ['Mobile', formatPhoneNational(b.customerPhone)],
    ['Registration', b.registration],
    ['Route', `${b.pickupPostcode} to ${b.destinationPostcode} (${b.distance} miles)`],
    ['Vehicle', vehicleWords(b.vehicleType, 'sentence')],
    ['Gearbox', b.gearboxType ? gearboxWords(b.gearboxType, 'sentence') : '–'],
    ['Rolling', b.rollingStatus ? rollingWords(b.rollingStatus, 'sentence') : '–'],
    ['Passengers', b.passengerCount === 0 ? 'none' : String(b.passengerCount)],
    ['Problem', problemWords(b.problemType, 'sentence')],
    ['Price', formatPence(b.pricePence)],
    ['Note', b.note ?? '–'],
    ['Position', b.position ? `${b.position.lat.toFixed(5)}, ${b.position.lng.toFixed(5)}` : 'not shared'],
    ['Answer by', clockTime(b.respondBy)],
  ];
  const open = jobsUrl(publicUrl, b.reference);
  const width = Math.max(...facts.map(([label]) => label.length)) + 2;
  return {
    subject: `New booking ${ref}: ${b.customerName}, ${b.pickupPostcode}, answer by ${clockTime(b.respondBy)}`,
    text: [
      `New booking ${ref} for ${b.companyName}`,
      '',
      ...facts.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`),
      '',
      `Accept or decline it: ${open}`,
      `Unanswered by ${clockTime(b.respondBy)}, it expires and the customer is told to call you.`,
    ].join('\n'),
    html: `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5"><h1 style="font-size:20px">New booking ${escapeHtml(ref)}</h1><table>${facts
      .map(([label, value]) => `<tr><th align="left" style="padding-right:12px">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`)
      .join(
        '',
      )}</table><p><a href="${escapeHtml(open)}">Accept or decline it</a></p><p>Unanswered by ${escapeHtml(clockTime(b.respondBy))}, it expires and the customer is told to call you.</p></body></html>`,
  };
}

/**
 * The review request by email (docs/product.md §20): only from a checked company, as the text.
 * `stopUrl` is the status page's link with its one-tap opt-out, put in as the outbox sends it.
 */
export function motoristReviewEmail(sender: string, reviewUrl: string, stopUrl: string): MailContent {
  const lines = [
    `Thank you for choosing ${sender}.`,
    `If you have a minute, please review us: ${reviewUrl}`,
    `To get no more of these emails from ${sender}: ${stopUrl}`,
  ];
  return {
    subject: `${sender}: thank you! Please review us`,
    text: [...lines, ''].join('\n\n'),
    html: `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5"><p>${escapeHtml(lines[0])}</p><p>If you have a minute, <a href="${escapeHtml(reviewUrl)}">please review us</a>.</p><p style="color:#64748b;font-size:12px"><a href="${escapeHtml(stopUrl)}">Get no more of these emails from ${escapeHtml(sender)}</a></p></body></html>`,
  };
}

export const operatorBookingSms = (b: BookingFacts, publicUrl: string) =>
  `New booking TQ-${b.reference}: ${b.customerName} ${formatPhoneNational(b.customerPhone)}, ${b.registration}, ${b.pickupPostcode} to ${b.destinationPostcode}, ${formatPence(b.pricePence)}. Answer by ${clockTime(b.respondBy)}: ${jobsUrl(publicUrl, b.reference)}`;

/** The facts of a cancelled booking the operator is told. */
export type CancelledFacts = Pick<BookingFacts, 'reference' | 'customerName' | 'customerPhone' | 'registration' | 'pickupPostcode' | 'destinationPostcode'> & {
  driverName: string | null;
  /** Accepted before the cancel: a driver may have set off. */
  wasAccepted: boolean;
};

/** The operator's email when the motorist cancels: a driver who set off should be called back. */
export function operatorCancelledEmail(b: CancelledFacts, publicUrl: string): MailContent {
  const ref = `TQ-${b.reference}`;
  const driverLine = b.wasAccepted
    ? `Tell ${b.driverName ?? 'your driver'} not to go: the driver's page already says "Cancelled".`
    : 'It had not been accepted yet.';
  const lines = [
    `The customer cancelled booking ${ref}.`,
    '',
    `Name: ${b.customerName}`,
    `Mobile: ${formatPhoneNational(b.customerPhone)}`,
    `Registration: ${b.registration}`,
    `Route: ${b.pickupPostcode} to ${b.destinationPostcode}`,
    '',
    driverLine,
    `Your jobs: ${jobsUrl(publicUrl, b.reference)}`,
  ];
  return {
    subject: `Booking ${ref} cancelled by the customer`,
    text: lines.join('\n'),
    html: `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5">${lines
      .filter(Boolean)
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('')}</body></html>`,
  };
}

export const operatorCancelledSms = (b: CancelledFacts) =>
  `Booking TQ-${b.reference} cancelled by the customer (${b.customerName}, ${b.pickupPostcode}).${b.wasAccepted ? ' Tell your driver not to go.' : ''}`;

const callUs = (phone: string | null) => (phone ? ` Please call us on ${formatPhoneNational(phone)}.` : '');

/**
 * Who a motorist's text says it is from: the company by its name, once that name has been checked
 * (api/bookings/sender.ts: a paid company whose name carries no contact detail), or `null` for the
 * platform's fixed wording, which carries nothing the company typed (no name, driver or number).
 */
export type MotoristSender = string | null;

/** The platform's fixed wording begins with this. */
const PLATFORM = PRODUCT_NAME;

/** A driver's first name as stored, or none when the name carries a contact detail (stored before the rule). */
const driver = (name: string | null) => (name && isPlainName(name) ? name.trim().split(/\s+/)[0] : null);

const londonDay = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', weekday: 'long', day: 'numeric', month: 'long' });
/** A later job's slot as a motorist reads it: 'Tuesday 1 December between 09:00 and 10:00'. */
export const slotWords = (slot: string, windowMinutes: number) =>
  `${londonDay.format(new Date(slot))} between ${clockTime(slot)} and ${clockTime(new Date(Date.parse(slot) + windowMinutes * 60_000).toISOString())}`;

export const motoristMessages = {
  received: (sender: MotoristSender, b: Pick<BookingFacts, 'reference' | 'respondBy'>, jobUrl: string) =>
    sender !== null
      ? `${sender}: we have your booking TQ-${b.reference} and will answer by ${clockTime(b.respondBy)}. Follow it here: ${jobUrl}`
      : // One segment with its link: 83 characters before it.
        `${PLATFORM}: booking TQ-${b.reference} has been received. Answer by ${clockTime(b.respondBy)}. Follow it: ${jobUrl}`,
  accepted: (sender: MotoristSender, reference: string, eta: { minutes: number; at: string }, driverName: string | null) =>
    sender !== null
      ? `${sender}: booking TQ-${reference} accepted. ${driver(driverName) ? `${driver(driverName)} is` : 'We are'} expected about ${clockTime(eta.at)} (${eta.minutes} min).`
      : `${PLATFORM}: your recovery booking TQ-${reference} has been accepted. The driver is expected about ${clockTime(eta.at)} (${eta.minutes} min).`,
  /** A caller's job the operator booked on the phone, accepted at once: its ETA and the status page. */
  bookedByPhone: (sender: MotoristSender, reference: string, eta: { minutes: number; at: string }, driverName: string | null, jobUrl: string) =>
    sender !== null
      ? `${sender}: booking TQ-${reference} confirmed. ${driver(driverName) ? `${driver(driverName)} is` : 'We are'} expected about ${clockTime(eta.at)} (${eta.minutes} min). Follow it here: ${jobUrl}`
      : `${PLATFORM}: your recovery booking TQ-${reference} is confirmed. The driver is expected about ${clockTime(eta.at)} (${eta.minutes} min). Follow it here: ${jobUrl}`,

  acceptedLater: (sender: MotoristSender, reference: string, slot: string, windowMinutes: number) =>
    sender !== null
      ? `${sender}: booking TQ-${reference} accepted for ${slotWords(slot, windowMinutes)}.`
      : `${PLATFORM}: your recovery booking TQ-${reference} has been accepted for ${slotWords(slot, windowMinutes)}.`,
  reminder: (sender: MotoristSender, reference: string, slot: string, windowMinutes: number, jobUrl: string) =>
    sender !== null
      ? `${sender}: reminder, your recovery TQ-${reference} is ${slotWords(slot, windowMinutes)}. Follow it here: ${jobUrl}`
      : `${PLATFORM}: reminder, your recovery booking TQ-${reference} is ${slotWords(slot, windowMinutes)}. Follow it here: ${jobUrl}`,
  onTheWay: (sender: MotoristSender, reference: string) =>
    sender !== null
      ? `${sender}: your driver is on the way (TQ-${reference}).`
      : `${PLATFORM}: the driver for your recovery booking TQ-${reference} is on the way.`,
  arrived: (sender: MotoristSender, reference: string) =>
    sender !== null
      ? `${sender}: your driver has arrived (TQ-${reference}).`
      : `${PLATFORM}: the driver for your recovery booking TQ-${reference} has arrived.`,
  /** `jobUrl` is the status page, where the receipt is (the outbox puts the link in as it sends). */
  completed: (sender: MotoristSender, reference: string, jobUrl: string) =>
    sender !== null
      ? `${sender}: job TQ-${reference} is completed. Thank you. Receipt: ${jobUrl}`
      : `${PLATFORM}: your recovery job TQ-${reference} is completed. Receipt: ${jobUrl}`,
  declined: (sender: MotoristSender, reference: string, phone: string | null) =>
    sender !== null
      ? `${sender}: sorry, we cannot take booking TQ-${reference}.${callUs(phone)}`
      : `${PLATFORM}: sorry, your recovery booking TQ-${reference} cannot be taken. Please call the recovery company.`,
  cancelled: (sender: MotoristSender, reference: string, phone: string | null) =>
    sender !== null
      ? `${sender}: booking TQ-${reference} is cancelled, as you asked.${phone ? ` To book again, call us on ${formatPhoneNational(phone)}.` : ''}`
      : `${PLATFORM}: your recovery booking TQ-${reference} is cancelled, as you asked.`,
  /** A completed job's balance by card: `payUrl` is the pay link (the outbox puts it in as it sends, api/bookings/job-link.ts). */
  payLink: (sender: MotoristSender, reference: string, balancePence: number, payUrl: string) =>
    sender !== null
      ? `${sender}: pay the balance of ${formatPence(balancePence)} for TQ-${reference} by card here: ${payUrl}`
      : `${PLATFORM}: pay the balance of ${formatPence(balancePence)} for your recovery TQ-${reference} by card here: ${payUrl}`,
  /** Only from a checked company (its own link): never in the platform's wording. `jobUrl` is the status page, where one tap stops them. */
  review: (sender: string, reviewUrl: string, jobUrl: string) => `${sender}: thank you! Please review us: ${reviewUrl} Stop these: ${jobUrl}`,
  expired: (sender: MotoristSender, reference: string, phone: string | null) =>
    sender !== null
      ? `${sender}: we could not answer booking TQ-${reference} in time.${callUs(phone)}`
      : `${PLATFORM}: your recovery booking TQ-${reference} was not answered in time. Please call the recovery company.`,
};
