// The job as the motorist and the driver live it, on two phones (390×844, axe on each screen)
// against the real server in local payments mode (docs/product.md §20, §21, §22): the motorist
// reads "Deposit now … Balance …" before sending; after a decline the open status page shows the
// refund within 2 s; the driver's open page shows "Cancelled" within 2 s of the motorist's cancel;
// the motorist pays the balance through the pay link shown as a QR code on the driver's phone, the
// driver's page says "Balance paid by card" and the updated receipt PDF says paid; the SMS
// fake receives one text per step, each one GSM-7 segment of at most 160 characters.
import { spawnSync } from 'node:child_process';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import type { ReadSms } from '../api/test/message-fakes';
import { gsm7Length } from '../api/test/gsm7';
import { MESSAGES_READER } from '../playwright.config';
import { expectNoSeriousA11yViolations, quoteWithFirstChoices, signUpWithTrial } from './admin-helpers';

const PHONE = { viewport: { width: 390, height: 844 } };
const DESKTOP = { viewport: { width: 1280, height: 900 } };
/** Each booking its own mobile (Ofcom's drama range), so its texts are told apart from every other journey's. */
const MOBILES = { declined: '07700 900611', cancelled: '07700 900612', completed: '07700 900613' };
const e164 = (mobile: string) => `+44${mobile.replace(/\s/g, '').slice(1)}`;

const texts = async (mobile: string) =>
  ((await (await fetch(`${MESSAGES_READER}/sms`)).json()) as ReadSms[]).filter((m) => m.to === e164(mobile)).map((m) => m.body);

async function phonePage(browser: Browser): Promise<Page> {
  return (await browser.newContext(PHONE)).newPage();
}

/** Quotes on the hosted page and books, paying the deposit on the built-in card page; answers the reference and the status page. */
async function bookAndPay(phone: Page, slug: string, mobile: string, checkWords?: (form: Locator) => Promise<void>) {
  await phone.goto(`/company/${slug}`);
  const form = phone.locator('recovery-quote');
  await quoteWithFirstChoices(form);
  const reference = (await form.getByText(/^Quote ID: TQ-/).textContent())!.replace('Quote ID: TQ-', '');
  await form.getByRole('button', { name: 'Book this recovery' }).click();
  const booking = form.getByRole('form', { name: 'Book this recovery' });
  await booking.getByLabel('Your name').fill('Alex Driver');
  await booking.getByLabel('Mobile number').fill(mobile);
  await booking.getByLabel('Registration').fill('AB12 CDE');
  await checkWords?.(form);
  await booking.getByRole('button', { name: 'Send booking' }).click();
  await expect(form.getByRole('heading', { name: 'Waiting for your payment' })).toBeVisible();
  await phone.goto((await form.getByRole('link', { name: 'Follow your recovery' }).getAttribute('href'))!);
  await phone.getByRole('link', { name: /^Pay £/ }).click();
  await phone.getByRole('button', { name: /^Pay £/ }).click();
  await expect(phone.getByRole('heading', { name: 'Booking sent' })).toBeVisible();
  return reference;
}

