// What a new operator met on a phone walking through set-up (docs/product.md §14): the public link
// shows whole with Copy beside it, a toast never covers the sticky Save Branding button, and the
// hosted page names the company once on the first screen.
import { expect, test, type Locator } from '@playwright/test';
import { API_ORIGIN } from '../playwright.config';
import { addPhoneNumber, expectNoSeriousA11yViolations, expectToast, signUpWithTrial } from './admin-helpers';

test.use({ viewport: { width: 390, height: 844 } });

// A 1×1 PNG.
const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}
const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('on a phone: the whole public link beside Copy, toasts clear of Save Branding, the company named once', async ({ page }) => {
  test.setTimeout(120_000);
  const operator = await signUpWithTrial(page);
  const link = `${API_ORIGIN}/company/${operator.slug}`;
  // A URL is locked only with a number to reach the operator by.
  await addPhoneNumber(page);
  await page.getByRole('tab', { name: 'Branding' }).click();

  await test.step('the public link shows whole, with Copy beside it', async () => {
    await page.getByLabel('Custom URL (your quote page address)').fill(operator.slug);
    await page.getByRole('button', { name: 'Lock Custom URL' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Save and Lock' }).click();
    await expectToast(page, 'Custom URL saved');
    const field = page.getByLabel('Your public link');
    await expect(field).toHaveValue(link);
    // Nothing of it is cut off: the field is as tall and as wide as its text.
    const hidden = await field.evaluate((el) => ({ down: el.scrollHeight - el.clientHeight, across: el.scrollWidth - el.clientWidth }));
    expect(hidden.down).toBeLessThanOrEqual(1);
    expect(hidden.across).toBeLessThanOrEqual(1);
    const fieldBox = await box(field);
    const copyBox = await box(page.getByRole('button', { name: 'Copy link' }));
    expect(copyBox.x).toBeGreaterThanOrEqual(fieldBox.x + fieldBox.width);
    expect(copyBox.y).toBeLessThan(fieldBox.y + fieldBox.height);
    expect(fieldBox.width).toBeGreaterThan(150);
    await expectNoSeriousA11yViolations(page, 'the Branding tab on a phone');
  });

  await test.step('"Logo uploaded" stays clear of the sticky Save Branding button', async () => {
    // As an operator does it: the Upload Logo button, near the top of the form, so the Save bar
    // below is stuck to the bottom of the screen.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload Logo' }).click();
    await (await chooser).setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG_1PX });
    const toast = page
      .getByRole('region', { name: /Notification/ })
      .getByText('Logo uploaded', { exact: true })
      .locator('xpath=../..');
    await expect(toast).toBeVisible();
    const save = page.getByRole('button', { name: 'Save Branding' });
    await expect(save).toBeInViewport();
    expect((await box(save)).y).toBeGreaterThan(844 - 100);
    expect(overlap(await box(toast), await box(save))).toBe(false);
  });

  await test.step('the hosted page names the company once on its first screen', async () => {
    await page.goto(`/company/${operator.slug}`);
    await expect(page.getByRole('heading', { name: operator.companyName, level: 2 })).toBeVisible();
    const shown = [];
    for (const named of await page.getByText(operator.companyName, { exact: true }).all()) {
      const found = await named.boundingBox();
      if (found && found.width > 1 && found.height > 1 && found.y < 844) shown.push(found);
    }
    expect(shown).toHaveLength(1);
    await expectNoSeriousA11yViolations(page, 'the hosted page on a phone');
  });
});

test('signing up on another host than PUBLIC_URL moves to it first, so checkout returns signed in', async ({ page }) => {
  const elsewhere = new URL(API_ORIGIN);
  elsewhere.hostname = 'localhost';
  await page.goto(`${elsewhere.origin}/auth-page?mode=signup`);
  await expect(page).toHaveURL(`${API_ORIGIN}/auth-page?mode=signup`);
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
});
