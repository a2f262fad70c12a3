// The strict Content-Security-Policy (docs/product.md §18) in Chromium: the portal and the hosted
// company page render and work under it, and the browser reports no violation on the way.
import { expect, test } from '@playwright/test';
import { quoteWithFirstChoices, signUpThroughTheForm, watchCsp } from './admin-helpers';

test('the portal works under its CSP: sign-up, tabs, a dialog with its scroll lock, a save', async ({ page }) => {
  const expectNoViolations = await watchCsp(page);
  const landing = await page.goto('/');
  expect(landing?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoViolations('the landing page');

  await signUpThroughTheForm(page);
  const csp = (await page.request.get('/dashboard')).headers()['content-security-policy'];
  expect(csp).toMatch(/style-src 'self' 'nonce-[^']+'/);

  await page.getByRole('tab', { name: 'Branding' }).click();
  await expect(page.getByLabel('Custom URL (your quote page address)')).toBeVisible();
  await page.getByRole('tab', { name: 'Custom Charges' }).click();
  await page.getByRole('button', { name: 'Add Custom Charge' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Custom Charge' });
  await expect(dialog).toBeVisible();
  // Radix locks page scrolling with an injected <style>: it carries the page's nonce and applies.
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
  await dialog.getByLabel('Problem type').selectOption({ label: 'Custom problem...' });
  await dialog.getByLabel(/^Custom problem/).fill('Ditch Recovery');
  await dialog.getByLabel('Amount (£)').fill('30');
  await dialog.getByRole('button', { name: 'Add Custom Charge' }).click();
  await expect(page.getByRole('region', { name: /Notification/ }).getByText('Custom charge added successfully', { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expectNoViolations('the Driver Portal');

  // The other screens, each loaded fresh (so each gets its own page and nonce).
  for (const path of ['/subscription', '/contact', '/preview', '/no/such/page']) {
    await page.goto(path);
    await expect(page.getByRole('heading').first(), path).toBeVisible();
    await expectNoViolations(path);
  }
});

test('the hosted company page works under its CSP: styled, and the widget quotes', async ({ page }) => {
  const expectNoViolations = await watchCsp(page);
  const response = await page.goto('/company/demo');
  expect(response?.status()).toBe(200);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toMatch(/style-src 'sha256-[^']+'/);
  // The inline stylesheet applied: the header bar is white and the page background is the company's.
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.querySelector('header.bar') as Element).backgroundColor)).toBe('rgb(255, 255, 255)');

  const form = page.locator('recovery-quote');
  await quoteWithFirstChoices(form);
  // The widget's constructed stylesheet applied inside its shadow root.
  const button = form.getByRole('button', { name: /Contact via|Call/ }).first();
  await expect(button).toBeVisible();
  expect(await button.evaluate((el) => getComputedStyle(el).display)).not.toBe('inline');
  await expectNoViolations('the hosted company page');

  const missing = await page.goto('/company/no-such-operator');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.querySelector('main') as Element).textAlign)).toBe('center');
  await expectNoViolations('the hosted 404 page');
});
