// The bookings' shared context (docs/product.md, "Bookings"): what every kind of booking work
// needs: the tokens, the views, the push of a job's new state to its open pages, and the status
// move compare-and-set (a change out of order is 409) with its lead history line, audit line and
// texts in the same transaction. Each kind of work is its own file beside this one (request.ts,
// respond.ts, driver.ts, motorist.ts, settings.ts); service.ts composes them.
import {
  BOOKING_OUT_OF_ORDER,
  canMove,
  isFinished,
  JOB_NOT_FOUND,
  JOB_PAGE_CLOSED,
  JOB_PAGE_CLOSES_AFTER_MS,
  type BookingActor,
  type BookingStatus,
} from '#shared/bookings';
import { jobPageDone } from '#shared/payments';
import type { JobView } from '#shared/booking-responses';
import type { phoneBookingSchema } from '#shared/phone-jobs';
import { readReference } from '#shared/leads';
import type { QueuedPhoto } from '#shared/proof';
import type { z } from 'zod';
import type { bookingRequestSchema, bookingSettingsUpdateSchema } from '#shared/booking-schemas';
import { insertOutboxRows, type NewOutboxRow } from '../mail/store';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import type { JobChangeKind } from '../platform/events';
import { Conflict, Gone, NotFound } from '../platform/errors';
import { checkRequiredPhotos, keepPromises } from '../proof/required';
import type { LiveHub } from './live';
import { bookingAlerts, leadStatusAfter } from './alerts';
import { smsVerification } from './sms-verification';
import { bookingByDriverToken, bookingById, bookingByReference, bookingHistory, moveBooking, type BookingWithQuote, type StatusPatch } from './store';
import { bookingTokens, hashToken, jobTokenBox, TOKEN_PATTERN } from './tokens';
import { balanceDuePence, type PayLinkView, toBooking, toDriverView, toJobView } from './views';
import { payUrl } from './job-link';
import type { PaymentService } from '../payments/service';
import { ACTOR_LABELS, type Actor, type AuditEvent, SYSTEM } from '../team/audit';

export const QUOTE_NOT_FOUND = 'Quote not found';
export const ALREADY_BOOKED = 'This quote is already booked.';
export const BOOKING_NOT_OFFERED = 'This company does not take bookings online. Please call them.';
export const BOOKING_RATE_LIMITED = 'Too many bookings from here. Please call the company instead.';
export const COMPANY_BOOKINGS_RATE_LIMITED = 'This company has had too many bookings online in the last hour. Please call them instead.';
/** A mobile number the company's texts may not go to (api/mail/textable.ts), under `fields.phone`. */
export const PHONE_NOT_TEXTABLE = 'We can only text UK mobile numbers. Please enter a UK mobile number, such as 07700 900123.';
export const PHONE_NOT_TEXTABLE_UK_IE = 'We can only text UK and Irish mobile numbers. Please enter a UK or Irish mobile number.';
export const JOB_RATE_LIMITED = 'Too many requests. Please wait a minute and try again.';
export const POSITION_NOT_NOW = 'Your position is shared only while you are on the way.';
export const BALANCE_NOT_NOW = 'The balance is recorded once the job is completed.';
export const NOTHING_DUE = 'Nothing is left to pay on this job.';
export const BALANCE_ALREADY_RECORDED = 'The balance of this job is recorded as paid already.';
export const PAY_LINK_UNAVAILABLE = 'A pay link needs your payment account connected and ready: see Payments in the portal.';
export { NO_SMS_PROVIDER } from './alerts';
/** A job on account was made by the operator: it waits a day for its acceptance, not the motorist's few minutes. */
export const ACCOUNT_JOB_RESPOND_MS = 24 * 3_600_000;

export const NOT_A_LATER_JOB = 'This job is for now: accept it with an ETA.';
/** A later job's motorist is reminded this long before its slot. */
export const LATER_REMINDER_MS = 60 * 60_000;

