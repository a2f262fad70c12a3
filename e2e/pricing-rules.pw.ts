// The "More rules" end to end (docs/product.md §10): an operator sets every "More rules" setting in the portal, and a motorist
// on the hosted page gets a price made by them; a pickup beyond the maximum radius is asked to call.
import { expect, test } from '@playwright/test';
import { bankHolidays } from '../api/engine/calendar/bank-holidays';
import { expectToast, signUpWithTrial } from './admin-helpers';

/** A Scottish bank holiday at least two days ahead, so it is a future date in any time zone. */
function nextScottishBankHoliday(): string {
  const earliest = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const year = Number(earliest.slice(0, 4));
  const dates = [...bankHolidays(year, 'scotland'), ...bankHolidays(year + 1, 'scotland')].map((h) => h.date);
  return dates.find((date) => date >= earliest)!;
}

test('rules set in the portal price the hosted page: bank holiday, travel, minimum, VAT, validity, maximum radius', async ({ page, browser }) => {
  const operator = await signUpWithTrial(page);

  await test.step('operator sets a base postcode, contact number and custom URL', async () => {
    await page.getByRole('tab', { name: 'Contact Info' }).click();
    await page.getByLabel('Phone').fill('0161 496 0000');
    await page.getByRole('button', { name: 'Save Contact Info' }).click();
    await expectToast(page, 'Company settings updated successfully');

    await page.getByRole('tab', { name: 'Branding' }).click();
    await page.getByLabel('Base postcode').fill('SW1A 1AA');
    await page.getByRole('button', { name: 'Save Branding' }).click();
    await expectToast(page, 'Company settings updated successfully');
    await page.getByLabel('Custom URL').fill(operator.slug);
    await page.getByRole('button', { name: 'Lock Custom URL' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Save and Lock' }).click();
    await expectToast(page, 'Custom URL saved');
  });

  await test.step('operator sets More rules under Pricing & Rates', async () => {
    await page.getByRole('tab', { name: 'Pricing & Rates' }).click();
    await page.getByLabel('Bank Holidays Of').selectOption({ label: 'Scotland' });
    await page.getByLabel('Bank Holiday Fee (£)').fill('30');
    await page.getByLabel('En-route Rate (£ per mile)').fill('2');
    await page.getByLabel('Free Miles').fill('0.5');
    await page.getByLabel('Minimum Charge (£)').fill('500');
    await page.getByLabel('Price Valid For (hours)').fill('2');
    await page.getByRole('checkbox', { name: 'VAT registered' }).click();
    await page.getByRole('checkbox', { name: 'My prices include VAT' }).click();

    // The server's own check: a maximum below the service radius (25 miles) is named under the field.
    await page.getByLabel('Maximum Radius (miles)').fill('10');
    await page.getByRole('button', { name: 'Save Pricing' }).click();
    await expectToast(page, 'Error updating pricing');
    await expect(page.getByLabel('Maximum Radius (miles)')).toHaveAccessibleDescription(/Maximum radius cannot be less than the service radius \(25 miles\)/);

    await page.getByLabel('Maximum Radius (miles)').fill('100');
    await page.getByRole('button', { name: 'Save Pricing' }).click();
    await expectToast(page, 'Pricing updated successfully');
    await page.reload();
    await expect(page.getByLabel('Bank Holidays Of')).toHaveValue('scotland');
    await expect(page.getByLabel('Minimum Charge (£)')).toHaveValue('500');
    await expect(page.getByLabel('Maximum Radius (miles)')).toHaveValue('100');
    await expect(page.getByRole('checkbox', { name: 'VAT registered' })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByRole('checkbox', { name: 'My prices include VAT' })).toHaveAttribute('aria-checked', 'false');
  });

  const motorist = await browser.newContext();
  const phone = await motorist.newPage();
  const form = phone.locator('recovery-quote');
  const fill = async (pickup: string) => {
    await form.getByLabel('Pickup Location').fill(pickup);
    await form.getByLabel('Destination').fill('E14 5AB');
    await form.getByLabel('Vehicle Type').selectOption('Car');
    await form.getByLabel('Gearbox').selectOption('Automatic');
    await form.getByLabel('Rolling Status').selectOption('Rolling');
    await form.getByLabel('Problem Description').selectOption('Other');
  };

  await test.step('a later job on a Scottish bank holiday is priced by every rule', async () => {
    await phone.goto(`/company/${operator.slug}`);
    await fill('EC1A 1BB');
    await form.getByRole('radio', { name: 'Later (Schedule)' }).check();
    await form.getByLabel('Preferred Date').fill(nextScottishBankHoliday());
    await form.getByLabel('Hour').selectOption('10');
    await form.getByLabel('Min').selectOption('00');
    await form.getByLabel('Period').selectOption('AM');
    await form.getByRole('button', { name: 'Calculate Quote' }).click();
    await expect(form.getByRole('heading', { name: 'Quote Ready!' })).toBeVisible();

    const line = (label: string | RegExp) => form.locator('dl > div').filter({ has: phone.locator('dt', { hasText: label }) });
    await expect(line('Bank holiday fee').locator('dd')).toHaveText('£30.00');
    await expect(line(/^Travel to you: \d+(\.\d)? miles( after \d+(\.\d+)? free)?$/)).toHaveCount(1);
    await expect(line('Minimum charge adjustment')).toHaveCount(1);
    // Everything below the £500 minimum is brought up to it, and VAT added on top: £600 all in.
    await expect(line('VAT (20%)').locator('dd')).toHaveText('£100.00');
    await expect(form.getByText('£600.00', { exact: true })).toBeVisible();
    await expect(form.getByText(/^Price valid until \d{1,2} \w+ \d{4} at \d\d:\d\d$/)).toBeVisible();
  });

  await test.step('a pickup beyond the maximum radius is asked to call, with no price', async () => {
    await fill('M1 1AA');
    await form.getByRole('radio', { name: 'Now (Emergency)' }).check();
    await form.getByRole('button', { name: 'Calculate Quote' }).click();
    await expect(form.getByText(`This pickup is outside ${operator.companyName}'s area. Please call us on 0161 496 0000.`)).toBeVisible();
    await expect(form.getByRole('button', { name: 'Call Now' })).toHaveAttribute('href', 'tel:+441614960000');
    await expect(form.getByRole('heading', { name: 'Quote Ready!' })).toHaveCount(0);
  });
  await motorist.close();
});
