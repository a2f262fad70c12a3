// The messages a booking's changes write to the outbox, in the change's own transaction: the
// operator's alerts of a requested booking (email, and a text to a confirmed number) and the
// motorist's service texts, whose status page link the outbox puts in as it sends them
// (api/bookings/job-link.ts); the operator's alerts of a motorist's cancel; the review request.
// Shared by the booking itself (api/bookings/request.ts) and by a payment that settles one
// (api/bookings/payment-side.ts).
import { MOTORIST_TEXT_STEPS, type BookingStatus, type MotoristTextStep } from '#shared/bookings';
import { bookingMessageKey, type LeadStatus } from '#shared/leads';
import { alertRecipient } from '../alerts/recipient';
import { alertAddresses, insertOutboxRows, mayMail, type NewOutboxRow } from '../mail/store';
import type { AppDeps } from '../platform/deps';
import { JOB_LINK_PLACEHOLDER, JOB_LINK_SHOWN, PAY_LINK_PLACEHOLDER, PAY_LINK_SHOWN } from './job-link';
import {
  motoristMessages,
  motoristReviewEmail,
  operatorBookingEmail,
  operatorBookingSms,
  operatorCancelledEmail,
  operatorCancelledSms,
  type BookingFacts,
  type MotoristSender,
} from './messages';
import { motoristSender } from './sender';
import type { BookingWithQuote } from './store';

export const NO_SMS_PROVIDER = 'not sent: no SMS provider configured';

/** The lead status a quote is left in by a booking change: booked is contacted, accepted and after is won. */
export function leadStatusAfter(booking: BookingStatus, current: LeadStatus): LeadStatus {
  if (booking === 'requested') return current === 'new' ? 'contacted' : current;
  if (booking === 'accepted' || booking === 'on_the_way' || booking === 'arrived' || booking === 'loaded' || booking === 'completed') return 'won';
  return current;
}

/** The motorist's texts a company turned off, from their stored JSON (unknown entries dropped). */
export function textsOff(stored: string): MotoristTextStep[] {
  try {
    const list: unknown = JSON.parse(stored);
    return Array.isArray(list) ? MOTORIST_TEXT_STEPS.filter((step) => list.includes(step)) : [];
  } catch {
    return [];
  }
}

/** The facts a stored booking's alerts and texts are made of. */
export const factsOfBooking = (b: BookingWithQuote): Omit<BookingFacts, 'respondBy'> => ({
  reference: b.reference,
  companyName: b.companyName,
  companyPhone: b.companyPhone,
  customerName: b.customerName,
  customerPhone: b.customerPhone,
  registration: b.registration,
  note: b.note,
  position: b.pickupLat !== null && b.pickupLng !== null ? { lat: b.pickupLat, lng: b.pickupLng } : null,
  pickupPostcode: b.pickupPostcode,
  destinationPostcode: b.destinationPostcode,
  vehicleType: b.vehicleType,
  problemType: b.problemType,
  gearboxType: b.gearboxType,
  rollingStatus: b.rollingStatus,
  passengerCount: b.passengerCount,
  distance: b.distance,
  pricePence: b.pricePence,
});

