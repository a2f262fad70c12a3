// The quote a booking names, with what booking it needs of its company: found by its reference
// through the unique index on public_id (docs/decisions/038-quote-references-measured-alternatives.md).
import { readReference, type LeadStatus } from '#shared/leads';
import type { Db } from '../platform/db/client';
import { prepared } from '../platform/db/prepared';

export interface QuoteToBook {
  id: number;
  publicId: string;
  companyId: number;
  pickupPostcode: string;
  destinationPostcode: string;
  vehicleType: string;
  problemType: string;
  totalPricePence: number;
  validUntil: string | null;
  createdAt: string;
  leadStatus: LeadStatus;
  companyName: string;
  companyPhone: string | null;
  offerBooking: number;
  /** JSON array of the origins the company's form is on (decision 033). */
  bookingOrigins: string;
  responseMinutes: number;
  smsNumber: string | null;
  /** 1 when the company texts Republic of Ireland mobiles too (api/mail/textable.ts). */
  textIrishMobiles: number;
  /** JSON `[{ label, amountPence }]` as frozen with the quote, or null for quotes from before lines were kept. */
  lines: string | null;
  urgency: string;
  preferredDate: string | null;
  preferredTime: string | null;
  /** Jobs for later (api/dispatch/later.ts): how many days ahead, and how many jobs an hour. */
  laterDaysAhead: number;
  laterJobsPerHour: number;
}

/** The quote of this reference (as typed: any case, with or without TQ-), or undefined; a malformed one has none. */
export function quoteForBooking(db: Db, typed: string): QuoteToBook | undefined {
  const reference = readReference(typed);
  if (reference === null) return undefined;
  return prepared(db, 'bookings:quote', () =>
    db.$client.prepare(
      `select q.id, q.public_id as publicId, q.company_id as companyId, q.pickup_postcode as pickupPostcode,
        q.destination_postcode as destinationPostcode, q.vehicle_type as vehicleType, q.problem_type as problemType,
        q.total_price_pence as totalPricePence, q.valid_until as validUntil, q.created_at as createdAt, q.status as leadStatus,
        c.name as companyName, c.phone as companyPhone, c.offer_booking as offerBooking, c.booking_origins as bookingOrigins,
        c.booking_response_minutes as responseMinutes, case when c.booking_sms_verified_at is not null then c.booking_sms_number end as smsNumber, c.text_irish_mobiles as textIrishMobiles,
        q.lines, q.urgency, q.preferred_date as preferredDate, q.preferred_time as preferredTime,
        c.later_days_ahead as laterDaysAhead, c.later_jobs_per_hour as laterJobsPerHour
       from quotes q join companies c on c.id = q.company_id where q.public_id = ?`,
    ),
  ).get(reference) as QuoteToBook | undefined;
}
