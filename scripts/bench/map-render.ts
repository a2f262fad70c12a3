// The motorist's status page with the driver on its map (docs/budgets.md "The status page's map"):
// the production bundle on loopback with MAP_TILES_URL pointing at the fake tile server
// (api/test/message-fakes.ts, also on loopback), one job booked, accepted and on the way with the
// driver's position sent. The page is opened in a phone-sized Chromium (390×844, Debian's headless
// shell) with its CPU slowed 4× and Lighthouse's Slow 4G network, both by the DevTools protocol,
// its cache emptied before every load: a motorist opening the texted link for the first time.
// Timed in the page's own clock from navigation until the map's first tile is drawn and the
// driver's marker is on it (and, beside it, by the bench around Playwright), with the page's
// largest contentful paint. Before the position is sent, one load
// records what the page fetches without one: the map's chunk and tiles must not be among them.
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { chromium } from '@playwright/test';
import { JOB_HEADLINES } from '#shared/bookings';
import { contract } from '../../api/contract';
import { startTileServer } from '../../api/test/message-fakes';
import { spawnServer } from './server-process';

export const MAP_RUNS = 5;
export const MAP_BUDGET_MS = 2500;
/** Slow 4G as Lighthouse's mobile profile has it (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up). */
export const MAP_NETWORK = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 } as const;
/** Debian's Chromium headless shell, as the browser journeys use it; CHROMIUM_PATH overrides. */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export interface MapRenderFigures {
  /** In the page's own clock: navigation start to the first tile drawn with the driver's marker on the map, each cold load. */
  runsMs: number[];
  /** The same loads timed by the bench around Playwright (its round trips to a loaded browser included). */
  wallMs: number[];
  /** The page's largest contentful paint in each of those loads (null where Chromium reported none). */
  lcpMs: (number | null)[];
  /** Tiles the fake server served over all the timed loads. */
  tilesServed: number;
  /** The requests of one load before the driver's position was sent (paths, hashes dropped). */
  withoutPosition: string[];
  /** The requests of the last timed load (paths, hashes dropped). */
  withPosition: string[];
}

/**
 * Put in before the page's own scripts: records in `window.mapReadyAt` the moment a drawn tile and
 * the driver's marker are both in the page, in the page's clock (navigation start = 0).
 */
const MAP_READY_SCRIPT = `(() => {
  const ready = () => document.querySelector('.leaflet-tile-loaded') && document.querySelector('path.leaflet-interactive');
  const watch = new MutationObserver(() => {
    if (!ready()) return;
    window.mapReadyAt = performance.now();
    watch.disconnect();
  });
  watch.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
})();`;

/** A request's path with the build hash taken out of an asset's name (JobMap-i7CXbZBq.js → JobMap.js) and a token out of a page's or a read's. */
const pathOf = (url: string) => new URL(url).pathname.replace(/-[\w-]{8}\.(js|css)$/, '.$1').replace(/^\/(job|api\/jobs)\/[\w-]+/, '/$1/{token}');