export function bookingAlerts(deps: Pick<AppDeps, 'db' | 'config' | 'now'>) {
  const { db, config } = deps;
  const smsReady = config.sms !== undefined;
  const mailReady = config.mail.smtpUrl !== undefined;

  function outboxRow(
    b: { id: number; companyId: number },
    channel: 'email' | 'sms',
    audience: 'operator' | 'motorist',
    step: string,
    to: string,
    content: { subject: string; text: string; html: string },
    at: string,
  ): NewOutboxRow {
    // The operator's mail goes only to an address the owner has verified, as every alert
    // (api/mail/worker.ts): until then it is held "waiting for a verified address". The motorist's
    // one mail (the review request) goes to the address they typed for it when booking.
    const verified = channel === 'sms' || audience === 'motorist' || mayMail(db, b.companyId, to);
    const ready = verified && (channel === 'sms' ? smsReady : mailReady);
    return {
      companyId: b.companyId,
      bookingId: b.id,
      kind: 'booking',
      channel,
      dedupeKey: bookingMessageKey(b.id, audience, step),
      to,
      ...content,
      status: !verified ? 'unverified' : ready ? 'pending' : 'unsent',
      attempts: 0,
      nextAttemptAt: ready ? at : null,
      lastError: ready || !verified ? null : channel === 'sms' ? NO_SMS_PROVIDER : 'not sent: no mail server configured',
      createdAt: at,
    };
  }
  // The subject is what the operator's alert list shows of a text: never its link's token.
  const sms = (b: { id: number; companyId: number }, audience: 'operator' | 'motorist', step: string, to: string, body: string, at: string) =>
    outboxRow(
      b,
      'sms',
      audience,
      step,
      to,
      { subject: body.replaceAll(JOB_LINK_PLACEHOLDER, JOB_LINK_SHOWN).replaceAll(PAY_LINK_PLACEHOLDER, PAY_LINK_SHOWN).slice(0, 120), text: body, html: '' },
      at,
    );

  /** Who the company's motorist texts are from now: its name once checked, else the platform's wording (api/bookings/sender.ts). */
  const senderOf = (b: { companyId: number; companyName: string }): MotoristSender =>
    motoristSender(db, { id: b.companyId, name: b.companyName }, deps.now(), config.billing.mode);

  return {
    senderOf,

    /**
     * The motorist's text of a step, made now, unless the operator turned that text off (the
     * booking's company's `motoristTextsOff`): written once (its key), sent by the outbox. A caller
     * booked by phone is always sent theirs: it carries the only link to their status page. None
     * for a job on account with no contact mobile (customer_phone '').
     */
    // A later job's reminder is not one of the steps the operator turns off.
    motoristText: (
      b: Pick<BookingWithQuote, 'id' | 'companyId' | 'customerPhone'> & { motoristTextsOff?: string },
      key: MotoristTextStep | 'reminder',
      body: string,
    ) =>
      b.customerPhone === '' || (b.motoristTextsOff !== undefined && key !== 'reminder' && textsOff(b.motoristTextsOff).includes(key))
        ? []
        : [sms(b, 'motorist', key, b.customerPhone, body, deps.now().toISOString())],

    /** The operator's email and text (to the confirmed number) when the motorist cancels: a driver may have set off. */
    cancelled(b: BookingWithQuote): NewOutboxRow[] {
      const at = deps.now().toISOString();
      const facts = {
        reference: b.reference,
        customerName: b.customerName,
        customerPhone: b.customerPhone,
        registration: b.registration,
        pickupPostcode: b.pickupPostcode,
        destinationPostcode: b.destinationPostcode,
        driverName: b.driverName,
        wasAccepted: b.status !== 'requested',
      };
      const rows: NewOutboxRow[] = [];
      const addresses = alertAddresses(db, b.companyId);
      const to = addresses ? alertRecipient(addresses) : null;
      if (to) rows.push(outboxRow(b, 'email', 'operator', 'cancelled-email', to, operatorCancelledEmail(facts, config.publicUrl), at));
      if (b.companySmsNumber) rows.push(sms(b, 'operator', 'cancelled-sms', b.companySmsNumber, operatorCancelledSms(facts), at));
      return rows;
    },

    /** The balance's pay link texted to the motorist (docs/product.md §22), once per job (its key); none without a mobile. */
    payLink(b: BookingWithQuote, balancePence: number, at: string): NewOutboxRow[] {
      if (b.customerPhone === '') return [];
      return [sms(b, 'motorist', 'pay-link', b.customerPhone, motoristMessages.payLink(senderOf(b), b.reference, balancePence, PAY_LINK_PLACEHOLDER), at)];
    },

    /** The review request of a completed job, from a checked sender, with its one-tap opt-out on the status page. */
    review(b: BookingWithQuote, sender: string, reviewUrl: string, at: string): NewOutboxRow {
      return sms(b, 'motorist', 'review', b.customerPhone, motoristMessages.review(sender, reviewUrl, `${JOB_LINK_PLACEHOLDER}?reviews=off`), at);
    },

    /**
     * The review request by email, to the address the motorist gave when booking, from a checked
     * sender: as the text, its one-tap opt-out is the status page's link, put in as it is sent.
     */
    reviewEmail(b: BookingWithQuote, to: string, sender: string, reviewUrl: string, at: string): NewOutboxRow {
      return outboxRow(b, 'email', 'motorist', 'review-email', to, motoristReviewEmail(sender, reviewUrl, `${JOB_LINK_PLACEHOLDER}?reviews=off`), at);
    },

    /** The motorist's 'received' text of a job booked by the operator on an account (docs/product.md §26), inside its transaction. */
    accountJobReceived(ref: { id: number; companyId: number }, facts: BookingFacts, at: string) {
      const sender = senderOf({ companyId: ref.companyId, companyName: facts.companyName });
      insertOutboxRows(db, [sms(ref, 'motorist', 'received', facts.customerPhone, motoristMessages.received(sender, facts, JOB_LINK_PLACEHOLDER), at)]);
    },

    /**
     * A booking just requested, inside its transaction: the operator's alerts and the motorist's
     * text. `smsNumber` is the operator's booking text number only once confirmed (sms-verification.ts).
     */
    requested(ref: { id: number; companyId: number }, facts: BookingFacts, smsNumber: string | null, at: string) {
      const rows: NewOutboxRow[] = [];
      const addresses = alertAddresses(db, ref.companyId);
      const to = addresses ? alertRecipient(addresses) : null;
      if (to) rows.push(outboxRow(ref, 'email', 'operator', 'email', to, operatorBookingEmail(facts, config.publicUrl), at));
      if (smsNumber) rows.push(sms(ref, 'operator', 'sms', smsNumber, operatorBookingSms(facts, config.publicUrl), at));
      rows.push(
        sms(
          ref,
          'motorist',
          'received',
          facts.customerPhone,
          motoristMessages.received(senderOf({ companyId: ref.companyId, companyName: facts.companyName }), facts, JOB_LINK_PLACEHOLDER),
          at,
        ),
      );
      insertOutboxRows(db, rows);
    },
  };
}

export type BookingAlerts = ReturnType<typeof bookingAlerts>;
