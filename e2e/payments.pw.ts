// Payment at booking and its receipt end to end in local mode (docs/product.md §21, §22): the
// operator (desktop), VAT registered, connects on the built-in connect page from the portal's
// Payments section, takes a 20 % deposit
// and gives the VAT number their invoices print; a motorist
// (phone) quotes the demo route on the hosted page (£187.20), books, pays the £37.44 deposit on the
// built-in card page; the operator accepts; the driver's page completes the job; the motorist
// downloads the receipt (a simplified VAT invoice) from the status page, whose text pdftotext
// reads: the reference, the quote's lines with their VAT, and the totals.
import { spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, quoteWithFirstChoices, signUpWithTrial } from './admin-helpers';

const PHONE = { viewport: { width: 390, height: 844 } };
const DESKTOP = { viewport: { width: 1280, height: 900 } };

/** The PDF's text, its layout kept, one printed line per line with spaces squeezed. */
function pdfLines(file: string): string[] {
  const run = spawnSync('/usr/bin/pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  if (run.error || run.status !== 0) throw new Error(`pdftotext failed (apt-get install poppler-utils): ${run.error?.message ?? run.stderr}`);
  return run.stdout
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

test('an operator takes a 20 % deposit, the motorist pays it, the job completes, and the motorist downloads the receipt', async ({ browser }) => {
  test.setTimeout(180_000);
  const desk = await (await browser.newContext(DESKTOP)).newPage();
  const operator = await signUpWithTrial(desk);

  await test.step('the operator sets a phone, a custom URL and VAT-registered prices', async () => {
    const company = await desk.request.put('/api/company', { data: { phone: '0161 496 0000', customSlug: operator.slug } });
    expect(company.ok(), await company.text()).toBe(true);
    // VAT registered, prices before VAT: the demo route (2.9 miles) comes to £156.00 and VAT £31.20
    // at any hour (no after-hours fee).
    const pricing = await desk.request.put('/api/pricing', {
      data: { labourRate: 73.75, afterHoursEnabled: false, vatRegistered: true, pricesIncludeVat: false },
    });
    expect(pricing.ok(), await pricing.text()).toBe(true);
  });

  await desk.getByRole('tab', { name: 'Quotes' }).click();
  const payments = desk.getByRole('region', { name: 'Payments' });
  await test.step('the operator connects on the local connect page from the portal’s Payments section and asks a 20 % deposit', async () => {
    await payments.getByRole('button', { name: 'Connect payment account' }).click();
    await desk.waitForURL(/\/payments\/connect$/);
    await desk.getByRole('button', { name: 'Connect', exact: true }).click();
    await desk.waitForURL(/\/dashboard/);
    await expect(payments.getByText('Ready', { exact: true })).toBeVisible();
    await payments.getByRole('radio', { name: 'A deposit' }).check();
    await payments.getByLabel('Deposit (%)').fill('20');
    await payments.getByRole('button', { name: 'Save Payment Rule' }).click();
    await expect(payments.getByText('Motorists pay a deposit of 20% of the price when they book.')).toBeVisible();
  });

  await test.step('the operator gives the VAT number and business address their invoices print, in the portal', async () => {
    const details = desk.getByRole('form', { name: 'Invoice details' });
    await details.getByLabel('VAT number').fill('GB 123 4567 89');
    await details.getByLabel('Business address').fill('Unit 4, Ring Road\nBirmingham B1 1AA');
    await details.getByRole('button', { name: 'Save Invoice Details' }).click();
    await expect(desk.getByText('Invoice details saved').first()).toBeVisible();
    await expect(details.getByLabel('VAT number')).toHaveValue('GB123456789');
  });

  const phone = await (await browser.newContext(PHONE)).newPage();
  const { reference, lines } = await test.step('a motorist quotes the demo route on the hosted page: £187.20', async () => {
    await phone.goto(`/company/${operator.slug}`);
    const form = phone.locator('recovery-quote');
    const answer = phone.waitForResponse((r) => r.url().endsWith('/api/quotes/calculate') && r.request().method() === 'POST');
    await quoteWithFirstChoices(form);
    const quote = await (await answer).json();
    expect(quote.totalPrice, JSON.stringify(quote.lines)).toBe(187.2);
    await expect(form.getByText('£187.20').first()).toBeVisible();
    const reference = (await form.getByText(/^Quote ID: TQ-/).textContent())!.replace('Quote ID: TQ-', '');

    await form.getByRole('button', { name: 'Book this recovery' }).click();
    const booking = form.getByRole('form', { name: 'Book this recovery' });
    await booking.getByLabel('Your name').fill('Alex Driver');
    await booking.getByLabel('Mobile number').fill('07700 900123');
    await booking.getByLabel('Registration').fill('AB12 CDE');
    await booking.getByRole('button', { name: 'Send booking' }).click();
    // Not "Booking sent": the operator hears of it only once it is paid.
    await expect(form.getByRole('heading', { name: 'Waiting for your payment' })).toBeVisible();
    await expect(form.getByRole('link', { name: 'Pay £37.44' })).toHaveAttribute('href', /\/pay\/cs_local_/);
    const follow = form.getByRole('link', { name: 'Follow your recovery' });
    await phone.goto((await follow.getAttribute('href'))!);
    return { reference, lines: quote.lines as { label: string; amount: number }[] | undefined };
  });

  await test.step('the motorist pays the £37.44 deposit on the local card page and is back on the status page', async () => {
    await expect(phone.getByRole('heading', { name: 'Waiting for your payment' })).toBeVisible();
    await phone.getByRole('link', { name: 'Pay £37.44' }).click();
    await phone.getByRole('button', { name: 'Pay £37.44' }).click();
    await expect(phone.getByRole('heading', { name: 'Booking sent' })).toBeVisible();
    await expect(phone.getByText('Deposit paid £37.44')).toBeVisible();
  });

  const driverUrl = await test.step('the operator accepts the deposit-paid booking in the portal', async () => {
    await expect(desk.getByRole('article', { name: new RegExp(`^TQ-${reference}`) }).getByText('Deposit paid £37.44', { exact: true })).toBeVisible({
      timeout: 15_000,
    });
    const accept = desk.getByRole('form', { name: `Accept TQ-${reference}` });
    await accept.getByLabel('ETA (minutes)').fill('20');
    await accept.getByRole('button', { name: 'Accept' }).click();
    await expect(phone.getByRole('heading', { name: 'Accepted' })).toBeVisible();
    return desk.getByLabel(`Driver’s link for TQ-${reference}`).inputValue();
  });

  await test.step('the driver’s page completes the job', async () => {
    const driver = await (await browser.newContext(PHONE)).newPage();
    await driver.goto(driverUrl);
    for (const step of ['On the way', 'Arrived', 'Loaded', 'Completed']) {
      await driver.getByRole('button', { name: step, exact: true }).click();
      // With a balance left, completing asks how it was paid: not yet, so the receipt shows it due.
      if (step === 'Completed') await driver.getByRole('button', { name: 'Completed, not paid yet' }).click();
      await expect(phone.getByRole('heading', { name: step })).toBeVisible();
    }
  });

  await test.step('the motorist downloads the receipt from the status page; its text holds the reference, the lines and the totals', async () => {
    const link = phone.getByRole('link', { name: /^Download simplified VAT invoice 000001 \(PDF\)/ });
    await expect(link).toBeVisible();
    await expectNoSeriousA11yViolations(phone, 'the status page with its receipt');
    const [download] = await Promise.all([phone.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('simplified-vat-invoice-000001.pdf');
    const text = pdfLines(await download.path());
    expect(text[0]).toBe('Simplified VAT invoice No. 000001');
    expect(text.find((l) => l.includes('Reference'))).toContain(`TQ-${reference}`);
    expect(text).toContain('VAT number GB123456789');
    // The quote's own lines, each with its net, the rate, its VAT and its amount with VAT.
    expect(lines?.map((l) => l.label)).toEqual(['Vehicle Base Price', 'Call-out Fee', 'Distance (2.9 miles)', 'Labour Fee', 'VAT (20%)']);
    expect(text).toContain('Vehicle Base Price £25.00 20% £5.00 £30.00');
    expect(text).toContain('Call-out Fee £50.00 20% £10.00 £60.00');
    expect(text).toContain('Distance (2.9 miles) £7.25 20% £1.45 £8.70');
    expect(text).toContain('Labour Fee £73.75 20% £14.75 £88.50');
    expect(text).toContain('Total net £156.00');
    expect(text).toContain('Total VAT £31.20');
    expect(text).toContain('Total (VAT included) £187.20');
    expect(text).toContain('Deposit paid by card £37.44');
    expect(text).toContain('Balance due £149.76');
  });

  await test.step('the operator finds the same invoice on the finished job in the portal', async () => {
    await desk.getByText(/^Finished in the last 24 hours/).click();
    const job = desk.getByRole('article', { name: new RegExp(`^TQ-${reference}`) });
    await expect(job.getByRole('link', { name: 'Simplified VAT invoice 000001 (£187.20, PDF)' })).toHaveAttribute(
      'href',
      `/api/bookings/${reference}/documents/000001`,
    );
  });
});
