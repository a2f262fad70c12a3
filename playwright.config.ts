// Browser journeys in Debian's Chromium (its headless shell where installed) against the real server: the production bundle,
// dist/server.mjs, that `npm test` builds first (run `npm run build` before `npx playwright test`).
// Two workers, a test file each at a time: every journey signs up its own operator and reads
// only its own texts and mail from the fakes. Journeys that move the server's clock
// (*.clock.pw.ts, through TEST_CLOCK_CONTROL) have a server and database of their own, so they run
// beside the others. Two origins: the API/app on :4173 and a plain static server for examples/ on
// :4174, so the widget is always tested embedded on a site of another origin.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { FAKE_DVLA_KEY, dvlaFakeUrl } from './api/test/dvla-fake';
import { messageFakeEnv, messageFakePorts } from './api/test/message-fakes';

// Debian's headless shell (package chromium-headless-shell, what Playwright itself runs headless) where
// installed: the same Blink and V8 without the browser's UI and GPU processes, about half the CPU of
// the full browser per journey on the 2-core runner. The full browser otherwise.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const chromium = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
if (!existsSync('dist/server.mjs')) {
  throw new Error('dist/server.mjs not found: the journeys run against the built server. Run "npm run build" first.');
}
if (!existsSync(chromium)) {
  throw new Error(`Chromium not found at ${chromium}. Install it with "apt-get install -y chromium-headless-shell" (or chromium) or set CHROMIUM_PATH.`);
}

// E2E_PORT moves the servers (API on it, examples on it + 1, the DVLA fake on it + 2, the SMS and
// SMTP fakes from it + 3, api/test/message-fakes.ts) so two checkouts can run at once.
const apiPort = Number(process.env.E2E_PORT ?? 4173);
export const API_ORIGIN = `http://127.0.0.1:${apiPort}`;
export const EXAMPLES_ORIGIN = `http://127.0.0.1:${apiPort + 1}`;
/** The DVLA fake (api/test/dvla-fake.ts) the server looks number plates up in. */
const dvlaPort = apiPort + 2;
/** The SMS provider and SMTP server the API sends to, and where the journeys read what they received. */
const messagesPort = apiPort + 3;
export const MESSAGES_READER = `http://127.0.0.1:${messageFakePorts(messagesPort).reader}`;
// The workers load this file again: the runner's data directory reaches them through the
// environment, so a journey can open the server's database (e2e/golive.pw.ts lets a period run out).
const dataDir = (process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'recovery-e2e-')));
export const E2E_DATABASE_PATH = path.join(dataDir, 'e2e.db');
/**
 * The clock journeys' own server (its own database): they move its clock (TEST_CLOCK_CONTROL,
 * api/platform/test-clock.ts), which would move every other journey's time on a shared server, so
 * they get one of their own and run beside the others instead of alone after them.
 */
const clockPort = apiPort + 6;
export const CLOCK_ORIGIN = `http://127.0.0.1:${clockPort}`;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 2,
  projects: [
    { name: 'journeys', testMatch: '**/*.pw.ts', testIgnore: '**/*.clock.pw.ts' },
    // The server's clock is the whole server's: moved on while another journey runs, it would
    // shift that journey's times too, so these run against a server of their own.
    { name: 'clock', testMatch: '**/*.clock.pw.ts', use: { baseURL: CLOCK_ORIGIN } },
  ],
  // One retry in CI only: a loaded 2-core runner can starve a browser step; locally a flake should show.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'list' : 'line',
  use: {
    baseURL: API_ORIGIN,
    trace: 'off',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: 'node --enable-source-maps dist/server.mjs',
      url: `${API_ORIGIN}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        PUBLIC_URL: API_ORIGIN,
        DATABASE_PATH: E2E_DATABASE_PATH,
        BILLING_MODE: 'local',
        QUOTE_RATE_LIMIT: '0',
        // The journeys book from one address too.
        BOOKING_RATE_LIMIT: '0',
        // The journeys sign up a fresh operator each from one address.
        SIGNUP_RATE_LIMIT: '0',
        LOG_LEVEL: 'silent',
        DVLA_API_KEY: FAKE_DVLA_KEY,
        DVLA_API_URL: dvlaFakeUrl(dvlaPort),
        ...messageFakeEnv(messagesPort),
        MAIL_FROM: 'RecoveryQuote <alerts@example.com>',
        // The status page's map draws on the fake tile server beside the message fakes (api/test/message-fakes.ts).
        MAP_TILES_URL: `${MESSAGES_READER}/tiles/{z}/{x}/{y}.png`,
        MAP_ATTRIBUTION: '© Test tiles',
      },
    },
    {
      command: 'node --enable-source-maps dist/server.mjs',
      url: `${CLOCK_ORIGIN}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(clockPort),
        HOST: '127.0.0.1',
        PUBLIC_URL: CLOCK_ORIGIN,
        DATABASE_PATH: path.join(dataDir, 'e2e-clock.db'),
        BILLING_MODE: 'local',
        QUOTE_RATE_LIMIT: '0',
        // The journeys book from one address too.
        BOOKING_RATE_LIMIT: '0',
        // The journeys sign up a fresh operator each from one address.
        SIGNUP_RATE_LIMIT: '0',
        LOG_LEVEL: 'silent',
        // POST /__test/clock moves the server's clock (e2e/bookings.clock.pw.ts lets a booking's response time pass).
        TEST_CLOCK_CONTROL: '1',
        DVLA_API_KEY: FAKE_DVLA_KEY,
        DVLA_API_URL: dvlaFakeUrl(dvlaPort),
        ...messageFakeEnv(messagesPort),
        MAIL_FROM: 'RecoveryQuote <alerts@example.com>',
      },
    },
    {
      command: `tsx api/test/message-fakes.ts ${messagesPort}`,
      url: `${MESSAGES_READER}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `tsx api/test/dvla-fake.ts ${dvlaPort}`,
      url: `http://127.0.0.1:${dvlaPort}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `tsx scripts/serve-static.ts examples ${apiPort + 1}`,
      url: `${EXAMPLES_ORIGIN}/basic.html`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { API_ORIGIN },
    },
  ],
});
