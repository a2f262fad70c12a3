// Domain errors: thrown by domain code that knows nothing of HTTP. `app.onError` (api/app.ts)
// maps each to its status and the one JSON error shape of DESIGN.md §4.

export abstract class DomainError extends Error {
  abstract readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503;
  constructor(message: string) {
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
  ) {
    super(message);
  }
}

export class Unauthorized extends DomainError {
  readonly status = 401;
  constructor(message = 'Not signed in') {
    super(message);
  }
}

/** The action needs a subscription that grants access (trial, active, or cancelled before its end). */
export class PaymentRequired extends DomainError {
  readonly status = 402;
}

export class Forbidden extends DomainError {
  readonly status = 403;
}

export class NotFound extends DomainError {
  readonly status = 404;
  constructor(
    message = 'Not found',
    /** A stable machine-readable reason, for a client that answers it differently (e.g. NO_POSTCODE_NEAR). */
    readonly code?: string,
  ) {
    super(message);
  }
}

export class Conflict extends DomainError {
  readonly status = 409;
}

export class PayloadTooLarge extends DomainError {
  readonly status = 413;
  constructor(message = 'Request body too large') {
    super(message);
  }
}

/** A body in a media type the route does not read (a JSON route sent form data, text or none). */
export class UnsupportedMediaType extends DomainError {
  readonly status = 415;
  constructor(message = 'Content-Type must be application/json') {
    super(message);
  }
}

/** Well-formed input the server cannot act on, e.g. a valid postcode no data level knows. */
export class Unprocessable extends DomainError {
  readonly status = 422;
  constructor(
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export class TooManyRequests extends DomainError {
  readonly status = 429;
  constructor(
    message = 'Too many requests. Please wait a moment and try again.',
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Seconds a client is asked to wait when the database cannot serve it (Retry-After). */
export const RETRY_AFTER_UNAVAILABLE_SECONDS = 5;

/** The database cannot serve the request now: a full disk, a read-only file, a lock held past the deadline. */
export class ServiceUnavailable extends DomainError {
  readonly status = 503;
  readonly retryAfterSeconds = RETRY_AFTER_UNAVAILABLE_SECONDS;
  constructor(message = 'The service is temporarily unavailable. Please try again shortly.') {
    super(message);
  }
}
