// @vitest-environment jsdom
import '../../test/dom';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider, useMutation } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/toast';
import { createQueryClient } from '../../lib/query';
import { fakeApi } from '../../test/dom';
import { CUSTOM_URL_CARD_ID, ShareEmbedCard } from './ShareEmbedCard';
import { LINKED_FIELDS } from './go-to-field';
import { NO_CONTACT_NUMBER } from '#shared/share';

const LINK = 'https://quotes.example/company/acme-recovery';
const SNIPPET = '<script src="https://quotes.example/widget.js" async></script>\n<recovery-quote company="acme-recovery"></recovery-quote>';

const checklist = (done: boolean[]) => ({
  items: ['Pricing saved', 'At least one problem charge', 'Contact number', 'Custom URL locked', 'First quote received'].map((label, i) => ({
    key: ['pricing', 'problemCharge', 'contact', 'customUrl', 'firstQuote'][i],
    label,
    done: done[i],
  })),
  done: done.filter(Boolean).length,
  total: 5,
});

/** Any save in the portal, as a tab's form would make it. */
function SomeSave() {
  const save = useMutation({ mutationFn: () => fetch('/api/pricing', { method: 'PUT' }) });
  return (
    <button type="button" onClick={() => save.mutate()}>
      Save something
    </button>
  );
}

function renderCard(savedSlug: string | null, states: boolean[][], hasNumber = true) {
  let reads = 0;
  const api = fakeApi({
    'GET /api/share/checklist': () => ({ json: checklist(states[Math.min(reads++, states.length - 1)]) }),
    'GET /api/share/embed': () => ({ json: { link: LINK, embedSnippet: SNIPPET } }),
    'PUT /api/pricing': () => ({ json: {} }),
  });
  vi.stubGlobal('fetch', api.fetchStub);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ShareEmbedCard savedSlug={savedSlug} hasNumber={hasNumber} />
      <SomeSave />
      <input id={LINKED_FIELDS.phone.id} aria-label="Phone" />
      <div id={CUSTOM_URL_CARD_ID}>
        <input aria-label="Custom URL" />
      </div>
      <Toaster />
    </QueryClientProvider>,
  );
  return api;
}

describe('Share & Embed', () => {
  it('without a phone or WhatsApp number, hands out no link and says why, linking to the phone field', async () => {
    const api = renderCard('acme-recovery', [[false, false, false, false, false]], false);
    const reason = screen.getByText((_, element) => element?.tagName === 'P' && (element.textContent ?? '').startsWith(NO_CONTACT_NUMBER));
    expect(screen.queryByLabelText('Your public link')).toBeNull();
    fireEvent.click(within(reason).getByRole('link', { name: 'Add your phone number' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Phone'));
    await screen.findByText(/of 5 done/);
    expect(api.calls.map((call) => call.path)).not.toContain('/api/share/embed');
  });

  it('before a URL is locked, points to the custom URL card and asks for no link', async () => {
    const api = renderCard(null, [[false, false, false, false, false]]);
    const scroll = vi.fn();
    document.getElementById(CUSTOM_URL_CARD_ID)!.scrollIntoView = scroll;
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Choose your custom URL to get your link' }));
    });
    expect(scroll).toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByLabelText('Custom URL'));
    expect(api.calls.map((c) => c.path)).not.toContain('/api/share/embed');
    expect(screen.queryByRole('link', { name: /QR code/ })).toBeNull();
  });

  it('shows the link with Copy and Open, the embed code with Copy, and the QR downloads', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderCard('acme-recovery', [[true, true, true, true, false]]);
    expect(((await screen.findByLabelText('Your public link')) as HTMLInputElement).value).toBe(LINK);
    expect(screen.getByRole('link', { name: /^Open/ }).getAttribute('href')).toBe(LINK);
    expect((screen.getByLabelText('Embed on your website') as HTMLTextAreaElement).value).toBe(SNIPPET);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    });
    expect(writeText).toHaveBeenLastCalledWith(LINK);
    expect(await screen.findByText('Link copied')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy embed code' }));
    });
    expect(writeText).toHaveBeenLastCalledWith(SNIPPET);

    expect(screen.getByRole('link', { name: 'QR code (PNG)' }).getAttribute('href')).toBe('/api/share/qr.png');
    expect(screen.getByRole('link', { name: 'QR code (SVG, for print)' }).getAttribute('href')).toBe('/api/share/qr.svg');
    expect(screen.getByRole('img', { name: `QR code for ${LINK}` })).toBeTruthy();
  });

  it('ticks the checklist from the server, and reads it again after a save', async () => {
    renderCard('acme-recovery', [
      [false, false, false, true, false],
      [true, false, false, true, false],
    ]);
    const list = await screen.findByRole('list');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Pricing saved(to do)',
      'At least one problem charge(to do)',
      'Contact number(to do)',
      'Custom URL locked(done)',
      'First quote received(to do)',
    ]);
    expect(screen.getByText('(1 of 5 done)')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save something' }));
    });
    expect(await screen.findByText('(2 of 5 done)')).toBeTruthy();
    expect(within(screen.getByRole('list')).getAllByRole('listitem')[0].textContent).toBe('Pricing saved(done)');
  });
});

describe('Websites your form is on', () => {
  it('shows the stored websites, refuses a plain http address before sending, and saves each as its origin', async () => {
    const stored = {
      responseMinutes: 10,
      smsNumber: null,
      offerBooking: true,
      offerWhatsapp: true,
      offerCall: true,
      bookingOrigins: ['https://www.tow.example'],
      smsConfigured: false,
    };
    const api = fakeApi({
      'GET /api/share/checklist': () => ({ json: checklist([true, true, true, true, true]) }),
      'GET /api/share/embed': () => ({ json: { link: LINK, embedSnippet: SNIPPET } }),
      'GET /api/booking-settings': () => ({ json: stored }),
      'PUT /api/booking-settings': (body) => ({ json: { ...stored, ...(body as object) } }),
    });
    vi.stubGlobal('fetch', api.fetchStub);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ShareEmbedCard savedSlug="acme-recovery" hasNumber />
        <Toaster />
      </QueryClientProvider>,
    );
    const field = (await screen.findByLabelText('Websites your form is on')) as HTMLTextAreaElement;
    await vi.waitFor(() => expect(field.value).toBe('https://www.tow.example'));
    fireEvent.change(field, { target: { value: 'http://www.tow.example' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save websites' })));
    expect(screen.getByRole('alert').textContent).toBe('Enter a website address starting with https://, e.g. https://www.example.co.uk');
    expect(api.calls.filter((c) => c.method === 'PUT')).toEqual([]);
    fireEvent.change(field, { target: { value: 'https://WWW.Tow.example/quote\n\nhttps://garage.example' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save websites' })));
    await vi.waitFor(() =>
      expect(api.calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
        { bookingOrigins: ['https://www.tow.example', 'https://garage.example'] },
      ]),
    );
    await vi.waitFor(() => expect(field.value).toBe('https://www.tow.example\nhttps://garage.example'));
    expect(await screen.findByText('Websites saved')).toBeTruthy();
  });
});
