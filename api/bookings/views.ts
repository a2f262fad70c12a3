// A booking as each of its readers sees it: the motorist's page (no name or number of theirs, so
// a forwarded link tells little), the driver's page and the operator's portal. Pounds, not pence.
import type { Booking, DriverView, JobView } from '#shared/booking-responses';
import type { BookingStatus } from '#shared/bookings';
import { penceToPounds } from '#shared/money';
import type { BookingPayment } from '#shared/payment-schemas';
import type { BookingWithQuote } from './store';

type History = { status: BookingStatus; at: string }[];

const etaOf = (b: BookingWithQuote) =>
  b.etaMinutes !== null && b.etaAt !== null ? { minutes: b.etaMinutes, at: b.etaAt, fromPosition: b.etaFromPosition === 1 } : null;
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
/** A job for later: its slot and, once accepted, its time window (docs/product.md §23). */
const laterOf = (b: BookingWithQuote) => ({ scheduledFor: b.scheduledFor, windowMinutes: b.windowMinutes });
const positionOf = (b: BookingWithQuote) => (b.pickupLat !== null && b.pickupLng !== null ? { lat: b.pickupLat, lng: b.pickupLng } : null);

export function toJobView(b: BookingWithQuote, history: History): JobView {
  return {
    reference: b.reference,
    status: b.status,
    company: { name: b.companyName, phone: b.companyPhone },
    pickupPostcode: b.pickupPostcode,
    destinationPostcode: b.destinationPostcode,
    registration: b.registration,
    price: penceToPounds(b.pricePence),
    createdAt: b.createdAt,
    respondBy: b.respondBy,
    eta: etaOf(b),
    driverName: b.driverName,
    declineReason: b.declineReason,
    history,
    payment: paymentOf(b),
    ...laterOf(b),
  };
}

export function toDriverView(b: BookingWithQuote): DriverView {
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
    vehicleType: b.vehicleType,
    problemType: b.problemType,
    position: positionOf(b),
    eta: etaOf(b),
    sharingPosition: b.status === 'on_the_way' && b.driverPositionAt !== null,
    ...laterOf(b),
  };
}

export function toBooking(b: BookingWithQuote, history: History, driverUrl: string | null): Booking {
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
    source: b.source ?? 'website',
    takenBy: b.takenBy,

    ...laterOf(b),
  };
}
