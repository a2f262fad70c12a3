// The team's dispatch in the browser (docs/product.md §23), phone-sized for the dispatcher and
// the drivers. The owner signs up; a dispatcher and two drivers are rows of the owner's company
// written straight into the server's database with the owner's password (as the API harness's
// `teammate` does: the invitations are a feature of their own), each signed in through the real
// sign-in. A booking is announced on the Pricing tab (banner, title count); the dispatcher opens
// the board and assigns driver A and a flatbed in two taps; A's open My jobs shows the job without
// a reload and A moves it through its statuses; a second job reassigned from A to B leaves A's
// screen; a third, cancelled by the motorist, says "Cancelled" on B's open page within 2 s; a job
// for tomorrow 09:00 is under "Tomorrow"; a driver calling the refund route gets 403.
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { contract } from '../api/contract';
import { E2E_DATABASE_PATH } from '../playwright.config';
import { addPhoneNumber, expectNoSeriousA11yViolations, signUpWithTrial, type Operator } from './admin-helpers';

const { companySlug: _demo, ...quoteExample } = contract.quotes.calculate.request.body.content['application/json'].example;
const PHONE = { width: 390, height: 844 };

async function book(request: APIRequestContext, slug: string, extra: Record<string, unknown> = {}) {
  const quote = await request.post('/api/quotes/calculate', { data: { ...quoteExample, companySlug: slug, ...extra } });
  expect(quote.status(), await quote.text()).toBe(200);
  const { quoteId } = (await quote.json()) as { quoteId: string };
  const booking = await request.post('/api/bookings', {
    data: { quoteId, bookingKey: randomBytes(18).toString('base64url'), name: 'Jane Motorist', phone: '07700 900123', registration: 'ab12cde' },
  });
  expect(booking.status(), await booking.text()).toBe(201);
  return { reference: quoteId, jobToken: ((await booking.json()) as { jobToken: string }).jobToken };
}

