// The subscription journey in local billing mode (docs/product.md §12), in a real browser against the
// real server: sign up → checkout page → Start trial → success screen → dashboard →
// subscription page → cancel in the billing portal → reactivate.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

async function expectAccessible(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${what}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('sign up, start the trial, cancel in the portal, and reactivate', async ({ page }) => {
  const email = `billing-${Date.now()}@example.com`;

  await page.goto('/auth-page?mode=signup');
  await page.getByLabel('Full Name').fill('Billing Journey');
  await page.getByLabel('Company Name').fill('Journey Recovery');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct-horse');
  await page.getByRole('button', { name: 'Create Account' }).click();

  // The local checkout page stands in for the card provider.
  await expect(page).toHaveURL(/\/billing\/checkout\/cs_local_/);
  await expect(page.getByRole('heading', { name: 'Start your free trial' })).toBeVisible();
  await expect(page.getByText('3-day free trial')).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expectAccessible(page, 'checkout page');
  await page.getByRole('button', { name: 'Start trial' }).click();

  await expect(page.getByRole('heading', { name: 'Welcome to RecoveryQuote!' })).toBeVisible();
  await expect(page.getByText("What's Next")).toBeVisible();
  await expect(page).not.toHaveURL(/session_id/);
  // Auto-redirect after 2 s.
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 5000 });
  await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Manage Subscription' }).click();
  await expect(page.getByRole('heading', { name: 'Subscription Management' })).toBeVisible();
  await expect(page.getByText('Trial', { exact: true })).toBeVisible();
  await expect(page.getByText('Free Trial: 3 days left')).toBeVisible();
  await expectAccessible(page, 'subscription page');

  // Cancel: the dialog sends the operator to the billing portal in a new tab.
  await page.getByRole('button', { name: 'Cancel Subscription' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Cancel Your Subscription?' });
  await expect(dialog).toBeVisible();
  const popupOpened = page.waitForEvent('popup');
  await dialog.getByRole('button', { name: 'Yes, Cancel Subscription' }).click();
  const portal = await popupOpened;
  await portal.waitForURL(/\/billing\/portal\//);
  await expect(portal.getByRole('heading', { name: 'Billing portal' })).toBeVisible();
  await expectAccessible(portal, 'billing portal');
  await portal.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(portal.getByRole('status')).toContainText('Your subscription has been cancelled');
  await expect(portal.getByRole('button', { name: 'Renew subscription' })).toBeVisible();
  await portal.close();

  await page.reload();
  await expect(page.getByText('Subscription Cancelled')).toBeVisible();
  await expect(page.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Reactivate Subscription' }).click();
  await expect(page.getByText('Subscription reactivated', { exact: true })).toBeVisible();
  await expect(page.getByText('Trial', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toBeVisible();

  // Still in the portal's good books: the dashboard opens.
  await page.getByRole('button', { name: 'Back to Driver Portal' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the developer test page shows the billing setup', async ({ page }) => {
  await page.goto('/subscription-test');
  await expect(page.getByRole('heading', { name: 'Subscription Test' })).toBeVisible();
  await expect(page.getByText('local', { exact: true })).toBeVisible();
  await expect(page.getByText('/api/customer-portal')).toBeVisible();
  await expect(page.getByText('/api/webhook')).toBeVisible();
  await page.getByLabel('Email').fill('');
  // An alert blocks the click that raised it until it is answered.
  const alerted = new Promise<string>((resolve) => {
    page.once('dialog', (dialog) => {
      resolve(dialog.message());
      void dialog.dismiss();
    });
  });
  await page.getByRole('button', { name: 'Start Free Trial' }).click();
  expect(await alerted).toBe('Please provide email and name for subscription');
});

test("a link to someone else's checkout return shows an error and leaves the signed-in operator as themself", async ({ page, playwright, baseURL }) => {
  const origin = baseURL ?? '';
  // The attacker signs up and pays in their own browser (a separate cookie jar), then sends the return link.
  const attacker = await playwright.request.newContext();
  const attackerSignup = await attacker.post(`${origin}/api/signup`, {
    data: { name: 'Mallory', email: `mallory-${Date.now()}@example.com`, password: 'correct-horse', companyName: 'Mallory Recovery' },
  });
  expect(attackerSignup.status()).toBe(201);
  const checkoutPath = new URL((await attackerSignup.json()).checkoutUrl as string).pathname;
  const paid = await attacker.post(`${origin}${checkoutPath}`, { form: {}, headers: { origin }, maxRedirects: 0 });
  expect(paid.status()).toBe(303);
  const returnLink = paid.headers().location;
  expect(returnLink).toMatch(/^\/subscription-success\?session_id=cs_local_/);
  await attacker.dispose();

  // The victim is signed in (session cookie) in this browser and opens the link.
  const victimEmail = `victim-${Date.now()}@example.com`;
  const victimSignup = await page.request.post(`${origin}/api/signup`, {
    data: { name: 'Victim', email: victimEmail, password: 'correct-horse', companyName: 'Victim Recovery' },
  });
  expect(victimSignup.status()).toBe(201);
  await page.goto(returnLink);
  await expect(page.getByRole('heading', { name: 'Payment Session Error' })).toBeVisible({ timeout: 10_000 });
  const me = await page.request.get(`${origin}/api/auth/user`);
  expect((await me.json()).email).toBe(victimEmail);
});
