// How many verifications a company may send to its alert destinations (docs/product.md §16,
// docs/security.md): a link to an alert email address, a code to the booking text number. Each
// one mails or texts an address the company typed, which need not be its own, so the sends are
// capped per company per hour and per destination per day, counted in the database
// (verification_sends) so a restart or a second process does not reset them. Past a cap the
// change that would send one is refused with 429 and changes nothing (decision 031).
import type { AlertChannel } from '#shared/leads';
import type { Db } from '../platform/db/client';
import { recordSend, sendsByCompany, sendsToDestination } from './verification-store';
import { TooManyRequests } from '../platform/errors';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Verifications a company may send in any hour, and one destination may get in any day, per channel. */
export const VERIFICATION_SENDS = {
  email: { perCompanyPerHour: 3, perDestinationPerDay: 3 },
  sms: { perCompanyPerHour: 3, perDestinationPerDay: 3 },
} as const satisfies Record<AlertChannel, { perCompanyPerHour: number; perDestinationPerDay: number }>;

export const TOO_MANY_ALERT_ADDRESS_MAILS =
  'Too many verification emails: at most 3 an hour from one account, and 3 a day to one address. Your alert settings were not changed. Please try again later.';
export const TOO_MANY_SMS_CODES = 'Too many codes sent: at most 3 an hour, and 3 a day to one number. Please try again later.';

const MESSAGES: Record<AlertChannel, string> = { email: TOO_MANY_ALERT_ADDRESS_MAILS, sms: TOO_MANY_SMS_CODES };

/** How a destination is counted: an email address in lower case, a number as stored (E.164). */
const destinationKey = (channel: AlertChannel, to: string) => (channel === 'email' ? to.trim().toLowerCase() : to);

/**
 * Counts one verification to `to` for the company, or throws 429 when the company's hourly cap or
 * the destination's daily cap is reached. Run inside write(), before what sends it: a refusal
 * rolls the whole change back.
 */
export function takeVerificationSend(db: Db, companyId: number, channel: AlertChannel, to: string, at: Date): void {
  const limits = VERIFICATION_SENDS[channel];
  const destination = destinationKey(channel, to);
  const hourAgo = new Date(at.getTime() - HOUR).toISOString();
  const dayAgo = new Date(at.getTime() - DAY).toISOString();
  const byCompany = sendsByCompany(db, companyId, channel, hourAgo);
  const byDestination = sendsToDestination(db, destination, channel, dayAgo);
  const waitUntil = (oldest: string | null, window: number) => (oldest ? Date.parse(oldest) + window : at.getTime() + window);
  const refuse = (until: number) => {
    throw new TooManyRequests(MESSAGES[channel], Math.max(1, Math.ceil((until - at.getTime()) / 1000)));
  };
  if (byCompany.n >= limits.perCompanyPerHour) refuse(waitUntil(byCompany.oldest, HOUR));
  if (byDestination.n >= limits.perDestinationPerDay) refuse(waitUntil(byDestination.oldest, DAY));
  // Rows past every window are of no further use.
  recordSend(db, { companyId, channel, destination, createdAt: at.toISOString() }, new Date(at.getTime() - 2 * DAY).toISOString());
}
