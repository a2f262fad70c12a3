// The Quotes tab's export: RFC 4180 CSV that Excel opens as UTF-8 (a byte-order mark first), with
// pounds as plain numbers (143.75), en-GB dates and times in UK time, and no cell a spreadsheet
// would run as a formula. Streamed: rows are read a chunk at a time as the client takes them.
// A booked quote's row carries its booking: the motorist's details, the operator's answer.
import { BOOKING_STATUS_LABELS } from '#shared/bookings';
import { LEAD_STATUS_LABELS } from '#shared/leads';
import { PAYMENT_CSV_COLUMNS, paymentLabel, takenPence } from '#shared/payments';
import { formatPhoneNational } from '#shared/phone-number';
import { JOB_SOURCE_LABELS } from '#shared/phone-jobs';
import { gearboxWords, neededWords, plainPounds, problemWords, rollingWords, vehicleWords } from '#shared/quote-words';
import type { BookingExportRow, LeadExportRow } from './store';
import { contactTaps } from './view';
import { paymentAmountsOfRow } from '../payments/store';

/** A quote with its booking, if it was booked. */
export type ExportRow = LeadExportRow & { booking?: BookingExportRow };
import { ukDate, ukDateAndTime } from '../engine/calendar/uk-calendar';

export interface CsvOptions {
  /** A VAT-registered operator's export splits each total into net, VAT and gross. */
  vatRegistered: boolean;
}

const PRICE_COLUMNS = ['Total (£)'];
const VAT_PRICE_COLUMNS = ['Net (£)', 'VAT (£)', 'Gross (£)'];

export const csvHeader = ({ vatRegistered }: CsvOptions): string[] =>
  CSV_HEADER.flatMap((column) => (column === PRICE_COLUMNS[0] && vatRegistered ? VAT_PRICE_COLUMNS : [column]));

/** The columns, with the price as one total; `csvHeader` gives a VAT-registered operator's. */
export const CSV_HEADER = [
  'Reference',
  'Date',
  'Time',
  'Pickup',
  'Destination',
  'Miles',
  'Vehicle',
  'Gearbox',
  'Rolling status',
  'Passengers',
  'Problem',
  'When',
  'Total (£)',
  'Status',
  'Status changed',
  'Customer contact',
  'Last change',
  'Note',
  'Booking',
  'Booked',
  'Customer name',
  'Customer mobile',
  'Registration',
  'Booking note',
  'Accepted',
  'ETA (minutes)',
  'Driver',
  'Decline reason',
  ...PAYMENT_CSV_COLUMNS,
  'Source',
  'Taken by',
];

const CHANNEL_LABELS = { whatsapp: 'WhatsApp', phone: 'Call' } as const;

/**
 * One cell. A cell beginning = + - @ (or a tab or carriage return, which some spreadsheets skip
 * before looking) is a formula to Excel and its kin: a quote's free text must never run, so it
 * gets a leading apostrophe. Then RFC 4180: quoted when it holds a quote, comma or line break.
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const dateTime = (iso: string | null) => {
  if (!iso) return '';
  const { date, time } = ukDateAndTime(iso);
  return `${date} ${time}`;
};

/** The money cells: the total, or net, VAT and gross (the quote's own VAT, kept when it was priced). */
const priceCells = (row: LeadExportRow, { vatRegistered }: CsvOptions) =>
  vatRegistered
    ? [plainPounds(row.totalPricePence - row.vatPence), plainPounds(row.vatPence), plainPounds(row.totalPricePence)]
    : [plainPounds(row.totalPricePence)];

/** The status history's last change: "Contacted 24/11/2026 14:30". */
const lastChange = (row: LeadExportRow) =>
  row.lastChangeStatus && row.lastChangeAt ? `${LEAD_STATUS_LABELS[row.lastChangeStatus]} ${dateTime(row.lastChangeAt)}` : '';

export function csvRow(row: ExportRow, options: CsvOptions = { vatRegistered: false }): string {
  const { date, time } = ukDateAndTime(row.createdAt);
  // The same rule and words as the email and the Quotes tab, with the date as a spreadsheet reads it (24/11/2026 14:30).
  const when = neededWords(row, ukDate, ' ');
  // Each button's first tap, oldest first: "WhatsApp 24/11/2026 14:02; Call 24/11/2026 14:05".
  const contact = contactTaps(row)
    .map((tap) => `${CHANNEL_LABELS[tap.channel]} ${dateTime(tap.at)}`)
    .join('; ');
  return [
    `TQ-${row.publicId}`,
    date,
    time,
    row.pickupPostcode,
    row.destinationPostcode,
    row.distance,
    // The labels the Quotes tab shows ("Not Rolling", "Flat Battery"), not the form's values.
    vehicleWords(row.vehicleType),
    row.gearboxType && gearboxWords(row.gearboxType),
    row.rollingStatus && rollingWords(row.rollingStatus),
    row.passengerCount,
    problemWords(row.problemType),
    when,
    ...priceCells(row, options),
    LEAD_STATUS_LABELS[row.status],
    dateTime(row.statusChangedAt),
    contact,
    lastChange(row),
    row.note,
    ...bookingCells(row.booking),
    ...paymentCells(row.booking),
    sourceOf(row),
    row.takenBy,
  ]
    .map(csvCell)
    .join(',');
}

/**
 * Where the quote came from (docs/product.md §25): phone for one the operator priced for a caller;
 * else the booking's source (hosted page or website) when booked, and web when never booked.
 */
function sourceOf(row: ExportRow): string {
  if (row.takenBy !== null) return JOB_SOURCE_LABELS.phone;
  if (row.booking?.source) return JOB_SOURCE_LABELS[row.booking.source];
  return 'web';
}

/** The booking's columns; blanks for a quote never booked. The mobile nationally, so no spreadsheet reads +44… as a sum. */
function bookingCells(booking: BookingExportRow | undefined): (string | number | null)[] {
  if (!booking) return new Array<null>(10).fill(null);
  return [
    BOOKING_STATUS_LABELS[booking.status],
    dateTime(booking.createdAt),
    booking.customerName,
    formatPhoneNational(booking.customerPhone),
    booking.registration,
    booking.note,
    dateTime(booking.acceptedAt),
    booking.etaMinutes,
    booking.driverName,
    booking.declineReason,
  ];
}

/** The payment at booking: its status as the portal words it, what was taken and what was refunded; blanks without one. */
function paymentCells(booking: BookingExportRow | undefined): (string | null)[] {
  const payment = booking && paymentAmountsOfRow(booking);
  if (!payment) return new Array<null>(PAYMENT_CSV_COLUMNS.length).fill(null);
  return [paymentLabel(payment), plainPounds(takenPence(payment)), plainPounds(payment.refundedPence)];
}

/**
 * The CSV as a byte stream. `nextChunk` answers the rows after the last one it gave (keyset), an
 * empty array at the end; each pull writes one chunk, so memory holds one chunk at a time.
 */
export function csvStream(
  nextChunk: (after: ExportRow | undefined) => ExportRow[],
  options: CsvOptions = { vatRegistered: false },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let last: ExportRow | undefined;
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`\uFEFF${csvHeader(options).map(csvCell).join(',')}\r\n`));
        return;
      }
      const rows = nextChunk(last);
      if (rows.length === 0) {
        controller.close();
        return;
      }
      last = rows[rows.length - 1];
      controller.enqueue(encoder.encode(rows.map((row) => `${csvRow(row, options)}\r\n`).join('')));
    },
  });
}
