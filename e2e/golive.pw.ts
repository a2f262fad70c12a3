// No page without a way to reach the operator, and a lapsed page that still helps (docs/product.md
// §13, §14): a company without a phone or WhatsApp number cannot lock its URL or share its link (the
// reason links to the phone field), and its page and embed say online quotes are not set up yet; a
// lapsed company's page and embed name it and say its quotes are paused, and its owner is told what
// customers see and how to resume. Phone-sized where a motorist looks, with axe on each screen.
import Database from 'better-sqlite3';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { API_ORIGIN, E2E_DATABASE_PATH, EXAMPLES_ORIGIN } from '../playwright.config';
import { addPhoneNumber, expectNoSeriousA11yViolations, expectToast, signUpWithTrial } from './admin-helpers';

const PHONE = { viewport: { width: 390, height: 844 } };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const NO_NUMBER = 'Add a phone or WhatsApp number first, so customers who get a price can reach you';

/** The operator's own website on another origin, with the embed snippet pasted in (as onboarding.pw.ts does). */
async function embedOnPlainPage(browser: Browser, slug: string): Promise<Page> {
  const visitor = await (await browser.newContext(PHONE)).newPage();
  await visitor.goto(`${EXAMPLES_ORIGIN}/basic.html`);
  await visitor.setContent(
    `<!doctype html><html lang="en"><title>Our site</title><main><h1>Our garage</h1>\n<script src="${API_ORIGIN}/widget.js" async></script>\n<recovery-quote company="${slug}"></recovery-quote></main></html>`,
  );
  return visitor;
}

