// docs/product.md §4 "Payment return" and §8 "Payment success page errors": after checkout the session
// id is exchanged for a signed-in account. Pure decisions plus one orchestrator whose I/O is
// injected, so the success screen and the dashboard share it and tests drive it without timers.
import { ApiRequestError, AUTH_TOKEN_KEY, call, portalApi } from '#shared/api-client';
import { errorCodeOf, type ErrorCode } from '#shared/error-codes';
import type { CheckoutSuccessResponse, CurrentUser } from '#shared/types';

const CHECKOUT_MAX_ATTEMPTS = 3;
/** Back-off before retry n (1-based) is n × this: 1 s, then 2 s. */
const CHECKOUT_BACKOFF_MS = 1000;
/** Redirect delays of docs/product.md §9. */
export const REDIRECT_DELAY_MS = 2000;
const AUTHENTICATED_REDIRECT_DELAY_MS = 1000;

export const CHECKOUT_MESSAGES = {
  network: 'Network connection failed. Please check your internet connection and try again.',
  forbidden: 'Payment session access denied. Please try refreshing the page or contact support if the issue persists.',
  expired:
    'Your payment session has expired. This can happen if you waited too long after completing payment. Please return to the signup page to complete your subscription.',
  notCompleted: 'Payment was not completed successfully. Please return to the signup page and try again.',
  validation: 'Payment validation failed. Please try signing up again.',
  server: 'Server error occurred. Please try again in a moment.',
  failed: 'Failed to process subscription',
  generic: 'There was an error processing your subscription. Please try again or contact support if the issue persists.',
  noSession: 'No session ID found. Please complete the payment process first.',
} as const;

/** `code` is the server's: the outcome is decided on it, `message` is only shown. */
export type CheckoutOutcome =
  | { ok: true; authToken?: string; user?: CurrentUser; message?: string; code?: ErrorCode }
  | { ok: false; message: string; status?: number; code?: ErrorCode };

/** The server's `error` (checkout bodies) or `message` (the general error shape), else the text. */
function bodyMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
    if (typeof parsed.error === 'string' && parsed.error) return parsed.error;
    if (typeof parsed.message === 'string' && parsed.message) return parsed.message;
  } catch {
    // Not JSON: the text itself is the message.
  }
  return body.trim() || undefined;
}

/** The message for a failed attempt with this status and body (docs/product.md §8). */
export function messageForStatus(status: number, body: string): string {
  const serverMessage = bodyMessage(body);
  if (status === 403) return CHECKOUT_MESSAGES.forbidden;
  if (status === 400) {
    const code = errorCodeOf(body);
    if (code === 'CHECKOUT_INVALID') return CHECKOUT_MESSAGES.expired;
    if (code === 'CHECKOUT_UNPAID') return CHECKOUT_MESSAGES.notCompleted;
    return serverMessage ?? CHECKOUT_MESSAGES.validation;
  }
  if (status >= 500) return CHECKOUT_MESSAGES.server;
  return serverMessage ?? `Payment processing failed (${status})`;
}

/** 403 and 5xx may pass (a cookie not yet set, a restart); 400 and success are final. */
const isRetryable = (status: number): boolean => status === 403 || status >= 500;

export interface ProcessDeps {
  post: (sessionId: string) => Promise<CheckoutSuccessResponse>;
  sleep: (ms: number) => Promise<void>;
}

