// Shared steps for the admin journeys: a fresh operator per test (docs/style.md #13) who signs up
// and starts the trial through the local billing checkout: through the pages in the journeys about
// signing up, through the same calls those pages make in the others.
import { expect, type Locator, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { API_ORIGIN, MESSAGES_READER } from '../playwright.config';

let counter = 0;

/** A number written in the letters a–j: a run of digits in a company name reads as a phone number, which sign-up refuses. */
const inLetters = (n: number) => String(n).replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)]);

export function uniqueOperator() {
  const id = `${inLetters(Date.now())}${inLetters(counter++)}${inLetters(Math.floor(Math.random() * 10_000))}`;
  return {
    name: 'Dana Driver',
    companyName: `Dana Recovery ${id}`,
    email: `dana-${id}@example.co.uk`,
    password: 'tow-truck-42',
    slug: `dana-${id}`,
  };
}
export type Operator = ReturnType<typeof uniqueOperator>;

export async function fillSignup(page: Page, operator: Operator) {
  await page.getByLabel('Full Name').fill(operator.name);
  await page.getByLabel('Company Name').fill(operator.companyName);
  await page.getByLabel('Email').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
}

/**
 * After sign-up the browser is on the local checkout page. Start the trial there, then come
 * back through the dashboard's payment-return path (payment_success=true&session_id=…), which
 * signs the operator in with the trial status.
 */
export async function startTrialFromCheckout(page: Page) {
  await page.waitForURL((url) => url.pathname !== '/auth-page');
  // The request, not the page's URL: the portal reads the session id and takes it out of the
  // address bar, which on a busy machine can happen before the page's load event, so a wait for
  // the URL would never see it.
  const [returned] = await Promise.all([
    page.waitForRequest((request) => request.isNavigationRequest() && /[?&]session_id=/.test(request.url())),
    page.getByRole('button', { name: /start.*trial/i }).click(),
  ]);
  const sessionId = new URL(returned.url()).searchParams.get('session_id');
  expect(sessionId).toBeTruthy();
  if (!new URL(returned.url()).pathname.startsWith('/dashboard')) {
    await page.goto(`/dashboard?payment_success=true&session_id=${encodeURIComponent(sessionId ?? '')}`);
  }
  // The first visit opens the guided set-up (docs/product.md §14); these journeys set up from the
  // portal's tabs, so they leave it as an operator would.
  await expect(page.getByRole('heading', { name: SETUP_HEADING })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Finish set-up later' }).click();
  await expect(page.getByRole('heading', { name: /Driver Portal - Manage your towing service settings and rates/ })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** The guided set-up's heading. */
export const SETUP_HEADING = /^Set up your quote page/;

/** Signs up on the sign-up page and starts the trial on the checkout page, as a new operator does. */
export async function signUpThroughTheForm(page: Page, operator = uniqueOperator()) {
  await page.goto('/auth-page?mode=signup');
  await fillSignup(page, operator);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await startTrialFromCheckout(page);
  return operator;
}

/**
 * A new operator on the trial, in the portal, for the journeys about what comes after: the sign-up
 * and the checkout's "Start trial" are the two posts their pages make (the browser's own cookie
 * jar keeps the session), so each journey spends its browser time on its own screens. The pages
 * themselves, and the guided set-up they open, are walked by the journeys that sign up
 * (signUpThroughTheForm).
 */
export async function signUpWithTrial(page: Page, operator = uniqueOperator()) {
  const signup = await page.request.post('/api/signup', {
    data: { name: operator.name, companyName: operator.companyName, email: operator.email, password: operator.password },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const { checkoutUrl } = (await signup.json()) as { checkoutUrl?: string };
  expect(checkoutUrl).toBeTruthy();
  // The checkout page's form posts from the server's own origin (whichever server this page's context talks to).
  const checkout = new URL(checkoutUrl ?? '');
  const trial = await page.request.post(checkout.href, { headers: { origin: checkout.origin }, form: {}, maxRedirects: 0 });
  expect(trial.status()).toBe(303);
  const sessionId = decodeURIComponent(checkout.pathname.split('/').pop() ?? '');
  // The guided set-up opens for whoever signed up in this browser (the sign-up page starts it):
  // here the portal opens straight away, as it does for an owner signing in elsewhere.
  await page.goto(`/dashboard?payment_success=true&session_id=${encodeURIComponent(sessionId)}`);
  await expect(page.getByRole('heading', { name: /Driver Portal - Manage your towing service settings and rates/ })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page).toHaveURL(/\/dashboard$/);
  return operator;
}

/**
 * Gives the company a phone number through the Contact Info tab, as an operator would: without a
 * phone or WhatsApp number its page quotes nobody and its URL cannot be locked (docs/product.md §14).
 */
export async function addPhoneNumber(page: Page, phone = '0161 496 0000') {
  await page.getByRole('tab', { name: 'Contact Info' }).click();
  await page.getByLabel('Phone').fill(phone);
  await page.getByRole('button', { name: 'Save Contact Info' }).click();
  await expectToast(page, 'Company settings updated successfully');
}

export async function expectToast(page: Page, title: string) {
  await expect(page.getByRole('region', { name: /Notification/ }).getByText(title, { exact: true })).toBeVisible();
}

/** docs/budgets.md: no serious or critical axe-core violations (WCAG 2.2 AA rules). */
/**
 * Adds a problem charge of the operator's own naming through the Custom Charges dialog: every
 * new company already has the ten starter problems at £0, so a journey's own problem is a custom one.
 */
export async function addCustomProblemCharge(page: Page, problem: string, amount: string) {
  await page.getByRole('button', { name: 'Add Custom Charge' }).click();
  const charge = page.getByRole('dialog', { name: 'Add Custom Charge' });
  await charge.getByLabel('Problem type').selectOption({ label: 'Custom problem...' });
  await charge.getByLabel(/^Custom problem/).fill(problem);
  await charge.getByLabel('Amount (£)').fill(amount);
  await charge.getByRole('button', { name: 'Add Custom Charge' }).click();
  await expectToast(page, 'Custom charge added successfully');
}

export async function expectNoSeriousA11yViolations(page: Page, context: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = serious.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `axe violations on ${context}`).toEqual([]);
}

/** Records every CSP violation the page reports, as events and as console messages. */
export async function watchCsp(page: Page) {
  const console: string[] = [];
  page.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy/i.test(message.text())) console.push(message.text());
  });
  // Init scripts run through the DevTools protocol, not as page script, so CSP does not stop them.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`),
    );
  });
  return async function expectNoViolations(where: string) {
    const events = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    expect({ events, console }, `CSP violations on ${where}`).toEqual({ events: [], console: [] });
  };
}

