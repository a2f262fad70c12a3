// The operator's side of bookings against the real server (docs/product.md, "Bookings"): two
// motorists book quotes through the public API while the Quotes tab is open; both appear in the
// Jobs card without a reload, requested first with the time left; the operator accepts one with
// a 25-minute ETA and a driver, copies the driver's link (which opens that job's driver page), and
// declines the other with a reason; the motorists' own pages say so. On a desk and on a phone,
// with no serious axe finding.
import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { contract } from '../api/contract';
import { addPhoneNumber, expectNoSeriousA11yViolations, signUpWithTrial } from './admin-helpers';

const { companySlug: _demo, ...quoteExample } = contract.quotes.calculate.request.body.content['application/json'].example;

/** A motorist's quote and booking, as the widget sends them: answers the reference and the status page's token. */
async function book(request: APIRequestContext, slug: string, name: string) {
  const quote = await request.post('/api/quotes/calculate', { data: { ...quoteExample, companySlug: slug } });
  expect(quote.status(), await quote.text()).toBe(200);
  const { quoteId } = (await quote.json()) as { quoteId: string };
  const booking = await request.post('/api/bookings', {
    data: {
      quoteId,
      bookingKey: randomBytes(18).toString('base64url'),
      name,
      phone: '07700 900123',
      registration: 'ab12cde',
      note: 'Hard shoulder, northbound',
    },
  });
  expect(booking.status(), await booking.text()).toBe(201);
  const { jobToken } = (await booking.json()) as { jobToken: string };
  return { reference: quoteId, jobToken };
}

const jobView = async (request: APIRequestContext, token: string) => (await (await request.get(`/api/jobs/${token}`)).json()) as Record<string, unknown>;

for (const [label, viewport] of [
  ['on a desk', { width: 1280, height: 800 }],
  ['on a phone (390×844)', { width: 390, height: 844 }],
] as const) {
  test(`the operator accepts one booking and declines another, ${label}`, async ({ page, request, context }) => {
    // Sign-up, a number in Contact Info, two bookings and axe on two screens: more than one screen's minute.
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const operator = await signUpWithTrial(page);
    // A page that quotes has a number to reach the operator by.
    await addPhoneNumber(page);
    const setup = await page.request.put('/api/company', { data: { customSlug: operator.slug } });
    expect(setup.ok(), await setup.text()).toBe(true);

    await page.getByRole('tab', { name: 'Quotes' }).click();
    await expect(page.getByText('No bookings waiting for an answer.')).toBeVisible();

    // Booked while the tab is open: the card finds them by itself.
    const first = await book(request, operator.slug, 'Jane Motorist');
    const second = await book(request, operator.slug, 'Omar Stranded');
    await expect(page.getByText('2 bookings waiting for your answer.')).toBeVisible({ timeout: 15_000 });
    const job = (reference: string) => page.getByRole('article', { name: new RegExp(`^TQ-${reference}`) });
    await expect(job(first.reference).getByRole('timer')).toHaveText(/^Answer within (10|9):\d\d$/);
    await expect(job(first.reference).getByRole('link', { name: '07700 900123' })).toHaveAttribute('href', 'tel:+447700900123');
    await expect(job(first.reference)).toContainText('AB12 CDE');
    await expectNoSeriousA11yViolations(page, `the Jobs card with two bookings waiting, ${label}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await test.step('accepts the first with a 25-minute ETA and a driver', async () => {
      const accept = page.getByRole('form', { name: `Accept TQ-${first.reference}` });
      await accept.getByLabel('ETA (minutes)').fill('25');
      await accept.getByLabel('Driver’s name (optional)').fill('Sam');
      await accept.getByRole('button', { name: 'Accept' }).click();
      await expect(job(first.reference).getByText(/^Expected at \d\d:\d\d \(25 min\) · Driver: Sam$/)).toBeVisible();
      await expect(accept).toHaveCount(0);
      await expect(page.getByText('1 booking waiting for your answer.')).toBeVisible();
      expect(await jobView(request, first.jobToken)).toMatchObject({ status: 'accepted', driverName: 'Sam', eta: { minutes: 25 } });
    });

    await test.step('copies the driver’s link, which opens this job’s driver page', async () => {
      const link = job(first.reference).getByLabel(`Driver’s link for TQ-${first.reference}`);
      const url = await link.inputValue();
      expect(url).toMatch(/\/driver\/[A-Za-z0-9_-]{32}$/);
      await job(first.reference).getByRole('button', { name: 'Copy driver link' }).click();
      await expect(job(first.reference).getByText('Copied.')).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      const share = job(first.reference).getByRole('link', { name: 'Send by WhatsApp' });
      expect(new URL((await share.getAttribute('href')) ?? '').searchParams.get('text')).toContain(url);
      const driver = await request.get(`/api/driver/${url.split('/').pop()}`);
      expect(driver.status()).toBe(200);
      expect(await driver.json()).toMatchObject({ reference: first.reference, status: 'accepted', customerName: 'Jane Motorist' });
    });

    await test.step('declines the second with a reason; it moves to the finished jobs with its history', async () => {
      const decline = page.getByRole('form', { name: `Decline TQ-${second.reference}` });
      await decline.getByRole('button', { name: 'Decline' }).click();
      await expect(decline.getByText('Reason is required')).toBeVisible();
      await decline.getByLabel('Reason for declining').fill('No truck free tonight');
      await decline.getByRole('button', { name: 'Decline' }).click();
      await expect(page.getByText('No bookings waiting for an answer.')).toBeVisible();
      expect(await jobView(request, second.jobToken)).toMatchObject({ status: 'declined', declineReason: 'No truck free tonight' });
      await page.getByText(/^Finished in the last 24 hours/).click();
      const finished = job(second.reference);
      await expect(finished.getByText('Declined: No truck free tonight')).toBeVisible();
      await finished.getByText('History', { exact: true }).click();
      await expect(finished.getByRole('list', { name: `History of TQ-${second.reference}` }).getByRole('listitem')).toHaveText([/Requested$/, /Declined$/]);
      await expectNoSeriousA11yViolations(page, `the Jobs card after the answers, ${label}`);
    });
  });
}
