// The driver's side of a job (docs/product.md §20): the driver's page by its link, the steps
// (on the way, arrived, completed), the position and its ETA, and the balance recorded as paid
// (by the driver or the operator).
import type { DriverStep } from '#shared/bookings';
import { balancePaidBy, type BalanceMethod } from '#shared/payments';
import type { DriverView } from '#shared/booking-responses';
import type { QueuedPhoto } from '#shared/proof';
import { lookupPostcode } from '../engine/distance/postcodes';
import { write } from '../platform/db/write';
import { Conflict } from '../platform/errors';
import { etaFromPosition, inJobArea } from './eta';
import { motoristMessages } from './messages';
import {
  bookingByDriverToken,
  bookingById,
  bookingByPayToken,
  markPayLinkTexted,
  recordBalance,
  setDriverPosition,
  setPayLink,
  type BookingWithQuote,
} from './store';
import { hashToken, newSalt } from './tokens';
import { insertOutboxRows } from '../mail/store';
import { JOB_LINK_PLACEHOLDER } from './job-link';
import { balanceBeforePence, balanceDuePence } from './views';
import { ACTOR_LABELS, type Actor, SYSTEM } from '../team/audit';
import { type BookingContext, BALANCE_ALREADY_RECORDED, BALANCE_NOT_NOW, NOTHING_DUE, PAY_LINK_UNAVAILABLE, POSITION_NOT_NOW } from './context';

