// @vitest-environment jsdom
// Booking settings: the three buttons, the booking text number (checked and stored in E.164 by the
// shared schema, blank for email only), the response time, and texts kept unsent without a provider.
import '../../../test/dom';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { BookingSettings } from '#shared/booking-responses';
import { MOBILE_INVALID } from '#shared/booking-schemas';
import { Toaster } from '../../../components/toast';
import { createQueryClient } from '../../../lib/query';
import { fakeApi } from '../../../test/dom';
import { MOTORIST_TEXT_LABELS } from '#shared/bookings';
import { BookingSettingsCard, IRISH_MOBILES_HINT, IRISH_MOBILES_LABEL, MOTORIST_TEXTS_HINT, REVIEW_HINT, REVIEW_LABEL } from './BookingSettingsCard';
import { SMS_NUMBER_CONFIRMED, SMS_NUMBER_UNCONFIRMED } from './SmsNumberConfirm';

const settings: BookingSettings = {
  responseMinutes: 10,
  smsNumber: null,
  smsNumberConfirmed: false,
  offerBooking: true,
  offerWhatsapp: true,
  offerCall: true,
  textIrishMobiles: false,
  bookingOrigins: [],
  smsConfigured: false,
  motoristTextsOff: [],
  reviewMode: 'off',
  reviewUrl: null,
};

function renderCard(
  put: (body: unknown) => { status?: number; json?: unknown } = (body) => ({ json: { ...settings, ...(body as object) } }),
  stored: BookingSettings = settings,
) {
  const api = fakeApi({ 'GET /api/booking-settings': () => ({ json: stored }), 'PUT /api/booking-settings': put });
  vi.stubGlobal('fetch', api.fetchStub);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <BookingSettingsCard />
      <Toaster />
    </QueryClientProvider>,
  );
  return api;
}

const save = async () => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Save Booking Settings' }));
  });
};
const puts = (api: ReturnType<typeof fakeApi>) => api.calls.filter((call) => call.method === 'PUT').map((call) => call.body);
const box = (name: RegExp) => screen.getByRole('checkbox', { name }) as HTMLInputElement;

