// @vitest-environment jsdom
import '../../test/dom';
import { useState } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { COLOUR_PRESETS } from '#shared/constants';
import { NO_CONTACT_NUMBER } from '#shared/share';
import { Toaster } from '../../components/toast';
import { createQueryClient } from '../../lib/query';
import { fakeApi } from '../../test/dom';
import type { Company } from '#shared/types';
import { UnsavedChangesProvider } from '../../lib/unsaved';
import { renderRoutes } from '../../test/render';
import { BrandingTab, ColourTheme, DisplayOptions } from './BrandingTab';
import { presetColours } from './branding';
import { useCompany } from './api';
import { CustomUrlCard } from './CustomUrlCard';
import { LINKED_FIELDS } from './go-to-field';
import { useBrandingEditor, useBrandingForm } from './useBrandingEditor';

function DisplayHarness({ breakdown, rounding }: { breakdown: boolean; rounding: boolean }) {
  const form = useBrandingForm({
    defaultValues: { showPriceBreakdown: breakdown, enablePriceRounding: rounding, priceRoundingMultiple: '5', showPriceDisclaimer: true },
  });
  return <DisplayOptions form={form} />;
}

const checkbox = (name: string) => screen.getByRole('checkbox', { name });
const isChecked = (name: string) => checkbox(name).getAttribute('aria-checked') === 'true';