test('two phones live a job: the money said plainly, a refund and a cancel seen live, the balance paid, a text at each step', async ({ browser }) => {
  test.setTimeout(240_000);
  const desk = await (await browser.newContext(DESKTOP)).newPage();
  const operator = await signUpWithTrial(desk);

  await test.step('the operator has a phone, a custom URL, a 20 % deposit on the local payment account', async () => {
    expect((await desk.request.put('/api/company', { data: { phone: '0161 496 0000', customSlug: operator.slug } })).ok()).toBe(true);
    const connect = await desk.request.post('/payments/connect', {
      form: { action: 'connect' },
      headers: { origin: new URL(desk.url()).origin },
      maxRedirects: 0,
    });
    expect(connect.status()).toBe(303);
    const rule = await desk.request.put('/api/payments/rule', { data: { rule: 'deposit', depositType: 'percent', depositPercent: 20 } });
    expect((await rule.json()).active).toBe(true);
  });

  const accept = async (reference: string) => {
    const accepted = await desk.request.post(`/api/bookings/${reference}/accept`, { data: { etaMinutes: 20, driverName: 'Sam Smith' } });
    expect(accepted.ok(), await accepted.text()).toBe(true);
    return (await accepted.json()).driverUrl as string;
  };

  await test.step('the motorist reads what is paid now and later before sending; after a decline the open page shows the refund within 2 s', async () => {
    const phone = await phonePage(browser);
    const reference = await bookAndPay(phone, operator.slug, MOBILES.declined, async (form) => {
      await expect(form.getByText(/^Deposit now: £\d+\.\d\d \(20 %\)\. Balance £\d+\.\d\d to the driver or by the link we send\.$/)).toBeVisible();
      await expectNoSeriousA11yViolations(phone, 'the booking form with the money said');
    });
    await expect(phone.getByText(/^Deposit paid £\d+\.\d\d$/)).toBeVisible();
    const declined = await desk.request.post(`/api/bookings/${reference}/decline`, { data: { reason: 'No truck free' } });
    expect(declined.ok()).toBe(true);
    await expect(phone.getByText(/^Deposit paid £(\d+\.\d\d), refunded £\1$/)).toBeVisible({ timeout: 2_000 });
    await expect(phone.getByRole('link', { name: 'Get a new quote' })).toHaveAttribute('href', `/company/${operator.slug}`);
    await expectNoSeriousA11yViolations(phone, 'a declined job’s status page');
  });

  await test.step('the driver’s open page shows "Cancelled" within 2 s of the motorist’s cancel', async () => {
    const phone = await phonePage(browser);
    const reference = await bookAndPay(phone, operator.slug, MOBILES.cancelled);
    const driver = await phonePage(browser);
    await driver.goto(await accept(reference));
    await expect(driver.getByRole('button', { name: 'On the way' })).toBeVisible();
    await expect(driver.getByRole('link', { name: /^To the pickup, .* in Google Maps$/ })).toBeVisible();
    await expectNoSeriousA11yViolations(driver, 'the driver’s page');
    await phone.getByRole('button', { name: 'Cancel booking' }).click();
    await phone.getByRole('button', { name: 'Yes, cancel the booking' }).click();
    await expect(driver.getByRole('heading', { name: 'Cancelled' })).toBeVisible({ timeout: 2_000 });
    await expect(driver.getByText('The customer cancelled this job. Do not go; if you set off, turn back.')).toBeVisible();
    await expect(driver.getByRole('button', { name: 'On the way' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(driver, 'a cancelled job’s driver page');
  });

  await test.step('the driver completes with "Balance paid by card", and the receipt says it was paid', async () => {
    const phone = await phonePage(browser);
    const reference = await bookAndPay(phone, operator.slug, MOBILES.completed);
    const driverContext = await browser.newContext({ ...PHONE, geolocation: { latitude: 53.48, longitude: -2.24 }, permissions: ['geolocation'] });
    const driver = await driverContext.newPage();
    await driver.goto(await accept(reference));
    await expect(driver.getByText(/^To collect: £\d+\.\d\d$/)).toBeVisible();
    await driver.getByRole('button', { name: 'On the way' }).click();
    await expect(phone.getByRole('heading', { name: 'On the way' })).toBeVisible();
    // No position yet: no map, and none of its code fetched.
    await expect(phone.getByRole('region', { name: 'Map of your driver’s position' })).toHaveCount(0);
    await driver.getByRole('button', { name: 'Share my position' }).click();
    const map = phone.getByRole('region', { name: 'Map of your driver’s position' });
    await expect(map).toBeVisible();
    await expect(map.locator('path.leaflet-interactive')).toHaveCount(1);
    await expect(map.getByText('© Test tiles')).toBeVisible();
    await expect.poll(async () => ((await (await fetch(`${MESSAGES_READER}/tiles-served`)).json()) as { count: number }).count).toBeGreaterThan(0);
    await expectNoSeriousA11yViolations(phone, 'the status page with the driver on the map');
    for (const step of ['Arrived', 'Loaded']) {
      await driver.getByRole('button', { name: step }).click();
      await expect(phone.getByRole('heading', { name: step })).toBeVisible();
    }
    await expect(map).toHaveCount(0);
    await driver.getByRole('button', { name: 'Completed' }).click();
    await expect(driver.getByText(/^How was the balance of £\d+\.\d\d paid\?$/)).toBeVisible();
    await expectNoSeriousA11yViolations(driver, 'the driver’s balance question');
    await driver.getByRole('button', { name: 'Completed, not paid yet' }).click();
    await expect(phone.getByRole('heading', { name: 'Completed' })).toBeVisible();
    // The balance by card through the pay link: a QR code on the driver's phone, paid on the motorist's.
    await driver.getByRole('button', { name: 'Card, by pay link' }).click();
    await expect(driver.getByRole('img', { name: 'QR code of the pay link' })).toBeVisible();
    await expectNoSeriousA11yViolations(driver, 'the pay link’s QR code');
    const statusPage = phone.url();
    await phone.goto((await driver.getByRole('link', { name: /\/balance\// }).getAttribute('href'))!);
    await phone.getByRole('button', { name: /^Pay £\d+\.\d\d by card$/ }).click();
    await phone.getByRole('button', { name: /^Pay £/ }).click();
    await expect(phone.getByRole('heading', { name: 'Paid. Thank you.' })).toBeVisible();
    await expect(driver.getByText('Balance paid by card')).toBeVisible({ timeout: 10_000 });
    await phone.goto(statusPage);

    const link = phone.getByRole('link', { name: /^Download receipt 000002 \(PDF\)/ });
    await expect(link).toBeVisible();
    await expectNoSeriousA11yViolations(phone, 'the completed job’s status page');
    const [download] = await Promise.all([phone.waitForEvent('download'), link.click()]);
    const run = spawnSync('/usr/bin/pdftotext', ['-layout', '-enc', 'UTF-8', await download.path(), '-'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    const text = run.stdout.replace(/[ \t]+/g, ' ');
    expect(text).toMatch(/Paid: deposit by card,[^\n]*£\d+\.\d\d\n[^\n]*by card\n/);
    expect(text).not.toContain('Balance due');
    expect(text).toContain('0161 496 0000');
  });

  await test.step('the SMS fake received one text per step, each one GSM-7 segment', async () => {
    const expected = {
      declined: ['has been received', 'cannot be taken'],
      cancelled: ['has been received', 'has been accepted', 'is cancelled, as you asked'],
      // The pay link's text would be this trial company's 11th today: held by its 10 a day (its wording is tested in api/bookings/job-journey.test.ts).
      completed: ['has been received', 'has been accepted', 'is on the way', 'has arrived', 'is completed. Receipt: '],
    } as const;
    for (const [booking, steps] of Object.entries(expected) as [keyof typeof MOBILES, readonly string[]][]) {
      await expect.poll(async () => (await texts(MOBILES[booking])).length, { timeout: 30_000 }).toBe(steps.length);
      const bodies = await texts(MOBILES[booking]);
      for (const [i, words] of steps.entries()) expect(bodies[i], booking).toContain(words);
      for (const body of bodies) {
        expect(body).not.toContain('→');
        expect(gsm7Length(body), body).not.toBeNull();
        expect(gsm7Length(body) ?? 999, body).toBeLessThanOrEqual(160);
      }
    }
  });
});
