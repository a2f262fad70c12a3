// Going live (docs/product.md §14), from sign-up to a live quote page: the setup checklist ticks itself as the operator
// sets up, the custom URL gives a link, a QR code that scans back to it and an embed snippet that
// works pasted into a plain page of another site, and the public page keeps the portal's
// promises (feature blocks, service area) each way. Leaving with unsaved changes asks first.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { API_ORIGIN, EXAMPLES_ORIGIN } from '../playwright.config';
import { signUpThroughTheForm, addCustomProblemCharge, expectToast, signUpWithTrial } from './admin-helpers';

// The operator's own website: a plain page on another origin, the examples server's. Its content
// is written in place (setContent) rather than fulfilled by a route, because Chromium refuses a
// routed page of unknown address space any request to the loopback API.
const OPERATOR_SITE = `${EXAMPLES_ORIGIN}/basic.html`;

async function checklist(page: Page) {
  const items = page.getByRole('region', { name: /^Setup checklist/ }).getByRole('listitem');
  return items.allTextContents();
}

test('sign up → checklist → lock URL → copy snippet → quote on a plain page → QR → promises on the public page', async ({ page, context, browser }) => {
  // The whole first five minutes of an operator, in one journey: longer than one screen's test.
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: API_ORIGIN });
  const operator = await signUpThroughTheForm(page);
  const link = `${API_ORIGIN}/company/${operator.slug}`;

  await test.step('the checklist starts empty and the link waits for a custom URL', async () => {
    await page.getByRole('tab', { name: 'Branding' }).click();
    await expect(page.getByText('(0 of 7 done)')).toBeVisible();
    await page.getByRole('button', { name: 'Choose your custom URL to get your link' }).click();
    await expect(page.getByLabel('Custom URL (your quote page address)')).toBeFocused();
  });

  await test.step('pricing, a problem charge and a contact number tick their items', async () => {
    await page.getByRole('tab', { name: 'Pricing & Rates' }).click();
    await page.getByLabel('Call-out Fee (£)').fill('72.50');
    await page.getByRole('button', { name: 'Save Pricing' }).click();
    await expectToast(page, 'Pricing updated successfully');

    await page.getByRole('tab', { name: 'Custom Charges' }).click();
    await page.getByRole('button', { name: 'Add Custom Charge' }).click();
    const charge = page.getByRole('dialog', { name: 'Add Custom Charge' });
    // A starter problem already exists: offered for editing, never for a second add.
    await expect(charge.locator('optgroup[label="Add a problem"] option', { hasText: 'Flat Tyre' })).toHaveCount(0);
    await charge.getByLabel('Problem type').selectOption({ label: 'Flat Tyre' });
    await expect(charge).toBeHidden();
    const problems = page.getByRole('list', { name: 'Problem Charges' });
    await expect(problems.getByLabel('Problem type')).toHaveValue('Flat Tyre');
    await problems.getByRole('button', { name: 'Cancel editing Flat Tyre' }).click();
    await addCustomProblemCharge(page, 'Ditch Recovery', '30');

    await page.getByRole('tab', { name: 'Contact Info' }).click();
    await page.getByLabel('Phone').fill('0161 496 0000');
    await page.getByRole('button', { name: 'Save Contact Info' }).click();
    await expectToast(page, 'Company settings updated successfully');

    await page.getByRole('tab', { name: 'Branding' }).click();
    await expect(page.getByText('(3 of 7 done)')).toBeVisible();
  });

  await test.step('locking the custom URL gives the link, the snippet and the QR code', async () => {
    await page.getByLabel('Custom URL (your quote page address)').fill(operator.slug);
    await page.getByRole('button', { name: 'Lock Custom URL' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByText(`/company/${operator.slug}`, { exact: false })).toBeVisible();
    await dialog.getByRole('button', { name: 'Save and Lock' }).click();
    await expectToast(page, 'Custom URL saved');
    await expect(page.getByLabel('Your public link')).toHaveValue(link);
    await expect(page.getByText('(4 of 7 done)')).toBeVisible();
    expect(await checklist(page)).toEqual([
      'Contact number(done)',
      'Pricing saved(done)',
      'Base postcode(to do)',
      'Custom URL locked(done)',
      'At least one problem charge(done)',
      'Logo uploaded(to do)',
      'First quote received(to do)',
    ]);

    await page.getByRole('button', { name: 'Copy link' }).click();
    await expectToast(page, 'Link copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'QR code (PNG)' }).click();
    const png = PNG.sync.read(readFileSync((await (await download).path())!));
    expect(png.width).toBeGreaterThanOrEqual(1000);
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(link);
  });

  let snippet = '';
  await test.step('the copied snippet, pasted into a plain page of another site, quotes', async () => {
    await page.getByRole('button', { name: 'Copy embed code' }).click();
    await expectToast(page, 'Embed code copied');
    snippet = await page.evaluate(() => navigator.clipboard.readText());
    expect(snippet).toBe(`<script src="${API_ORIGIN}/widget.js" async></script>\n<recovery-quote company="${operator.slug}"></recovery-quote>`);

    const site = await browser.newContext();
    const visitor = await site.newPage();
    await visitor.goto(OPERATOR_SITE);
    await visitor.setContent(`<!doctype html><html lang="en"><title>Our site</title><h1>Dana's garage</h1>\n${snippet}\n</html>`);
    await expect(visitor.locator('recovery-quote')).toHaveAttribute('company', operator.slug);
    const form = visitor.locator('recovery-quote');
    await form.getByLabel('Pickup Location').fill('m11aa');
    await form.getByLabel('Destination').fill('ls1 4ap');
    await form.getByLabel('Vehicle Type').selectOption('Car');
    await form.getByLabel('Gearbox').selectOption('Manual');
    await form.getByLabel('Rolling Status').selectOption('Rolling');
    await form.getByLabel('Problem Description').selectOption('Ditch Recovery');
    await form.getByRole('button', { name: 'Calculate Quote' }).click();
    await expect(form.getByRole('heading', { name: 'Quote Ready!' })).toBeVisible();
    await site.close();

    // The first quote ticks the last item when the operator comes back to the portal.
    await page.reload();
    await page.getByRole('tab', { name: 'Branding' }).click();
    await expect(page.getByText('(5 of 7 done)')).toBeVisible();
  });

  await test.step('the public page shows the feature blocks and the service area, and hides them when off', async () => {
    await page.getByLabel('Base postcode').fill('M1 1AE');
    await page.getByLabel('Service radius (miles)').fill('30');
    await page.getByLabel('Feature 1 title').fill('Open all night');
    await page.getByRole('button', { name: 'Save Branding' }).click();
    await expectToast(page, 'Company settings updated successfully');
    await expect(page.getByText('(6 of 7 done)')).toBeVisible();

    const motorist = await browser.newPage();
    await motorist.goto(link);
    await expect(motorist.getByText('Serving M1 and within 30 miles')).toBeVisible();
    const features = motorist.getByRole('region', { name: 'Why choose us' });
    await expect(features.getByRole('heading')).toHaveText(['Open all night', 'Transparent Pricing', 'Professional Drivers']);
    await expect(features.locator('svg')).toHaveCount(3);

    await page.getByLabel('Show my service area on the quote page').click();
    await page.getByLabel('Show feature highlights').click();
    await page.getByRole('button', { name: 'Save Branding' }).click();
    await expectToast(page, 'Company settings updated successfully');
    await motorist.reload();
    await expect(motorist.getByRole('heading', { name: operator.companyName, level: 1 })).toBeVisible();
    await expect(motorist.getByText(/Serving /)).toHaveCount(0);
    await expect(motorist.getByRole('region', { name: 'Why choose us' })).toHaveCount(0);
    await motorist.close();
  });
});

test('leaving the portal with an unsaved edit asks first; switching tabs keeps it', async ({ page }) => {
  await signUpWithTrial(page);
  await page.getByLabel('Call-out Fee (£)').fill('99');
  await page.getByRole('tab', { name: 'Branding' }).click();
  await page.getByRole('tab', { name: 'Pricing & Rates' }).click();
  await expect(page.getByLabel('Call-out Fee (£)')).toHaveValue('99');

  // The menu asks; saying no stays with the edit.
  page.once('dialog', (dialog) => {
    expect(dialog.type()).toBe('confirm');
    void dialog.dismiss();
  });
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Manage Subscription' }).click();
  // Still the portal, on the tab last opened (the address names it).
  await expect(page).toHaveURL(/\/dashboard\?tab=pricing$/);
  await expect(page.getByLabel('Call-out Fee (£)')).toHaveValue('99');

  // Closing the tab asks too (beforeunload).
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.accept();
    }),
  );
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');
});
