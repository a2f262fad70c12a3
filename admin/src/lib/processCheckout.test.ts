// @vitest-environment jsdom
import '../test/dom';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../test/dom';
import { CHECKOUT_MESSAGES, finalHandling, messageForStatus, processCheckoutSession } from './processCheckout';

function answering(...responses: { status?: number; json?: unknown }[]) {
  let i = 0;
  const api = fakeApi({ 'POST /api/process-checkout-success': () => responses[Math.min(i++, responses.length - 1)] });
  vi.stubGlobal('fetch', api.fetchStub);
  return api;
}

describe('processCheckoutSession', () => {
  it('retries 403 and 5xx after 1 s then 2 s, at most 3 attempts', async () => {
    const api = answering({ status: 503, json: { message: 'down' } });
    const sleeps: number[] = [];
    const outcome = await processCheckoutSession('cs_1', async (ms) => void sleeps.push(ms));
    expect(api.calls).toHaveLength(3);
    expect(sleeps).toEqual([1000, 2000]);
    expect(outcome).toEqual({ ok: false, status: 503, message: CHECKOUT_MESSAGES.server });
  });

  it('stops at a 400 and maps the expired-session error', async () => {
    const api = answering({ status: 400, json: { error: 'Invalid or expired session ID' } });
    const outcome = await processCheckoutSession('cs_1', async () => {});
    expect(api.calls).toHaveLength(1);
    expect(outcome).toMatchObject({ ok: false, message: CHECKOUT_MESSAGES.expired });
    expect(finalHandling(CHECKOUT_MESSAGES.expired)).toBe('check-login');
  });

  it('succeeds after a retried 403 and returns the token and user', async () => {
    const user = { id: 1, email: 'a@b.co', name: 'A', companyId: 1, subscriptionStatus: 'trialing', trialEndsAt: null };
    const api = answering({ status: 403 }, { json: { success: true, authToken: 't0k', user } });
    const outcome = await processCheckoutSession('cs_1', async () => {});
    expect(api.calls[0].body).toEqual({ sessionId: 'cs_1' });
    expect(outcome).toEqual({ ok: true, authToken: 't0k', user });
  });

  it('reports success:false with its error text', async () => {
    answering({ json: { success: false } });
    expect(await processCheckoutSession('cs_1', async () => {})).toEqual({ ok: false, message: CHECKOUT_MESSAGES.failed });
  });
});

describe('messageForStatus', () => {
  it('follows SPEC.md §8', () => {
    expect(messageForStatus(403, '')).toBe(CHECKOUT_MESSAGES.forbidden);
    expect(messageForStatus(400, '{"error":"Payment not completed"}')).toBe(CHECKOUT_MESSAGES.notCompleted);
    expect(messageForStatus(400, '{"message":"Session already processed"}')).toBe('Session already processed');
    expect(messageForStatus(400, '')).toBe(CHECKOUT_MESSAGES.validation);
    expect(messageForStatus(404, '')).toBe('Payment processing failed (404)');
    expect(finalHandling('Session already processed')).toBe('already-processed');
    expect(finalHandling('boom')).toBe('show-error');
  });
});
