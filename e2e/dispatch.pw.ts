// The team's dispatch in the browser (docs/product.md §23), phone-sized for the dispatcher and
// the drivers. The owner signs up and invites a dispatcher and two drivers; each invitation is
// read out of the SMTP server and accepted on its own phone (the join page signs them in). A
// booking is announced on the Pricing tab (banner, title count); the dispatcher opens the board
// and assigns driver A and a flatbed in two taps; A's open My jobs shows the job without a reload,
// and A moves it through its statuses, taking a pickup photo on the way; a second job reassigned
// from A to B leaves A's screen; a third, cancelled by the motorist, says "Cancelled" on B's open
// page within 2 s; a job for tomorrow 09:00 is under "Tomorrow"; the owner's audit log names the
// dispatcher for the assignments; a driver calling the refund route gets 403.
import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { contract } from '../api/contract';
import { jpegFile } from '../api/test/images';
import { addPhoneNumber, expectNoSeriousA11yViolations, invitationLink, signUpWithTrial } from './admin-helpers';

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

/**
 * Invites `email` as `role` from the owner's session, then joins from the mail's link on a phone
 * of its own, with `name` and a password of their own: the join signs them in.
 */
async function invited(owner: Page, browser: Browser, role: 'dispatcher' | 'driver', name: string): Promise<Page> {
  const email = `${name.split(' ')[0].toLowerCase()}-${randomBytes(4).toString('hex')}@example.co.uk`;
  const invitation = await owner.request.post('/api/team/invitations', { data: { email, role } });
  expect(invitation.status(), await invitation.text()).toBe(201);
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await page.goto(await invitationLink(email));
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Choose a password').fill(`gravel-lantern-${name.split(' ')[0].toLowerCase()}-51`);
  await page.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard(\/my-jobs)?$/, { timeout: 20_000 });
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
  // The three invitations go out together; each is accepted on its own phone.
  const [dispatcher, driverA, driverB] = await Promise.all([
    invited(page, browser, 'dispatcher', 'Dee Dispatcher'),
    invited(page, browser, 'driver', 'Alf Driver'),
    invited(page, browser, 'driver', 'Bea Driver'),
  ]);
  const flatbed = await dispatcher.request.post('/api/trucks', { data: { name: 'Flatbed 1', kind: 'flatbed', maxWeightKg: 3500 } });
  expect(flatbed.status(), await flatbed.text()).toBe(201);
  const people = (await (await dispatcher.request.get('/api/board')).json()) as { drivers: { id: number; name: string }[] };
  const idOf = (name: string) => people.drivers.find((d) => d.name === name)?.id ?? 0;

  // A driver who joins lands on My jobs.
  await expect(driverA).toHaveURL(/\/dashboard\/my-jobs$/);
  await expect(driverA.getByText('No jobs for you today yet.', { exact: false })).toBeVisible();

  const first = await test.step('a new booking is announced on the Pricing tab', async () => {
    // Joining left the dispatcher on the portal. It opens on a tab of the Driver Portal; the Pricing tab when it is offered to them.
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
    // Answered: the banner goes at once, over the board's stream (the journeys' server takes many
    // streams from the one address every journey shares, playwright.config.ts).
    await expect(dispatcher.getByRole('link', { name: 'Open the board' })).toHaveCount(0);
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
      if (status === 'Arrived') {
        // The pickup photos, through the session: queued on the phone, then uploaded.
        await driverA.locator('input[data-slot="front"]').setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: jpegFile({ exif: false }) });
        await expect(driverA.getByText('Front: taken')).toBeVisible();
        await expect(driverA.getByText('All photos and signatures uploaded')).toBeVisible();
      }
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

  await test.step('the owner’s audit log names the dispatcher for the assignments, and the driver for the photo', async () => {
    const log = (await (await page.request.get('/api/audit?kind=booking-assigned')).json()) as { events: { personName: string; subject: string }[] };
    expect(log.events.filter((e) => e.subject === first.reference).map((e) => e.personName)).toEqual(['Dee Dispatcher']);
    const proof = (await (await page.request.get(`/api/bookings/${first.reference}/proof`)).json()) as { files: { slot: string; takenBy: string }[] };
    expect(proof.files.map((f) => [f.slot, f.takenBy])).toEqual([['front', 'Alf Driver']]);
  });

  await test.step('a driver calling the refund route gets 403', async () => {
    const refund = await driverA.request.post(`/api/bookings/${first.reference}/refund`, { data: { amount: 10 } });
    expect(refund.status()).toBe(403);
    expect(((await refund.json()) as { code: string }).code).toBe('ROLE_NOT_ALLOWED');
  });
});
