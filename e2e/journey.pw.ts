// The two journeys the product exists for, end to end in one browser against the real server:
// an operator signs up, starts the trial and configures prices, a custom charge, contact and a
// custom URL; then a motorist on the operator's public page chooses that charge's problem, gets a
// quote priced by exactly those settings and contacts the operator on WhatsApp.
import { expect, test } from '@playwright/test';
import { addCustomProblemCharge, expectNoSeriousA11yViolations, expectToast, signUpWithTrial } from './admin-helpers';

test('operator configures; a motorist quotes on the public page and opens WhatsApp', async ({ page, browser }) => {
  const operator = await signUpWithTrial(page);

  await test.step('operator sets prices, contact details and locks the custom URL', async () => {
    await page.getByLabel('Call-out Fee (£)').fill('72.50');
    await page.getByLabel('Mile Rate (£ per mile)').fill('3');
    await page.getByRole('button', { name: 'Save Pricing' }).click();
    await expectToast(page, 'Pricing updated successfully');

    await page.getByRole('tab', { name: 'Custom Charges' }).click();
    await addCustomProblemCharge(page, 'Ditch Recovery', '30');

    await page.getByRole('tab', { name: 'Contact Info' }).click();
    await page.getByLabel('WhatsApp').fill('+44 7700 900987');
    await page.getByLabel('Phone').fill('0161 496 0000');
    await page.getByRole('button', { name: 'Save Contact Info' }).click();
    await expectToast(page, 'Company settings updated successfully');

    await page.getByRole('tab', { name: 'Branding' }).click();
    await page.getByLabel('Custom URL').fill(operator.slug);
    await page.getByRole('button', { name: 'Lock Custom URL' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Save and Lock' }).click();
    await expectToast(page, 'Custom URL saved');
  });

  await test.step('a motorist, signed out on another device, gets a quote on the public page', async () => {
    const motorist = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await motorist.route('https://wa.me/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>WhatsApp</title>' }));
    const phone = await motorist.newPage();
    const response = await phone.goto(`/company/${operator.slug}`);
    expect(response?.status()).toBe(200);
    await expect(phone).toHaveTitle(new RegExp(operator.companyName));

    const form = phone.locator('recovery-quote');
    await form.getByLabel('Pickup Location').fill('sw1a1aa');
    await form.getByLabel('Destination').fill('ec1a 1bb');
    await form.getByLabel('Vehicle Type').selectOption('Car');
    await form.getByLabel('Gearbox').selectOption('Automatic');
    await form.getByLabel('Rolling Status').selectOption('Rolling');
    // The starter problems and the operator's own custom charge are problems the motorist can choose, 'Other' last.
    await expect(form.getByLabel('Problem Description').locator('option')).toHaveText([
      'Select the problem',
      ...['Engine Failure', 'Accident Recovery', 'Flat Tyre', 'Fuel Delivery', 'No Keys', 'Flat Battery', 'Puncture', 'Out of Fuel', 'Locked Out'],
      'Ditch Recovery',
      'Other',
    ]);
    await form.getByLabel('Problem Description').selectOption('Ditch Recovery');
    await form.getByRole('button', { name: 'Calculate Quote' }).click();

    await expect(form.getByRole('heading', { name: 'Quote Ready!' })).toBeVisible();
    await expect(form.getByText('£72.50')).toBeVisible();
    await expect(form.getByText('£30.00')).toBeVisible();
    await expectNoSeriousA11yViolations(phone, 'public quote page with a quote');

    const popup = phone.waitForEvent('popup');
    await form.getByText('Contact via WhatsApp').click();
    const chat = new URL((await popup).url());
    expect(chat.origin + chat.pathname).toBe('https://wa.me/+447700900987');
    const message = chat.searchParams.get('text') ?? '';
    expect(message).toContain('Pickup: SW1A 1AA');
    expect(message).toContain('Problem: Ditch Recovery');
    expect(message).toMatch(/Destination: EC1A 1BB \([\d.]+ miles\)/);
    expect(message).toMatch(/£[\d,]+\.\d{2}/);
    await motorist.close();
  });
});

test('the server answers unknown paths with the 404 page and status 404', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  const company = await page.goto('/company/no-such-operator');
  expect(company?.status()).toBe(404);
});
