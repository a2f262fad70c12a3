// Domain errors: thrown by domain code that knows nothing of HTTP. `app.onError` (api/app.ts)
// maps each to its status and the one JSON error shape of DESIGN.md §4, with its stable `code`.
import type { ErrorCode } from '../shared/error-codes';

export abstract class DomainError extends Error {
  abstract readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429;
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

export class PayloadTooLarge extends DomainError {
  readonly status = 413;
  constructor(message = 'Request body too large') {
    super(message, 'PAYLOAD_TOO_LARGE');
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

export class TooManyRequests extends DomainError {
  readonly status = 429;
  constructor(
    message = 'Too many requests. Please wait a moment and try again.',
    readonly retryAfterSeconds?: number,
  ) {
    super(message, 'RATE_LIMITED');
  }
}