export type BookingRequestBody = z.output<typeof bookingRequestSchema>;
export type BookingSettingsBody = z.output<typeof bookingSettingsUpdateSchema>;
export type PhoneBookingBody = z.output<typeof phoneBookingSchema>;

export interface BookingServiceDeps extends Pick<AppDeps, 'db' | 'config' | 'now' | 'events' | 'audit'> {
  live: LiveHub;
  /** Payment at booking (docs/product.md §21); without it every booking is requested at once. */
  payments?: PaymentService;
}

const finishedAtOf = (status: BookingStatus) => isFinished(status);
const driverUrl = (publicUrl: string, token: string) => `${publicUrl}/driver/${token}`;

/** Where a booking was posted from: the browser's Origin header (none from a program), and the origin the request reached us at. */
export interface BookingOrigin {
  origin?: string;
  ownOrigin?: string;
}

export function parseOrigins(stored: string): string[] {
  try {
    const list: unknown = JSON.parse(stored);
    return Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string') : [];
  } catch {
    return [];
  }
}

export function bookingContext(deps: BookingServiceDeps) {
  const { db, config, live, payments } = deps;
  const tokens = bookingTokens(config.sessionSecret);
  const box = jobTokenBox(config.sessionSecret);
  const smsReady = config.sms !== undefined;
  const smsCodes = smsVerification(deps);
  const alerts = bookingAlerts(deps);

  const notFound = () => new NotFound(JOB_NOT_FOUND);
  function historyOf(b: BookingWithQuote) {
    return bookingHistory(db, b.quoteId);
  }
  const jobView = (b: BookingWithQuote): JobView => toJobView(b, historyOf(b), config.map);
  /** The balance's pay link (docs/product.md §22): offered on a completed job with a balance due and a ready payment account; the link once made. */
  function payLinkView(b: BookingWithQuote): PayLinkView {
    const due = b.status === 'completed' && balanceDuePence(b) > 0;
    return {
      payByLink: due && (payments?.payLinkReady(b.companyId) ?? false),
      payLink: due && b.paySalt ? payUrl(config.publicUrl, tokens.payToken(b.id, b.paySalt)) : null,
    };
  }
  const driverView = (b: BookingWithQuote) => toDriverView(b, payLinkView(b));
  /** The operator's view: the driver's page while the job is accepted and under way. */
  const operatorView = (b: BookingWithQuote) =>
    toBooking(
      b,
      historyOf(b),
      isFinished(b.status) || b.status === 'requested' ? null : driverUrl(config.publicUrl, tokens.driverToken(b.id, b.driverSalt)),
      payLinkView(b),
    );

  /**
   * Pushes the job's new state to its open pages, the motorist's and the driver's; a finished
   * job's motorist streams end after it once nothing more will change, so not while its money is
   * still to follow or its balance to be recorded (the refund of a declined job shows on the open
   * page, docs/product.md §21); the driver's end with the job.
   */
  function publish(id: number) {
    const motorist = live.watched(id);
    const driver = live.watched(id, 'driver');
    if (!motorist && !driver) return;
    const b = bookingById(db, id);
    if (!b) return;
    if (motorist) {
      const view = jobView(b);
      live.publish(id, 'job', JSON.stringify(view));
      if (jobPageDone(view)) live.closeJob(id);
    }
    // The driver's open page hears of a cancellation as the motorist's does (docs/product.md §20).
    if (driver) {
      live.publish(id, 'job', JSON.stringify(driverView(b)), 'driver');
      if (isFinished(b.status)) live.closeJob(id, 'driver');
    }
  }
  // Whatever changed a job (a move, a position, a refund, a payment settled or followed late, a
  // balance recorded), its open pages see it, after the money and the documents followed.
  deps.events.on('job.changed', (change) => publish(change.bookingId));

  /** Tells the app a job changed (api/platform/events.ts): the money, the documents, the live pages and the outbox follow. */
  const changed = (b: { id: number; companyId: number }, kind: JobChangeKind) =>
    deps.events.emit('job.changed', { companyId: b.companyId, bookingId: b.id, kind });

  /** A token from a path: one of ours by shape, else the same 404 as an unknown one. */
  function byToken(token: string, find: (hash: string) => BookingWithQuote | undefined): BookingWithQuote {
    if (!TOKEN_PATTERN.test(token)) throw notFound();
    const b = find(hashToken(token));
    if (!b) throw notFound();
    if (b.finishedAt && deps.now().getTime() - Date.parse(b.finishedAt) > JOB_PAGE_CLOSES_AFTER_MS) throw new Gone(JOB_PAGE_CLOSED, 'JOB_CLOSED');
    return b;
  }

  /** The operator's booking by its quote's reference, of their company only. */
  function ownBooking(companyId: number, typed: string): BookingWithQuote {
    const reference = readReference(typed);
    const b = reference === null ? undefined : bookingByReference(db, reference);
    if (!b || b.companyId !== companyId) throw new NotFound('Booking not found');
    return b;
  }

  /**
   * Moves `b` to `to` if `actor` may, with the status's side effects: the history line, the
   * motorist's service text and the push to open pages. 409 when out of order or overtaken.
   */
  async function move(
    b: BookingWithQuote,
    to: BookingStatus,
    actor: BookingActor,
    patch: StatusPatch = {},
    note: string | null = null,
    texts: NewOutboxRow[] = [],
    /** Who moved it, for the audit log (docs/product.md, "The team"): the signed-in person, else the driver's link, the motorist or the system. */
    who: Actor = { ...SYSTEM, label: ACTOR_LABELS[actor] },
    /** The audit log's line when not a plain status change (an accept with its ETA, a decline with its reason). */
    event?: Omit<AuditEvent, 'companyId' | 'subject'>,
    /** With Loaded or Completed: the photos of the stage the phone holds queued (decision 050). */
    queuedPhotos: readonly QueuedPhoto[] = [],
  ) {
    if (!canMove(b.status, to, actor)) throw new Conflict(BOOKING_OUT_OF_ORDER, 'BOOKING_OUT_OF_ORDER');
    // The operator's photo rule, whoever moves the job (api/proof/required.ts).
    const photos = checkRequiredPhotos(db, b, to, queuedPhotos);
    const now = deps.now();
    const at = now.toISOString();
    const full: StatusPatch = { ...patch, ...(finishedAtOf(to) ? { finishedAt: at } : {}), ...(to === 'completed' ? { forgetPositions: true } : {}) };
    const moved = await write(db, () => {
      const ok = moveBooking(db, b.id, b.status, to, at, full, { quoteId: b.quoteId, status: leadStatusAfter(to, b.leadStatus), note });
      if (ok && texts.length > 0) insertOutboxRows(db, texts);
      if (ok) keepPromises(db, b, photos, at);
      if (ok) {
        deps.audit(
          who,
          { companyId: b.companyId, subject: b.reference, ...(event ?? { kind: 'booking-status', before: { status: b.status }, after: { status: to } }) },
          now,
        );
      }
      return ok;
    });
    if (!moved) throw new Conflict(BOOKING_OUT_OF_ORDER, 'BOOKING_OUT_OF_ORDER');
    // The money follows (a refund or a released hold when the job will not happen, a hold taken
    // when it is done), then a completed job's receipt, the open pages and the texts.
    await changed(b, to);
    const after = bookingById(db, b.id);
    if (!after) throw notFound();
    return after;
  }

  const { motoristText, senderOf } = alerts;

  /** A driver's token from a path: its job, else 404 (410 once its page closed). */
  const driverBooking = (token: string) => byToken(token, (hash) => bookingByDriverToken(db, hash));

  return {
    deps,
    db,
    config,
    payments,
    tokens,
    box,
    smsReady,
    smsCodes,
    alerts,
    notFound,
    jobView,
    driverView,
    payLinkView,
    operatorView,
    changed,
    byToken,
    ownBooking,
    move,
    motoristText,
    senderOf,
    driverBooking,
  };
}

export type BookingContext = ReturnType<typeof bookingContext>;
