// The lead inbox (decision 016): what a stored quote becomes for its operator. Constants and the
// reference reading are shared by the server, the portal's Quotes tab and the widget's contact
// marker, so the lists and the reading of "TQ-4XD8 HBZSR" are written once.

import { REFERENCE_ALPHABET, REFERENCE_LENGTH, REFERENCE_LENGTHS, REFERENCE_PREFIX } from './reference';

/** new → contacted → won / lost, set by the operator; every quote starts as new. */
export const LEAD_STATUSES = ['new', 'contacted', 'won', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = { new: 'New', contacted: 'Contacted', won: 'Won', lost: 'Lost' };

/** What the motorist tapped in the quote form (the widget's `contact` event). */
export const CONTACT_CHANNELS = ['whatsapp', 'phone'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];

/** An email per quote, a summary at 08:00 UK time, or no mail. */
export const ALERT_MODES = ['each', 'daily', 'none'] as const;
export type AlertMode = (typeof ALERT_MODES)[number];
export const ALERT_MODE_LABELS: Record<AlertMode, string> = {
  each: 'An email for every quote',
  daily: 'A daily summary at 08:00',
  none: 'No emails',
};
/**
 * An alert in the outbox: waiting to be sent (or retried), sent, given up after 24 hours, kept
 * unsent because no mail server is configured ("not sent: no mail server configured"), or held
 * until the account's address and the alert address are verified ("waiting for a verified address").
 */
export const ALERT_STATUSES = ['pending', 'sent', 'failed', 'unsent', 'unverified'] as const;
/** How an outbox row goes out. */
export const ALERT_CHANNELS = ['email', 'sms'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** Lead alerts (a quote, the daily summary, a booking's alert or service text), and the account's own mails (each of its own kind, never listed as alerts). */
export const ALERT_KINDS = ['quote', 'daily', 'booking'] as const;
/**
 * A booking's service message to the motorist (received, accepted with its ETA, on the way,
 * completed) is keyed `booking:{id}:motorist:{step}` in the outbox (the operator's `booking:{id}:operator:{step}`). Unlike the operator's alerts it
 * goes out whatever the operator's subscription: the motorist is in the middle of a job
 * (docs/product.md, Alerts).
 */
export const bookingMessageKey = (bookingId: number, audience: 'operator' | 'motorist', step: string) => `booking:${bookingId}:${audience}:${step}`;
export const isMotoristMessage = (dedupeKey: string) => /^booking:\d+:motorist:/.test(dedupeKey);
export const ACCOUNT_MAIL_KINDS = ['verify-email', 'reset-password', 'signup-attempt', 'sign-in-link'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export type AccountMailKind = (typeof ACCOUNT_MAIL_KINDS)[number];
/**
 * Why a text was not sent (api/mail/sms-budget.ts, decision 030): held past a daily text budget
 * until the next UK midnight (its row still pending), or refused for good (failed).
 */
export const TEXT_LIMIT_REACHED = 'not sent: daily text limit reached';
export const NUMBER_ALLOWANCE_USED = 'not sent: too many texts to this number today';
export const NOT_TEXTABLE = 'not sent: not a number we text';
/** What the platform tells an owner about their account's use: the daily text limit reached (api/mail/sms-budget.ts). */
export const NOTICE_KINDS = ['sms-limit'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
/** The code texted to confirm the operator's booking text number (api/bookings/sms-verification.ts). */
export const SMS_CODE_KIND = 'sms-code';
/** The owner's invitation to join the company (api/team/invitation-mail.ts): its link is made as it is sent. */
export const TEAM_INVITATION_KIND = 'team-invitation';
export type OutboxKind = AlertKind | AccountMailKind | NoticeKind | typeof SMS_CODE_KIND | typeof TEAM_INVITATION_KIND;

/** The hour (Europe/London) the daily summary goes out. */
export const DAILY_SUMMARY_HOUR = 8;

/** Quotes older than this many months are deleted nightly, with their notes. */
export const RETENTION_MONTHS = { min: 3, max: 36, default: 24 } as const;

export const LEAD_NOTE_MAX = 500;
/** The Quotes tab's page size, and the most a client may ask for. */
export const LEAD_PAGE_SIZE = { default: 25, max: 100 } as const;

/**
 * A reference as a person types it: any case, with or without `TQ-`, spaces (and dashes inside)
 * ignored. Returns the stored form (upper case, no prefix), or null when it cannot be one: 8
 * characters (the random references before decision 011), 9 (decision 011's permutation) or 10
 * (decision 038's: a time bucket never written TQ, then 8 random characters) of the reference
 * alphabet.
 */
export function readReference(typed: string): string | null {
  let compact = typed.replace(/[\s-]+/g, '').toUpperCase();
  // A reference of 8 or 9 characters may itself begin with TQ; one of 10 never does. So a TQ at
  // the start of 10 or more characters is the prefix.
  if (compact.length > 9 && compact.startsWith(REFERENCE_PREFIX)) compact = compact.slice(REFERENCE_PREFIX.length);
  if (!REFERENCE_SHAPE.test(compact)) return null;
  return compact.length === REFERENCE_LENGTH && compact.startsWith(REFERENCE_PREFIX) ? null : compact;
}

const REFERENCE_SHAPE = new RegExp(`^[${REFERENCE_ALPHABET}]{${Math.min(...REFERENCE_LENGTHS)},${Math.max(...REFERENCE_LENGTHS)}}$`);
