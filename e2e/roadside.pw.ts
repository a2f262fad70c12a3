// The motorist at the roadside (docs/product.md §17), in the embedded widget and on the hosted page, in
// Chromium with a mocked position: 'Use my location', the safety line, a failed quote that still
// leads to a call, and nothing stored before a quote.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { API_ORIGIN, EXAMPLES_ORIGIN } from '../playwright.config';

const SAFETY = 'On a motorway or in a live lane? Get behind the barrier if it is safe, then call 999.';
const NO_POSTCODE = 'We could not find a UK postcode near you. Please type it.';
// The demo company's number is stored in E.164 (+447700900123) and shown in the national format.
const UNREACHABLE = "We couldn't get a price just now. Please try again, or call Demo Recovery Co. on 07700 900123.";

const LEEDS = { latitude: 53.7997, longitude: -1.5492 };
const NORTH_SEA = { latitude: 55.0, longitude: 2.5 };
const PARIS = { latitude: 48.8566, longitude: 2.3522 };

const widget = (page: Page) => page.locator('recovery-quote');

async function at(context: BrowserContext, position: { latitude: number; longitude: number }) {
  await context.grantPermissions(['geolocation'], { origin: EXAMPLES_ORIGIN });
  await context.setGeolocation(position);
}

async function fillQuote(form: Locator) {
  await form.getByLabel('Pickup Location').fill('m11aa');
  await form.getByLabel('Destination').fill('ls1 4ap');
  await form.getByLabel('Vehicle Type').selectOption('Car');
  await form.getByLabel('Gearbox').selectOption('Manual');
  await form.getByLabel('Rolling Status').selectOption('Not Rolling');
  await form.getByLabel('Problem Description').selectOption('Flat Tyre');
}

// Against the real GET /api/postcodes/nearest and the built-in postcode data.
test.describe('Use my location', () => {
  test('a position in Leeds fills a Leeds postcode', async ({ page, context }) => {
    await at(context, LEEDS);
    await page.goto(`${EXAMPLES_ORIGIN}/basic.html`);
    const form = widget(page);
    await form.getByRole('button', { name: 'Use my location' }).click();
    await expect(form.getByLabel('Pickup Location')).toHaveValue(/^LS\d{1,2} \d[A-Z]{2}$/);
  });

  for (const [place, position] of [
    ['the North Sea', NORTH_SEA],
    ['France', PARIS],
  ] as const) {
    test(`a position in ${place} says to type the postcode and leaves the field alone`, async ({ page, context }) => {
      await at(context, position);
      await page.goto(`${EXAMPLES_ORIGIN}/basic.html`);
      const form = widget(page);
      await form.getByLabel('Pickup Location').fill('M1 1AA');
      await form.getByRole('button', { name: 'Use my location' }).click();
      await expect(form.getByRole('status').filter({ hasText: NO_POSTCODE })).toBeVisible();
      await expect(form.getByLabel('Pickup Location')).toHaveValue('M1 1AA');
    });
  }

  test('denied permission gets its own message', async ({ page, context }) => {
    await context.clearPermissions();
    await page.goto(`${EXAMPLES_ORIGIN}/basic.html`);
    const form = widget(page);
    await form.getByRole('button', { name: 'Use my location' }).click();
    await expect(form.getByRole('status').filter({ hasText: 'Location access is turned off. Please type the postcode.' })).toBeVisible();
    await expect(form.getByLabel('Pickup Location')).toHaveValue('');
  });
});

test('the server stopped mid-quote: sent once more under the same key, then a lasting message with Call', async ({ page }) => {
  await page.goto(`${EXAMPLES_ORIGIN}/basic.html`);
  const form = widget(page);
  await fillQuote(form);
  const keys: (string | undefined)[] = [];
  await page.route(`${API_ORIGIN}/api/quotes/calculate`, (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    keys.push(route.request().headers()['idempotency-key']);
    return route.abort('connectionreset');
  });
  await form.getByRole('button', { name: 'Calculate Quote' }).click();
  const message = form.getByRole('alert').filter({ hasText: UNREACHABLE });
  await expect(message).toBeVisible();
  await expect(message.getByRole('button', { name: 'Call Now' })).toHaveAttribute('href', 'tel:+447700900123');
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
  expect(keys[1]).toBe(keys[0]);
  await expect(form.getByText('Please check your details')).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).include('recovery-quote').withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // The server is back: the next tap clears the message and gets the quote.
  await page.unroute(`${API_ORIGIN}/api/quotes/calculate`);
  await form.getByRole('button', { name: 'Calculate Quote' }).click();
  await expect(form.getByRole('heading', { name: 'Quote Ready!' })).toBeVisible();
  await expect(form.getByText(UNREACHABLE)).toHaveCount(0);
});

test.describe('on a 390×844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const [where, url] of [
    ['the embedded element', `${EXAMPLES_ORIGIN}/basic.html`],
    ['the hosted page', `${API_ORIGIN}/company/demo`],
  ] as const) {
    test(`${where} shows the safety line above the form, which stays above the fold, until dismissed`, async ({ page }) => {
      await page.goto(url);
      const form = widget(page);
      const line = form.getByText(SAFETY);
      await expect(line).toBeVisible();
      const pickup = form.getByLabel('Pickup Location');
      const lineBox = (await line.boundingBox())!;
      const pickupBox = (await pickup.boundingBox())!;
      expect(lineBox.y + lineBox.height).toBeLessThanOrEqual(pickupBox.y);
      expect(pickupBox.y + pickupBox.height).toBeLessThanOrEqual(844);
      await form.getByRole('button', { name: 'Dismiss safety advice' }).click();
      await expect(line).toHaveCount(0);
      await expect(pickup).toBeVisible();
    });
  }
});

test.describe('nothing stored before a quote', () => {
  for (const [where, url] of [
    ['the embedded element', `${EXAMPLES_ORIGIN}/basic.html`],
    ['the hosted page', `${API_ORIGIN}/company/demo`],
  ] as const) {
    test(`${where} sets no cookie and writes no storage up to Calculate`, async ({ page, context }) => {
      await context.grantPermissions(['geolocation'], { origin: new URL(url).origin });
      await context.setGeolocation(LEEDS);
      await page.goto(url);
      const form = widget(page);
      await form.getByRole('button', { name: 'Dismiss safety advice' }).click();
      await form.getByRole('button', { name: 'Use my location' }).click();
      await expect(form.getByLabel('Pickup Location')).toHaveValue(/^LS/);
      await fillQuote(form);
      await form.getByRole('radio', { name: 'Later (Schedule)' }).check();
      await form.getByRole('radio', { name: 'Now (Emergency)' }).check();
      await form.getByRole('button', { name: 'More passengers', exact: true }).click();

      const stored = () => page.evaluate(() => ({ cookie: document.cookie, local: localStorage.length, session: sessionStorage.length }));
      expect(await stored()).toEqual({ cookie: '', local: 0, session: 0 });
      expect(await context.cookies()).toEqual([]);

      const answered = page.waitForResponse((r) => r.url().endsWith('/api/quotes/calculate') && r.request().method() === 'POST');
      await form.getByRole('button', { name: 'Calculate Quote' }).click();
      expect((await answered).headers()['set-cookie']).toBeUndefined();
      await expect(form.getByRole('heading', { name: 'Quote Ready!' })).toBeVisible();
      expect(await stored()).toEqual({ cookie: '', local: 0, session: 0 });
      expect(await context.cookies()).toEqual([]);
    });
  }
});
