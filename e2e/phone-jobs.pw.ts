// Phone jobs end to end on phones (docs/product.md §25): the operator, on a 390×844 phone, opens
// New quote, types two postcodes, sees the priced lines and texts the link (the fake SMS provider
// receives it); a second phone opens the link from that text, books and pays a 20 % deposit in local
// mode; the job is in the Jobs list marked "phone". The operator then books a second caller
// directly, texts them a payment link they pay the deposit from, and that caller's status page
// follows the driver's steps. A caller for a trade account is priced on its card (the £45 call-out)
// and booked on it once its PO is given. Last, the voice webhook: a
// signed missed call texts the caller once; an unsigned one answers 403. The taps from New quote to
// "Link sent" are counted (docs/budgets.md: at most 10 besides the typing).
import { expect, test, type Page } from '@playwright/test';
import { API_ORIGIN, MESSAGES_READER } from '../playwright.config';
import { twilioSignature } from '../api/phone/twilio-signature';
import { expectNoSeriousA11yViolations, signUpWithTrial } from './admin-helpers';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
/** The e2e server's SMS provider secret (api/test/message-fakes.ts): the voice webhook is signed with it. */
const SMS_AUTH_TOKEN = 'e2e-auth-token';

interface Sms {
  to: string;
  body: string;
}

