// @vitest-environment jsdom
import '../../test/dom';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PRICING_DEFAULTS, PRICING_RULE_DEFAULTS } from '#shared/schemas';
import type { Company, PricingRates } from '#shared/types';
import { readSetup, startSetup, writeSetup } from '../../lib/setup-progress';
import { fakeApi } from '../../test/dom';
import { renderRoutes } from '../../test/render';
import { SetupGuide } from './SetupGuide';

const USER = 41;
const company = {
  id: 7,
  name: 'Dana Recovery',
  phone: null,
  whatsapp: null,
  preferredContact: 'whatsapp',
  basePostcode: null,
  serviceRadius: 25,
  customSlug: null,
} as unknown as Company;
// The starting rates, with two "More rules" set: a save here must keep them.
const rates = { id: 1, companyId: 7, ...PRICING_DEFAULTS, ...PRICING_RULE_DEFAULTS, bankHolidayNation: 'scotland', bankHolidayFee: 30 } as PricingRates;

type Route = (body: unknown) => { status?: number; json?: unknown };

function renderGuide(routes: Record<string, Route> = {}, saved: Partial<Company> = {}) {
  let current = { ...company, ...saved } as Company;
  const api = fakeApi({
    'GET /api/company': () => ({ json: current }),
    'PUT /api/company': (body) => ({ json: (current = { ...current, ...(body as object) }) }),
    'GET /api/pricing': () => ({ json: rates }),
    'PUT /api/pricing': (body) => ({ json: { ...rates, ...(body as object) } }),
    'POST /api/pricing/sample': (body) => {
      const b = body as { callOutFee: string; mileRate: string; labourRate: string };
      const lines = [
        { label: 'Call-out Fee', amount: Number(b.callOutFee) },
        { label: 'Distance (10 miles)', amount: Number(b.mileRate) * 10 },
        { label: 'Labour Fee', amount: Number(b.labourRate) },
      ];
      return { json: { vehicleType: 'Car', miles: 10, lines, totalPrice: lines.reduce((sum, line) => sum + line.amount, 0) } };
    },
    'GET /api/share/checklist': () => ({ json: { items: [], done: 0, total: 0 } }),
    ...routes,
  });
  vi.stubGlobal('fetch', api.fetchStub);
  renderRoutes([{ path: '/dashboard', element: <SetupGuide userId={USER} /> }], '/dashboard');
  return api;
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const click = async (name: string) => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
};
const stepHeading = (name: string) => screen.findByRole('heading', { name, level: 2 });