describe('display options', () => {
  it('disables rounding while the breakdown is on, and hides the £5/£10 choice', () => {
    render(<DisplayHarness breakdown rounding={false} />);
    expect((checkbox('Round prices up') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('radiogroup')).toBeNull();
  });

  it('turning breakdown off enables rounding; turning rounding on reveals £5/£10', () => {
    render(<DisplayHarness breakdown rounding={false} />);
    fireEvent.click(checkbox('Show price breakdown'));
    expect(isChecked('Show price breakdown')).toBe(false);
    fireEvent.click(checkbox('Round prices up'));
    expect(isChecked('Round prices up')).toBe(true);
    expect(screen.getByRole('radio', { name: 'Nearest £5' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Nearest £10' })).toBeTruthy();
  });

  it('turning breakdown on turns rounding off', () => {
    render(<DisplayHarness breakdown={false} rounding />);
    fireEvent.click(checkbox('Show price breakdown'));
    expect(isChecked('Show price breakdown')).toBe(true);
    expect(isChecked('Round prices up')).toBe(false);
    expect(screen.queryByRole('radiogroup')).toBeNull();
  });
});

function ThemeHarness({ initial }: { initial: string | null }) {
  const form = useBrandingForm({ defaultValues: presetColours(COLOUR_PRESETS[0]) });
  const [appliedPreset, setAppliedPreset] = useState(initial);
  return (
    <>
      <ColourTheme editor={{ form, appliedPreset, setAppliedPreset }} />
      <output data-testid="primary">{form.watch('primaryColour')}</output>
    </>
  );
}

describe('colour theme', () => {
  it('marks the chosen preset APPLIED and applies its colours', () => {
    render(<ThemeHarness initial="Professional Blue" />);
    expect(screen.getByRole('button', { name: /Professional Blue/ }).textContent).toContain('APPLIED');
    fireEvent.click(screen.getByRole('button', { name: /Recovery Green/ }));
    expect(screen.getByRole('button', { name: /Recovery Green/ }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: /Recovery Green/ }).textContent).toContain('APPLIED');
    expect(screen.getByRole('button', { name: /Professional Blue/ }).textContent).not.toContain('APPLIED');
    expect(screen.getByTestId('primary').textContent).toBe('#2E7D32');
  });

  it('opening advanced colours clears the mark', () => {
    render(<ThemeHarness initial="Professional Blue" />);
    fireEvent.click(screen.getByRole('button', { name: 'Advanced Colours' }));
    expect(screen.queryByText('APPLIED')).toBeNull();
    expect(screen.getByLabelText('Primary Colour hex code')).toBeTruthy();
  });

  it('warns about unreadable text and button colours, and applies the suggested nearest readable colour', async () => {
    render(<ThemeHarness initial="Professional Blue" />);
    expect(screen.queryByText(/hard to read/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Advanced Colours' }));
    fireEvent.change(screen.getByLabelText('Text Colour hex code'), { target: { value: '#AAAAAA' } });
    fireEvent.change(screen.getByLabelText('Primary Colour hex code'), { target: { value: '#E91E63' } });
    expect(await screen.findByText(/Text on the background is hard to read \(contrast 2\.\d:1, at least 4\.5:1 needed\)/)).toBeTruthy();
    expect(screen.getByText(/Button text on the primary colour is hard to read \(contrast 4\.3:1/)).toBeTruthy();

    const useText = screen.getAllByRole('button', { name: /^Use #/ })[0];
    const suggestion = useText.textContent!.replace('Use ', '');
    await act(async () => {
      fireEvent.click(useText);
    });
    expect((screen.getByLabelText('Text Colour hex code') as HTMLInputElement).value).toBe(suggestion);
    expect(screen.queryByText(/Text on the background is hard to read/)).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /^Use #/ }));
    });
    expect(screen.queryByText(/hard to read/)).toBeNull();
  });

  it('shows no warning for any preset', () => {
    render(<ThemeHarness initial={null} />);
    for (const preset of COLOUR_PRESETS) {
      fireEvent.click(screen.getByRole('button', { name: new RegExp(preset.name) }));
      expect(screen.queryByText(/hard to read/)).toBeNull();
    }
  });
});

describe('custom URL', () => {
  function renderCard(savedSlug: string | null, put: (body: unknown) => { status?: number; json?: unknown }, hasNumber = true) {
    const api = fakeApi({ 'PUT /api/company': put });
    vi.stubGlobal('fetch', api.fetchStub);
    const router = createMemoryRouter(
      [
        {
          path: '/dashboard',
          element: (
            <>
              <CustomUrlCard savedSlug={savedSlug} hasNumber={hasNumber} />
              <input id={LINKED_FIELDS.phone.id} aria-label="Phone" />
            </>
          ),
        },
        { path: '/subscription', element: <p>Subscription page</p> },
      ],
      { initialEntries: ['/dashboard'] },
    );
    render(
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
        <Toaster />
      </QueryClientProvider>,
    );
    return { ...api, router };
  }

  const lockButton = () => screen.getByRole('button', { name: 'Lock Custom URL' });

  it('without a phone or WhatsApp number, says why the URL cannot be locked, links to the phone field, and calls nobody', async () => {
    const api = renderCard(null, () => ({ json: {} }), false);
    fireEvent.change(screen.getByLabelText('Custom URL (your quote page address)'), { target: { value: 'acme-recovery' } });
    fireEvent.click(lockButton());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(NO_CONTACT_NUMBER);
    expect(screen.queryByRole('button', { name: 'Save and Lock' })).toBeNull();
    fireEvent.click(within(alert).getByRole('link', { name: 'Add your phone number' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Phone'));
    expect(api.calls).toEqual([]);
  });

  it('names the missing number with the link when the server refuses the lock for it', async () => {
    renderCard(null, () => ({ status: 409, json: { message: NO_CONTACT_NUMBER, code: 'NO_CONTACT_NUMBER', requestId: 'r1' } }));
    fireEvent.change(screen.getByLabelText('Custom URL (your quote page address)'), { target: { value: 'acme-recovery' } });
    fireEvent.click(lockButton());
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Save and Lock' }));
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(NO_CONTACT_NUMBER);
    expect(within(alert).getByRole('link', { name: 'Add your phone number' })).toBeTruthy();
  });

  it('shows the product\'s "No changes" toast when the lock is pressed with nothing entered, and calls nobody', async () => {
    const api = renderCard(null, () => ({ json: {} }));
    fireEvent.click(lockButton());
    expect(await screen.findByText('No changes')).toBeTruthy();
    expect(screen.getByText("The custom URL hasn't been changed.")).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save and Lock' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Custom URL (your quote page address)'), { target: { value: '   ' } });
    fireEvent.click(lockButton());
    expect(screen.queryByRole('button', { name: 'Save and Lock' })).toBeNull();
    expect(api.calls).toEqual([]);
  });

  it('locks after confirming a new value', async () => {
    const api = renderCard(null, (body) => ({ json: { customSlug: (body as { customSlug: string }).customSlug } }));
    const input = screen.getByLabelText('Custom URL (your quote page address)') as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'acme-recovery' } });
    // Lock validates with the shared schema first (asynchronously): let it settle before looking.
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Lock Custom URL' }));
    });
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Save and Lock' }));
    });
    expect(await screen.findByText('Custom URL saved')).toBeTruthy();
    expect(screen.getByText('Your custom URL has been saved and is now locked.')).toBeTruthy();
    expect(api.calls).toEqual([{ method: 'PUT', path: '/api/company', body: { customSlug: 'acme-recovery' } }]);
  });

  it('is read-only with "cannot be changed" once saved', () => {
    renderCard('acme', () => ({ json: {} }));
    const input = screen.getByLabelText('Custom URL (your quote page address)') as HTMLInputElement;
    expect(input.readOnly).toBe(true);
    expect(input.value).toBe('acme');
    expect(screen.getByText(/cannot be changed/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Lock Custom URL' })).toBeNull();
  });

  it("without a subscription shows the server's reason and sends the operator to start the trial", async () => {
    const { router } = renderCard(null, () => ({ status: 402, json: { message: 'Start your free trial to claim a custom URL.', requestId: 'r1' } }));
    fireEvent.change(screen.getByLabelText('Custom URL (your quote page address)'), { target: { value: 'acme-recovery' } });
    fireEvent.click(lockButton());
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Save and Lock' }));
    });
    expect((await screen.findByRole('alert')).textContent).toContain('Start your free trial to claim a custom URL.');
    expect(screen.queryByText('Failed to save custom URL. Please try again.')).toBeNull();
    expect((screen.getByLabelText('Custom URL (your quote page address)') as HTMLInputElement).readOnly).toBe(false);
    fireEvent.click(screen.getByRole('link', { name: 'Start your free trial' }));
    expect(await screen.findByText('Subscription page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/subscription');
  });

  it('reports a failed save with the product wording and the server reason', async () => {
    renderCard(null, () => ({ status: 409, json: { message: 'That custom URL is already taken' } }));
    fireEvent.change(screen.getByLabelText('Custom URL (your quote page address)'), { target: { value: 'taken' } });
    // Lock validates with the shared schema first (asynchronously): let it settle before looking.
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Lock Custom URL' }));
    });
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Save and Lock' }));
    });
    expect(await screen.findByText('Failed to save custom URL. Please try again.')).toBeTruthy();
    expect(await screen.findByText('That custom URL is already taken')).toBeTruthy();
    expect((screen.getByLabelText('Custom URL (your quote page address)') as HTMLInputElement).readOnly).toBe(false);
  });

  it.each([
    ['admin', 'That custom URL is reserved. Please choose another.'],
    ['Acme Recovery', 'Custom URL may use lowercase letters, numbers and hyphens only'],
    ['ab', 'Custom URL must be 3 to 40 characters'],
  ])('refuses %s under the field with the reason, before asking or saving', (value, reason) => {
    const api = renderCard(null, () => ({ json: {} }));
    const input = screen.getByLabelText('Custom URL (your quote page address)');
    fireEvent.change(input, { target: { value } });
    fireEvent.click(lockButton());
    expect(screen.queryByRole('button', { name: 'Save and Lock' })).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe(reason);
    expect(input.getAttribute('aria-describedby')).toContain(screen.getByRole('alert').id);
    expect(api.calls).toEqual([]);
  });

  it('shows the URL as it will be saved in the lock dialog, and saves exactly that', async () => {
    const api = renderCard(null, (body) => ({ json: { customSlug: (body as { customSlug: string }).customSlug } }));
    fireEvent.change(screen.getByLabelText('Custom URL (your quote page address)'), { target: { value: '  acme-recovery ' } });
    fireEvent.click(lockButton());
    const dialog = await screen.findByRole('alertdialog', { name: 'Lock this custom URL?' });
    expect(dialog.querySelector('strong')?.textContent).toBe(`${window.location.origin}/company/acme-recovery`);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save and Lock' }));
    });
    expect(api.calls).toEqual([{ method: 'PUT', path: '/api/company', body: { customSlug: 'acme-recovery' } }]);
  });

  it('shows a taken URL under the field', async () => {
    renderCard(null, () => ({ status: 409, json: { message: 'That custom URL is already taken. Please choose another.', requestId: 'r3' } }));
    fireEvent.change(screen.getByLabelText('Custom URL (your quote page address)'), { target: { value: 'taken-name' } });
    fireEvent.click(lockButton());
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Save and Lock' }));
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('That custom URL is already taken. Please choose another.');
    expect(alert.id).not.toBe('');
    expect(screen.getByLabelText('Custom URL (your quote page address)').getAttribute('aria-describedby')?.split(' ')).toContain(alert.id);
  });
});