describe('<BookingSettingsCard>', () => {
  it('shows the buttons offered, the response time of 10 minutes and that texts wait without a provider', async () => {
    renderCard();
    await screen.findByRole('checkbox', { name: /^Book this recovery/ });
    expect(box(/^Book this recovery/).checked).toBe(true);
    expect(box(/^WhatsApp/).checked).toBe(true);
    expect(box(/^Call/).checked).toBe(true);
    expect((screen.getByLabelText('Response time (minutes)') as HTMLInputElement).value).toBe('10');
    expect((screen.getByLabelText('Text bookings to (mobile)') as HTMLInputElement).value).toBe('');
    expect(screen.getByText('Booking texts are kept in the outbox but not sent: no SMS provider configured; booking emails are sent.')).toBeTruthy();
  });

  it('shows a stored number nationally, and no warning when texts can be sent', async () => {
    renderCard(undefined, { ...settings, smsNumber: '+447700900456', smsConfigured: true, offerCall: false });
    await screen.findByRole('checkbox', { name: /^Book this recovery/ });
    expect((screen.getByLabelText('Text bookings to (mobile)') as HTMLInputElement).value).toBe('07700 900456');
    expect(box(/^Call/).checked).toBe(false);
    expect(screen.queryByText(/no SMS provider configured/)).toBeNull();
  });

  it('sends the choices read by the shared schema: the mobile in E.164', async () => {
    const api = renderCard();
    fireEvent.click(await screen.findByRole('checkbox', { name: /^WhatsApp/ }));
    fireEvent.change(screen.getByLabelText('Text bookings to (mobile)'), { target: { value: '07700 900456' } });
    fireEvent.change(screen.getByLabelText('Response time (minutes)'), { target: { value: '15' } });
    await save();
    expect(await screen.findByText('Booking settings saved')).toBeTruthy();
    expect(puts(api)).toEqual([
      {
        offerBooking: true,
        offerWhatsapp: false,
        offerCall: true,
        textIrishMobiles: false,
        smsNumber: '+447700900456',
        responseMinutes: 15,
        motoristTextsOff: [],
        reviewMode: 'off',
        reviewUrl: null,
      },
    ]);
  });

  it('refuses a landline or a response time out of range before sending, and a blank number means email only', async () => {
    const api = renderCard(undefined, { ...settings, smsNumber: '+447700900456' });
    const number = await screen.findByDisplayValue('07700 900456');
    fireEvent.change(number, { target: { value: '020 7946 0000' } });
    fireEvent.change(screen.getByLabelText('Response time (minutes)'), { target: { value: '61' } });
    await save();
    expect(await screen.findByText(MOBILE_INVALID)).toBeTruthy();
    expect(screen.getByText('Response time cannot exceed 60 minutes')).toBeTruthy();
    expect(number.getAttribute('aria-invalid')).toBe('true');
    expect(puts(api)).toEqual([]);

    fireEvent.change(number, { target: { value: ' ' } });
    fireEvent.change(screen.getByLabelText('Response time (minutes)'), { target: { value: '2' } });
    await save();
    expect(await screen.findByText('Booking settings saved')).toBeTruthy();
    expect(puts(api)).toEqual([
      {
        offerBooking: true,
        offerWhatsapp: true,
        offerCall: true,
        textIrishMobiles: false,
        smsNumber: null,
        responseMinutes: 2,
        motoristTextsOff: [],
        reviewMode: 'off',
        reviewUrl: null,
      },
    ]);
  });

  it('asks for reviews by email, and says that a customer who gave no email gets none', async () => {
    const api = renderCard();
    const mode = (await screen.findByLabelText(REVIEW_LABEL)) as HTMLSelectElement;
    expect([...mode.options].map((o) => o.text)).toEqual(['Off', 'By text', 'By email']);
    expect(screen.getByText(REVIEW_HINT)).toBeTruthy();
    expect(REVIEW_HINT).toContain('no email given, nothing is sent');
    fireEvent.change(mode, { target: { value: 'email' } });
    fireEvent.change(screen.getByLabelText('Your review page'), { target: { value: 'https://g.page/r/abc123/review' } });
    await save();
    expect(await screen.findByText('Booking settings saved')).toBeTruthy();
    expect(puts(api)).toMatchObject([{ reviewMode: 'email', reviewUrl: 'https://g.page/r/abc123/review' }]);
  });

  it('shows and sends whether Irish mobiles are taken for bookings', async () => {
    const api = renderCard(undefined, { ...settings, textIrishMobiles: true });
    const irish = (await screen.findByRole('checkbox', { name: IRISH_MOBILES_LABEL })) as HTMLInputElement;
    expect(irish.checked).toBe(true);
    expect(screen.getByText(IRISH_MOBILES_HINT)).toBeTruthy();
    fireEvent.click(irish);
    await save();
    expect(await screen.findByText('Booking settings saved')).toBeTruthy();
    expect(puts(api)).toEqual([
      {
        offerBooking: true,
        offerWhatsapp: true,
        offerCall: true,
        textIrishMobiles: false,
        smsNumber: null,
        responseMinutes: 10,
        motoristTextsOff: [],
        reviewMode: 'off',
        reviewUrl: null,
      },
    ]);
  });

  it('puts the server’s per-field message under its field', async () => {
    renderCard(() => ({ status: 400, json: { message: 'Invalid request', code: 'VALIDATION_ERROR', fields: { smsNumber: MOBILE_INVALID }, requestId: 'r1' } }));
    await screen.findByRole('checkbox', { name: /^Book this recovery/ });
    await save();
    expect(await screen.findByText('Error saving booking settings')).toBeTruthy();
    expect(screen.getByText(MOBILE_INVALID)).toBeTruthy();
  });

  it('confirms an unconfirmed number with the code texted to it: a wrong code’s message under the field, then the right one', async () => {
    let confirmed = false;
    const stored = { ...settings, smsNumber: '+447700900456', smsConfigured: true };
    const api = fakeApi({
      'GET /api/booking-settings': () => ({ json: { ...stored, smsNumberConfirmed: confirmed } }),
      'POST /api/booking-settings/sms-code': () => ({ json: { success: true, smsNumber: '+447700900456' } }),
      'POST /api/booking-settings/sms-code/confirm': (body) => {
        if ((body as { code: string }).code !== '123456') {
          return {
            status: 400,
            json: {
              message: 'That code is not right. Please check the text and try again.',
              code: 'SMS_CODE_WRONG',
              fields: { code: 'That code is not right. Please check the text and try again.' },
              requestId: 'r2',
            },
          };
        }
        confirmed = true;
        return { json: { success: true, smsNumber: '+447700900456' } };
      },
    });
    vi.stubGlobal('fetch', api.fetchStub);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <BookingSettingsCard />
        <Toaster />
      </QueryClientProvider>,
    );
    expect(await screen.findByText(SMS_NUMBER_UNCONFIRMED)).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Text me a code' }));
    });
    expect(await screen.findByText('Code sent to 07700 900456')).toBeTruthy();

    const field = screen.getByLabelText('Code from the text');
    fireEvent.change(field, { target: { value: '12 34' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Confirm number' }));
    });
    expect(screen.getByText('Enter the 6-digit code from the text')).toBeTruthy();
    expect(api.calls.filter((c) => c.path.endsWith('/confirm'))).toEqual([]);

    fireEvent.change(field, { target: { value: '654321' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Confirm number' }));
    });
    expect(await screen.findByText('That code is not right. Please check the text and try again.')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(field, { target: { value: '123 456' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Confirm number' }));
    });
    expect(await screen.findByText(SMS_NUMBER_CONFIRMED)).toBeTruthy();
    expect(api.calls.filter((c) => c.path.endsWith('/confirm')).map((c) => c.body)).toEqual([{ code: '654321' }, { code: '123456' }]);
  });
});

describe('<BookingSettingsCard> texts to the customer', () => {
  it('ticks each text that goes, and sends the ones unticked as turned off', async () => {
    const api = renderCard(undefined, { ...settings, motoristTextsOff: ['arrived'] });
    const arrived = (await screen.findByRole('checkbox', { name: MOTORIST_TEXT_LABELS.arrived })) as HTMLInputElement;
    expect(arrived.checked).toBe(false);
    expect(screen.getByText(MOTORIST_TEXTS_HINT)).toBeTruthy();
    const onTheWay = screen.getByRole('checkbox', { name: MOTORIST_TEXT_LABELS.on_the_way }) as HTMLInputElement;
    expect(onTheWay.checked).toBe(true);
    fireEvent.click(onTheWay);
    fireEvent.click(arrived);
    await save();
    expect(await screen.findByText('Booking settings saved')).toBeTruthy();
    expect(puts(api).map((body) => (body as { motoristTextsOff: string[] }).motoristTextsOff)).toEqual([['on_the_way']]);
  });
});
