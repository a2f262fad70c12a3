// Domain errors: thrown by domain code that knows nothing of HTTP. `app.onError` (api/app.ts)
// maps each to its status and the one JSON error shape of docs/architecture.md §4, with its stable `code`.
import type { ErrorCode } from '#shared/error-codes';

export abstract class DomainError extends Error {
  abstract readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 503;
  constructor(
    message: string,
    readonly code: ErrorCode,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad input. `fields` maps a request field to the message shown under it. */
export class ValidationFailed extends DomainError {
  readonly status = 400;
  constructor(
    message: string,
    readonly fields?: Record<string, string>,
    code: ErrorCode = 'VALIDATION_FAILED',
  ) {
    super(message, code);
  }
}

export class Unauthorized extends DomainError {
  readonly status = 401;
  constructor(message = 'Not signed in', code: ErrorCode = 'UNAUTHORIZED') {
    super(message, code);
  }
}

/** The action needs a subscription that grants access (trial, active, or cancelled before its end). */
export class PaymentRequired extends DomainError {
  readonly status = 402;
  constructor(message: string, code: ErrorCode = 'SUBSCRIPTION_REQUIRED') {
    super(message, code);
  }
}

export class Forbidden extends DomainError {
  readonly status = 403;
  constructor(message: string, code: ErrorCode = 'FORBIDDEN') {
    super(message, code);
  }
}

export class NotFound extends DomainError {
  readonly status = 404;
  constructor(message = 'Not found', code: ErrorCode = 'NOT_FOUND') {
    super(message, code);
  }
}

/** The request conflicts with the current state; each conflict names its own code. */
export class Conflict extends DomainError {
  readonly status = 409;
}

/** The thing existed and is gone for good: a finished job's page a day after it finished. */
export class Gone extends DomainError {
  readonly status = 410;
}

export class PayloadTooLarge extends DomainError {
  readonly status = 413;
  constructor(message = 'Request body too large') {
    super(message, 'PAYLOAD_TOO_LARGE');
  }
}

/** A body in a media type the route does not read (a JSON route sent form data, text or none). */
export class UnsupportedMediaType extends DomainError {
  readonly status = 415;
  constructor(message = 'Content-Type must be application/json', code: ErrorCode = 'UNSUPPORTED_MEDIA_TYPE') {
    super(message, code);
  }
}

/** Well-formed input the server cannot act on, e.g. a valid postcode no data level knows. */
export class Unprocessable extends DomainError {
  readonly status = 422;
  constructor(
    message: string,
    readonly fields?: Record<string, string>,
    code: ErrorCode = 'UNPROCESSABLE',
  ) {
    super(message, code);
  }
}

/**
 * A pickup farther from the operator's base than its maximum radius (docs/product.md §10): not priced. The
 * engine throws it bare; the quote service adds the company's name and number to call.
 */
export class OutsideServiceArea extends DomainError {
  readonly status = 422;
  constructor(
    message = 'This pickup is outside the company’s area.',
    readonly phone: string | null = null,
  ) {
    super(message, 'OUTSIDE_SERVICE_AREA');
  }
}

/** A later job's hour is full (docs/product.md §23): the next free slot is offered with it. */
export class SlotFull extends DomainError {
  readonly status = 409;
  constructor(
    message: string,
    readonly nextSlot: string | null,
  ) {
    super(message, 'SLOT_FULL');
  }
}

export class TooManyRequests extends DomainError {
  readonly status = 429;
  constructor(
    message = 'Too many requests. Please wait a moment and try again.',
    readonly retryAfterSeconds?: number,
    code: ErrorCode = 'RATE_LIMITED',
  ) {
    super(message, code);
  }
}

/** Seconds a client is asked to wait when the database cannot serve it (Retry-After). */
export const RETRY_AFTER_UNAVAILABLE_SECONDS = 5;

/** The database cannot serve the request now: a full disk, a read-only file, a lock held past the deadline. */
export class ServiceUnavailable extends DomainError {
  readonly status = 503;
  readonly retryAfterSeconds: number = RETRY_AFTER_UNAVAILABLE_SECONDS;
  constructor(message = 'The service is temporarily unavailable. Please try again shortly.', code: ErrorCode = 'SERVICE_UNAVAILABLE') {
    super(message, code);
  }
}

/** The payment provider (Stripe) cannot be reached or is failing: nothing was changed, try again later. */
export class PaymentProviderUnavailable extends ServiceUnavailable {
  override readonly retryAfterSeconds = 30;
  constructor(message = 'Our payment provider cannot be reached just now. Nothing has been changed; please try again in a minute.') {
    super(message, 'PAYMENT_PROVIDER_UNAVAILABLE');
  }
}
