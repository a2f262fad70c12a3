// Going live with the guided set-up (docs/product.md §14): from the landing page a new operator
// signs up, starts the trial and, in the set-up's three steps and its go-live step, reaches a live
// page with their own number, prices and base postcode within 12 clicks and 12 filled fields,
// counted here; a motorist then gets a quote on that page priced with those prices. The set-up's
// screens have no serious axe findings on a phone and a desktop, "Skip for now" loses nothing,
// and the set-up picks up where it was left.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, fillSignup, quoteWithFirstChoices, SETUP_HEADING, uniqueOperator } from './admin-helpers';

/** What the operator does, counted: every click and every field filled. */
function counted() {
  const done = { clicks: 0, fields: 0 };
  return {
    done,
    click: async (target: Locator) => {
      done.clicks += 1;
      await target.click();
    },
    fill: async (target: Locator, value: string) => {
      done.fields += 1;
      await target.fill(value);
    },
  };
}

const step = (page: Page, title: string) => page.getByRole('heading', { name: title, level: 2 });

test('from the landing page to a live page with their own number, prices and base postcode in ≤ 12 clicks and ≤ 12 fields', async ({ page, context }) => {
  test.setTimeout(180_000);
  const operator = uniqueOperator();
  const { done, click, fill } = counted();

  await test.step('sign up and start the trial from the landing page', async () => {
    await page.goto('/');
    await click(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Get Started' }));
    await fill(page.getByLabel('Full Name'), operator.name);
    await fill(page.getByLabel('Company Name'), operator.companyName);
    await fill(page.getByLabel('Email'), operator.email);
    await fill(page.getByLabel('Password'), operator.password);
    await click(page.getByRole('button', { name: 'Create Account' }));
    // Local billing's checkout: one button, no card.
    await click(page.getByRole('button', { name: 'Start trial' }));
    // The success screen moves on by itself, and the first visit opens the set-up.
    await expect(page.getByRole('heading', { name: SETUP_HEADING })).toBeVisible({ timeout: 20_000 });
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  await test.step('how customers reach you', async () => {
    await expect(step(page, 'How customers reach you')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'set-up: how customers reach you');
    await fill(page.getByLabel('Phone'), '0161 496 0000');
    await click(page.getByRole('button', { name: 'Save and continue' }));
  });

  await test.step('your prices, with a live sample quote', async () => {
    await expect(step(page, 'Your prices')).toBeFocused();
    // The starting (demo) rates are filled in, and the sample is priced from them.
    await expect(page.getByLabel('Call-out Fee (£)')).toHaveValue(/\d/);
    const sample = page.getByRole('region', { name: 'Sample quote' });
    await expect(sample.getByText('Customer pays')).toBeVisible();
    await fill(page.getByLabel('Call-out Fee (£)'), '72.50');
    await fill(page.getByLabel('Mile Rate (£ per mile)'), '3.10');
    await fill(page.getByLabel('Labour Rate (£ per hour)'), '55');
    // The sample follows what is typed: 10 miles at £3.10.
    await expect(sample.getByRole('definition').filter({ hasText: '£72.50' })).toBeVisible();
    await expect(sample.getByRole('definition').filter({ hasText: '£31.00' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'set-up: your prices');
    await click(page.getByRole('button', { name: 'Save and continue' }));
  });

  await test.step('where you work', async () => {
    await expect(step(page, 'Where you work')).toBeFocused();
    await expectNoSeriousA11yViolations(page, 'set-up: where you work');
    await fill(page.getByLabel('Base postcode'), 'm1 1ae');
    await fill(page.getByLabel('Service radius (miles)'), '30');
    await click(page.getByRole('button', { name: 'Save and continue' }));
  });

  let hosted!: Page;
  await test.step('go live: lock the offered URL, then open the page', async () => {
    await expect(step(page, 'Go live')).toBeFocused();
    const slugField = page.getByLabel('Custom URL (your quote page address)');
    // The company name, as a URL: nothing to type.
    await expect(slugField).toHaveValue(operator.companyName.toLowerCase().replaceAll(' ', '-'));
    await expectNoSeriousA11yViolations(page, 'set-up: go live');
    await click(page.getByRole('button', { name: 'Lock Custom URL' }));
    await click(page.getByRole('alertdialog').getByRole('button', { name: 'Save and Lock' }));
    await expect(page.getByLabel('Your public link')).toHaveValue(new RegExp(`/company/${await slugField.inputValue()}$`));
    await expectNoSeriousA11yViolations(page, 'set-up: live, with the link, QR code and snippet');
    const opened = context.waitForEvent('page');
    await click(page.getByRole('link', { name: /^Open/ }).first());
    hosted = await opened;
  });

  expect(done.clicks, 'clicks from the landing page to the live page').toBeLessThanOrEqual(12);
  expect(done.fields, 'fields filled from the landing page to the live page').toBeLessThanOrEqual(12);
  test.info().annotations.push({ type: 'path', description: `${done.clicks} clicks, ${done.fields} fields` });

  await test.step('the hosted page quotes with the operator’s prices, number and base postcode', async () => {
    await hosted.waitForLoadState();
    await expect(hosted.getByRole('heading', { name: operator.companyName }).first()).toBeVisible();
    await expect(hosted.getByText('Serving M1 and within 30 miles')).toBeVisible();
    const form = hosted.locator('recovery-quote');
    await quoteWithFirstChoices(form);
    await expect(form.getByText('£72.50')).toBeVisible();
    await expect(form.getByText('£55.00')).toBeVisible();
    // The distance line is the miles at the operator's £3.10.
    const distance = await form
      .getByText(/Distance \([\d.]+ miles\)/)
      .first()
      .textContent();
    const miles = Number(/\(([\d.]+) miles\)/.exec(distance ?? '')?.[1]);
    expect(miles).toBeGreaterThan(0);
    const expected = `£${(Math.round(miles * 310) / 100).toLocaleString('en-GB', { minimumFractionDigits: 2 })}`;
    await expect(form.getByText(expected, { exact: true }).first()).toBeVisible();
    await expect(form.getByRole('button', { name: 'Call Now' })).toHaveAttribute('href', 'tel:+441614960000');
  });

  await test.step('the portal: the checklist above every tab, the set-up finished', async () => {
    await page.getByRole('button', { name: 'Go to your Driver Portal' }).click();
    await expect(page.getByRole('heading', { name: /Driver Portal - Manage your towing service settings and rates/ })).toBeVisible();
    for (const tab of ['Pricing & Rates', 'Custom Charges', 'Branding', 'Contact Info', 'Quotes']) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('region', { name: /^Setup checklist/ })).toBeVisible();
    }
    const items = page.getByRole('region', { name: /^Setup checklist/ }).getByRole('listitem');
    await expect(items.filter({ hasText: 'Contact number' })).toContainText('(done)');
    await expect(items.filter({ hasText: 'Custom URL locked' })).toContainText('(done)');
    await expect(items.filter({ hasText: 'Pricing saved' })).toContainText('(done)');
    await expect(page.getByRole('button', { name: 'Guided set-up' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'the portal with the setup checklist');
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('skip keeps what was typed, the set-up resumes where it was left, and every screen passes axe', async ({ page }) => {
    test.setTimeout(180_000);
    const operator = uniqueOperator();
    await page.goto('/auth-page?mode=signup');
    await fillSignup(page, operator);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('button', { name: 'Start trial' }).click();
    await expect(page.getByRole('heading', { name: SETUP_HEADING })).toBeVisible({ timeout: 20_000 });

    await test.step('a step that cannot save says why under the field', async () => {
      await expectNoSeriousA11yViolations(page, 'set-up on a phone: how customers reach you');
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await expect(page.getByText('Add a phone or WhatsApp number, so customers who get a price can reach you')).toBeVisible();
      await expect(page.getByLabel('Phone')).toHaveAttribute('aria-invalid', 'true');
      await expectNoSeriousA11yViolations(page, 'set-up on a phone: a refused step');
    });

    await test.step('"Skip for now" keeps an invalid number as a draft, through a reload', async () => {
      await page.getByLabel('Phone').fill('12345');
      await page.getByRole('button', { name: 'Skip for now' }).click();
      await expect(step(page, 'Your prices')).toBeVisible();
      await expectNoSeriousA11yViolations(page, 'set-up on a phone: your prices');
      await page.reload();
      // Resumed on the step the operator was on.
      await expect(step(page, 'Your prices')).toBeVisible();
      await page.getByRole('button', { name: 'Back' }).click();
      await expect(page.getByLabel('Phone')).toHaveValue('12345');
    });

    await test.step('a valid step skipped is saved; leaving and coming back resumes', async () => {
      await page.getByLabel('Phone').fill('');
      await page.getByLabel('WhatsApp').fill('07700 900123');
      await page.getByRole('button', { name: 'Skip for now' }).click();
      await page.getByRole('button', { name: 'Skip for now' }).click();
      await expect(step(page, 'Where you work')).toBeVisible();
      await expectNoSeriousA11yViolations(page, 'set-up on a phone: where you work');
      await page.getByLabel('Base postcode').fill('M1 XYZ');
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await expect(page.getByText('Enter a valid UK postcode')).toBeVisible();
      await page.getByRole('button', { name: 'Finish set-up later' }).click();
      await expect(page.getByRole('heading', { name: /Driver Portal - Manage/ })).toBeVisible();
      await expectNoSeriousA11yViolations(page, 'the portal on a phone, set-up unfinished');
      await page.getByRole('tab', { name: 'Contact Info' }).click();
      // The number was saved when its step was skipped.
      await expect(page.getByLabel('WhatsApp')).toHaveValue('07700 900123');
      await page.getByRole('button', { name: 'Continue set-up' }).click();
      await expect(step(page, 'Where you work')).toBeVisible();
      await expect(page.getByLabel('Base postcode')).toHaveValue('M1 XYZ');
    });

    await test.step('go live on a phone', async () => {
      await page.getByRole('button', { name: 'Skip for now' }).click();
      await expect(step(page, 'Go live')).toBeVisible();
      await expectNoSeriousA11yViolations(page, 'set-up on a phone: go live');
    });
  });
});
