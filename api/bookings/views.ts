// A booking as each of its readers sees it: the motorist's page (no name or number of theirs, so
// a forwarded link tells little), the driver's page and the operator's portal. Pounds, not pence.
import type { Booking, DriverView, JobView } from '#shared/booking-responses';
import type { BookingStatus } from '#shared/bookings';
import { penceToPounds } from '#shared/money';
import { BALANCE_METHODS, balancePaidBy, balancePence, type BalanceMethod } from '#shared/payments';
import { gearboxWords, problemWords, rollingWords, vehicleWords } from '#shared/quote-words';
import type { BookingPayment } from '#shared/payment-schemas';
import type { BookingWithQuote } from './store';

type History = { status: BookingStatus; at: string }[];

const etaOf = (b: BookingWithQuote) =>
  b.etaMinutes !== null && b.etaAt !== null ? { minutes: b.etaMinutes, at: b.etaAt, fromPosition: b.etaFromPosition === 1 } : null;
/** The ETA as the motorist's and the driver's pages carry it: only while the driver is yet to arrive, never an old one after. */
const pendingEtaOf = (b: BookingWithQuote) => (b.status === 'accepted' || b.status === 'on_the_way' ? etaOf(b) : null);
/** The payment at booking; the checkout link only while it is awaited (docs/product.md §21). */
export const paymentOf = (b: BookingWithQuote): BookingPayment | null =>
  b.paymentKind === null || b.paymentStatus === null
    ? null
    : {
        kind: b.paymentKind,
        status: b.paymentStatus,
        amount: penceToPounds(b.paymentAmountPence ?? 0),
        refunded: penceToPounds(b.paymentRefundedPence ?? 0),
        checkoutUrl: b.paymentStatus === 'awaiting' ? b.paymentCheckoutUrl : null,
      };
const amountsOf = (b: BookingWithQuote) =>
  b.paymentStatus === null ? null : { status: b.paymentStatus, amountPence: b.paymentAmountPence ?? 0, refundedPence: b.paymentRefundedPence ?? 0 };
/** What is left to pay of the price after payment at booking, before any balance recorded. */
export const balanceBeforePence = (b: BookingWithQuote) => balancePence(b.pricePence, amountsOf(b));
/** What is still to pay: nothing once the balance is recorded as paid. */
export const balanceDuePence = (b: BookingWithQuote) => (balancePaidBy(b.balanceMethod) ? 0 : balanceBeforePence(b));
const balanceOf = (b: BookingWithQuote) => ({
  balance: penceToPounds(balanceDuePence(b)),
  balanceRecorded: (BALANCE_METHODS as readonly string[]).includes(b.balanceMethod ?? '') ? (b.balanceMethod as BalanceMethod) : null,
});

/** A job for later: its slot and, once accepted, its time window (docs/product.md §23). */
const laterOf = (b: BookingWithQuote) => ({ scheduledFor: b.scheduledFor, windowMinutes: b.windowMinutes });
const positionOf = (b: BookingWithQuote) => (b.pickupLat !== null && b.pickupLng !== null ? { lat: b.pickupLat, lng: b.pickupLng } : null);

/** The driver's position, shown to the motorist only while on the way and shared. */
const driverPositionOf = (b: BookingWithQuote) =>
  b.status === 'on_the_way' && b.driverLat !== null && b.driverLng !== null && b.driverPositionAt !== null ? { lat: b.driverLat, lng: b.driverLng } : null;

export function toJobView(b: BookingWithQuote, history: History, map?: { tilesUrl: string; attribution: string }): JobView {
  const driverPosition = driverPositionOf(b);
  return {
    reference: b.reference,
    status: b.status,
    company: { name: b.companyName, phone: b.companyPhone, quotePath: b.companySlug ? `/company/${encodeURIComponent(b.companySlug)}` : null },
    pickupPostcode: b.pickupPostcode,
    destinationPostcode: b.destinationPostcode,
    registration: b.registration,
    price: penceToPounds(b.pricePence),
    createdAt: b.createdAt,
    respondBy: b.respondBy,
    eta: pendingEtaOf(b),
    driverName: b.driverName,
    declineReason: b.declineReason,
    history,
    payment: paymentOf(b),
    ...balanceOf(b),
    onAccount: b.onAccount === 1,
    driverPosition,
    map: driverPosition && map ? map : null,

    ...laterOf(b),
  };
}

/** The balance's pay link as a view carries it (docs/product.md §22): whether one may be made, and the link once made. */
export interface PayLinkView {
  payByLink: boolean;
  payLink: string | null;
}
const NO_PAY_LINK: PayLinkView = { payByLink: false, payLink: null };

export function toDriverView(b: BookingWithQuote, pay: PayLinkView = NO_PAY_LINK): DriverView {
  return {
    reference: b.reference,
    status: b.status,
    companyName: b.companyName,
    customerName: b.customerName,
    customerPhone: b.customerPhone,
    registration: b.registration,
    note: b.note,
    pickupPostcode: b.pickupPostcode,
    destinationPostcode: b.destinationPostcode,
    vehicleType: vehicleWords(b.vehicleType, 'sentence'),
    problemType: problemWords(b.problemType, 'sentence'),
    gearbox: b.gearboxType ? gearboxWords(b.gearboxType, 'sentence') : null,
    rolling: b.rollingStatus ? rollingWords(b.rollingStatus, 'sentence') : null,
    passengers: b.passengerCount,
    ...balanceOf(b),
    ...pay,
    position: positionOf(b),
    eta: pendingEtaOf(b),
    sharingPosition: b.status === 'on_the_way' && b.driverPositionAt !== null,
    ...laterOf(b),
  };
}

export function toBooking(b: BookingWithQuote, history: History, driverUrl: string | null, pay: PayLinkView = NO_PAY_LINK): Booking {
  return {
    reference: b.reference,
    status: b.status,
    customerName: b.customerName,
    customerPhone: b.customerPhone,
    registration: b.registration,
    note: b.note,
    position: positionOf(b),
    pickupPostcode: b.pickupPostcode,
    destinationPostcode: b.destinationPostcode,
    vehicleType: b.vehicleType,
    price: penceToPounds(b.pricePence),
    createdAt: b.createdAt,
    respondBy: b.respondBy,
    acceptedAt: b.acceptedAt,
    eta: etaOf(b),
    driverName: b.driverName,
    declineReason: b.declineReason,
    driverUrl,
    history,
    payment: paymentOf(b),
    ...balanceOf(b),
    ...pay,
    source: b.source ?? 'website',
    takenBy: b.takenBy,

    ...laterOf(b),
  };
}
