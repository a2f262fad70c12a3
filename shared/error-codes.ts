// The stable `code` beside every error body's product `message` (docs/architecture.md §4): clients branch on
// the code, never on the message text, so a message can be reworded without breaking a screen.

export const ERROR_CODES = [
  // Bad input
  'VALIDATION_FAILED',
  'BAD_REQUEST',
  'WEBHOOK_SIGNATURE_INVALID',
  'POSTCODE_NOT_FOUND',
  /** A pickup beyond the operator's maximum radius (docs/product.md §10): the body also carries the `phone` to call. */
  'OUTSIDE_SERVICE_AREA',
  'UNPROCESSABLE',
  'PAYLOAD_TOO_LARGE',
  /** An Idempotency-Key already used for a different quote request. */
  'IDEMPOTENCY_KEY_REUSED',
  'UNSUPPORTED_MEDIA_TYPE',
  // Who is asking
  'UNAUTHORIZED',
  'INVALID_CREDENTIALS',
  'FORBIDDEN',
  /** A signed-in person whose role (owner, dispatcher, driver) the route does not allow. */
  'ROLE_NOT_ALLOWED',
  'NOT_FOUND',
  // Nearest postcode: no unit within 1 km of the position (the sea, abroad)
  'NO_POSTCODE_NEAR',
  // State that refuses the request
  'EMAIL_TAKEN',
  'SLUG_TAKEN',
  'SLUG_LOCKED',
  // A charge list already has a row of that name (trimmed, any case)
  'NAME_TAKEN',
  // The guided set-up's sample quote for a company that offers no vehicle type
  'NO_VEHICLE_TYPE',
  // One-time links (verify an address, reset a password): unknown, expired, or used already
  'LINK_INVALID',
  'LINK_EXPIRED',
  'LINK_USED',
  // Changing a password: the current one given is not the account's
  'WRONG_PASSWORD',
  // A new password the strength estimator scores too easy to guess (the message says why)
  'PASSWORD_TOO_WEAK',
  'ALREADY_VERIFIED',
  // Share & Embed before a custom URL is locked: no link, QR code or snippet yet
  'NO_CUSTOM_URL',
  // Locking a custom URL or sharing the link with neither a phone nor a WhatsApp number
  'NO_CONTACT_NUMBER',
  // A public quote for a company whose subscription lapsed, or that has no number to reach it by
  'QUOTES_PAUSED',
  'QUOTES_NOT_SET_UP',
  'ALREADY_SUBSCRIBED',
  'NOT_REACTIVATABLE',
  'NO_BILLING_ACCOUNT',
  'NO_SUBSCRIPTION',
  'SUBSCRIPTION_REQUIRED',
  // The payment return (docs/product.md §4)
  'CHECKOUT_INVALID',
  'CHECKOUT_UNPAID',
  'CHECKOUT_ALREADY_PROCESSED',
  // Bookings: the quote's price has expired (a fresh quote is needed), the quote is booked from
  // another form, the company takes no bookings online, a status change out of order, a job's
  // page closed a day after it finished, too many live pages open, a booking posted from a website
  // the company has not listed (decision 033)
  'QUOTE_EXPIRED',
  'ALREADY_BOOKED',
  'BOOKING_NOT_OFFERED',
  'BOOKING_OUT_OF_ORDER',
  'JOB_CLOSED',
  'STREAMS_FULL',
  /** A booking's mobile number that the company's texts may not go to (docs/product.md, "Bookings"): nothing is stored. */
  'PHONE_NOT_TEXTABLE',

  'BOOKING_ORIGIN_REFUSED',
  // Payment at booking: a connected-account event for an account we do not know or older than
  // the state applied, a refund of more than was paid or of nothing paid
  'WEBHOOK_UNKNOWN_ACCOUNT',
  'WEBHOOK_STALE',
  'PAYMENT_NOT_REFUNDABLE',
  /** Recording a completed job's balance: nothing is left to pay, or it is recorded as paid already. */
  'NOTHING_DUE',
  'BALANCE_RECORDED',
  /** A balance's pay link asked for while the company's payment account is not ready. */
  'PAY_LINK_UNAVAILABLE',
  // Receipts and invoices: none issued yet for the job (it is not completed and paid), or a full
  // VAT invoice asked for where none can be issued (not a VAT invoice, or one already)
  'DOCUMENT_NOT_ISSUED',
  'FULL_INVOICE_UNAVAILABLE',
  // Proof of condition: an upload that is not a JPEG, PNG, WebP or HEIC image (by its bytes), a
  // job that holds all the files it may, a thumbnail sent before its photo, and Loaded or
  // Completed refused while the operator's required photos are neither received nor queued
  'NOT_AN_IMAGE',
  'PROOF_FILES_FULL',
  'PROOF_THUMBNAIL_EARLY',
  'PHOTOS_REQUIRED',
  // Confirming the booking text number by a texted code: no number to confirm, no SMS provider,
  // a wrong code, one that has expired (or was never sent), and one locked by too many wrong tries
  'NO_SMS_NUMBER',
  'SMS_NOT_CONFIGURED',
  'SMS_CODE_WRONG',
  'SMS_CODE_EXPIRED',
  'SMS_CODE_LOCKED',
  // Dispatch (docs/product.md §23): a truck that cannot carry the job's vehicle (sent again with
  // `confirm: true` to assign it anyway), a later slot that is full (`nextSlot` offers the next
  // free one) or outside the days the company books ahead, a later-job answer to a job for now
  'TRUCK_CANNOT_CARRY',
  'SLOT_FULL',
  'SLOT_OUT_OF_RANGE',
  'NOT_A_LATER_JOB',
  // The team: an invitation to an address already in this company or another, a change that would
  // leave no owner, an invitation link expired (or withdrawn) or used, and a dispatcher's refund over
  // the owner's limit
  'ALREADY_IN_TEAM',
  'EMAIL_IN_OTHER_COMPANY',
  'LAST_OWNER',
  'INVITATION_EXPIRED',
  'INVITATION_USED',
  'REFUND_OVER_LIMIT',
  // Trade accounts (docs/product.md §26): a job on an account that requires a purchase-order number
  // without one, a job past the account's credit limit not yet confirmed, a quote booked on an
  // account it was not priced for (or a quote priced for an account, booked or texted outside it), a payment or credit of more than the invoice has left, a month
  // with no completed jobs left to invoice, the Xero sync asked for without Xero configured on the
  // platform or connected by the company, a return from Xero's consent page with a state that is
  // unknown, expired, used or another company's, Xero refusing the connection, and Xero unreachable
  'PO_REQUIRED',
  'CREDIT_LIMIT_EXCEEDED',
  'QUOTE_NOT_FOR_ACCOUNT',
  'QUOTE_ON_ACCOUNT',
  'OVER_BALANCE',
  'NOTHING_TO_INVOICE',
  'XERO_NOT_CONFIGURED',
  // A payment link for a job booked for a caller (docs/product.md §25): nothing it could pay (the
  // quote not booked yet, a job on account, no payment at booking set up, the job finished), or paid already
  'PAYMENT_LINK_UNAVAILABLE',
  'ALREADY_PAID',
  'XERO_NOT_CONNECTED',
  'XERO_STATE_INVALID',
  'XERO_REFUSED',
  'XERO_UNAVAILABLE',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  /** The payment provider cannot be reached or answers with its own failure: a 503 that changed nothing. */
  'PAYMENT_PROVIDER_UNAVAILABLE',
  'REQUEST_FAILED',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);

/** The `code` of a response body (an error, or the payment return's outcome), if it names one. */
export function errorCodeOf(body: string): ErrorCode | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'code' in parsed && typeof parsed.code === 'string' && KNOWN.has(parsed.code)) {
      return parsed.code as ErrorCode;
    }
  } catch {
    // Not JSON: no code.
  }
  return undefined;
}

/** The code an HTTP status gets when nothing more specific threw it (Hono's own HTTPExceptions). */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'RATE_LIMITED';
    case 503:
      return 'SERVICE_UNAVAILABLE';
    default:
      return status >= 500 ? 'INTERNAL' : 'REQUEST_FAILED';
  }
}
