// Payment at booking from the operator's side, in local mode (docs/product.md §21): the operator
// connects on the built-in connect page from the portal's Payments section, comes back to it, and
// asks a 20 % deposit; a motorist books the £187.20 quote and pays £37.44 on the built-in card page
// (on a phone); the job arrives in the Jobs card as "Deposit paid £37.44"; the operator refunds
// part of it from the job, then declines it, and the rest is refunded. No serious axe finding.
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { contract } from '../api/contract';
import { expectNoSeriousA11yViolations, expectToast, signUpWithTrial } from './admin-helpers';

const { companySlug: _demo, ...quoteExample } = contract.quotes.calculate.request.body.content['application/json'].example;

test('an operator connects, asks a 20 % deposit, sees it paid, refunds part and declines', async ({ page, browser }) => {
  const operator = await signUpWithTrial(page);
  // A URL is locked only with a way to reach the operator (docs/product.md §14).
  const contact = await page.request.put('/api/company', { data: { phone: '07700 900456' } });
  expect(contact.ok(), await contact.text()).toBe(true);
  const company = await page.request.put('/api/company', { data: { customSlug: operator.slug } });
  expect(company.ok(), await company.text()).toBe(true);
  // The £187.20 of docs/product.md §21's example: nothing but a minimum charge, so the price is exactly it.
  const pricing = await page.request.put('/api/pricing', { data: { callOutFee: 0, labourRate: 0, mileRate: 0, labourTime: 0, minimumCharge: 187.2 } });
  expect(pricing.ok(), await pricing.text()).toBe(true);

  await page.getByRole('tab', { name: 'Quotes' }).click();
  const payments = page.getByRole('region', { name: 'Payments' });
  await expect(payments.getByText('Not connected', { exact: true })).toBeVisible();

  await test.step('connects on the local connect page and comes back to the Payments section', async () => {
    await payments.getByRole('button', { name: 'Connect payment account' }).click();
    await page.waitForURL(/\/payments\/connect$/);
    await expect(page.getByText('Local payments mode', { exact: false })).toBeVisible();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.waitForURL(/\/dashboard/);
    await expect(payments.getByText('Your payment account is connected and ready.')).toBeVisible();
    await expect(payments.getByText('Ready', { exact: true })).toBeVisible();
    expect(new URL(page.url()).searchParams.has('payments')).toBe(false);
  });

  await test.step('asks a 20 % deposit', async () => {
    await payments.getByRole('radio', { name: 'A deposit' }).check();
    await payments.getByLabel('Deposit (%)').fill('20');
    await payments.getByRole('button', { name: 'Save Payment Rule' }).click();
    await expectToast(page, 'Payment rule saved');
    await expect(payments.getByText('Motorists pay a deposit of 20% of the price when they book.')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'the Payments section with a deposit set');
  });

  const quote = await page.request.post('/api/quotes/calculate', { data: { ...quoteExample, companySlug: operator.slug } });
  expect(quote.status(), await quote.text()).toBe(200);
  const { quoteId, totalPrice } = (await quote.json()) as { quoteId: string; totalPrice: number };
  expect(totalPrice).toBe(187.2);

  await test.step('the motorist books and pays £37.44 on the local card page, on a phone', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const motorist = await phone.newPage();
    const booking = await motorist.request.post('/api/bookings', {
      data: { quoteId, bookingKey: randomBytes(18).toString('base64url'), name: 'Jane Motorist', phone: '07700 900123', registration: 'ab12cde' },
    });
    expect(booking.status(), await booking.text()).toBe(201);
    const { checkoutUrl } = (await booking.json()) as { checkoutUrl: string };
    await motorist.goto(checkoutUrl);
    await expectNoSeriousA11yViolations(motorist, 'the local card page');
    await motorist.getByRole('button', { name: 'Pay £37.44' }).click();
    await expect(motorist.getByRole('heading', { name: 'Booking sent' })).toBeVisible();
    await expect(motorist.getByText('Deposit paid £37.44')).toBeVisible();
    await phone.close();
  });

  const job = page.getByRole('article', { name: new RegExp(`^TQ-${quoteId}`) });
  await test.step('the job arrives as deposit paid £37.44', async () => {
    await expect(job.getByText('Deposit paid £37.44', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expectNoSeriousA11yViolations(page, 'the Jobs card with a paid deposit');
  });

  await test.step('refunds part of it from the job, bounded by what is left', async () => {
    await job.getByText('Refund the motorist').click();
    const refund = page.getByRole('form', { name: `Refund TQ-${quoteId}` });
    await refund.getByLabel('Amount to refund (£)').fill('40');
    await refund.getByRole('button', { name: 'Refund' }).click();
    await expect(refund.getByText('Refund can be at most £37.44, what is left of the payment')).toBeVisible();
    await refund.getByLabel('Amount to refund (£)').fill('7.44');
    await refund.getByRole('button', { name: 'Refund' }).click();
    await expect(job.getByText('Deposit paid £37.44, refunded £7.44', { exact: true })).toBeVisible();
  });

  await test.step('declines it, and the rest is refunded', async () => {
    const decline = page.getByRole('form', { name: `Decline TQ-${quoteId}` });
    await decline.getByLabel('Reason for declining').fill('No truck free tonight');
    await decline.getByRole('button', { name: 'Decline' }).click();
    // A paid job's decline is asked twice: the deposit goes back.
    await page
      .getByRole('alertdialog', { name: `Decline TQ-${quoteId}?` })
      .getByRole('button', { name: 'Yes, decline' })
      .click();
    await expect(page.getByText('No bookings waiting for an answer.')).toBeVisible();
    await page.getByText(/^Finished in the last 24 hours/).click();
    await expect(job.getByText('Deposit paid £37.44, refunded £37.44', { exact: true })).toBeVisible();
    await expect(job.getByText('Refund the motorist')).toHaveCount(0);
  });
});