export async function measureMapRender(script: string, chromiumPath = process.env.CHROMIUM_PATH ?? HEADLESS_SHELL): Promise<MapRenderFigures> {
  const tiles = await startTileServer();
  const server = await spawnServer({
    script,
    env: { MAP_TILES_URL: tiles.tilesUrl, MAP_ATTRIBUTION: '© Bench tiles', BOOKING_RATE_LIMIT: '0', SIGNUP_RATE_LIMIT: '0' },
  });
  const send = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: server.url, ...(token ? { 'x-auth-token': token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  try {
    const email = `map-${randomBytes(4).toString('hex')}@example.com`;
    const owner = await send('POST', '/api/signup', { name: 'Map Owner', email, password: 'map-bench-password-42', companyName: 'Map Bench Recovery' });
    const token = String(owner.authToken);
    const db = new Database(server.databasePath);
    db.pragma('busy_timeout = 5000');
    db.prepare("update users set subscription_status = 'trialing', trial_ends_at = ? where email = ?").run(
      new Date(Date.now() + 3 * 86_400_000).toISOString(),
      email,
    );
    db.close();
    await send('PUT', '/api/company', { phone: '0161 496 0000' }, token);
    await send('PUT', '/api/booking-settings', { offerBooking: true }, token);
    const example = {
      ...contract.quotes.calculate.request.body.content['application/json'].example,
      companySlug: undefined,
      companyId: Number(owner.companyId),
    };
    const quote = await send('POST', '/api/quotes/calculate', example);
    const booked = await send('POST', '/api/bookings', {
      quoteId: quote.quoteId,
      bookingKey: randomBytes(18).toString('base64url'),
      name: 'Jane Motorist',
      phone: '07700 900123',
      registration: 'AB12CDE',
    });
    const jobUrl = String(booked.jobUrl);
    const reference = String((booked.job as { reference: string }).reference);
    const accepted = await send('POST', `/api/bookings/${reference}/accept`, { etaMinutes: 25, driverName: 'Sam' }, token);
    const driverToken = String(accepted.driverUrl).split('/').at(-1);
    await send('POST', `/api/driver/${driverToken}/status`, { status: 'on_the_way' });

    const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      // In the page, from the start: the moment a drawn tile and the driver's marker are both there,
      // in the page's clock (navigation start = 0), without Playwright's round trips.
      // As a string: a function would be passed through tsx's transform, whose helpers the page lacks.
      await context.addInitScript(MAP_READY_SCRIPT);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await cdp.send('Network.emulateNetworkConditions', MAP_NETWORK);
      const requests = () =>
        page.evaluate(() => [location.href, ...performance.getEntriesByType('resource').map((e) => e.name)]).then((urls) => urls.map(pathOf));

      // No position yet: the page shows its ETA, and neither the map's chunk nor a tile is fetched.
      await page.goto(jobUrl);
      await page.getByRole('heading', { name: JOB_HEADLINES.on_the_way }).first().waitFor({ timeout: 60_000 });
      // Its live stream stays open, so the network is never idle: a moment for anything else it would fetch.
      await page.waitForTimeout(2000);
      const withoutPosition = await requests();

      await send('POST', `/api/driver/${driverToken}/position`, { lat: 53.4808, lng: -2.2426 });
      const load = async () => {
        await cdp.send('Network.clearBrowserCache');
        const started = performance.now();
        await page.goto(jobUrl);
        await page.locator('.leaflet-tile-loaded').first().waitFor({ state: 'visible', timeout: 60_000 });
        await page.locator('path.leaflet-interactive').first().waitFor({ state: 'visible', timeout: 60_000 });
        const wall = Math.round(performance.now() - started);
        const ms = Math.round(
          await page.waitForFunction(() => (window as unknown as { mapReadyAt?: number }).mapReadyAt).then((h) => h.jsonValue() as Promise<number>),
        );
        const lcp = await page.evaluate(
          () =>
            new Promise<number | null>((resolve) => {
              new PerformanceObserver((list) => resolve(Math.round(list.getEntries().at(-1)?.startTime ?? 0) || null)).observe({
                type: 'largest-contentful-paint',
                buffered: true,
              });
              setTimeout(() => resolve(null), 2000);
            }),
        );
        return { ms, wall, lcp };
      };
      // A first load warms the server (its prepared statements, the bundle's files in the page cache); the browser's cache is emptied before each.
      await load();
      const runsMs: number[] = [];
      const wallMs: number[] = [];
      const lcpMs: (number | null)[] = [];
      const servedBefore = tiles.served();
      for (let run = 0; run < MAP_RUNS; run += 1) {
        const { ms, wall, lcp } = await load();
        runsMs.push(ms);
        wallMs.push(wall);
        lcpMs.push(lcp);
      }
      return { runsMs, wallMs, lcpMs, tilesServed: tiles.served() - servedBefore, withoutPosition, withPosition: await requests() };
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
    await tiles.close();
  }
}