async function textTo(number: string, containing: string): Promise<Sms[]> {
  let found: Sms[] = [];
  await expect
    .poll(
      async () => {
        const all = (await (await fetch(`${MESSAGES_READER}/sms`)).json()) as Sms[];
        found = all.filter((sms) => sms.to === number && sms.body.includes(containing));
        return found.length;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);
  return found;
}

const three = () => String(Math.floor(Math.random() * 1000)).padStart(3, '0');
/** A mobile of this run's own (Ofcom's drama range, E.164), so no other journey's texts are read. */
const runMobile = () => `+447700900${three()}`;
/** National form, as a person types it. */
const national = (e164: string) => `0${e164.slice(3)}`;

test('a caller quoted, sent the link, booked and paid from it; a second caller booked for; a missed call texted once', async ({ browser }) => {
  test.setTimeout(180_000);
  const desk = await (await browser.newContext(PHONE)).newPage();
  const operator = await signUpWithTrial(desk);
  // A landline of this run's own (Ofcom's drama range for Birmingham): the voice webhook finds the company by it.
  const companyNumber = `0121 496 0${three()}`;
  const companyE164 = `+44${companyNumber.replaceAll(' ', '').slice(1)}`;

  await test.step('the company has a number, its page, and takes a 20 % deposit at booking (local mode)', async () => {
    const company = await desk.request.put('/api/company', { data: { phone: companyNumber, customSlug: operator.slug } });
    expect(company.ok(), await company.text()).toBe(true);
    const connect = await desk.request.post('/payments/connect', { form: { action: 'connect' }, headers: { origin: API_ORIGIN }, maxRedirects: 0 });
    expect(connect.status()).toBe(303);
    const rule = await desk.request.put('/api/payments/rule', { data: { rule: 'deposit', depositType: 'percent', depositPercent: 20, hold: false } });
    expect(rule.ok(), await rule.text()).toBe(true);
    await desk.goto('/dashboard');
  });

  const firstCaller = runMobile();
  const linkSms = await test.step('New quote: two postcodes and a vehicle, the priced lines, the link texted (at most 10 taps)', async () => {
    let taps = 0;
    const tap = async (page: Page, name: string) => {
      taps += 1;
      await page.getByRole(name === 'New quote' ? 'link' : 'button', { name, exact: true }).click();
    };
    const started = Date.now();
    await tap(desk, 'New quote');
    await expect(desk.getByRole('heading', { name: 'New quote', level: 1 })).toBeVisible();
    await desk.getByLabel('Pickup postcode').fill('M1 1AE');
    await desk.getByLabel('Destination postcode').fill('M4 4BF');
    // The vehicle: the company's first one is chosen already; the operator picks it again as a caller would say it.
    await desk.getByLabel('Vehicle').selectOption({ index: 0 });
    taps += 1;
    await tap(desk, 'Price it');
    const lines = desk.getByRole('list', { name: 'Price lines' });
    await expect(lines.getByRole('listitem').first()).toBeVisible();
    await expect(desk.getByTestId('phone-quote-total')).toHaveText(/^£\d/);
    await expectNoSeriousA11yViolations(desk, 'New quote with its price');
    await desk.getByLabel('Caller’s mobile').fill(national(firstCaller));
    await tap(desk, 'Text the link');
    await expect(desk.getByText(`Link sent to ${national(firstCaller).replace(/^(\d{5})/, '$1 ')}.`)).toBeVisible();
    test.info().annotations.push({ type: 'New quote to Link sent', description: `${taps} taps, ${Date.now() - started} ms` });
    expect(taps).toBeLessThanOrEqual(10);
    const [sms] = await textTo(firstCaller, '/q/');
    return sms;
  });

  const caller = await (await browser.newContext(PHONE)).newPage();
  const reference = await test.step('the caller opens the link from the text, books and pays the deposit, and is on the status page', async () => {
    const link = /http\S+\/q\/[A-Za-z0-9_-]{32}/.exec(linkSms.body)?.[0];
    expect(link, linkSms.body).toBeDefined();
    await caller.goto(link!);
    await expect(caller.getByRole('heading', { name: 'Your recovery quote' })).toBeVisible();
    const reference = (await caller.getByText(/^Quote TQ-/).textContent())!.replace('Quote TQ-', '');
    await expect(caller.getByText(/^Valid until /)).toBeVisible();
    await expectNoSeriousA11yViolations(caller, 'the caller’s quote page');
    await caller.getByRole('button', { name: 'Book this recovery' }).click();
    await caller.getByLabel('Your name').fill('Jo Caller');
    await caller.getByLabel('Your mobile').fill(national(firstCaller));
    await caller.getByLabel('Registration').fill('AB12 CDE');
    await caller.getByRole('button', { name: /^Pay £/ }).click();
    await caller.waitForURL(/\/pay\//);
    await caller.getByRole('button', { name: /^Pay £/ }).click();
    await expect(caller.getByRole('heading', { name: 'Booking sent' })).toBeVisible();
    await expect(caller.getByText(/^Deposit paid £/)).toBeVisible();
    return reference;
  });

  await test.step('the job is in the Jobs list, marked "phone", with who took it', async () => {
    await desk.goto('/dashboard?tab=quotes');
    const job = desk.getByRole('article', { name: new RegExp(`^TQ-${reference}`) });
    await expect(job.getByLabel('From: phone')).toBeVisible({ timeout: 15_000 });
    await expect(job.getByText(`Taken by phone by ${operator.name}`)).toBeVisible();
    // The Quotes tab's list marks it too, in words beside its icon.
    const listed = desk
      .getByRole('list', { name: 'Quotes' })
      .getByRole('listitem')
      .filter({ hasText: `TQ-${reference}` });
    await expect(listed.getByText(`Taken by phone by ${operator.name}`)).toBeVisible();
  });

  const secondCaller = runMobile();
  const booked = await test.step('the operator books a second caller directly: accepted at once, the caller texted the status page', async () => {
    await desk.getByRole('link', { name: 'New quote', exact: true }).click();
    await desk.getByLabel('Pickup postcode').fill('M1 1AE');
    await desk.getByLabel('Destination postcode').fill('M4 4BF');
    // The number-plate look-up (the DVLA fake knows this plate): the vehicle in words and its type.
    await desk.getByLabel('Registration (optional)').fill('AA19 AAA');
    await desk.getByRole('button', { name: 'Look up' }).click();
    await expect(desk.getByText(/^a red Ford/i)).toBeVisible();
    await desk.getByRole('button', { name: 'Price it' }).click();
    await expect(desk.getByTestId('phone-quote-total')).toHaveText(/^£\d/);
    await desk.getByLabel('Caller’s mobile').fill(national(secondCaller));
    await desk.getByLabel('Caller’s name').fill('Sam Second');
    await desk.getByLabel('Registration', { exact: true }).fill('CD34 EFG');
    await desk.getByLabel('ETA (minutes)').fill('25');
    await desk.getByRole('button', { name: 'Book it now' }).click();
    const done = desk.getByText(/^Booked: TQ-/);
    await expect(done).toBeVisible();
    const reference = /TQ-([A-Z0-9]{9})/.exec((await done.textContent()) ?? '')?.[1];
    const [sms] = await textTo(secondCaller, '/job/');
    return { reference: reference!, jobUrl: /http\S+\/job\/[A-Za-z0-9_-]{32}/.exec(sms.body)![0] };
  });

  await test.step('a payment link texted to the second caller: they pay the deposit from it, and the job stays accepted', async () => {
    await expect(desk.getByRole('heading', { name: 'Send a payment link' })).toBeVisible();
    await desk.getByRole('button', { name: 'Text the payment link' }).click();
    await expect(desk.getByText(/^Payment link sent to /)).toBeVisible();
    const [sms] = await textTo(secondCaller, 'pay £');
    const payer = await (await browser.newContext(PHONE)).newPage();
    await payer.goto(/http\S+\/q\/[A-Za-z0-9_-]{32}/.exec(sms.body)![0]);
    await expect(payer.getByText(/^This quote is booked\. Pay £/)).toBeVisible();
    await payer.getByRole('button', { name: /^Pay £/ }).click();
    await payer.waitForURL(/\/pay\//);
    await payer.getByRole('button', { name: /^Pay £/ }).click();
    await expect(payer.getByRole('heading', { name: 'Accepted' })).toBeVisible();
    await expect(payer.getByText(/^Deposit paid £/)).toBeVisible();
  });

  await test.step('the second caller’s status page follows the driver’s steps', async () => {
    const status = await (await browser.newContext(PHONE)).newPage();
    await status.goto(booked.jobUrl);
    await expect(status.getByRole('heading', { name: 'Accepted' })).toBeVisible();
    await desk.goto('/dashboard?tab=quotes');
    const driverUrl = await desk.getByLabel(`Driver’s link for TQ-${booked.reference}`).inputValue();
    const driver = await (await browser.newContext(PHONE)).newPage();
    await driver.goto(driverUrl);
    for (const step of ['On the way', 'Arrived']) {
      await driver.getByRole('button', { name: step }).click();
      await expect(status.getByRole('heading', { name: step })).toBeVisible();
    }
  });

  await test.step('a caller for a trade account: priced on its card, refused without the PO it requires, booked on it with one', async () => {
    const account = await desk.request.post('/api/accounts', {
      data: { name: 'Leeds Motors', email: 'accounts@leeds.example', accountCode: '4010', poRequired: true, rateCard: { callOutFee: 45 } },
    });
    expect(account.ok(), await account.text()).toBe(true);
    await desk.goto('/dashboard/new-quote');
    await desk.getByLabel('Trade account').selectOption({ label: 'Leeds Motors' });
    await desk.getByLabel('Pickup postcode').fill('M1 1AE');
    await desk.getByLabel('Destination postcode').fill('M4 4BF');
    await desk.getByRole('button', { name: 'Price it' }).click();
    await expect(desk.getByRole('list', { name: 'Price lines' }).getByRole('listitem').filter({ hasText: 'Call-out Fee (account rate)' })).toContainText(
      '£45.00',
    );
    await expectNoSeriousA11yViolations(desk, 'New quote on a trade account');
    await desk.getByLabel('Caller’s mobile').fill(national(runMobile()));
    await desk.getByLabel('Caller’s name').fill('Sam Fitter');
    await desk.getByLabel('Registration', { exact: true }).fill('EF56 GHJ');
    await desk.getByRole('button', { name: 'Book it now' }).click();
    await expect(desk.getByText('This account needs a purchase-order number on every job').first()).toBeVisible();
    await desk.getByLabel('PO number').fill('PO-4411');
    await desk.getByRole('button', { name: 'Book it now' }).click();
    await expect(desk.getByText(/^Booked: TQ-/)).toBeVisible();
    await expect(desk.getByRole('heading', { name: 'Send a payment link' })).toHaveCount(0);
  });

  await test.step('the voice webhook: unsigned 403; a signed missed call texts the caller once', async () => {
    const url = `${API_ORIGIN}/api/phone/voice`;
    const missed = runMobile();
    const params = { CallSid: 'CAe2e', From: missed, To: companyE164, CallStatus: 'no-answer' };
    const post = (signature?: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) },
        body: new URLSearchParams(params).toString(),
      });
    expect((await post()).status).toBe(403);
    expect((await post(twilioSignature(SMS_AUTH_TOKEN, url, params))).status).toBe(200);
    expect((await post(twilioSignature(SMS_AUTH_TOKEN, url, params))).status).toBe(200);
    const texts = await textTo(missed, `/company/${operator.slug}`);
    // Both calls are listed; the caller was texted once.
    await desk.goto('/dashboard/new-quote');
    await expect(desk.getByRole('region', { name: 'Missed calls' }).getByRole('listitem')).toHaveCount(2);
    expect(texts).toHaveLength(1);
  });
});