export function driverPart(ctx: BookingContext) {
  const { deps, db, tokens, alerts, payments, notFound, driverView, operatorView, changed, byToken, ownBooking, move, motoristText, senderOf, driverBooking } =
    ctx;
  /**
   * Records how a completed job's balance was paid: 409 before completion, when nothing is left
   * to pay, or when it is recorded as paid already (the same method again answers the job as it
   * is). A balance on account may later be recorded as paid. The updated receipt follows (the
   * `balance` change, heard by the documents), then the open pages.
   */
  async function recordBalanceOf(b: BookingWithQuote, method: BalanceMethod, who: Actor): Promise<BookingWithQuote> {
    if (b.status !== 'completed') throw new Conflict(BALANCE_NOT_NOW, 'BOOKING_OUT_OF_ORDER');
    if (balanceBeforePence(b) === 0) throw new Conflict(NOTHING_DUE, 'NOTHING_DUE');
    if (b.balanceMethod === method) return b;
    if (balancePaidBy(b.balanceMethod)) throw new Conflict(BALANCE_ALREADY_RECORDED, 'BALANCE_RECORDED');
    const now = deps.now();
    const written = await write(db, () => {
      if (!recordBalance(db, b.id, method, now.toISOString())) return false;
      // Who recorded it, in the same write (docs/product.md, "The team").
      const event = { kind: 'balance-recorded', subject: b.reference, before: { balance: b.balanceMethod }, after: { balance: method } } as const;
      deps.audit(who, { companyId: b.companyId, ...event }, now);
      return true;
    });
    if (!written) throw new Conflict(BALANCE_ALREADY_RECORDED, 'BALANCE_RECORDED');
    await changed(b, 'balance');
    const after = bookingById(db, b.id);
    if (!after) throw notFound();
    return after;
  }

  /**
   * The balance's pay link (docs/product.md §22): made once (a salt kept with the booking, its
   * token's hash looked up) and texted to the motorist once, through the outbox. 409 before
   * completion, with nothing left to pay, once paid, or without a ready payment account.
   */
  async function payLinkOf(b: BookingWithQuote): Promise<BookingWithQuote> {
    if (b.status !== 'completed') throw new Conflict(BALANCE_NOT_NOW, 'BOOKING_OUT_OF_ORDER');
    if (balanceBeforePence(b) === 0) throw new Conflict(NOTHING_DUE, 'NOTHING_DUE');
    const due = balanceDuePence(b);
    if (due === 0) throw new Conflict(BALANCE_ALREADY_RECORDED, 'BALANCE_RECORDED');
    if (!payments?.payLinkReady(b.companyId)) throw new Conflict(PAY_LINK_UNAVAILABLE, 'PAY_LINK_UNAVAILABLE');
    if (b.paySalt && b.payLinkTextedAt) return b;
    const at = deps.now().toISOString();
    const salt = newSalt();
    const texted = await write(db, () => {
      setPayLink(db, b.id, salt, hashToken(tokens.payToken(b.id, salt)));
      const texts = markPayLinkTexted(db, b.id, at) ? alerts.payLink(b, due, at) : [];
      if (texts.length > 0) insertOutboxRows(db, texts);
      return texts.length > 0;
    });
    if (texted) await changed(b, 'balance');
    const after = bookingById(db, b.id);
    if (!after) throw notFound();
    return after;
  }

  return {
    /** The driver's pay link for a completed job's balance: shown as a QR code, and texted to the motorist. */
    async driverPayLink(token: string): Promise<DriverView> {
      return driverView(await payLinkOf(driverBooking(token)));
    },

    /** The pay link of a job found another way (the signed-in driver's own job, api/dispatch/service.ts), as the driver's page shows it. */
    async driverPayLinkOf(b: BookingWithQuote): Promise<DriverView> {
      return driverView(await payLinkOf(b));
    },

    /** The operator's pay link for a completed job's balance, texted to the motorist. */
    async operatorPayLink(companyId: number, reference: string) {
      return operatorView(await payLinkOf(ownBooking(companyId, reference)));
    },

    /** The booking behind a pay link's token, for its page (404 for an unknown one, 410 once the job's page closed). */
    payLinkBooking(token: string): BookingWithQuote {
      return byToken(token, (hash) => bookingByPayToken(db, hash));
    },

    /** The id of the booking behind a driver's token, with the driver's page's 404 and 410 (its rate limit is the route's). */
    driverBookingId(token: string): number {
      return byToken(token, (hash) => bookingByDriverToken(db, hash)).id;
    },

    driver(token: string): DriverView {
      return driverView(driverBooking(token));
    },

    /** The driver's page with its job's id, for its live stream. */
    driverJob(token: string): { id: number; view: DriverView } {
      const b = driverBooking(token);
      return { id: b.id, view: driverView(b) };
    },

    async driverStep(token: string, step: DriverStep, balanceMethod?: BalanceMethod, queuedPhotos?: readonly QueuedPhoto[]): Promise<DriverView> {
      return this.driverStepOf(driverBooking(token), step, balanceMethod, queuedPhotos);
    },

    /** The driver's page of a job found another way (the signed-in driver's own job, api/dispatch/service.ts). */
    driverViewOf: (b: BookingWithQuote): DriverView => driverView(b),

    /** The driver's next step on a job already found: by its token, or as the signed-in driver it is assigned to. */
    async driverStepOf(b: BookingWithQuote, step: DriverStep, balanceMethod?: BalanceMethod, queuedPhotos: readonly QueuedPhoto[] = []): Promise<DriverView> {
      // How the balance was paid goes with completion, in the same write, so the receipt issued then says it; with nothing left to pay there is nothing to record.
      const balance = step === 'completed' && balanceMethod && balanceBeforePence(b) > 0 ? { balanceMethod, balancePaidAt: deps.now().toISOString() } : {};
      const texts =
        step === 'on_the_way'
          ? motoristText(b, 'on_the_way', motoristMessages.onTheWay(senderOf(b), b.reference))
          : step === 'arrived'
            ? motoristText(b, 'arrived', motoristMessages.arrived(senderOf(b), b.reference))
            : step === 'completed'
              ? motoristText(b, 'completed', motoristMessages.completed(senderOf(b), b.reference, JOB_LINK_PLACEHOLDER))
              : [];
      return driverView(await move(b, step, 'driver', balance, null, texts, undefined, undefined, queuedPhotos));
    },

    /** The driver records how the balance of a completed job was paid. */
    async driverBalance(token: string, method: BalanceMethod): Promise<DriverView> {
      return this.driverBalanceOf(driverBooking(token), method, { ...SYSTEM, label: ACTOR_LABELS.driver });
    },

    /** The same on a job found another way (the signed-in driver's own job, api/dispatch/service.ts), recorded as `who`. */
    async driverBalanceOf(b: BookingWithQuote, method: BalanceMethod, who: Actor): Promise<DriverView> {
      return driverView(await recordBalanceOf(b, method, who));
    },

    /** The operator records how the balance of a completed job was paid. */
    async operatorBalance(companyId: number, reference: string, method: BalanceMethod, who: Actor = SYSTEM) {
      return operatorView(await recordBalanceOf(ownBooking(companyId, reference), method, who));
    },

    /** The driver's position while on the way: the motorist's ETA is recomputed from it. */
    async driverPosition(token: string, position: { lat: number; lng: number }): Promise<DriverView> {
      return this.driverPositionOf(
        byToken(token, (hash) => bookingByDriverToken(db, hash)),
        position,
      );
    },

    async driverPositionOf(b: BookingWithQuote, position: { lat: number; lng: number }): Promise<DriverView> {
      if (b.status !== 'on_the_way') throw new Conflict(POSITION_NOT_NOW, 'BOOKING_OUT_OF_ORDER');
      const now = deps.now();
      const pickup =
        b.pickupLat !== null && b.pickupLng !== null ? { lat: b.pickupLat, lng: b.pickupLng } : lookupPostcode(b.pickupPostcode.replace(/\s+/g, ''));
      const destination = lookupPostcode(b.destinationPostcode.replace(/\s+/g, ''));
      // Stored whatever it is (the driver's page shows it), used for the ETA only in the job's area.
      const eta = pickup && inJobArea(position, [pickup, destination ?? undefined]) ? etaFromPosition(position, pickup, now) : null;
      const stored = await write(db, () => setDriverPosition(db, b.id, position.lat, position.lng, now.toISOString(), eta));
      if (!stored) throw new Conflict(POSITION_NOT_NOW, 'BOOKING_OUT_OF_ORDER');
      await changed(b, 'position');
      const after = bookingById(db, b.id);
      if (!after) throw notFound();
      return driverView(after);
    },
  };
}