/** A person of the owner's company with `role`, written into the database as the harness does, with the owner's password. */
function addPerson(owner: Operator, role: 'dispatcher' | 'driver', name: string): string {
  const email = `${role}-${randomBytes(4).toString('hex')}@example.co.uk`;
  const db = new Database(E2E_DATABASE_PATH);
  db.pragma('busy_timeout = 5000');
  const row = db
    .prepare('select password, company_id as companyId, subscription_status as status, trial_ends_at as trialEndsAt from users where email = ?')
    .get(owner.email) as {
    password: string;
    companyId: number;
    status: string;
    trialEndsAt: string | null;
  };
  const now = new Date().toISOString();
  // The company's access is the owner's: a teammate's row carries the same subscription state.
  db.prepare(
    'insert into users (email, password, name, company_id, role, subscription_status, trial_ends_at, email_verified_at, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(email, row.password, name, row.companyId, role, row.status, row.trialEndsAt, now, now, now);
  db.close();
  return email;
}

/** A phone-sized browser of its own, signed in as `email` through the real sign-in. */
async function signedIn(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  const login = await page.request.post('/api/login', { data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  return page;
}

const londonTomorrow = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date(Date.now() + 86_400_000));

test('the office dispatches, the drivers see their own jobs live', async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  const owner = await signUpWithTrial(page);
  await addPhoneNumber(page);
  for (const [url, data] of [
    ['/api/company', { customSlug: owner.slug }],
    ['/api/booking-settings', { offerBooking: true }],
  ] as const) {
    const res = await page.request.put(url, { data });
    expect(res.ok(), await res.text()).toBe(true);
  }
  const dispatcherEmail = addPerson(owner, 'dispatcher', 'Dee Dispatcher');
  addPerson(owner, 'driver', 'Alf Driver');
  addPerson(owner, 'driver', 'Bea Driver');
  const dispatcher = await signedIn(browser, dispatcherEmail, owner.password);
  const flatbed = await dispatcher.request.post('/api/trucks', { data: { name: 'Flatbed 1', kind: 'flatbed', maxWeightKg: 3500 } });
  expect(flatbed.status(), await flatbed.text()).toBe(201);
  const people = (await (await dispatcher.request.get('/api/board')).json()) as { drivers: { id: number; name: string }[] };
  const emailOf = (name: string) => {
    const db = new Database(E2E_DATABASE_PATH, { readonly: true });
    const row = db.prepare('select email from users where name = ? and company_id = (select company_id from users where email = ?)').get(name, owner.email) as {
      email: string;
    };
    db.close();
    return row.email;
  };
  const driverA = await signedIn(browser, emailOf('Alf Driver'), owner.password);
  const driverB = await signedIn(browser, emailOf('Bea Driver'), owner.password);
  const idOf = (name: string) => people.drivers.find((d) => d.name === name)?.id ?? 0;

  await driverA.goto('/dashboard/my-jobs');
  await expect(driverA.getByText('No jobs for you today yet.', { exact: false })).toBeVisible();

  const first = await test.step('a new booking is announced on the Pricing tab', async () => {
    await dispatcher.goto('/dashboard');
    // The dispatcher's portal opens on a tab of the Driver Portal; the Pricing tab when it is offered to them.
    const pricing = dispatcher.getByRole('tab', { name: /^Pricing/ });
    await dispatcher.getByRole('tab').first().waitFor();
    if ((await pricing.count()) > 0) await pricing.click();
    const job = await book(request, owner.slug);
    await expect(dispatcher.getByRole('alert').filter({ hasText: 'New booking waiting for an answer' })).toBeVisible({ timeout: 15_000 });
    await expect(dispatcher).toHaveTitle(/^\(1\) /);
    return job;
  });

  await test.step('the board: accept, then driver A and the flatbed in two taps', async () => {
    // The banner's link, while the booking still waits for its answer.
    await dispatcher.getByRole('link', { name: 'Open the board' }).click();
    await expect(dispatcher.getByRole('heading', { name: 'Dispatch board' })).toBeVisible();
    const accepted = await dispatcher.request.post(`/api/bookings/${first.reference}/accept`, { data: { etaMinutes: 20 } });
    expect(accepted.ok(), await accepted.text()).toBe(true);
    // Answered: the banner goes, on the board as on every page: at once over the stream, or by the
    // next read (every 10 s) when the stream was refused, as it may be while the other journeys hold
    // many streams from this same address.
    await expect(dispatcher.getByRole('link', { name: 'Open the board' })).toHaveCount(0, { timeout: 25_000 });
    const card = dispatcher.getByRole('listitem').filter({ hasText: `TQ-${first.reference}` });
    await card.getByRole('button', { name: 'Assign' }).click();
    await dispatcher.getByRole('button', { name: 'Alf Driver' }).click();
    await dispatcher.getByRole('button', { name: /^Flatbed 1/ }).click();
    await expect(card).toContainText('Driver: Alf Driver');
    await expect(card).toContainText('Truck: Flatbed 1');
    await expectNoSeriousA11yViolations(dispatcher, 'the dispatch board on a phone');
  });

  await test.step('driver A’s open screen shows it without a reload, and A moves it through its statuses', async () => {
    const link = driverA.getByRole('link', { name: new RegExp(`^TQ-${first.reference}`) });
    await expect(link).toBeVisible({ timeout: 15_000 });
    await expectNoSeriousA11yViolations(driverA, 'My jobs on a phone');
    await link.click();
    for (const [button, status] of [
      ['On the way', 'On the way'],
      ['Arrived', 'Arrived'],
      ['Loaded', 'Loaded'],
      ['Completed', 'Completed'],
    ]) {
      await driverA.getByRole('button', { name: button, exact: true }).click();
      // Completing a job with a balance asks first how it was paid (the signed-in driver's page as the link's).
      if (button === 'Completed') await driverA.getByRole('button', { name: 'Cash' }).click();
      await expect(driverA.getByRole('heading', { level: 1 })).toHaveText(status);
    }
    await expect(driverA.getByText('Balance paid in cash').first()).toBeVisible();
    await driverA.goto('/dashboard/my-jobs');
  });

  await test.step('a second job reassigned from A to B leaves A’s screen', async () => {
    const second = await book(request, owner.slug);
    await dispatcher.request.post(`/api/bookings/${second.reference}/accept`, { data: { etaMinutes: 30 } });
    const toA = await dispatcher.request.post(`/api/bookings/${second.reference}/assign`, { data: { driverId: idOf('Alf Driver'), truckId: null } });
    expect(toA.ok(), await toA.text()).toBe(true);
    const onA = driverA.getByRole('link', { name: new RegExp(`^TQ-${second.reference}`) });
    await expect(onA).toBeVisible({ timeout: 15_000 });
    const card = dispatcher.getByRole('listitem').filter({ hasText: `TQ-${second.reference}` });
    await card.getByRole('button', { name: 'Reassign' }).click();
    await dispatcher.getByRole('button', { name: 'Bea Driver' }).click();
    await dispatcher.getByRole('button', { name: 'No truck' }).click();
    await expect(card).toContainText('Driver: Bea Driver');
    await expect(onA).toHaveCount(0, { timeout: 15_000 });
  });

  await test.step('the motorist cancels a third job: its driver’s open page says Cancelled within 2 s', async () => {
    const third = await book(request, owner.slug);
    await dispatcher.request.post(`/api/bookings/${third.reference}/accept`, { data: { etaMinutes: 30 } });
    await dispatcher.request.post(`/api/bookings/${third.reference}/assign`, { data: { driverId: idOf('Bea Driver'), truckId: null } });
    await driverB.goto(`/dashboard/my-jobs/${third.reference}`);
    await expect(driverB.getByRole('heading', { level: 1 })).toHaveText('Accepted');
    // The page's stream is open once the page has read the job; the cancel then reaches it.
    await driverB.waitForTimeout(500);
    const cancelled = await request.post(`/api/jobs/${third.jobToken}/cancel`);
    expect(cancelled.ok(), await cancelled.text()).toBe(true);
    await expect(driverB.getByRole('heading', { level: 1 })).toHaveText('Cancelled', { timeout: 2_000 });
  });

  await test.step('a job for tomorrow 09:00 is under Tomorrow', async () => {
    const later = await book(request, owner.slug, { urgency: 'later', preferredDate: londonTomorrow(), preferredTime: '09:00' });
    const tomorrow = dispatcher.getByRole('region', { name: 'Tomorrow' });
    await expect(tomorrow.getByText(`TQ-${later.reference}`, { exact: false })).toBeVisible({ timeout: 15_000 });
    await expect(tomorrow).toContainText('09:00');
  });

  await test.step('a driver calling the refund route gets 403', async () => {
    const refund = await driverA.request.post(`/api/bookings/${first.reference}/refund`, { data: { amount: 10 } });
    expect(refund.status()).toBe(403);
    expect(((await refund.json()) as { code: string }).code).toBe('ROLE_NOT_ALLOWED');
  });
});
