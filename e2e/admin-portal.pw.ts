// The operator's journey through the admin SPA against the real server: landing → sign up →
// trial → sign in → every portal tab → contact → 404 → signed-out redirect.
import { expect, test, type Page } from '@playwright/test';
import { addPhoneNumber, expectToast, fillSignup, signUpWithTrial, startTrialFromCheckout, uniqueOperator } from './admin-helpers';

async function openMenuItem(page: Page, item: string) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

test('landing → sign up → trial → sign in → portal tabs → contact', async ({ page }) => {
  const operator = uniqueOperator();

  await test.step('landing page sells the plan and leads to sign up', async () => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'See It In Action' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Professional Plan' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Included in the Professional Plan' }).getByRole('listitem')).toHaveCount(9);
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Get Started' }).click();
    await expect(page).toHaveURL(/\/auth-page\?mode=signup$/);
    await expect(page.getByRole('heading', { name: 'Create Account' })).toBeVisible();
  });

  await test.step('sign-up validation shows the shared schema messages', async () => {
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Name is required', { exact: true })).toBeVisible();
    await expect(page.getByText('Company name is required')).toBeVisible();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  });

  await test.step('sign up goes to checkout, the trial opens the Driver Portal', async () => {
    await fillSignup(page, operator);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await startTrialFromCheckout(page);
    await expect(page.getByText(`Welcome, ${operator.email}`)).toBeVisible();
  });

  await test.step('sign out, then sign in again by the landing page', async () => {
    await openMenuItem(page, 'Sign Out');
    await expect(page).toHaveURL(/\/$/);
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Sign In' }).click();
    await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    await page.getByLabel('Email').fill(operator.email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, 'Login failed');
    await page.getByLabel('Password').fill(operator.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('tab', { name: 'Pricing & Rates' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText(`Welcome back, ${operator.email}`)).toBeVisible();
  });

  await test.step('pricing saves', async () => {
    await page.getByLabel('Call-out Fee (£)').fill('65.50');
    await page.getByLabel('Labour Time (hours)').fill('1.5');
    await page.getByRole('button', { name: 'Save Pricing' }).click();
    await expectToast(page, 'Pricing updated successfully');
    await page.reload();
    await expect(page.getByLabel('Call-out Fee (£)')).toHaveValue('65.5');
  });

  await test.step('add, edit and delete a vehicle type', async () => {
    await page.getByRole('tab', { name: 'Custom Charges' }).click();
    const vehicles = page.getByRole('list', { name: 'Vehicle Types' });
    await page.getByRole('button', { name: 'Add Vehicle type' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Vehicle type' });
    await dialog.getByLabel('Vehicle type name').fill('Tow Truck');
    await dialog.getByLabel('Base price (£)').fill('80');
    await dialog.getByRole('button', { name: 'Add Vehicle type' }).click();
    await expectToast(page, 'Vehicle type added successfully');
    await expect(dialog).toBeHidden();
    await expect(vehicles.getByText('Tow Truck')).toBeVisible();

    await vehicles.getByRole('button', { name: 'Edit Tow Truck' }).click();
    await vehicles.getByLabel('Base price (£)').fill('85.25');
    await vehicles.getByRole('button', { name: 'Save Tow Truck' }).click();
    await expectToast(page, 'Vehicle type updated successfully');
    await expect(vehicles.getByText('£85.25')).toBeVisible();

    await vehicles.getByRole('button', { name: 'Delete Tow Truck' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Vehicle type deleted successfully');
    await expect(vehicles.getByText('Tow Truck')).toHaveCount(0);
  });

  await test.step('branding: preset, save and lock a custom URL', async () => {
    await page.getByRole('tab', { name: 'Branding' }).click();
    const red = page.getByRole('button', { name: /Emergency Red/ });
    await red.click();
    await expect(red).toContainText('APPLIED');
    await page.getByRole('button', { name: 'Save Branding' }).click();
    await expectToast(page, 'Company settings updated successfully');

    // A URL is locked only with a number to reach the operator by (the contact step changes it).
    await addPhoneNumber(page, '0161 496 0001');
    await page.getByRole('tab', { name: 'Branding' }).click();
    const slug = page.getByLabel('Your quote page address');
    await slug.fill(operator.slug);
    await page.getByRole('button', { name: 'Lock Custom URL' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Save and Lock' }).click();
    await expectToast(page, 'Custom URL saved');
    await expect(slug).toHaveAttribute('readonly', '');
    await expect(page.getByText(/cannot be changed/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Lock Custom URL' })).toHaveCount(0);
  });

  await test.step('preview saves and opens the custom URL in a new tab', async () => {
    await page.getByLabel('Company Description').fill('24/7 recovery across Greater Manchester');
    const [preview] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Preview Quote Screen' }).click()]);
    await preview.waitForURL(new RegExp(`/company/${operator.slug}$`));
    await expect(preview.getByText('24/7 recovery across Greater Manchester').first()).toBeVisible();
    await preview.close();
  });

  await test.step('contact info saves', async () => {
    await page.getByRole('tab', { name: 'Contact Info' }).click();
    await page.getByLabel('Phone').fill('0161 496 0000');
    await page.getByLabel('WhatsApp').fill('+44 7700 900123');
    await page.getByRole('button', { name: 'Save Contact Info' }).click();
    await expectToast(page, 'Company settings updated successfully');
    // Stored in E.164, shown again in the national format.
    await page.reload();
    await page.getByRole('tab', { name: 'Contact Info' }).click();
    await expect(page.getByLabel('WhatsApp')).toHaveValue('07700 900123');
    await expect(page.getByLabel('Phone')).toHaveValue('0161 496 0000');
  });

  await test.step('contact & support opens the mail client', async () => {
    await openMenuItem(page, 'Contact & Support');
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole('tab', { name: 'Contact Us' })).toBeVisible();
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Subject is required')).toBeVisible();
    await page.getByLabel('Subject').fill('Question about invoices');
    await page.getByLabel('Message').fill('Can I get a VAT invoice?');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expectToast(page, 'Email client opened');

    await page.getByRole('tab', { name: 'Feature Request' }).click();
    await expect(page.getByLabel('Priority')).toHaveValue('medium');
  });
});

test('unknown paths show the 404 page', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page).toHaveTitle('404 Page Not Found');
});

test('signed-out visitors are sent from protected pages to /auth-page', async ({ page }) => {
  for (const path of ['/dashboard', '/contact']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/auth-page$/);
    await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  }
});

test('a signed-in operator is sent from the auth page to the dashboard, and can preview', async ({ page }) => {
  const operator = await signUpWithTrial(page);
  await page.goto('/auth-page?mode=signin');
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/preview');
  await expect(page.getByRole('button', { name: 'Get Quote' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('Get Your Instant Recovery Quote')).toBeVisible();
  await expect(page.getByRole('contentinfo').getByText(operator.companyName).first()).toBeVisible();
  await page.getByRole('button', { name: 'Driver Portal' }).click();
  await expect(page.getByRole('tab', { name: 'Pricing & Rates' })).toBeVisible();
});
