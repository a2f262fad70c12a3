import { describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '#shared/api-client';
import type { CheckoutSuccessResponse, CurrentUser } from '#shared/types';
import {
  CHECKOUT_MESSAGES,
  finalHandling,
  messageForStatus,
  processCheckoutSession,
  settlePaymentReturn,
  type CheckoutOutcome,
  type PaymentReturnDeps,
} from './processCheckout';

const user: CurrentUser = {
  id: 1,
  email: 'op@example.com',
  name: 'Op',
  companyId: 2,
  role: 'owner',
  subscriptionStatus: 'trialing',
  trialEndsAt: null,
  emailVerified: true,
  trialAvailable: false,
};
const failure = (status: number, body: unknown) => new ApiRequestError(status, typeof body === 'string' ? body : JSON.stringify(body), 'Status');

describe('messageForStatus (docs/product.md §8)', () => {
  it.each([
    [403, '', CHECKOUT_MESSAGES.forbidden],
    [400, { success: false, error: 'Invalid or expired session ID', code: 'CHECKOUT_INVALID' }, CHECKOUT_MESSAGES.expired],
    [400, { success: false, error: 'Payment not completed', code: 'CHECKOUT_UNPAID' }, CHECKOUT_MESSAGES.notCompleted],
    // The code decides, not the wording: a reworded server message still maps the same way.
    [400, { success: false, error: 'That checkout has lapsed', code: 'CHECKOUT_INVALID' }, CHECKOUT_MESSAGES.expired],
    [400, { success: false, error: 'Payment not completed' }, 'Payment not completed'],
    [400, { message: 'Session ID is required', code: 'VALIDATION_FAILED' }, 'Session ID is required'],
    [400, '', CHECKOUT_MESSAGES.validation],
    [500, { message: 'Internal error' }, CHECKOUT_MESSAGES.server],
    [503, '', CHECKOUT_MESSAGES.server],
    [404, { message: 'Not found' }, 'Not found'],
    [429, '', 'Payment processing failed (429)'],
  ])('%i %j → %s', (status, body, expected) => {
    expect(messageForStatus(status, typeof body === 'string' ? body : JSON.stringify(body))).toBe(expected);
  });
});

describe('processCheckoutSession: up to 3 attempts, 403 and 5xx retried after 1 s then 2 s', () => {
  function run(answers: Array<CheckoutSuccessResponse | Error>) {
    const sleeps: number[] = [];
    let calls = 0;
    const post = vi.fn(async () => {
      const answer = answers[Math.min(calls++, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      return answer;
    });
    const result = processCheckoutSession('cs_1', { post, sleep: async (ms) => void sleeps.push(ms) });
    return { result, sleeps, post };
  }

  it('stops at the first success', async () => {
    const { result, sleeps, post } = run([{ success: true, authToken: 'tok', user }]);
    expect(await result).toEqual({ ok: true, authToken: 'tok', user, message: undefined, code: undefined });
    expect(post).toHaveBeenCalledTimes(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a 500 then succeeds', async () => {
    const { result, sleeps, post } = run([failure(500, ''), { success: true, authToken: 'tok', user }]);
    expect((await result).ok).toBe(true);
    expect(post).toHaveBeenCalledTimes(2);
    expect(sleeps).toEqual([1000]);
  });

  it.each([403, 500, 502])('gives up on %i after 3 attempts, waiting 1 s then 2 s', async (status) => {
    const { result, sleeps, post } = run([failure(status, '')]);
    expect((await result).ok).toBe(false);
    expect(post).toHaveBeenCalledTimes(3);
    expect(sleeps).toEqual([1000, 2000]);
  });

  it('does not retry a 400', async () => {
    const { result, post } = run([failure(400, { success: false, error: 'Invalid or expired session ID', code: 'CHECKOUT_INVALID' })]);
    expect(await result).toEqual({ ok: false, status: 400, message: CHECKOUT_MESSAGES.expired, code: 'CHECKOUT_INVALID' });
    expect(post).toHaveBeenCalledTimes(1);
  });

  it('retries a network failure and reports it', async () => {
    const { result, post } = run([new TypeError('Failed to fetch')]);
    expect(await result).toEqual({ ok: false, message: CHECKOUT_MESSAGES.network });
    expect(post).toHaveBeenCalledTimes(3);
  });

  it('reports success:false with its error, or the default', async () => {
    expect(await run([{ success: false, error: 'Card declined' }]).result).toEqual({ ok: false, message: 'Card declined', code: undefined });
    expect(await run([{ success: false }]).result).toEqual({ ok: false, message: CHECKOUT_MESSAGES.failed, code: undefined });
  });
});

describe('finalHandling (docs/product.md §4), on the server code only', () => {
  it.each([
    ['CHECKOUT_ALREADY_PROCESSED', 'already-processed'],
    ['CHECKOUT_INVALID', 'check-login'],
    ['CHECKOUT_UNPAID', 'show-error'],
    ['VALIDATION_FAILED', 'show-error'],
    [undefined, 'show-error'],
  ] as const)('%s → %s', (code, expected) => {
    expect(finalHandling(code)).toBe(expected);
  });
});

describe('settlePaymentReturn', () => {
  function deps(outcome: CheckoutOutcome, options: { signedIn?: boolean; stored?: boolean } = {}) {
    const store = vi.fn();
    const d: PaymentReturnDeps = {
      process: async () => outcome,
      store,
      isSignedIn: async () => options.signedIn ?? false,
      hasStoredSession: () => options.stored ?? false,
    };
    return { d, store };
  }

  it('stores the token and user and welcomes, redirecting after 2 s', async () => {
    const { d, store } = deps({ ok: true, authToken: 'tok', user });
    expect(await settlePaymentReturn('cs_1', d)).toEqual({ kind: 'welcome', user, alreadyProcessed: false, redirectAfterMs: 2000 });
    expect(store).toHaveBeenCalledWith('tok', user);
  });

  it('treats an already processed session as done', async () => {
    const ok = deps({ ok: true, authToken: 'tok', user, message: 'Subscription already processed', code: 'CHECKOUT_ALREADY_PROCESSED' });
    expect(await settlePaymentReturn('cs_1', ok.d)).toMatchObject({ kind: 'welcome', alreadyProcessed: true, redirectAfterMs: 2000 });
    const failed = deps({ ok: false, message: 'Subscription already processed', code: 'CHECKOUT_ALREADY_PROCESSED' });
    expect(await settlePaymentReturn('cs_1', failed.d)).toMatchObject({ kind: 'welcome', alreadyProcessed: true });
  });

  it('on an expired session: account found when still signed in, else the expired message', async () => {
    const expired: CheckoutOutcome = { ok: false, status: 400, message: CHECKOUT_MESSAGES.expired, code: 'CHECKOUT_INVALID' };
    expect(await settlePaymentReturn('cs_1', deps(expired, { signedIn: true }).d)).toEqual({ kind: 'account-found', redirectAfterMs: 2000 });
    expect(await settlePaymentReturn('cs_1', deps(expired).d)).toEqual({ kind: 'error', message: CHECKOUT_MESSAGES.expired });
  });

  it('otherwise shows the generic error with the reason', async () => {
    const { d } = deps({ ok: false, status: 500, message: CHECKOUT_MESSAGES.server });
    expect(await settlePaymentReturn('cs_1', d)).toEqual({ kind: 'error', message: CHECKOUT_MESSAGES.generic, detail: CHECKOUT_MESSAGES.server });
  });

  it('without a session id: verifies a stored session (1 s), else asks to complete payment', async () => {
    const process = vi.fn();
    const stored = { ...deps({ ok: true }, { stored: true, signedIn: true }).d, process };
    expect(await settlePaymentReturn(null, stored)).toEqual({ kind: 'account-found', redirectAfterMs: 1000 });
    expect(await settlePaymentReturn(null, deps({ ok: true }, { stored: true, signedIn: false }).d)).toEqual({
      kind: 'error',
      message: 'No session ID found. Please complete the payment process first.',
    });
    expect(await settlePaymentReturn(null, deps({ ok: true }, { stored: false, signedIn: true }).d)).toMatchObject({ kind: 'error' });
    expect(process).not.toHaveBeenCalled();
  });
});