describe('saving the Branding form (react-hook-form with the shared company schema)', () => {
  const company = {
    id: 7,
    name: 'Acme Recovery',
    logo: 'https://quotes.example/api/company/7/logo?v=abc',
    ...presetColours(COLOUR_PRESETS[0]),
    phone: null,
    whatsapp: null,
    email: null,
    preferredContact: 'phone',
    customSlug: null,
    customDomain: null,
    showPriceBreakdown: true,
    enablePriceRounding: false,
    priceRoundingMultiple: 5,
    showPriceDisclaimer: true,
    companyDescription: null,
    basePostcode: 'M1 1AE',
    serviceRadius: 25,
    extraRadiusFee: 15,
    showServiceArea: true,
    showFeatures: true,
    passengerLimit: 4,
    pricePerPassenger: 5,
    feature1Title: '24/7 Availability',
    feature1Description: 'Round the clock',
    feature1Icon: 'Clock',
    feature2Title: 'Fair prices',
    feature2Description: 'No surprises',
    feature2Icon: 'Calculator',
    feature3Title: 'Insured',
    feature3Description: 'Fully covered',
    feature3Icon: 'Shield',
  } as unknown as Company;

  function Editor() {
    const editor = useBrandingEditor(company);
    return <BrandingTab editor={editor} company={company} />;
  }

  function renderEditor(put: (body: unknown) => { status?: number; json?: unknown }) {
    const api = fakeApi({
      'GET /api/share/checklist': () => ({ json: { items: [], done: 0, total: 5 } }),
      'PUT /api/company': put,
    });
    vi.stubGlobal('fetch', api.fetchStub);
    renderRoutes(
      [
        {
          path: '/dashboard',
          element: (
            <UnsavedChangesProvider>
              <Editor />
            </UnsavedChangesProvider>
          ),
        },
      ],
      '/dashboard',
    );
    return api;
  }

  const save = async () => {
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save Branding' }));
    });
  };
  const errorUnder = (label: string) => {
    const input = screen.getByLabelText(label);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    return document.getElementById(input.getAttribute('aria-describedby')!.split(' ').pop()!)?.textContent;
  };
  const puts = (api: ReturnType<typeof fakeApi>) => api.calls.filter((call) => call.method === 'PUT');

  it('names the feature icons in words, not by their component names', async () => {
    renderEditor(() => ({ json: company }));
    const icon = screen.getByLabelText('Feature 3 icon') as HTMLSelectElement;
    const words = [...icon.options].map((option) => option.textContent);
    expect(words).toContain('Tick in a circle');
    expect(words).toContain('Map pin');
    expect(words.filter((word) => /\p{Ll}\p{Lu}/u.test(word ?? ''))).toEqual([]);
    expect(icon.value).toBe('Shield');
  });

  it("shows the server's field error under its field, with the product's error toast", async () => {
    const reason = 'Service radius cannot be more than the maximum radius (20 miles)';
    const api = renderEditor(() => ({ status: 400, json: { message: reason, code: 'VALIDATION_FAILED', fields: { serviceRadius: reason }, requestId: 'r1' } }));
    fireEvent.change(screen.getByLabelText('Service radius (miles)'), { target: { value: '30' } });
    await save();
    expect(puts(api)).toHaveLength(1);
    expect(errorUnder('Service radius (miles)')).toBe(reason);
    expect(await screen.findByText('Error updating company settings')).toBeTruthy();
    expect((screen.getByLabelText('Service radius (miles)') as HTMLInputElement).value).toBe('30');
  });

  it('refuses what the shared schema refuses under each field, before calling the server', async () => {
    const api = renderEditor(() => ({ json: company }));
    fireEvent.change(screen.getByLabelText('Company Name'), { target: { value: ' ' } });
    fireEvent.change(screen.getByLabelText('Service radius (miles)'), { target: { value: '5000' } });
    await save();
    expect(errorUnder('Company Name')).toBe('Company name is required');
    expect(errorUnder('Service radius (miles)')).toBe('Service radius must be at most 1000');
    expect(await screen.findByText('Error updating company settings')).toBeTruthy();
    expect(puts(api)).toEqual([]);
  });

  it('asks for a display option before anything else, and saves nothing', async () => {
    const api = renderEditor(() => ({ json: company }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show price breakdown' }));
    await save();
    expect(await screen.findByText('Display option required')).toBeTruthy();
    expect(screen.getByText('Please select at least one display option before saving.')).toBeTruthy();
    expect(puts(api)).toEqual([]);
  });

  it('sends the parsed values without the stored logo, says so, and counts as unsaved only until saved', async () => {
    const api = renderEditor((body) => ({ json: { ...company, ...(body as object) } }));
    const unloadPrevented = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unloadPrevented()).toBe(false);
    fireEvent.change(screen.getByLabelText('Service radius (miles)'), { target: { value: '30' } });
    expect(unloadPrevented()).toBe(true);
    await save();
    expect(unloadPrevented()).toBe(false);
    const [put] = puts(api);
    expect(put.body).toMatchObject({ name: 'Acme Recovery', serviceRadius: 30, passengerLimit: 4, priceRoundingMultiple: 5 });
    expect(put.body).not.toHaveProperty('logo');
    expect(await screen.findByText('Company settings updated successfully')).toBeTruthy();
  });

  it('is clean once saved when the server stores the values its own way (a new logo, a lower-case postcode)', async () => {
    // The company is the portal's read, so the save's answer refreshes it as in the portal.
    let stored = company;
    const api = fakeApi({
      'GET /api/company': () => ({ json: stored }),
      'GET /api/share/checklist': () => ({ json: { items: [], done: 0, total: 5 } }),
      'PUT /api/company': (body) => {
        const { logo, basePostcode } = body as { logo?: string; basePostcode?: string };
        stored = {
          ...stored,
          ...(body as object),
          basePostcode: basePostcode?.toUpperCase() ?? null,
          logo: logo ? 'https://quotes.example/api/company/7/logo?v=new' : stored.logo,
        };
        return { json: stored };
      },
    });
    vi.stubGlobal('fetch', api.fetchStub);
    function PortalEditor() {
      const { data } = useCompany();
      const editor = useBrandingEditor(data);
      return data ? <BrandingTab editor={editor} company={data} /> : null;
    }
    renderRoutes(
      [
        {
          path: '/dashboard',
          element: (
            <UnsavedChangesProvider>
              <PortalEditor />
            </UnsavedChangesProvider>
          ),
        },
      ],
      '/dashboard',
    );
    const unloadPrevented = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    fireEvent.change(await screen.findByLabelText('Base postcode'), { target: { value: 'sk1 1aa' } });
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText('Company Logo'), { target: { files: [file] } });
    expect(await screen.findByText('Logo uploaded')).toBeTruthy();
    expect(unloadPrevented()).toBe(true);
    await save();
    expect(await screen.findByText('Company settings updated successfully')).toBeTruthy();
    expect(puts(api)[0].body).toMatchObject({ basePostcode: 'sk1 1aa', logo: expect.stringMatching(/^data:image\/png;base64,/) });
    await waitFor(() => expect((screen.getByLabelText('Base postcode') as HTMLInputElement).value).toBe('SK1 1AA'));
    expect(unloadPrevented()).toBe(false);
  });
});
