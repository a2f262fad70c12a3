// @vitest-environment jsdom
// The Payments section against the payments contract, with the API faked: the account's state and
// why payment at booking is off, connecting (the browser goes where the server says), the rule
// checked by the shared schema before it is sent and the server's refusals, and the return from
// onboarding: the state read again and said, or an expired link started again.
import '../../../test/dom';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { PaymentSettings } from '#shared/payment-schemas';
import { DEPOSIT_PERCENT_INVALID } from '#shared/payment-schemas';
import { PAYMENT_OFF_REASONS } from '#shared/payments';
import { fakeApi } from '../../../test/dom';
import { renderRoutes } from '../../../test/render';
import { ACCOUNT_TEXT, CONNECT_LABELS, LAST_KNOWN_TEXT, PaymentsCard, PROVIDER_DOWN_TEXT, REFRESH_TEXT, RETURN_TEXT, ruleText } from './PaymentsCard';

const notConnected: PaymentSettings = {
  mode: 'stripe',
  account: { state: 'not_connected', label: 'Not connected', reason: null },
  rule: 'none',
  depositType: null,
  depositAmount: null,
  depositPercent: null,
  hold: false,
  active: false,
  offReason: null,
};
const ready: PaymentSettings = { ...notConnected, account: { state: 'ready', label: 'Ready', reason: null } };
const CONNECT_URL = 'https://connect.stripe.test/setup/s/acct_1/abc';

type Route = (body: unknown) => { status?: number; json?: unknown };

function renderCard(routes: Record<string, Route>, url = '/dashboard?tab=quotes') {
  const api = fakeApi(routes);
  vi.stubGlobal('fetch', api.fetchStub);
  const go = vi.fn<(url: string) => void>();
  const router = renderRoutes([{ path: '/dashboard', element: <PaymentsCard go={go} /> }], url);
  return { api, go, router };
}

const calls = (api: ReturnType<typeof fakeApi>, method: string, path: string) => api.calls.filter((c) => c.method === method && c.path === path);