/** A motorist's quote on a quote form: SW1A 1AA to EC1A 1BB, the first choice of every list. */
export async function quoteWithFirstChoices(form: Locator) {
  await form.getByLabel('Pickup Location').fill('sw1a1aa');
  await form.getByLabel('Destination').fill('ec1a 1bb');
  await form.getByLabel('Vehicle Type').selectOption({ index: 1 });
  await form.getByLabel('Gearbox').selectOption({ index: 1 });
  await form.getByLabel('Rolling Status').selectOption({ index: 1 });
  await form.getByLabel('Problem Description').selectOption({ index: 1 });
  await form.getByRole('button', { name: 'Calculate Quote' }).click();
  await expect(form.getByRole('heading', { name: 'Quote Ready!' })).toBeVisible();
}

interface SinkMail {
  to: string[];
  subject: string;
  text: string;
}

/** The invitation link in the newest mail to `to`, once the mail server has it. */
export async function invitationLink(to: string): Promise<string> {
  const pattern = new RegExp(`${API_ORIGIN.replace(/[.:/]/g, '\\$&')}/join/[A-Za-z0-9_-]+`);
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = ((await (await fetch(`${MESSAGES_READER}/mail`)).json()) as SinkMail[]).filter(
          (m) => m.to.includes(to) && /^You are invited to join/.test(m.subject),
        );
        link = mails.at(-1)?.text.match(pattern)?.[0];
        return link;
      },
      { message: `an invitation mail to ${to}`, timeout: 30_000 },
    )
    .toBeTruthy();
  return link ?? '';
}
