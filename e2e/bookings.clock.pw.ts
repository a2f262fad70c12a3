// Bookings end to end (docs/product.md §20), on a phone-sized screen against the real server: a
// motorist quotes on the operator's hosted page and books it; the operator's alert arrives by
// text (the SMS fake, to the number confirmed with its texted code) and by email (the SMTP sink) with the reference; the operator accepts in the
// portal with a 25-minute ETA and the motorist's open status page says so without a reload; the driver's page
// (with an emulated position) moves the job on and the status page follows each step; a second
// booking nobody answers expires once the server's clock is moved past its response time (the
// clock control, api/platform/test-clock.ts: this file has a server of its own, playwright.config.ts), and
// its page tells the motorist to call.
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import type { ReadMail, ReadSms } from '../api/test/message-fakes';
import { CLOCK_ORIGIN, MESSAGES_READER } from '../playwright.config';
import { expectNoSeriousA11yViolations, quoteWithFirstChoices, signUpWithTrial } from './admin-helpers';

const PHONE = { viewport: { width: 390, height: 844 } };
const LEEDS = { latitude: 53.7997, longitude: -1.5492 };
const OPERATOR_MOBILE = '+447700900456';

async function received<T>(what: 'sms' | 'mail', match: (message: T) => boolean): Promise<T> {
  let found: T | undefined;
  await expect
    .poll(
      async () => {
        const all = (await (await fetch(`${MESSAGES_READER}/${what}`)).json()) as T[];
        found = all.find(match);
        return found !== undefined;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return found!;
}

/** Books the quote on screen from the hosted page's widget; answers the status page's address. */
async function book(form: Locator, details: { name: string; phone: string; registration: string }, withPosition = false): Promise<string> {
  await form.getByRole('button', { name: 'Book this recovery' }).click();
  const booking = form.getByRole('form', { name: 'Book this recovery' });
  await booking.getByLabel('Your name').fill(details.name);
  await booking.getByLabel('Mobile number').fill(details.phone);
  await booking.getByLabel('Registration').fill(details.registration);
  if (withPosition) await booking.getByLabel('Send my location with the booking').check();
  await booking.getByRole('button', { name: 'Send booking' }).click();
  await expect(form.getByRole('heading', { name: 'Booking sent' })).toBeVisible();
  return (await form.getByRole('link', { name: 'Follow your recovery' }).getAttribute('href')) ?? '';
}

async function openStatus(browser: Browser, url: string): Promise<Page> {
  const page = await (await browser.newContext(PHONE)).newPage();
  await page.goto(url);
  return page;
}

test('a motorist books, the operator accepts, the driver moves the job on, and an unanswered booking expires', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const operator = await signUpWithTrial(page);

  await test.step('the operator verifies the account address (alerts go only to a verified one) and takes bookings by text too', async () => {
    const mail = await received<ReadMail>('mail', (m) => m.to.includes(operator.email) && m.text.includes('/verify-email/'));
    await page.goto(/\/verify-email\/[^\s"<>]+/.exec(mail.text)![0]);
    await expect(page.getByText('Email address verified')).toBeVisible();
    const company = await page.request.put('/api/company', { data: { phone: '0161 496 0000', customSlug: operator.slug } });
    expect(company.ok(), await company.text()).toBe(true);
    // Set through the API: the portal's own card for these has its own tests.
    const settings = await page.request.put('/api/booking-settings', { data: { smsNumber: '07700 900456', responseMinutes: 2 } });
    expect(settings.ok(), await settings.text()).toBe(true);
    // Booking alerts are texted only to a number confirmed with the code texted to it.
    const sent = await page.request.post('/api/booking-settings/sms-code');
    expect(sent.ok(), await sent.text()).toBe(true);
    const codeText = await received<ReadSms>('sms', (m) => m.to === OPERATOR_MOBILE && m.body.includes('your code to confirm this number'));
    const code = /\b(\d{6})\b/.exec(codeText.body)![1];
    const confirmed = await page.request.post('/api/booking-settings/sms-code/confirm', { data: { code } });
    expect(confirmed.ok(), await confirmed.text()).toBe(true);
  });

  const motorist = await browser.newContext({ ...PHONE, geolocation: LEEDS, permissions: ['geolocation'] });
  const phone = await motorist.newPage();
  const form = phone.locator('recovery-quote');

  const { reference, jobUrl } = await test.step('a motorist quotes on the hosted page and books with name, number and registration', async () => {
    await phone.goto(`/company/${operator.slug}`);
    await form.getByRole('button', { name: 'Use my location' }).click();
    await expect(form.getByLabel('Pickup Location')).toHaveValue(/^LS\d{1,2} \d[A-Z]{2}$/);
    await quoteWithFirstChoices(form);
    // quoteWithFirstChoices types its own pickup: the position found stays on offer.
    const reference = (await form.getByText(/^Quote ID: TQ-/).textContent())!.replace('Quote ID: TQ-', '');
    await expect(form.getByRole('button', { name: 'Contact via WhatsApp' })).toHaveCount(0);
    await expect(form.getByRole('button', { name: 'Call Now' })).toBeVisible();
    await form.getByRole('button', { name: 'Book this recovery' }).click();
    await expect(
      form.getByText(
        `${operator.companyName} receives your name, number, registration, note and any email to do this job; they are kept with the quote for 24 months, then deleted.`,
      ),
    ).toBeVisible();
    // The line links to the operator's privacy page, opened beside the booking.
    await expect(form.getByRole('link', { name: 'Privacy notice' })).toHaveAttribute('href', /\/privacy\/[a-z0-9-]+$/);
    await expectNoSeriousA11yViolations(phone, 'the booking form');
    const jobUrl = await book(form, { name: 'Alex Driver', phone: '07700 900123', registration: 'ab12 cde' }, true);
    expect(jobUrl).toMatch(/\/job\/[A-Za-z0-9_-]{32,}$/);
    return { reference, jobUrl };
  });

  await test.step('the operator’s alert arrives by text and by email with the reference', async () => {
    const text = await received<ReadSms>('sms', (m) => m.to === OPERATOR_MOBILE && m.body.includes(`TQ-${reference}`));
    expect(text.body).toContain('Alex Driver');
    expect(text.body).toContain('AB12 CDE');
    // The quote's own alert names the reference too: the booking's is the one that says so.
    const mail = await received<ReadMail>('mail', (m) => m.to.includes(operator.email) && m.subject.startsWith(`New booking TQ-${reference}:`));
    expect(mail.text).toContain('Alex Driver');
  });

  const status = await openStatus(browser, jobUrl);
  await test.step('the status page shows the booking sent, with the number to call', async () => {
    await expect(status.getByRole('heading', { name: 'Booking sent' })).toBeVisible();
    await expect(status.getByRole('link', { name: `Call ${operator.companyName} on 0161 496 0000` })).toHaveAttribute('href', 'tel:+441614960000');
    await expect(status.getByText('This page updates by itself.')).toBeVisible();
    await expectNoSeriousA11yViolations(status, 'the motorist’s status page');
  });

  const unanswered = await test.step('a second booking, which nobody will answer', async () => {
    await form.getByRole('button', { name: 'Calculate Quote' }).click();
    await expect(form.getByRole('heading', { name: 'Quote Ready!' })).toBeVisible();
    return openStatus(browser, await book(form, { name: 'Sam Stranded', phone: '07700 900789', registration: 'XY70 ZZZ' }));
  });

  const driverUrl = await test.step('the operator accepts in the portal with a 25-minute ETA; the open status page says so without a reload', async () => {
    await page.goto('/dashboard');
    await page.getByRole('tab', { name: 'Quotes' }).click();
    const accept = page.getByRole('form', { name: `Accept TQ-${reference}` });
    await accept.getByLabel('ETA (minutes)').fill('25');
    await accept.getByLabel('Driver’s name (optional)').fill('Sam');
    await accept.getByRole('button', { name: 'Accept' }).click();
    await expect(status.getByRole('heading', { name: 'Accepted' })).toBeVisible();
    await expect(status.getByText(/^Expected at \d\d:\d\d, in 2[45] min$/)).toBeVisible();
    await expect(status.getByText('Driver: Sam')).toBeVisible();
    return page.getByLabel(`Driver’s link for TQ-${reference}`).inputValue();
  });

  await test.step('the driver moves the job on from their phone, sharing the position on the way; the status page follows each step', async () => {
    const driverContext = await browser.newContext({ ...PHONE, geolocation: { latitude: 53.48, longitude: -2.24 }, permissions: ['geolocation'] });
    const driver = await driverContext.newPage();
    await driver.goto(driverUrl);
    await expect(driver.getByRole('heading', { name: 'Alex Driver' })).toBeVisible();
    await expect(driver.getByText('AB12 CDE')).toBeVisible();
    await expectNoSeriousA11yViolations(driver, 'the driver’s page');

    await driver.getByRole('button', { name: 'On the way' }).click();
    await expect(status.getByRole('heading', { name: 'On the way' })).toBeVisible();
    const shared = driver.waitForResponse((r) => r.url().endsWith('/position') && r.request().method() === 'POST');
    await driver.getByRole('button', { name: 'Share my position' }).click();
    expect((await shared).status()).toBe(200);
    await expect(driver.getByText('Sharing your position with the customer until you arrive.')).toBeVisible();

    await driver.getByRole('button', { name: 'Arrived' }).click();
    await expect(status.getByRole('heading', { name: 'Arrived' })).toBeVisible();
    await expect(driver.getByRole('button', { name: 'Share my position' })).toHaveCount(0);
    await driver.getByRole('button', { name: 'Loaded' }).click();
    await expect(status.getByRole('heading', { name: 'Loaded' })).toBeVisible();
    await driver.getByRole('button', { name: 'Completed', exact: true }).click();
    // Nothing was paid at booking: completing asks how the price was paid.
    await driver.getByRole('button', { name: 'Cash' }).click();
    await expect(driver.getByText('Balance paid in cash')).toBeVisible();
    await expect(status.getByRole('heading', { name: 'Completed' })).toBeVisible();
    await expect(status.getByText('Your recovery is completed. Thank you.')).toBeVisible();
    await driverContext.close();
  });

  await test.step('the unanswered booking expires, and its page tells the motorist to call', async () => {
    // The shortest response time there is (2 minutes) passes on the server's clock, not in real time.
    await expect(unanswered.getByRole('heading', { name: 'Booking sent' })).toBeVisible();
    const moved = await fetch(`${CLOCK_ORIGIN}/__test/clock`, { method: 'POST', body: JSON.stringify({ advanceMs: 2 * 60_000 }) });
    expect(moved.status, await moved.text()).toBe(200);
    await expect(unanswered.getByRole('heading', { name: 'Not answered in time' })).toBeVisible();
    await expect(unanswered.getByText(`${operator.companyName} did not answer in time. Please call ${operator.companyName} on 0161 496 0000.`)).toBeVisible();
    await expectNoSeriousA11yViolations(unanswered, 'an expired booking’s page');
  });
});
