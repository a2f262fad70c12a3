// Bookings' rules (docs/product.md, "Bookings"): a quote booked at its frozen price, the
// operator's answer, the driver's steps, the motorist's cancel, expiry, and the alerts and
// service messages each change writes to the outbox in the same transaction. Every change moves
// the status compare-and-set (a change out of order is 409), adds its line to the quote's lead
// history, and is pushed to the job's open status pages.
//
// One file per kind of work, each given the shared context (context.ts: the views, the push to
// open pages, the status move): booking a quote (request.ts), the operator's answer and expiry
// (respond.ts), the driver's side (driver.ts), the motorist's side (motorist.ts) and the
// operator's booking settings (settings.ts). This factory composes them into the one service.
import { bookingContext, type BookingServiceDeps } from './context';
import { driverPart } from './driver';
import { motoristPart } from './motorist';
import { requestPart } from './request';
import { respondPart } from './respond';
import { settingsPart } from './settings';

export {
  ACCOUNT_JOB_RESPOND_MS,
  ALREADY_BOOKED,
  BALANCE_ALREADY_RECORDED,
  BALANCE_NOT_NOW,
  BOOKING_NOT_OFFERED,
  BOOKING_RATE_LIMITED,
  type BookingOrigin,
  type BookingRequestBody,
  type BookingServiceDeps,
  type BookingSettingsBody,
  COMPANY_BOOKINGS_RATE_LIMITED,
  JOB_RATE_LIMITED,
  LATER_REMINDER_MS,
  NO_SMS_PROVIDER,
  NOT_A_LATER_JOB,
  NOTHING_DUE,
  PHONE_NOT_TEXTABLE,
  PHONE_NOT_TEXTABLE_UK_IE,
  type PhoneBookingBody,
  POSITION_NOT_NOW,
  QUOTE_NOT_FOUND,
} from './context';

export function bookingService(deps: BookingServiceDeps) {
  const ctx = bookingContext(deps);
  return {
    ...settingsPart(ctx),
    ...requestPart(ctx),
    ...motoristPart(ctx),
    ...driverPart(ctx),
    ...respondPart(ctx),
  };
}

export type BookingService = ReturnType<typeof bookingService>;
