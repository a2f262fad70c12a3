// The one error path (docs/style.md #3): domain errors and HTTPExceptions become
// `{ message, code, fields?, requestId }`; the database being unavailable (api/platform/db/faults.ts) is a
// 503 logged once per episode; anything else is a bug, logged, answered 500 with no stack.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { codeForStatus } from '#shared/error-codes';
import { databaseUnavailableCode, type DatabaseFaults } from '../db/faults';
import { DomainError, OutsideServiceArea, ServiceUnavailable, SlotFull, TooManyRequests, Unprocessable, ValidationFailed } from '../errors';
import type { AppEnv } from './context';
import { clientClosedRequest } from './body-limit';
import { loggedPath, type Logger } from './observability';

export const errorHandler = (logger: Logger, databaseFaults: DatabaseFaults) => (thrown: Error, c: Context<AppEnv>) => {
  const requestId = c.get('requestId');
  let err = thrown;
  if (databaseUnavailableCode(err)) {
    databaseFaults.failed(err);
    err = new ServiceUnavailable();
  }
  if (err instanceof DomainError) {
    const fields = err instanceof ValidationFailed || err instanceof Unprocessable ? err.fields : undefined;
    if ((err instanceof TooManyRequests || err instanceof ServiceUnavailable) && err.retryAfterSeconds) c.header('Retry-After', String(err.retryAfterSeconds));
    // With the Call button's number, the quote form answers this instead of a toast.
    const phone = err instanceof OutsideServiceArea ? { phone: err.phone } : {};
    const slot = err instanceof SlotFull ? { nextSlot: err.nextSlot } : {};
    return c.json({ message: err.message, code: err.code, ...(fields ? { fields } : {}), ...phone, ...slot, requestId }, err.status);
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const message = status === 413 ? 'Request body too large' : err.message || (status === 400 ? 'Bad request' : 'Request failed');
    return c.json({ message, code: codeForStatus(status), requestId }, status);
  }
  if (clientClosedRequest(c.env)) return c.body(null, 499 as ContentfulStatusCode);
  logger.error({ requestId, method: c.req.method, path: loggedPath(c.req.path), error: err.message, stack: err.stack });
  return c.json({ message: 'Internal error', code: 'INTERNAL', requestId }, 500);
};

export const notFoundJson = (c: Context<AppEnv>) => c.json({ message: 'Not found', code: 'NOT_FOUND', requestId: c.get('requestId') }, 404);