test('a company without a number cannot go live: the reasons link to the phone field, and its page and embed say quotes are not set up yet', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const operator = await signUpWithTrial(page);
  await page.getByRole('tab', { name: 'Branding' }).click();

  await test.step('locking the URL without a number is refused before asking, with a link to the phone field', async () => {
    await page.getByLabel('Custom URL (your quote page address)').fill(operator.slug);
    await page.getByRole('button', { name: 'Lock Custom URL' }).click();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    const reason = page.getByRole('alert').filter({ hasText: NO_NUMBER });
    await expect(reason).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'the Branding tab refusing to lock the URL');
    await reason.getByRole('link', { name: 'Add your phone number' }).click();
    await expect(page.getByRole('tab', { name: 'Contact Info' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel('Phone')).toBeFocused();
  });

  await test.step('with a number the URL locks; without one again the link is not handed out, and the reason links to the field', async () => {
    await addPhoneNumber(page);
    await page.getByRole('tab', { name: 'Branding' }).click();
    await expect(page.getByText(NO_NUMBER)).toHaveCount(0);
    await page.getByRole('button', { name: 'Lock Custom URL' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Save and Lock' }).click();
    await expectToast(page, 'Custom URL saved');
    await expect(page.getByLabel('Your public link')).toHaveValue(`${API_ORIGIN}/company/${operator.slug}`);

    await page.getByRole('tab', { name: 'Contact Info' }).click();
    await page.getByLabel('Phone').fill('');
    await page.getByRole('button', { name: 'Save Contact Info' }).click();
    await expectToast(page, 'Company settings updated successfully');
    await page.getByRole('tab', { name: 'Branding' }).click();
    await expect(page.getByLabel('Your public link')).toHaveCount(0);
    const share = page.getByText(NO_NUMBER);
    await expect(share).toBeVisible();
    await share.getByRole('link', { name: 'Add your phone number' }).click();
    await expect(page.getByLabel('Phone')).toBeFocused();
  });

  await test.step('its page and its embed name it and say online quotes are not set up yet, with no form', async () => {
    const motorist = await (await browser.newContext(PHONE)).newPage();
    const response = await motorist.goto(`/company/${operator.slug}`);
    expect(response?.status()).toBe(200);
    await expect(motorist.getByRole('heading', { level: 1, name: operator.companyName, exact: true })).toBeVisible();
    await expect(motorist.getByRole('heading', { name: `Online quotes from ${operator.companyName} are not set up yet` })).toBeVisible();
    await expect(motorist.locator('recovery-quote')).toHaveCount(0);
    await expectNoSeriousA11yViolations(motorist, 'the hosted page of a company without a number (phone)');

    const visitor = await embedOnPlainPage(browser, operator.slug);
    const form = visitor.locator('recovery-quote');
    await expect(form.getByRole('heading', { name: `Online quotes from ${operator.companyName} are not set up yet` })).toBeVisible();
    await expect(form.getByRole('heading', { name: operator.companyName, exact: true })).toBeVisible();
    await expect(form.getByRole('button', { name: 'Calculate Quote' })).toHaveCount(0);
    await expect(form.getByText(/check the link/)).toHaveCount(0);
    await expectNoSeriousA11yViolations(visitor, 'the embed of a company without a number (phone)');
  });
});

test('a lapsed company’s page and embed name it and say quotes are paused; its owner is told what customers see and how to resume', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const operator = await signUpWithTrial(page);
  await addPhoneNumber(page);
  // The URL is locked through the API: the journey above and journey.pw.ts lock it in the portal.
  const locked = await page.request.put('/api/company', { data: { customSlug: operator.slug } });
  expect(locked.ok(), await locked.text()).toBe(true);

  await test.step('the subscription is cancelled and its period runs out', async () => {
    // Time cannot pass in a journey: the stored period ends yesterday instead, as the card provider would leave it.
    const db = new Database(E2E_DATABASE_PATH);
    db.pragma('busy_timeout = 5000');
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    const changed = db
      .prepare("UPDATE users SET subscription_status = 'cancelled', current_period_end = ?, trial_ends_at = ? WHERE email = ?")
      .run(yesterday, yesterday, operator.email);
    db.close();
    expect(changed.changes).toBe(1);
    // The server keeps each company's quote settings until the company is next written (decision
    // 004); the provider's event writes it. A save stands in for that event here.
    const saved = await page.request.put('/api/company', { data: { companyDescription: 'Recovery across Greater Manchester' } });
    expect(saved.ok(), await saved.text()).toBe(true);
  });

  await test.step('the owner is told what customers see, and how to resume', async () => {
    await page.goto('/contact');
    const banner = page.getByRole('region', { name: 'Online quotes paused' });
    await expect(banner).toContainText(`Your page shows “Online quotes from ${operator.companyName} are paused”`);
    await expectNoSeriousA11yViolations(page, 'the portal with the paused banner');
    await banner.getByRole('link', { name: 'Subscribe to resume online quotes' }).click();
    await expect(page).toHaveURL(/\/subscription$/);
    await expect(page.getByRole('region', { name: 'Online quotes paused' })).toContainText(`Online quotes from ${operator.companyName} are paused`);
    await expect(page.getByRole('button', { name: 'Subscribe', exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'the subscription page of a lapsed owner');
  });

  for (const [label, size] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await test.step(`the hosted page names the company and says its quotes are paused, with its number (${label})`, async () => {
      const motorist = await (await browser.newContext(size)).newPage();
      const response = await motorist.goto(`/company/${operator.slug}`);
      expect(response?.status()).toBe(200);
      await expect(motorist.getByRole('heading', { level: 1, name: operator.companyName, exact: true })).toBeVisible();
      await expect(motorist.getByRole('heading', { name: `Online quotes from ${operator.companyName} are paused` })).toBeVisible();
      const notice = motorist.getByRole('region', { name: `Online quotes from ${operator.companyName} are paused` });
      await expect(notice.getByRole('link', { name: 'Call 0161 496 0000' })).toHaveAttribute('href', 'tel:+441614960000');
      await expect(motorist.locator('recovery-quote')).toHaveCount(0);
      await expect(motorist.getByText(/Page Not Found|check the link/)).toHaveCount(0);
      await expectNoSeriousA11yViolations(motorist, `the paused hosted page (${label})`);
    });
  }

  await test.step('the embed names the company and says its quotes are paused, with no price', async () => {
    const visitor = await embedOnPlainPage(browser, operator.slug);
    const form = visitor.locator('recovery-quote');
    await expect(form.getByRole('heading', { name: `Online quotes from ${operator.companyName} are paused` })).toBeVisible();
    await expect(form.getByRole('heading', { name: operator.companyName, exact: true })).toBeVisible();
    await expect(form.getByRole('button', { name: 'Call Now' })).toHaveAttribute('href', 'tel:+441614960000');
    await expect(form.getByLabel('Pickup Location')).toHaveCount(0);
    await expectNoSeriousA11yViolations(visitor, 'the paused embed (phone)');
  });
});