const defaultProcessDeps: ProcessDeps = {
  post: (sessionId) => call(portalApi['process-checkout-success'].$post, { json: { sessionId } }),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Posts the session id, up to 3 attempts with 1 s then 2 s between (docs/product.md §4, §9). */
export async function processCheckoutSession(sessionId: string, deps: ProcessDeps = defaultProcessDeps): Promise<CheckoutOutcome> {
  let outcome: CheckoutOutcome = { ok: false, message: CHECKOUT_MESSAGES.generic };
  for (let attempt = 1; attempt <= CHECKOUT_MAX_ATTEMPTS; attempt++) {
    let retry: boolean;
    try {
      const response = await deps.post(sessionId);
      if (response.success) return { ok: true, authToken: response.authToken, user: response.user, message: response.message, code: response.code };
      return { ok: false, message: response.error || CHECKOUT_MESSAGES.failed, code: response.code };
    } catch (error) {
      if (error instanceof ApiRequestError) {
        outcome = { ok: false, status: error.status, message: messageForStatus(error.status, error.body), code: errorCodeOf(error.body) };
        retry = isRetryable(error.status);
      } else {
        // fetch itself failed (offline, connection reset): worth another try.
        outcome = { ok: false, message: CHECKOUT_MESSAGES.network };
        retry = true;
      }
    }
    if (!retry || attempt === CHECKOUT_MAX_ATTEMPTS) break;
    await deps.sleep(CHECKOUT_BACKOFF_MS * attempt);
  }
  return outcome;
}

/**
 * How a failed exchange finishes (docs/product.md §4 "Final handling"), decided on the server's code:
 * the only message "containing expired or invalid" the server sends is CHECKOUT_INVALID's, and
 * the only "already processed" one is CHECKOUT_ALREADY_PROCESSED's.
 */
export function finalHandling(code: ErrorCode | undefined): 'already-processed' | 'check-login' | 'show-error' {
  switch (code) {
    case 'CHECKOUT_ALREADY_PROCESSED':
      return 'already-processed';
    case 'CHECKOUT_INVALID':
      return 'check-login';
    default:
      return 'show-error';
  }
}

/** What the screen shows once the payment return is settled. */
export type PaymentReturnResult =
  /** The trial has started (or was already): welcome, then the dashboard. */
  | { kind: 'welcome'; user?: CurrentUser; alreadyProcessed: boolean; redirectAfterMs: number }
  /** Nothing to process, but the person is signed in: straight on to the dashboard. */
  | { kind: 'account-found'; redirectAfterMs: number }
  | { kind: 'error'; message: string; detail?: string };

export interface PaymentReturnDeps {
  process: (sessionId: string) => Promise<CheckoutOutcome>;
  /** Stores the token and user under AUTH_TOKEN_KEY / AUTH_USER_KEY. */
  store: (token: string | undefined, user: CurrentUser | undefined) => void;
  /** Whether the stored session still signs someone in (the current user's route). */
  isSignedIn: () => Promise<boolean>;
  /** Whether this browser holds a stored token and user from an earlier sign-in. */
  hasStoredSession: () => boolean;
}

export async function settlePaymentReturn(sessionId: string | null, deps: PaymentReturnDeps): Promise<PaymentReturnResult> {
  if (!sessionId) {
    // docs/product.md §5: without a session id, a stored token and user are verified, else an error.
    if (deps.hasStoredSession() && (await deps.isSignedIn())) {
      return { kind: 'account-found', redirectAfterMs: AUTHENTICATED_REDIRECT_DELAY_MS };
    }
    return { kind: 'error', message: CHECKOUT_MESSAGES.noSession };
  }
  const outcome = await deps.process(sessionId);
  if (outcome.ok) {
    deps.store(outcome.authToken, outcome.user);
    return {
      kind: 'welcome',
      user: outcome.user,
      alreadyProcessed: finalHandling(outcome.code) === 'already-processed',
      redirectAfterMs: REDIRECT_DELAY_MS,
    };
  }
  switch (finalHandling(outcome.code)) {
    case 'already-processed':
      return { kind: 'welcome', alreadyProcessed: true, redirectAfterMs: REDIRECT_DELAY_MS };
    case 'check-login':
      if (await deps.isSignedIn()) return { kind: 'account-found', redirectAfterMs: REDIRECT_DELAY_MS };
      return { kind: 'error', message: outcome.message };
    default:
      return {
        kind: 'error',
        message: CHECKOUT_MESSAGES.generic,
        detail: outcome.message === CHECKOUT_MESSAGES.generic ? undefined : outcome.message,
      };
  }
}

export function hasStoredToken(): boolean {
  try {
    return Boolean(localStorage.getItem(AUTH_TOKEN_KEY));
  } catch {
    return false;
  }
}
