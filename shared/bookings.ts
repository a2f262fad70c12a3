// Bookings: a quote turned into a job (docs/product.md, "Bookings"). The statuses, who moves a
// job from one to the next, and the limits, written once for the server, the portal, the
// status and driver pages and the widget's booking form.

/**
 * requested → accepted → on_the_way → arrived → loaded → completed, or declined (operator),
 * expired (no answer within the operator's response time) or cancelled (motorist). A booking
 * whose operator takes payment at booking is awaiting_payment until it is paid (or the card
 * held), and only then requested; an abandoned one is deleted (docs/product.md §21).
 */
export const BOOKING_STATUSES = [
  'awaiting_payment',
  'requested',
  'accepted',
  'on_the_way',
  'arrived',
  'loaded',
  'completed',
  'declined',
  'expired',
  'cancelled',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  awaiting_payment: 'Awaiting payment',
  requested: 'Requested',
  accepted: 'Accepted',
  on_the_way: 'On the way',
  arrived: 'Arrived',
  loaded: 'Loaded',
  completed: 'Completed',
  declined: 'Declined',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

/** What the motorist's status page, and the booking form once it has booked, say at the top: as the motorist would put it. */
export const JOB_HEADLINES: Record<BookingStatus, string> = {
  awaiting_payment: 'Waiting for your payment',
  requested: 'Booking sent',
  accepted: 'Accepted',
  on_the_way: 'On the way',
  arrived: 'Arrived',
  loaded: 'Loaded',
  completed: 'Completed',
  declined: 'Declined',
  expired: 'Not answered in time',
  cancelled: 'Cancelled',
};

/** Who moves a job: the operator in the portal, the driver's page, the motorist's page, or the server (expiry, payment received). */
export type BookingActor = 'operator' | 'driver' | 'motorist' | 'system';

/** Every allowed change, with who may make it. Anything else is out of order (409). */
const TRANSITIONS: Record<BookingStatus, Partial<Record<BookingStatus, readonly BookingActor[]>>> = {
  awaiting_payment: { requested: ['system'] },
  requested: { accepted: ['operator'], declined: ['operator'], expired: ['system'], cancelled: ['motorist'] },
  accepted: { on_the_way: ['driver', 'operator'], cancelled: ['motorist', 'operator'] },
  on_the_way: { arrived: ['driver', 'operator'] },
  arrived: { loaded: ['driver', 'operator'] },
  loaded: { completed: ['driver', 'operator'] },
  completed: {},
  declined: {},
  expired: {},
  cancelled: {},
};

export function canMove(from: BookingStatus, to: BookingStatus, actor: BookingActor): boolean {
  return TRANSITIONS[from][to]?.includes(actor) ?? false;
}

/** The statuses a driver's buttons move a job to, in order. */
export const DRIVER_STEPS = ['on_the_way', 'arrived', 'loaded', 'completed'] as const;
export type DriverStep = (typeof DRIVER_STEPS)[number];

/** Statuses after which nothing changes any more. */
export const FINISHED_STATUSES: readonly BookingStatus[] = ['completed', 'declined', 'expired', 'cancelled'];
export const isFinished = (status: BookingStatus) => FINISHED_STATUSES.includes(status);

/**
 * The motorist's service texts an operator may turn off one by one (docs/product.md §20); the
 * first text, with the status page's link, always goes.
 */
export const MOTORIST_TEXT_STEPS = ['accepted', 'on_the_way', 'arrived', 'completed', 'declined', 'expired', 'cancelled'] as const;
export type MotoristTextStep = (typeof MOTORIST_TEXT_STEPS)[number];
export const MOTORIST_TEXT_LABELS: Record<MotoristTextStep, string> = {
  accepted: 'Accepted, with the ETA and the driver’s first name',
  on_the_way: 'On the way',
  arrived: 'Arrived',
  completed: 'Completed, with the receipt link',
  declined: 'Declined, with your number',
  expired: 'Not answered in time, with your number',
  cancelled: 'Cancelled by the customer',
};

/**
 * The review request an hour after completion (docs/product.md §20): off, a text, or an email to
 * a motorist who gave their address when booking (none given, none sent).
 */
export const REVIEW_MODES = ['off', 'sms', 'email'] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];
/** It goes this long after the job completed. */
export const REVIEW_AFTER_MS = 60 * 60_000;
export const REVIEW_URL_INVALID = 'Enter your review page’s address, starting with https://';

/** The operator's response time: a booking not answered within it expires. */
export const BOOKING_RESPONSE_MINUTES = { min: 2, max: 60, default: 10 } as const;
/** What an operator may promise, in minutes. */
export const ETA_MINUTES = { min: 1, max: 600 } as const;
/** A job page closes (410) this long after the job completed. */
export const JOB_PAGE_CLOSES_AFTER_MS = 24 * 60 * 60 * 1000;

export const BOOKING_NAME_MAX = 80;
export const BOOKING_NOTE_MAX = 300;
/** The longest email address a booking takes (the longest a mail server delivers to). */
export const BOOKING_EMAIL_MAX = 254;
export const BOOKING_EMAIL_INVALID = 'Enter a valid email address, such as name@example.com, or leave it blank';
export const BOOKING_EMAIL_LABEL = 'Email (optional)';
/** Under the booking form's email field: what the address is for, and nothing else. */
export const bookingEmailHint = (companyName: string) => `Used only to ask for your review after the job, if ${companyName} asks by email.`;
export const DECLINE_REASON_MAX = 200;
export const DRIVER_NAME_MAX = 60;

/** Which of the three ways on from a quote the page offers. */
export const PAGE_BUTTONS = ['booking', 'whatsapp', 'call'] as const;

/** The one line the motorist reads before sending a booking: who gets the details and for how long. */
export const bookingPrivacyLine = (companyName: string, retentionMonths: number) =>
  `${companyName} receives your name, number, registration, note and any email to do this job; they are kept with the quote for ${retentionMonths} months, then deleted.`;

const londonTime = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
/** A time as the job's texts and pages say it: "14:05", UK time. */
export const clockTime = (iso: string) => londonTime.format(new Date(iso));

export const QUOTE_EXPIRED_FOR_BOOKING = 'This price has expired. Please get a fresh quote to book.';
export const BOOKING_OUT_OF_ORDER = 'This job cannot move to that status now.';
export const JOB_NOT_FOUND = 'Job not found';
export const JOB_PAGE_CLOSED = 'This job was completed more than a day ago, and its page has closed.';

/** The websites a company's form is on (decision 033): at most this many. */
export const BOOKING_ORIGINS_MAX = 10;
export const BOOKING_ORIGIN_INVALID = 'Enter a website address starting with https://, e.g. https://www.example.co.uk';
export const BOOKING_ORIGINS_TOO_MANY = `At most ${BOOKING_ORIGINS_MAX} websites`;
/** The refusal of a booking posted from a website the company has not listed (403 BOOKING_ORIGIN_REFUSED). */
export const BOOKING_ORIGIN_REFUSED = 'This website cannot take bookings for this company. Please finish your booking on the company’s own page.';

/**
 * A website address as the origin a browser sends (`https://host[:port]`, lower case, no path),
 * or undefined when it is not one: https only, but for http on this machine (localhost,
 * 127.0.0.1, [::1]) while a site is being built. A path, query or trailing slash is dropped, as
 * an operator may paste a page's address; user names and passwords are refused.
 */
export function websiteOrigin(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.username || url.password || !url.hostname) return undefined;
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) return undefined;
  return url.origin;
}
