// Proof of condition end to end (docs/product.md §24), on a phone with a throttled network that
// drops: the operator requires the pickup photos before Loaded; the driver takes the four (files
// fed to the camera inputs), the last while offline, so it waits on the phone and goes up by itself
// when the network returns; the motorist signs on the driver's screen; Loaded and Completed follow;
// the motorist's status page shows the photos; the job report PDF holds the four photos, the
// signature and the times (pdftotext and pdfimages). Run twice: against the journeys' server (files
// on disk), and against a server of its own with S3_BUCKET set, whose files land in a fake S3
// server started here. With no serious axe finding on the driver's and the motorist's pages.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { contract } from '../api/contract';
import { startS3Fake, type S3Fake } from '../api/test/s3-fake';
import { API_ORIGIN } from '../playwright.config';
import { addPhoneNumber, expectNoSeriousA11yViolations, signUpWithTrial } from './admin-helpers';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, geolocation: { latitude: 52.4862, longitude: -1.8904 }, permissions: ['geolocation'] };
const { companySlug: _demo, ...quoteExample } = contract.quotes.calculate.request.body.content['application/json'].example;
/** A roadside phone's signal: slow, with a long round trip. */
const POOR_SIGNAL = { offline: false, latency: 300, downloadThroughput: 400 * 1024, uploadThroughput: 200 * 1024 };

/** What a phone's camera gives: a JPEG of `width`×`height`, drawn in the browser so it decodes like a real one. */
async function cameraJpeg(browser: Browser, label: string): Promise<Buffer> {
  const page = await browser.newPage();
  const dataUrl = await page.evaluate((text) => {
    const canvas = document.createElement('canvas');
    canvas.width = 2400;
    canvas.height = 1800;
    const context = canvas.getContext('2d')!;
    const gradient = context.createLinearGradient(0, 0, 2400, 1800);
    gradient.addColorStop(0, '#1e3a8a');
    gradient.addColorStop(1, '#f59e0b');
    context.fillStyle = gradient;
    context.fillRect(0, 0, 2400, 1800);
    context.fillStyle = '#fff';
    context.font = 'bold 200px sans-serif';
    context.fillText(text, 200, 900);
    return canvas.toDataURL('image/jpeg', 0.9);
  }, label);
  await page.close();
  return Buffer.from(dataUrl.split(',')[1], 'base64');
}

