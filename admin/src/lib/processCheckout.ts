// SPEC.md §4 "Payment return": after checkout, the session id is exchanged for a signed-in
// account. Shared by the dashboard (payment_success=true&session_id=…) and the success screen.
import { ApiRequestError, apiRequest } from '../../../shared/api-client';
import type { CheckoutSuccessResponse, CurrentUser } from '../../../shared/types';

export const CHECKOUT_MAX_ATTEMPTS = 3;
/** Back-off before retry n (1-based) is n seconds: 1 s, then 2 s. */
export const CHECKOUT_BACKOFF_MS = 1000;

export const CHECKOUT_MESSAGES = {
  network: 'Network connection failed. Please check your internet connection and try again.',
  forbidden: 'Payment session access denied. Please try refreshing the page or contact support if the issue persists.',
  expired:
    'Your payment session has expired. This can happen if you waited too long after completing payment. Please return to the signup page to complete your subscription.',
  notCompleted: 'Payment was not completed successfully. Please return to the signup page and try again.',
  validation: 'Payment validation failed. Please try signing up again.',
  server: 'Server error occurred. Please try again in a moment.',
  failed: 'Failed to process subscription',
  generic:
    'There was an error processing your subscription. Please try again or contact support if the issue persists.',
} as const;

export type CheckoutOutcome =
  | { ok: true; authToken?: string; user?: CurrentUser }
  | { ok: false; message: string; status?: number };

function bodyMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
    if (typeof parsed.error === 'string' && parsed.error) return parsed.error;
    if (typeof parsed.message === 'string' && parsed.message) return parsed.message;
  } catch {
    // Plain-text body.
  }
  return body.trim() || undefined;
}

/** The user-facing message for a failed attempt (SPEC.md §8 payment success page errors). */
export function messageForStatus(status: number, body: string): string {
  const serverMessage = bodyMessage(body);
  if (status === 403) return CHECKOUT_MESSAGES.forbidden;
  if (status === 400) {
    if (serverMessage === 'Invalid or expired session ID') return CHECKOUT_MESSAGES.expired;
    if (serverMessage === 'Payment not completed') return CHECKOUT_MESSAGES.notCompleted;
    return serverMessage ?? CHECKOUT_MESSAGES.validation;
  }
  if (status >= 500) return CHECKOUT_MESSAGES.server;
  return serverMessage ?? `Payment processing failed (${status})`;
}

const isRetryable = (status: number): boolean => status === 403 || status >= 500;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function processCheckoutSession(
  sessionId: string,
  sleep: (ms: number) => Promise<void> = wait,
): Promise<CheckoutOutcome> {
  let outcome: CheckoutOutcome = { ok: false, message: CHECKOUT_MESSAGES.generic };
  for (let attempt = 1; attempt <= CHECKOUT_MAX_ATTEMPTS; attempt++) {
    let retry = false;
    try {
      const response = await apiRequest<CheckoutSuccessResponse>('/api/process-checkout-success', {
        method: 'POST',
        body: { sessionId },
      });
      if (response.success) return { ok: true, authToken: response.authToken, user: response.user };
      return { ok: false, message: response.error || CHECKOUT_MESSAGES.failed };
    } catch (error) {
      if (error instanceof ApiRequestError) {
        outcome = { ok: false, status: error.status, message: messageForStatus(error.status, error.body) };
        retry = isRetryable(error.status);
      } else {
        // fetch itself failed: offline, DNS, connection reset.
        outcome = { ok: false, message: CHECKOUT_MESSAGES.network };
        retry = true;
      }
    }
    if (!retry || attempt === CHECKOUT_MAX_ATTEMPTS) break;
    await sleep(CHECKOUT_BACKOFF_MS * attempt);
  }
  return outcome;
}

/** How the screen should finish after a failed exchange (SPEC.md §4 "Final handling"). */
export function finalHandling(message: string): 'check-login' | 'already-processed' | 'show-error' {
  const lower = message.toLowerCase();
  if (lower.includes('already processed')) return 'already-processed';
  if (lower.includes('expired') || lower.includes('invalid')) return 'check-login';
  return 'show-error';
}