describe('the guided set-up', () => {
  it('will not save the contact step without a number, and says so under Phone', async () => {
    startSetup(USER);
    const api = renderGuide();
    // Arriving at the page leaves the focus at its top.
    expect(document.activeElement).not.toBe(await stepHeading('How customers reach you'));
    await click('Save and continue');
    const message = screen.getByText('Add a phone or WhatsApp number, so customers who get a price can reach you');
    expect(field('Phone').getAttribute('aria-invalid')).toBe('true');
    expect(field('Phone').getAttribute('aria-describedby')).toContain(message.id);
    expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('saves the one number given as the preferred one, then moves on to the prices', async () => {
    startSetup(USER);
    const api = renderGuide();
    await stepHeading('How customers reach you');
    type('Phone', '0161 496 0000');
    // One number: nothing to choose between.
    expect(screen.queryByRole('radio')).toBeNull();
    await click('Save and continue');
    const prices = await stepHeading('Your prices');
    // The focus moves to the new step's heading once it is on screen.
    await waitFor(() => expect(document.activeElement).toBe(prices));
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ phone: '+441614960000', whatsapp: null, preferredContact: 'phone' });
    expect(readSetup(USER)?.step).toBe('prices');
  });

  it('asks which number comes first when both are given', async () => {
    startSetup(USER);
    const api = renderGuide();
    await stepHeading('How customers reach you');
    type('Phone', '0161 496 0000');
    type('WhatsApp', '07700 900123');
    fireEvent.click(screen.getByRole('radio', { name: 'Phone' }));
    await click('Save and continue');
    await stepHeading('Your prices');
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ whatsapp: '+447700900123', preferredContact: 'phone' });
  });

  it('shows the server’s refusal under the field it names', async () => {
    startSetup(USER);
    renderGuide({
      'PUT /api/company': () => ({
        status: 400,
        json: { message: 'Bad', code: 'VALIDATION_FAILED', fields: { whatsapp: 'That number cannot take WhatsApp' }, requestId: 'r' },
      }),
    });
    await stepHeading('How customers reach you');
    type('WhatsApp', '07700 900123');
    await click('Save and continue');
    const message = await screen.findByText('That number cannot take WhatsApp');
    expect(field('WhatsApp').getAttribute('aria-describedby')).toContain(message.id);
    expect(screen.getByRole('heading', { name: 'How customers reach you' })).toBeTruthy();
  });

  it('"Skip for now" keeps an unsaveable number as a draft, and Back shows it again', async () => {
    startSetup(USER);
    const api = renderGuide();
    await stepHeading('How customers reach you');
    type('Phone', '12345');
    await click('Skip for now');
    await stepHeading('Your prices');
    expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    expect(readSetup(USER)?.drafts.contact?.phone).toBe('12345');
    await click('Back');
    await stepHeading('How customers reach you');
    expect(field('Phone').value).toBe('12345');
  });

  it('prices a sample with the rates as typed, and saves them without touching the other rates', async () => {
    writeSetup(USER, { status: 'open', step: 'prices', drafts: {} });
    const api = renderGuide();
    await stepHeading('Your prices');
    expect(field('Call-out Fee (£)').value).toBe('50');
    type('Call-out Fee (£)', '72.5');
    type('Mile Rate (£ per mile)', '3.1');
    await waitFor(() => expect(screen.getByText('£72.50')).toBeTruthy());
    expect(screen.getByText('£31.00')).toBeTruthy();
    expect(api.calls.filter((c) => c.path === '/api/pricing/sample').at(-1)?.body).toEqual({ callOutFee: '72.5', mileRate: '3.1', labourRate: '45' });
    await click('Save and continue');
    await stepHeading('Where you work');
    expect(api.calls.find((c) => c.method === 'PUT' && c.path === '/api/pricing')?.body).toMatchObject({
      callOutFee: '72.5',
      mileRate: '3.1',
      labourRate: '45',
      afterHoursEnabled: true,
      bankHolidayNation: 'scotland',
      bankHolidayFee: 30,
      maximumRadius: '',
    });
  });

  it('resumes at the step the operator left, and the area step needs a postcode', async () => {
    writeSetup(USER, { status: 'open', step: 'area', drafts: { area: { basePostcode: '', serviceRadius: '30' } } });
    const api = renderGuide();
    await stepHeading('Where you work');
    expect(field('Service radius (miles)').value).toBe('30');
    await click('Save and continue');
    expect(screen.getByText('Enter your base postcode, e.g. M1 1AE')).toBeTruthy();
    type('Base postcode', 'm1 1ae');
    await click('Save and continue');
    await stepHeading('Go live');
    expect(api.calls.find((c) => c.method === 'PUT' && c.path === '/api/company')?.body).toEqual({ basePostcode: 'm1 1ae', serviceRadius: 30 });
  });

  it('going live offers the company name as the URL, and says when there is no number yet', async () => {
    writeSetup(USER, { status: 'open', step: 'live', drafts: {} });
    renderGuide();
    await stepHeading('Go live');
    expect(field('Custom URL (your quote page address)').value).toBe('dana-recovery');
    expect(screen.getByRole('alert').textContent).toContain('add a phone or WhatsApp number');
    await click('Add a number');
    await stepHeading('How customers reach you');
  });

  it('a reason on the go-live cards links to the field that fixes it, on the set-up step that has it', async () => {
    writeSetup(USER, { status: 'open', step: 'live', drafts: {} });
    const api = renderGuide();
    await stepHeading('Go live');
    await click('Lock Custom URL');
    expect(screen.getByText(/Add a phone or WhatsApp number first/)).toBeTruthy();
    expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    await act(async () => {
      fireEvent.click(screen.getByRole('link', { name: 'Add your phone number' }));
    });
    await stepHeading('How customers reach you');
    expect(document.activeElement).toBe(field('Phone'));
  });

  it('"Finish set-up later" leaves the set-up to be resumed from the portal', async () => {
    startSetup(USER);
    renderGuide();
    await stepHeading('How customers reach you');
    await click('Finish set-up later');
    expect(readSetup(USER)?.status).toBe('left');
  });
});