async function journey(browser: Browser, origin: string) {
  // The operator: signs up, requires the pickup photos before Loaded.
  const desk = await browser.newContext({ baseURL: origin });
  const portal = await desk.newPage();
  const operator = await signUpWithTrial(portal);
  await addPhoneNumber(portal);
  expect((await portal.request.put('/api/company', { data: { customSlug: operator.slug } })).ok()).toBe(true);
  const settings = await portal.request.put('/api/proof-settings', { data: { photosBeforeLoaded: true } });
  expect(settings.ok(), await settings.text()).toBe(true);

  // A motorist books; the operator accepts.
  const quote = await portal.request.post('/api/quotes/calculate', { data: { ...quoteExample, companySlug: operator.slug } });
  const { quoteId } = (await quote.json()) as { quoteId: string };
  const booking = await portal.request.post('/api/bookings', {
    data: { quoteId, bookingKey: randomBytes(18).toString('base64url'), name: 'Jane Motorist', phone: '07700 900123', registration: 'ab12cde' },
  });
  expect(booking.status(), await booking.text()).toBe(201);
  const { jobToken } = (await booking.json()) as { jobToken: string };
  const accepted = await portal.request.post(`/api/bookings/${quoteId}/accept`, { data: { etaMinutes: 20, driverName: 'Sam' } });
  expect(accepted.ok(), await accepted.text()).toBe(true);
  const driverUrl = ((await accepted.json()) as { driverUrl: string }).driverUrl;

  // The driver's phone, on a poor signal.
  const phone = await browser.newContext({ ...PHONE, baseURL: origin });
  const driver = await phone.newPage();
  const cdp = await phone.newCDPSession(driver);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', POOR_SIGNAL);
  await driver.goto(new URL(driverUrl).pathname);
  const next = (name: string) => driver.getByRole('button', { name, exact: true });
  await next('On the way').click();
  await next('Arrived').click();
  await expect(driver.getByRole('heading', { name: 'Pickup photos' })).toBeVisible();
  await expect(driver.getByText('Take the four pickup photos first: front, rear, left and right.')).toBeVisible();
  await expect(next('Loaded')).toBeDisabled();
  await expectNoSeriousA11yViolations(driver, 'the driver’s page at pickup, on a phone');

  const camera = (slot: string) => driver.locator(`input[type="file"][capture="environment"][data-slot="${slot}"]`);
  await test.step('takes three photos on a poor signal; they go up in the background', async () => {
    for (const slot of ['front', 'rear', 'left']) {
      await camera(slot).setInputFiles({ name: `${slot}.jpg`, mimeType: 'image/jpeg', buffer: await cameraJpeg(browser, slot) });
      await expect(driver.getByText(new RegExp(`^${slot === 'left' ? 'Left side' : slot[0].toUpperCase() + slot.slice(1)}: taken$`))).toBeVisible();
    }
    await expect(driver.getByRole('status').filter({ hasText: 'All photos and signatures uploaded' })).toBeVisible({ timeout: 30_000 });
  });

  await test.step('takes the fourth with no signal: it waits on the phone, and Loaded is offered all the same', async () => {
    await cdp.send('Network.emulateNetworkConditions', { ...POOR_SIGNAL, offline: true });
    await camera('right').setInputFiles({ name: 'right.jpg', mimeType: 'image/jpeg', buffer: await cameraJpeg(browser, 'right') });
    await expect(driver.getByRole('status').filter({ hasText: '1 photo or signature waiting to upload' })).toBeVisible();
    await expect(next('Loaded')).toBeEnabled();
    // Still waiting a while later: nothing can go.
    await driver.waitForTimeout(2_500);
    await expect(driver.getByRole('status').filter({ hasText: '1 photo or signature waiting to upload' })).toBeVisible();
  });

  await test.step('the network returns and the photo goes up by itself', async () => {
    await cdp.send('Network.emulateNetworkConditions', POOR_SIGNAL);
    await expect(driver.getByRole('status').filter({ hasText: 'All photos and signatures uploaded' })).toBeVisible({ timeout: 30_000 });
  });

  await test.step('the motorist signs on the driver’s screen', async () => {
    const pad = driver.getByRole('img', { name: 'Signature box: sign here with a finger' });
    await pad.scrollIntoViewIfNeeded();
    const box = (await pad.boundingBox())!;
    await driver.mouse.move(box.x + 20, box.y + box.height * 0.7);
    await driver.mouse.down();
    for (let i = 1; i <= 12; i += 1) await driver.mouse.move(box.x + 20 + i * 22, box.y + box.height * (0.7 - 0.4 * Math.abs(Math.sin(i / 2))));
    await driver.mouse.up();
    await driver.getByLabel('Name of the person signing').fill('Jane Motorist');
    await driver.getByRole('button', { name: 'Save signature' }).click();
    await expect(driver.getByText('Signature saved. It uploads by itself.')).toBeVisible();
    await expect(driver.getByRole('status').filter({ hasText: 'All photos and signatures uploaded' })).toBeVisible({ timeout: 30_000 });
  });

  await next('Loaded').click();
  await expect(driver.getByRole('heading', { name: 'Drop-off photos' })).toBeVisible();
  await next('Completed').click();
  // Nothing was paid at booking: completing asks how the price was paid.
  await driver.getByRole('button', { name: 'Cash' }).click();
  await expect(driver.getByRole('heading', { name: 'Completed', level: 1 })).toBeVisible();

  // The motorist's status page shows the photos and the report.
  const motorist = await (await browser.newContext({ ...PHONE, baseURL: origin })).newPage();
  await motorist.goto(`/job/${jobToken}`);
  const gallery = motorist.getByRole('region', { name: 'Photos and condition' });
  await expect(gallery.getByRole('img')).toHaveCount(5);
  for (const name of [/^Front, /, /^Rear, /, /^Left side, /, /^Right side, /, /^Signature of Jane Motorist, /]) {
    await expect(gallery.getByRole('img', { name })).toBeVisible();
  }
  await expect.poll(() => gallery.getByRole('img').evaluateAll((images) => images.every((i) => (i as HTMLImageElement).naturalWidth > 0))).toBe(true);
  await expectNoSeriousA11yViolations(motorist, 'the status page with the photos, on a phone');

  const reportUrl = await gallery.getByRole('link', { name: 'Download the job report (PDF)' }).getAttribute('href');
  const report = await motorist.request.get(reportUrl!);
  expect(report.status()).toBe(200);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'proof-report-')), 'report.pdf');
  writeFileSync(file, await report.body());
  const words = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  for (const expected of [
    'Job report',
    `TQ-${quoteId}`,
    'Pickup',
    'Front',
    'Rear',
    'Left side',
    'Right side',
    'Signature',
    'Jane Motorist',
    'Times',
    'Arrived',
    'Loaded',
    'Completed',
  ]) {
    expect(words, expected).toContain(expected);
  }
  expect(words).toMatch(/\d{1,2} \w+ \d{4}, \d\d:\d\d/);
  const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .slice(2)
    .filter((line) => line.trim().split(/\s+/)[2] === 'image');
  // The four photos' thumbnails and the signature.
  expect(images).toHaveLength(5);
  await Promise.all([desk.close(), phone.close(), motorist.context().close()]);
}

test('on a phone with a dropping signal, the photos and the signature reach the status page and the job report', async ({ browser }) => {
  test.setTimeout(150_000);
  await journey(browser, API_ORIGIN);
});

test.describe('with S3_BUCKET set', () => {
  let s3: S3Fake;
  let server: ChildProcess;
  const port = Number(new URL(API_ORIGIN).port) + 7;
  const origin = `http://127.0.0.1:${port}`;

  test.beforeAll(async () => {
    s3 = await startS3Fake();
    const dir = mkdtempSync(path.join(tmpdir(), 'proof-s3-e2e-'));
    server = spawn(process.execPath, ['--enable-source-maps', 'dist/server.mjs'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: origin,
        DATABASE_PATH: path.join(dir, 'e2e-s3.db'),
        UPLOADS_PATH: path.join(dir, 'uploads'),
        BILLING_MODE: 'local',
        QUOTE_RATE_LIMIT: '0',
        BOOKING_RATE_LIMIT: '0',
        SIGNUP_RATE_LIMIT: '0',
        LOG_LEVEL: 'silent',
        ...s3.env(),
      },
      stdio: 'ignore',
    });
    await expect
      .poll(
        () =>
          fetch(`${origin}/healthz`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 30_000 },
      )
      .toBe(200);
  });

  test.afterAll(async () => {
    server?.kill('SIGTERM');
    await s3?.close();
  });

  test('the same journey stores the files in the S3-compatible store', async ({ browser }) => {
    test.setTimeout(150_000);
    await journey(browser, origin);
    // Four photos and the signature, each as uploaded and as shown, the photos' four thumbnails, and
    // the job report issued at completion.
    expect(s3.objects.size).toBe(15);
    expect([...s3.objects.values()].filter((o) => o.contentType === 'application/pdf')).toHaveLength(1);
    expect([...s3.objects.values()].filter((o) => o.contentType === 'image/png')).toHaveLength(2);
  });
});
