// docs/product.md §8's failure toasts, seen as an operator sees them: the real server is made to fail
// (a 500 for writes the browser sends, a real 409 for a taken email) and each screen must say so.
import { expect, test, type Page } from '@playwright/test';
import { signUpThroughTheForm, addCustomProblemCharge, expectToast, signUpWithTrial, uniqueOperator, fillSignup } from './admin-helpers';

/** The next `method` request to `path` answers 500, as a failing server would. */
async function failNext(page: Page, method: string, path: RegExp) {
  let failed = false;
  await page.route(path, async (route) => {
    if (failed || route.request().method() !== method) return route.fallback();
    failed = true;
    await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Internal error' }) });
  });
}

test('portal writes that fail say so with the product’s toasts, and nothing is lost', async ({ page }) => {
  await signUpWithTrial(page);

  await failNext(page, 'PUT', /\/api\/pricing$/);
  await page.getByLabel('Call-out Fee (£)').fill('61');
  await page.getByRole('button', { name: 'Save Pricing' }).click();
  await expectToast(page, 'Error updating pricing');
  // The form keeps what the operator typed, and a retry saves it.
  await expect(page.getByLabel('Call-out Fee (£)')).toHaveValue('61');
  await page.getByRole('button', { name: 'Save Pricing' }).click();
  await expectToast(page, 'Pricing updated successfully');

  await page.getByRole('tab', { name: 'Custom Charges' }).click();
  await failNext(page, 'POST', /\/api\/vehicle-types$/);
  await page.getByRole('button', { name: 'Add Vehicle type' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Vehicle type' });
  await dialog.getByLabel('Vehicle type name').fill('Minibus');
  await dialog.getByRole('button', { name: 'Add Vehicle type' }).click();
  await expectToast(page, 'Error adding vehicle type');
  await expect(dialog.getByLabel('Vehicle type name')).toHaveValue('Minibus');
  await dialog.getByRole('button', { name: 'Add Vehicle type' }).click();
  await expectToast(page, 'Vehicle type added successfully');

  await addCustomProblemCharge(page, 'Ditch Recovery', '30');
  const problems = page.getByRole('list', { name: 'Problem Charges' });
  await failNext(page, 'DELETE', /\/api\/surcharges\/\d+$/);
  await problems
    .getByRole('button', { name: /^Delete / })
    .first()
    .click();
  await expectToast(page, 'Error deleting custom charge');
  // The ten starter problems and the one just added.
  await expect(problems.getByRole('listitem')).toHaveCount(11);

  await page.getByRole('tab', { name: 'Contact Info' }).click();
  await failNext(page, 'PUT', /\/api\/company$/);
  await page.getByLabel('Phone').fill('0161 496 0001');
  await page.getByRole('button', { name: 'Save Contact Info' }).click();
  await expectToast(page, 'Error updating company settings');
});

test('a taken email fails registration with the server’s message', async ({ page }) => {
  const operator = await signUpThroughTheForm(page);
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await page.goto('/auth-page?mode=signup');
  await fillSignup(page, { ...uniqueOperator(), email: operator.email });
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expectToast(page, 'Registration failed');
  await expect(page.getByText('An account with this email already exists')).toBeVisible();
});
