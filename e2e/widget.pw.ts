// The widget as a website owner embeds it: examples/*.html served from another origin (docs/style.md
// #15), the API and widget.js from the app. Playwright's locators pierce the open shadow root,
// so the form is driven by its visible labels, as a customer would.
import { request as httpRequest } from 'node:http';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { API_ORIGIN, EXAMPLES_ORIGIN } from '../playwright.config';

const WIDGET_BUDGET_BYTES = 85_000;

declare global {
  interface Window {
    dataLayer: { event: string; detail: Record<string, unknown> }[];
  }
}

const widget = (page: Page) => page.locator('recovery-quote');

async function fillQuote(form: Locator) {
  await form.getByLabel('Pickup Location').fill('m11aa');
  await form.getByLabel('Destination').fill('ls1 4ap');
  await form.getByLabel('Vehicle Type').selectOption('Car');
  await form.getByLabel('Gearbox').selectOption('Manual');
  await form.getByLabel('Rolling Status').selectOption('Not Rolling');
  await form.getByRole('button', { name: 'More passengers', exact: true }).click();
  await form.getByLabel('Problem Description').selectOption('Flat Tyre');
}

/** Serious and critical axe findings inside the widget, as readable lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('recovery-quote').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('embedded on another origin', () => {
  test('a customer gets a quote with the basic two-line embed', async ({ page }) => {
    await page.goto(`${EXAMPLES_ORIGIN}/basic.html`);
    const form = widget(page);
    await expect(form.getByRole('heading', { name: 'Get Your Instant Recovery Quote' })).toBeVisible();
    // The demo company's own custom charges are the problems offered, then 'Other'.
    await expect(form.getByLabel('Problem Description').locator('option')).toHaveText([
      'Select the problem',
      'Engine Failure',
      'Flat Tyre',
      'Accident Recovery',
      'Other',
    ]);
    await fillQuote(form);
    await form.getByLabel('Pickup Location').blur();
    await expect(form.getByLabel('Pickup Location')).toHaveValue('M1 1AA');
    await form.getByRole('button', { name: 'Calculate Quote' }).click();
    await expect(form.getByRole('heading', { name: 'Quote Ready!' })).toBeVisible();
    await expect(form.getByText(/^Quote ID: TQ-\S+$/)).toBeVisible();
    await expect(form.getByText('Total Cost')).toBeVisible();
    await expect(form.getByText(/^£[\d,]+\.\d{2}$/).first()).toBeVisible();
    await expect(form.getByRole('status').filter({ hasText: 'Quote Calculated' })).toContainText(/Your recovery quote is £/);
  });

  test('field messages and postcode toasts come from the form', async ({ page }) => {
    await page.goto(`${EXAMPLES_ORIGIN}/basic.html`);
    const form = widget(page);
    await form.getByRole('button', { name: 'Calculate Quote' }).click();
    await expect(form.getByText('Pickup postcode is required')).toBeVisible();
    await expect(form.getByText('Vehicle type is required')).toBeVisible();
    await expect(form.getByLabel('Pickup Location')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByLabel('Pickup Location')).toBeFocused();

    await form.getByLabel('Pickup Location').fill('NOT A POSTCODE');
    await form.getByRole('button', { name: 'Calculate Quote' }).click();
    await expect(form.getByRole('alert')).toContainText('Invalid Pickup Postcode');
    await expect(form.getByRole('alert')).toContainText('Please enter a valid UK postcode for pickup location');
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('quote and contact events reach the page, and WhatsApp opens with the details', async ({ page, context }) => {
    await context.route('https://wa.me/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>WhatsApp</title>' }));
    await page.goto(`${EXAMPLES_ORIGIN}/events.html`);
    const form = widget(page);
    await fillQuote(form);
    await form.getByRole('radio', { name: 'Later (Schedule)' }).check();
    const tomorrow = new Date(Date.now() + 86_400_000);
    const iso = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
    await form.getByLabel('Preferred Date').fill(iso);
    await form.getByLabel('Hour').selectOption('02');
    await form.getByLabel('Min').selectOption('30');
    await form.getByLabel('Period').selectOption('PM');
    await expect(form.getByText('Selected Time: 02:30 PM')).toBeVisible();

    const quoteRequest = page.waitForRequest((r) => r.url().endsWith('/api/quotes/calculate'));
    await form.getByRole('button', { name: 'Calculate Quote' }).click();
    expect((await quoteRequest).postDataJSON()).toMatchObject({
      pickupPostcode: 'M1 1AA',
      destinationPostcode: 'LS1 4AP',
      vehicleType: 'car',
      urgency: 'later',
      preferredDate: iso,
      preferredTime: '14:30',
      passengerCount: 1,
    });
    await expect(form.getByRole('heading', { name: 'Quote Ready!' })).toBeVisible();
    const quoteId = ((await form.getByText(/^Quote ID: TQ-/).textContent()) ?? '').replace('Quote ID: TQ-', '');

    await expect(page.locator('#log')).toContainText(`quote {"quoteId":"${quoteId}"`);
    const quoteEvents = await page.evaluate(() => window.dataLayer.filter((e) => e.event === 'recovery_quote'));
    expect(quoteEvents).toHaveLength(1);
    expect(quoteEvents[0].detail).toMatchObject({ quoteId, currency: 'GBP' });

    const popupPromise = page.waitForEvent('popup');
    // The tap is marked on the quote for the operator's inbox, across origins (a CORS preflight).
    const marker = page.waitForResponse((r) => r.url().endsWith(`/api/quotes/${quoteId}/contact`) && r.request().method() === 'POST');
    await form.getByRole('button', { name: 'Contact via WhatsApp' }).click();
    expect((await marker).status()).toBe(200);
    const popup = await popupPromise;
    const url = new URL(popup.url());
    expect(url.origin).toBe('https://wa.me');
    expect(url.pathname).toMatch(/^\/\+?\d+$/);
    const text = url.searchParams.get('text') ?? '';
    expect(text).toContain('Pickup: M1 1AA');
    expect(text).toMatch(/Destination: LS1 4AP \([\d.]+ miles\)/);
    expect(text).toContain('Vehicle: Car');
    expect(text).toContain('Gearbox: Manual');
    expect(text).toContain('Rolling Status: Not Rolling');
    expect(text).toContain('Passengers: 1');
    expect(text).toContain('Problem: Flat Tyre');
    expect(text).toContain(`When: ${tomorrow.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' })} at 02:30 PM`);
    expect(text).toMatch(/Quoted Price: £[\d,]+\.\d{2}/);
    expect(text).toContain('Please confirm the cost and your availability.');
    await popup.close();
    await expect(page.locator('#log')).toContainText(`contact {"channel":"whatsapp","quoteId":"${quoteId}"}`);

    // A tel: link would leave the page; the page (as a host site could) cancels it here.
    await page.evaluate(() =>
      document.addEventListener('click', (event) => {
        const link = event.composedPath()[0];
        if (link instanceof Element && link.closest('a')?.getAttribute('href')?.startsWith('tel:')) event.preventDefault();
      }),
    );
    await form.getByRole('button', { name: 'Call Now' }).click();
    await expect(page.locator('#log')).toContainText(`contact {"channel":"phone","quoteId":"${quoteId}"}`);
  });

  test('a keyboard alone completes a quote', async ({ page }) => {
    await page.goto(`${EXAMPLES_ORIGIN}/basic.html`);
    const form = widget(page);
    await expect(form.getByLabel('Pickup Location')).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(form.getByRole('button', { name: 'Dismiss safety advice' })).toBeFocused();
    // The optional Registration field comes first; a keyboard passes it by.
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Registration (optional)')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Pickup Location')).toBeFocused();
    await page.keyboard.type('M1 1AA');
    await page.keyboard.press('Tab');
    await expect(form.getByRole('button', { name: 'Use my location' })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.type('LS1 4AP');
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Vehicle Type')).toBeFocused();
    await page.keyboard.type('Van');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Auto');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Rolling');
    await page.keyboard.press('Tab');
    await expect(form.getByRole('button', { name: 'Fewer passengers', exact: true })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Space');
    await expect(form.getByRole('group', { name: 'Number of Passengers' })).toContainText('2');
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Problem Description')).toBeFocused();
    await page.keyboard.type('Engine');
    await page.keyboard.press('Tab');
    await expect(form.getByRole('radio', { name: 'Now (Emergency)' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(form.getByRole('button', { name: 'Calculate Quote' })).toBeFocused();
    await page.keyboard.press('Enter');
    const heading = form.getByRole('heading', { name: 'Quote Ready!' });
    await expect(heading).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(form.getByRole('button', { name: 'Contact via WhatsApp' })).toBeFocused();
    await expect(form.getByLabel('Vehicle Type')).toHaveValue('van');
    await expect(form.getByLabel('Gearbox')).toHaveValue('automatic');
    await expect(form.getByLabel('Rolling Status')).toHaveValue('rolling');
    await expect(form.getByLabel('Problem Description')).toHaveValue('engine-failure');
  });

  test('axe finds no serious or critical problem, before and after a quote', async ({ page }) => {
    await page.goto(`${EXAMPLES_ORIGIN}/basic.html`);
    const form = widget(page);
    await expect(form.getByLabel('Pickup Location')).toBeVisible();
    await form.getByRole('radio', { name: 'Later (Schedule)' }).check();
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('radio', { name: 'Now (Emergency)' }).check();
    await fillQuote(form);
    await form.getByRole('button', { name: 'Calculate Quote' }).click();
    await expect(form.getByRole('heading', { name: 'Quote Ready!' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('fits a 360 px phone with 44 px touch targets', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${EXAMPLES_ORIGIN}/basic.html`);
    const form = widget(page);
    await fillQuote(form);
    await form.getByRole('button', { name: 'Calculate Quote' }).click();
    await expect(form.getByRole('heading', { name: 'Quote Ready!' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const targets = [
      form.getByLabel('Pickup Location'),
      form.getByRole('button', { name: 'Use my location' }),
      form.getByRole('button', { name: 'Dismiss safety advice' }),
      form.getByLabel('Vehicle Type'),
      form.getByRole('button', { name: 'More passengers', exact: true }),
      form.getByRole('button', { name: 'Fewer passengers', exact: true }),
      form.locator('label').filter({ hasText: 'Later (Schedule)' }),
      form.getByRole('button', { name: 'Calculate Quote' }),
      form.getByRole('button', { name: 'Contact via WhatsApp' }),
      form.getByRole('button', { name: 'Call Now' }),
    ];
    for (const target of targets) {
      const box = await target.boundingBox();
      expect(box, await target.evaluate((el) => el.outerHTML.slice(0, 80))).not.toBeNull();
      expect(box!.height).toBeGreaterThanOrEqual(44);
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    }
  });

  test('the host page’s hostile CSS changes nothing inside the widget', async ({ page }) => {
    await page.goto(`${EXAMPLES_ORIGIN}/hostile.html`);
    const form = widget(page);
    const button = form.getByRole('button', { name: 'Calculate Quote' });
    await expect(button).toBeVisible();
    const style = await button.evaluate((el) => {
      const s = getComputedStyle(el);
      return {
        fontSize: s.fontSize,
        color: s.color,
        fontFamily: s.fontFamily,
        fontStyle: s.fontStyle,
        textTransform: s.textTransform,
        height: s.height,
        opacity: s.opacity,
        letterSpacing: s.letterSpacing,
      };
    });
    expect(style).toMatchObject({
      fontSize: '16px',
      color: 'rgb(255, 255, 255)',
      fontStyle: 'normal',
      textTransform: 'none',
      height: '48px',
      opacity: '1',
      letterSpacing: 'normal',
    });
    expect(style.fontFamily).not.toContain('Comic Sans');
    const input = form.getByLabel('Pickup Location');
    expect(await input.evaluate((el) => [getComputedStyle(el).height, getComputedStyle(el).fontSize, getComputedStyle(el).boxSizing])).toEqual([
      '44px',
      '16px',
      'border-box',
    ]);
    // Tailwind's shadows and rings need @property registered on the document, or they compute to none.
    const card = form.locator('section').filter({ has: page.getByRole('heading', { name: 'Get Your Instant Recovery Quote' }) });
    expect(await card.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe('none');
    expect(await widget(page).evaluate((el) => getComputedStyle(el).display)).toBe('block');

    await fillQuote(form);
    await button.click();
    await expect(form.getByRole('heading', { name: 'Quote Ready!' })).toBeVisible();
    await expect(form.getByRole('status').filter({ hasText: 'Quote Calculated' })).toBeVisible();
  });

  test('the host page themes the form through its --recovery-quote-* properties, and nothing else', async ({ page }) => {
    await page.goto(`${EXAMPLES_ORIGIN}/theming.html`);
    const form = widget(page);
    const button = form.getByRole('button', { name: 'Calculate Quote' });
    await expect(button).toBeVisible();
    const style = await button.evaluate((el) => {
      const s = getComputedStyle(el);
      return { background: s.backgroundColor, color: s.color, fontFamily: s.fontFamily, height: s.height };
    });
    expect(style).toEqual({ background: 'rgb(11, 110, 79)', color: 'rgb(255, 255, 255)', fontFamily: 'Georgia, "Times New Roman", serif', height: '48px' });
    expect(await widget(page).evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(420);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test.describe('hosted company page', () => {
  test('has the title, Open Graph tags, and a working widget', async ({ page }) => {
    await page.goto(`${API_ORIGIN}/company/demo`);
    const name = (await page.locator('h1').textContent()) ?? '';
    await expect(page).toHaveTitle(`${name} – Instant Recovery Quote`);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', `${name} – Instant Recovery Quote`);
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'website');
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', `${API_ORIGIN}/company/demo`);
    await expect(page.locator('meta[property="og:description"]')).toHaveAttribute('content', /\S/);
    await expect(page.locator('footer')).toContainText('Privacy Policy');
    const form = widget(page);
    await fillQuote(form);
    await form.getByRole('button', { name: 'Calculate Quote' }).click();
    await expect(form.getByRole('heading', { name: 'Quote Ready!' })).toBeVisible();
  });

  test('an unknown company is a 404 page', async ({ page }) => {
    const response = await page.goto(`${API_ORIGIN}/company/no-such-company-here`);
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle('404 Page Not Found');
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  });

  test('the widget element says so when its company does not exist', async ({ page }) => {
    await page.goto(`${EXAMPLES_ORIGIN}/basic.html`);
    await page.evaluate(() => {
      const element = document.createElement('recovery-quote');
      element.setAttribute('company', 'no-such-company-here');
      element.id = 'missing';
      document.body.append(element);
    });
    await expect(page.locator('#missing').getByRole('heading', { name: 'Company not found' })).toBeVisible();
  });
});

test('widget.js is served gzipped within its 85 KB budget', async () => {
  const { status, headers, bytes } = await new Promise<{ status: number; headers: Record<string, unknown>; bytes: number }>((resolve, reject) => {
    const req = httpRequest(`${API_ORIGIN}/widget.js`, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
    });
    req.on('error', reject);
    req.end();
  });
  expect(status).toBe(200);
  expect(headers['content-encoding']).toBe('gzip');
  expect(headers['access-control-allow-origin']).toBe('*');
  expect(bytes).toBeLessThanOrEqual(WIDGET_BUDGET_BYTES);
});
