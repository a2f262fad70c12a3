// The account an operator can trust (docs/security.md, Accounts), in Chromium against the real server and a
// real SMTP server (api/test/message-fakes.ts, started by playwright.config.ts): sign up, verify the
// address with the link from the mail, forget the password and reset it with the link from the
// next mail (which ends the session of another browser), then change it in the portal.
import { expect, test, type Page } from '@playwright/test';
import { API_ORIGIN, MESSAGES_READER } from '../playwright.config';
import { expectNoSeriousA11yViolations, expectToast, signUpThroughTheForm } from './admin-helpers';

interface SinkMail {
  to: string[];
  subject: string;
  text: string;
}

/** The link of `path` in the newest mail to `to` whose subject matches, once the mail server has it. */
async function linkFromMail(to: string, subject: RegExp, path: '/verify-email/' | '/reset-password/'): Promise<string> {
  const pattern = new RegExp(`${API_ORIGIN.replace(/[.:/]/g, '\\$&')}${path}[A-Za-z0-9_-]+`);
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await fetch(`${MESSAGES_READER}/mail`);
        const mails = ((await res.json()) as SinkMail[]).filter((m) => m.to.some((r) => r.toLowerCase() === to.toLowerCase()) && subject.test(m.subject));
        link = mails.at(-1)?.text.match(pattern)?.[0];
        return link;
      },
      { message: `a mail to ${to} matching ${subject}`, timeout: 30_000 },
    )
    .toBeTruthy();
  return link ?? '';
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/auth-page?mode=signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

const portalHeading = (page: Page) => page.getByRole('heading', { name: /Driver Portal - Manage your towing service settings and rates/ });

test('sign up → verify from the mail → forgot → reset from the mail ends other sessions → change password', async ({ page, browser }) => {
  test.setTimeout(150_000);
  const operator = await signUpThroughTheForm(page);
  const banner = page.getByRole('region', { name: 'Verify your email address' });

  await test.step('until the address is verified the portal says so', async () => {
    await expect(banner).toBeVisible();
    await expect(banner.getByRole('button', { name: 'Resend' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'the portal with the verify banner');
  });

  await test.step('the link in the verification mail verifies the address and the banner goes', async () => {
    const link = await linkFromMail(operator.email, /^Confirm your email address/, '/verify-email/');
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Email address verified' })).toBeVisible();
    await expect(page.getByText(operator.email)).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'the verified page');
    await page.getByRole('link', { name: 'Go to Driver Portal' }).click();
    await expect(portalHeading(page)).toBeVisible();
    await expect(banner).toHaveCount(0);
  });

  // Another browser signed in with the old password: the reset must end its session.
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await signIn(other, operator.email, operator.password);
  await expect(portalHeading(other)).toBeVisible({ timeout: 20_000 });

  const newPassword = 'winch-cable-77';
  await test.step('forgot password: the same answer, then a reset link by mail', async () => {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    // Signing out ends on the landing page once the server has answered: going elsewhere before
    // that races the app's own navigation, which aborts this one (net::ERR_ABORTED).
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/auth-page?mode=forgot');
    await page.getByLabel('Email').fill(operator.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByText(/If an account uses this email address, we have sent it a link/)).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'the forgot password page');

    const link = await linkFromMail(operator.email, /^Reset your .* password$/, '/reset-password/');
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'the reset password page');
    // The common-password list refuses under the field before anything is sent.
    await page.getByLabel('New password').fill('baseball');
    await page.getByRole('button', { name: 'Save New Password' }).click();
    await expect(page.getByText('This password is one of the most common ones.', { exact: false })).toBeVisible();
    await page.getByLabel('New password').fill(newPassword);
    await page.getByRole('button', { name: 'Save New Password' }).click();
    await expectToast(page, 'Password changed');
    await expect(portalHeading(page)).toBeVisible();

    // The link worked once.
    await page.goto(link);
    await page.getByLabel('New password').fill('another-new-one-9');
    await page.getByRole('button', { name: 'Save New Password' }).click();
    await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
  });

  await test.step('the other browser was signed out by the reset, and the old password no longer works', async () => {
    await other.goto('/dashboard');
    await expect(other).toHaveURL(/\/auth-page/);
    await signIn(other, operator.email, operator.password);
    await expect(other.getByText('Invalid email or password')).toBeVisible();
    await signIn(other, operator.email, newPassword);
    await expect(portalHeading(other)).toBeVisible({ timeout: 20_000 });
  });

  await test.step('change password in the portal: the current one first, then every other session ends', async () => {
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await dialog.getByLabel('Current password').fill(newPassword);
    await dialog.getByLabel('New password').fill('tow-bar-hitch-88');
    await expectNoSeriousA11yViolations(page, 'the change password dialog');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(portalHeading(page)).toBeVisible();

    await other.goto('/dashboard');
    await expect(other).toHaveURL(/\/auth-page/);
  });
  await elsewhere.close();
});
