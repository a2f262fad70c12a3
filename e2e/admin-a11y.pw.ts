// The accessibility budget (docs/budgets.md) for the admin SPA: axe-core finds no serious or critical
// violations on the landing page, the auth page, each portal tab and the contact page.
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, signUpWithTrial } from './admin-helpers';

test('landing and auth pages', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'See It In Action' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'landing');

  await page.goto('/auth-page?mode=signin');
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'sign in');

  await page.goto('/auth-page?mode=signup');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Name is required', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'sign up with errors');
});

/** A control each portal tab shows only once its data has loaded (DriverPortal's tabs). */
const TAB_READY: Record<string, string> = {
  'Pricing & Rates': 'Save Pricing',
  'Custom Charges': 'Add Passenger Charge',
  Branding: 'Save Branding',
  'Contact Info': 'Save Contact Info',
};

test('portal tabs and contact page', async ({ page }) => {
  // Nine axe audits: about 17 s on a quiet runner, several times that on a loaded one.
  test.setTimeout(150_000);
  await signUpWithTrial(page);
  for (const [tab, ready] of Object.entries(TAB_READY)) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    // Audit the loaded tab, not a spinner: its own control is there and nothing in it is loading.
    const panel = page.getByRole('tabpanel', { name: tab });
    await expect(panel.getByRole('button', { name: ready })).toBeVisible();
    await expect(panel.getByRole('status')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, `portal tab ${tab}`);
  }
  await page.getByRole('tab', { name: 'Branding' }).click();
  await page.getByRole('button', { name: 'Advanced Colours' }).click();
  await expectNoSeriousA11yViolations(page, 'branding advanced colours');

  await page.goto('/contact');
  await expect(page.getByRole('tab', { name: 'Contact Us' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'contact');
  await page.getByRole('tab', { name: 'Feature Request' }).click();
  await expectNoSeriousA11yViolations(page, 'feature request');
});
