// The number plate look-up on a 390×844 phone, against the real server looking plates up in the
// DVLA fake (api/test/dvla-fake.ts, started by playwright.config.ts): the widget embedded on
// another origin loads the look-up module (widget-vehicle.js) on the first keystroke, a van's
// plate chooses Van and says so, "change?" hands the choice back, a plate the DVLA does not know
// leaves the form as it is, and the hosted page does the same.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DVLA_MOCK_PLATES, FAKE_PLATES } from '../api/test/dvla-fake';
import { API_ORIGIN, EXAMPLES_ORIGIN } from '../playwright.config';

test.use({ viewport: { width: 390, height: 844 } });

const widget = (page: Page) => page.locator('recovery-quote');

async function seriousFindings(page: Page) {
  const axe = await new AxeBuilder({ page }).include('recovery-quote').withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze();
  return axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

test('a van’s plate chooses Van on an operator’s own site, and the motorist may change it', async ({ page }) => {
  const chunks: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/widget-vehicle.js')) chunks.push(request.url());
  });
  await page.goto(`${EXAMPLES_ORIGIN}/basic.html`);
  const form = widget(page);
  const registration = form.getByLabel('Registration (optional)');
  await expect(registration).toBeVisible();
  // Nothing of the look-up is fetched until a plate is typed.
  expect(chunks).toEqual([]);

  await registration.pressSequentially('vn19 aaa');
  await expect(form.getByRole('status').filter({ hasText: 'We think this is a white Ford, a van —' })).toBeVisible();
  await expect(form.getByLabel('Vehicle Type')).toHaveValue('van');
  expect(chunks).toEqual([`${API_ORIGIN}/widget-vehicle.js`]);
  expect(await seriousFindings(page)).toEqual([]);

  await form.getByRole('button', { name: 'change?' }).click();
  await expect(form.getByLabel('Vehicle Type')).toBeFocused();
  await form.getByLabel('Vehicle Type').selectOption('Car');

  await form.getByLabel('Pickup Location').fill('m11aa');
  await form.getByLabel('Destination').fill('ls1 4ap');
  await form.getByLabel('Gearbox').selectOption('Manual');
  await form.getByLabel('Rolling Status').selectOption('Rolling');
  await form.getByLabel('Problem Description').selectOption({ index: 1 });
  const calculation = page.waitForRequest(`${API_ORIGIN}/api/quotes/calculate`);
  await form.getByRole('button', { name: 'Calculate Quote' }).click();
  const body = (await calculation).postDataJSON() as { vehicleType: string; registration: string };
  expect(body).toMatchObject({ vehicleType: 'car', registration: 'vn19 aaa' });
  await expect(form.getByRole('heading', { name: 'Quote Ready!' })).toBeVisible();
});

test('a plate the DVLA does not know, and one it is too slow for, leave the form as it is', async ({ page }) => {
  await page.goto(`${EXAMPLES_ORIGIN}/basic.html`);
  const form = widget(page);
  await form.getByLabel('Vehicle Type').selectOption('Motorcycle');
  for (const plate of [DVLA_MOCK_PLATES.notFound, FAKE_PLATES.slow]) {
    const lookup = page.waitForResponse(`${API_ORIGIN}/api/vehicles/lookup`);
    await form.getByLabel('Registration (optional)').fill(plate);
    expect((await (await lookup).json()).status).toMatch(/^(not-found|unavailable)$/);
    await expect(form.getByText('We think this is')).toHaveCount(0);
    await expect(form.getByLabel('Vehicle Type')).toHaveValue('motorcycle');
  }
  expect(await seriousFindings(page)).toEqual([]);
});

test('the hosted page looks plates up with the same widget', async ({ page }) => {
  await page.goto('/company/demo');
  const form = widget(page);
  await form.getByLabel('Registration (optional)').fill(DVLA_MOCK_PLATES.found);
  await expect(form.getByText('We think this is a red Ford, a car —')).toBeVisible();
  await expect(form.getByLabel('Vehicle Type')).toHaveValue('car');
});
