// The lead inbox's journey against the real server (decision 016): a motorist gets a quote on an operator's hosted page
// and taps WhatsApp; the operator finds the quote in the portal's Quotes tab by the reference the
// customer reads out, sees the tap, marks it won with a note and sees it counted in the numbers;
// the alert email's deep link opens it, and the CSV export holds it.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, quoteWithFirstChoices, signUpWithTrial, watchCsp } from './admin-helpers';

test('a quote becomes a lead: tapped, found by reference, won, counted and exported', async ({ page, browser }) => {
  const expectNoCspViolations = await watchCsp(page);
  const operator = await signUpWithTrial(page);
  // The operator's contact details and quote page, set through the API: journey.pw.ts covers the tabs.
  const setup = await page.request.put('/api/company', { data: { whatsapp: '+44 7700 900987', customSlug: operator.slug } });
  expect(setup.ok(), await setup.text()).toBe(true);

  const reference = await test.step('a motorist quotes on the hosted page and taps WhatsApp', async () => {
    const motorist = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await motorist.route('https://wa.me/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>WhatsApp</title>' }));
    const phone = await motorist.newPage();
    await phone.goto(`/company/${operator.slug}`);
    const form = phone.locator('recovery-quote');
    await quoteWithFirstChoices(form);
    const quoteId = (await form.getByText(/^Quote ID: TQ-/).textContent())?.replace('Quote ID: TQ-', '') ?? '';
    expect(quoteId).toMatch(/^[0-9A-Z]{10}$/);

    const marker = phone.waitForResponse((response) => response.url().endsWith(`/api/quotes/${quoteId}/contact`) && response.request().method() === 'POST');
    const chat = phone.waitForEvent('popup');
    await form.getByText('Contact via WhatsApp').click();
    expect((await marker).status()).toBe(200);
    expect((await marker).request().postDataJSON()).toEqual({ channel: 'whatsapp' });
    await (await chat).close();
    await motorist.close();
    return quoteId;
  });

  await test.step('the operator finds the quote by the reference as read out, and sees the tap', async () => {
    await page.getByRole('tab', { name: 'Quotes' }).click();
    const search = page.getByLabel('Find by reference');
    await search.fill('TQ-ZZZZZZZZZZ');
    await expect(page.getByText('No quote TQ-ZZZZZZZZZZ found')).toBeVisible();
    // Lower case, no prefix, a space in the middle: the whole reference opens the quote at once.
    await search.fill(`${reference.slice(0, 4)} ${reference.slice(4)}`.toLowerCase());
    const dialog = page.getByRole('dialog', { name: `Quote TQ-${reference}` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(/^Customer tapped WhatsApp at \d\d:\d\d$/)).toBeVisible();
    await expect(dialog.getByText('SW1A 1AA → EC1A 1BB', { exact: false })).toBeVisible();
    await expect(dialog.getByRole('term').last()).toHaveText('Total');
    await expect(page).toHaveURL(new RegExp(`[?&]quote=${reference}`));
    await expectNoSeriousA11yViolations(page, 'an opened quote');
  });

  await test.step('marks it won with a note', async () => {
    const dialog = page.getByRole('dialog', { name: `Quote TQ-${reference}` });
    await dialog.getByLabel('Status').selectOption({ label: 'Won' });
    await dialog.getByLabel('Note (optional)').fill('Booked: collect at 3pm');
    await expect(dialog.getByText('22/500 characters')).toBeVisible();
    await dialog.getByRole('button', { name: 'Save Status' }).click();
    await expect(dialog.getByRole('status')).toHaveText(`Saved: TQ-${reference} is now Won`);
    const history = dialog.getByRole('region', { name: 'History' });
    await expect(history.getByText('Booked: collect at 3pm')).toBeVisible();
    await expect(history.getByText('Won')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  await test.step('sees it counted in the numbers and the list, chart drawn under the CSP', async () => {
    const stat = (label: string) =>
      page
        .getByRole('term')
        .filter({ hasText: new RegExp(`^${label}$`) })
        .locator('xpath=following-sibling::dd');
    await expect(stat('Won')).toHaveText('100%');
    await expect(stat('Contacted')).toHaveText('100%');
    await expect(stat('Last 30 days')).toHaveText('1');
    await expect(stat('Quotes today')).toHaveText('1');
    const row = page
      .getByRole('list', { name: 'Quotes' })
      .getByRole('listitem')
      .filter({ hasText: `TQ-${reference}` });
    await expect(row.getByText('Won', { exact: true })).toBeVisible();
    await expect(row.getByText(/^Customer tapped WhatsApp at/)).toBeVisible();
    await expect(page.locator('.recharts-bar-rectangle').first()).toBeAttached();
    await expectNoSeriousA11yViolations(page, 'the Quotes tab');
    await expectNoCspViolations('the Quotes tab');
  });

  await test.step('the alert email’s link opens the quote, after signing in on another device', async () => {
    const elsewhere = await browser.newContext();
    const inbox = await elsewhere.newPage();
    await inbox.goto(`/dashboard?tab=quotes&quote=${reference}`);
    await expect(inbox.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    await inbox.getByLabel('Email').fill(operator.email);
    await inbox.getByLabel('Password').fill(operator.password);
    await inbox.getByRole('button', { name: 'Sign In' }).click();
    const dialog = inbox.getByRole('dialog', { name: `Quote TQ-${reference}` });
    await expect(dialog.getByLabel('Status')).toHaveValue('won');
    await expect(inbox.getByRole('tab', { name: 'Quotes', includeHidden: true })).toHaveAttribute('aria-selected', 'true');
    await elsewhere.close();
  });

  await test.step('the CSV of the filtered list holds it', async () => {
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Won' });
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV' }).click();
    const file = await (await download).path();
    const csv = await readFile(file, 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv).toContain(reference);
  });

  await test.step('the tab fits a phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByLabel('Find by reference')).toBeVisible();
    // The chart follows the new width once its resize observer fires: polled, not read at once.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
