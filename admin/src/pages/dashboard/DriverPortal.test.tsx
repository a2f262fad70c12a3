// @vitest-environment jsdom
import '../../test/dom';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/toast';
import { fakeApi } from '../../test/dom';
import { renderRoutes } from '../../test/render';
import { DriverPortal, openPreview, previewPath } from './DriverPortal';

function fakeTab() {
  return { opener: {} as unknown, location: { href: '' } };
}

afterEach(() => {
  if (vi.isMockFunction(window.open)) vi.mocked(window.open).mockRestore();
});

describe('Preview Quote Screen', () => {
  it('opens the custom URL when there is one, else /preview', () => {
    expect(previewPath('acme')).toBe('/company/acme');
    expect(previewPath(null)).toBe('/preview');
  });

  it('opens the tab during the click, saves, then points it at the page', async () => {
    const tab = fakeTab();
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const save = vi.fn(async () => true);
    expect(await openPreview({ save }, 'acme')).toBe('opened');
    expect(window.open).toHaveBeenCalledWith('', '_blank');
    expect(save).toHaveBeenCalledWith({ quiet: true });
    expect(tab.opener).toBeNull();
    expect(tab.location.href).toBe('/company/acme');
  });

  it('warns when the pop-up is blocked', async () => {
    render(<Toaster />);
    vi.spyOn(window, 'open').mockReturnValue(null);
    expect(await openPreview({ save: async () => true }, null)).toBe('blocked');
    expect(await screen.findByText('Pop-up blocked')).toBeTruthy();
    expect(screen.getByText('Please allow pop-ups for this site and try again')).toBeTruthy();
  });

  it('still opens the preview when saving fails, and says so', async () => {
    render(<Toaster />);
    const tab = fakeTab();
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    expect(await openPreview({ save: async () => false }, null)).toBe('opened');
    expect(tab.location.href).toBe('/preview');
    expect(await screen.findByText('Changes not saved')).toBeTruthy();
    expect(screen.getByText('Preview opened, but recent changes may not be visible')).toBeTruthy();
  });
});

describe('the portal’s tabs', () => {
  it('opens the tab the address names (before: only Quotes, Team and Audit log), and keeps the open tab in it, so a reload opens the same one', async () => {
    vi.stubGlobal('fetch', fakeApi({}).fetchStub);
    const router = renderRoutes([{ path: '/dashboard', element: <DriverPortal userId={1} /> }], '/dashboard?tab=contact');
    expect((await screen.findByRole('tab', { name: 'Contact Info' })).getAttribute('aria-selected')).toBe('true');
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Custom Charges' }));
    expect(router.state.location.search).toBe('?tab=charges');
    vi.unstubAllGlobals();
  });
});