describe('<PaymentsCard>', () => {
  it('shows a new operator’s account as not connected with no rule, and connects by going where the server says', async () => {
    const { api, go } = renderCard({
      'GET /api/payments': () => ({ json: notConnected }),
      'POST /api/payments/connect': () => ({ json: { url: CONNECT_URL } }),
    });
    expect(await screen.findByText('Not connected')).toBeTruthy();
    expect(screen.getByText(ACCOUNT_TEXT.not_connected)).toBeTruthy();
    expect(screen.getByText('Motorists book without paying.')).toBeTruthy();
    expect((screen.getByRole('radio', { name: /^Nothing/ }) as HTMLInputElement).checked).toBe(true);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: CONNECT_LABELS.not_connected }));
    });
    await waitFor(() => expect(go).toHaveBeenCalledWith(CONNECT_URL));
    expect(calls(api, 'POST', '/api/payments/connect')).toHaveLength(1);
  });

  it('says why payment at booking is off when the account is restricted, with what Stripe says', async () => {
    renderCard({
      'GET /api/payments': () => ({
        json: {
          ...ready,
          account: { state: 'restricted', label: 'Restricted', reason: 'requirements.past_due' },
          rule: 'full',
          offReason: PAYMENT_OFF_REASONS.restricted,
        },
      }),
    });
    expect(await screen.findByText('Restricted')).toBeTruthy();
    expect(screen.getByText(PAYMENT_OFF_REASONS.restricted)).toBeTruthy();
    expect(screen.getByText(/Stripe says: requirements\.past_due/)).toBeTruthy();
    expect(screen.getByRole('button', { name: CONNECT_LABELS.restricted })).toBeTruthy();
  });

  it('saves a 20 % deposit, checked by the shared schema first', async () => {
    const { api } = renderCard({
      'GET /api/payments': () => ({ json: ready }),
      'PUT /api/payments/rule': (body) => ({ json: { ...ready, ...(body as object), depositAmount: null, active: true } }),
    });
    fireEvent.click(await screen.findByRole('radio', { name: 'A deposit' }));
    expect((screen.getByRole('radio', { name: 'A percentage of the price' }) as HTMLInputElement).checked).toBe(true);
    const percent = screen.getByLabelText('Deposit (%)');
    fireEvent.change(percent, { target: { value: '120' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save Payment Rule' }));
    });
    expect(screen.getByText(DEPOSIT_PERCENT_INVALID)).toBeTruthy();
    expect(percent.getAttribute('aria-invalid')).toBe('true');
    expect(calls(api, 'PUT', '/api/payments/rule')).toEqual([]);

    fireEvent.change(percent, { target: { value: '20' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save Payment Rule' }));
    });
    expect(await screen.findByText('Payment rule saved')).toBeTruthy();
    expect(calls(api, 'PUT', '/api/payments/rule').map((c) => c.body)).toEqual([{ rule: 'deposit', depositType: 'percent', depositPercent: 20, hold: false }]);
    expect(await screen.findByText('Motorists pay a deposit of 20% of the price when they book.')).toBeTruthy();
  });

  it('sends a fixed deposit with a hold, and shows the server’s refusal under its field', async () => {
    const { api } = renderCard({
      'GET /api/payments': () => ({ json: ready }),
      'PUT /api/payments/rule': () => ({
        status: 400,
        json: { message: 'Validation failed', code: 'VALIDATION_FAILED', fields: { depositAmount: 'Refused by the server' } },
      }),
    });
    fireEvent.click(await screen.findByRole('radio', { name: 'A deposit' }));
    fireEvent.click(screen.getByRole('radio', { name: 'A fixed amount' }));
    fireEvent.change(screen.getByLabelText('Deposit (£)'), { target: { value: '25' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /^Hold the full price/ }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save Payment Rule' }));
    });
    expect(await screen.findByText('Refused by the server')).toBeTruthy();
    expect(calls(api, 'PUT', '/api/payments/rule').map((c) => c.body)).toEqual([{ rule: 'deposit', depositType: 'fixed', depositAmount: 25, hold: true }]);
  });

  it('reads the state from Stripe on the return from onboarding, says it, and leaves the query', async () => {
    const { api, router } = renderCard(
      {
        'GET /api/payments': () => ({ json: { ...notConnected, account: { state: 'details_needed', label: 'Details needed', reason: null } } }),
        'POST /api/payments/sync': () => ({ json: ready }),
      },
      '/dashboard?tab=quotes&payments=return',
    );
    expect(await screen.findByText(RETURN_TEXT.ready)).toBeTruthy();
    expect(screen.getByText('Ready')).toBeTruthy();
    // The operator lands on this card (its heading focused), not on a card above that loaded later.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Payments' })));
    expect(calls(api, 'POST', '/api/payments/sync')).toHaveLength(1);
    expect(router.state.location.search).toBe('?tab=quotes');
  });

  it('says the state last known on the return when Stripe cannot be asked', async () => {
    renderCard(
      {
        'GET /api/payments': () => ({ json: { ...notConnected, account: { state: 'details_needed', label: 'Details needed', reason: null } } }),
        'POST /api/payments/sync': () => ({ status: 503, json: { message: 'down', code: 'PAYMENT_PROVIDER_UNAVAILABLE' } }),
      },
      '/dashboard?payments=return',
    );
    expect(await screen.findByText(`${RETURN_TEXT.details_needed} ${LAST_KNOWN_TEXT}`)).toBeTruthy();
    expect(screen.getByRole('button', { name: CONNECT_LABELS.details_needed })).toBeTruthy();
  });

  it('starts again when the onboarding link had expired', async () => {
    const { go, api } = renderCard(
      {
        'GET /api/payments': () => ({ json: { ...notConnected, account: { state: 'details_needed', label: 'Details needed', reason: null } } }),
        'POST /api/payments/connect': () => ({ json: { url: CONNECT_URL } }),
      },
      '/dashboard?payments=refresh',
    );
    expect(await screen.findByText(REFRESH_TEXT)).toBeTruthy();
    await waitFor(() => expect(go).toHaveBeenCalledWith(CONNECT_URL));
    expect(calls(api, 'POST', '/api/payments/connect')).toHaveLength(1);
  });

  it('says when Stripe cannot be reached to connect', async () => {
    renderCard({
      'GET /api/payments': () => ({ json: notConnected }),
      'POST /api/payments/connect': () => ({ status: 503, json: { message: 'down', code: 'PAYMENT_PROVIDER_UNAVAILABLE' } }),
    });
    const button = await screen.findByRole('button', { name: CONNECT_LABELS.not_connected });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(await screen.findByText(PROVIDER_DOWN_TEXT)).toBeTruthy();
    expect(screen.getByRole('button', { name: CONNECT_LABELS.not_connected })).toBeTruthy();
  });
});

describe('ruleText', () => {
  it('words each rule', () => {
    expect(ruleText({ rule: 'full', depositType: null, depositAmount: null, depositPercent: null, hold: false })).toBe(
      'Motorists pay the full price when they book.',
    );
    expect(ruleText({ rule: 'deposit', depositType: 'fixed', depositAmount: 25, depositPercent: null, hold: true })).toBe(
      'Motorists pay a deposit of £25.00 when they book, or have the full price held on their card for a job within 6 days, taken when it is done.',
    );
  });
});
