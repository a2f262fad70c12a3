// The team (docs/product.md §23), in Chromium against the real server and a real SMTP server
// (api/test/message-fakes.ts): the owner invites a dispatcher from the Team tab, the invitation
// is read out of the mail, the dispatcher joins on a phone with their own name and password and
// sees the Quotes tab but no settings, team or billing; the owner reads the audit log; a driver who
// joins lands on their own jobs.
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, expectToast, invitationLink, signUpWithTrial } from './admin-helpers';

test('the owner invites a dispatcher; the dispatcher joins from the mail on a phone and sees the office’s work only; the owner reads the audit log; a driver lands on My jobs', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const owner = await signUpWithTrial(page);
  const dispatcherEmail = `alex-${Date.now().toString(36)}@example.co.uk`;

  await test.step('the owner invites a dispatcher from the Team tab', async () => {
    await page.getByRole('tab', { name: 'Team' }).click();
    const team = page.getByRole('tabpanel', { name: 'Team' });
    await expect(team.getByText(owner.email)).toBeVisible();
    await team.getByRole('textbox', { name: 'Email address' }).fill(dispatcherEmail);
    await team.getByLabel('Role', { exact: true }).selectOption('dispatcher');
    await team.getByRole('button', { name: 'Send invitation' }).click();
    await expectToast(page, 'Invitation sent');
    await expect(team.getByRole('list', { name: 'Open invitations' }).getByText(dispatcherEmail)).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'the Team tab');
  });

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const dispatcher = await phone.newPage();

  await test.step('the dispatcher opens the link from the mail, joins with their own name and password, and is signed in', async () => {
    await dispatcher.goto(await invitationLink(dispatcherEmail));
    await expect(dispatcher.getByRole('heading', { name: `Join ${owner.companyName}` })).toBeVisible();
    await expect(dispatcher.getByText(`You are invited as Dispatcher, with the address ${dispatcherEmail}.`)).toBeVisible();
    await expectNoSeriousA11yViolations(dispatcher, 'the invitation page');
    await dispatcher.getByLabel('Your name').fill('Alex Morgan');
    await dispatcher.getByLabel('Choose a password').fill('gravel-lantern-kettle-51');
    await dispatcher.getByRole('button', { name: 'Join and sign in' }).click();
    await expect(dispatcher.getByRole('tab', { name: 'Quotes' })).toBeVisible({ timeout: 20_000 });
  });

  await test.step('the dispatcher sees the Quotes tab, and no settings, team, audit log or billing', async () => {
    for (const tab of ['Pricing & Rates', 'Branding', 'Team', 'Audit log']) await expect(dispatcher.getByRole('tab', { name: tab })).toHaveCount(0);
    await dispatcher.getByRole('button', { name: 'Account menu' }).click();
    await expect(dispatcher.getByRole('menuitem', { name: 'Contact & Support' })).toBeVisible();
    await expect(dispatcher.getByRole('menuitem', { name: 'Manage Subscription' })).toHaveCount(0);
    await dispatcher.keyboard.press('Escape');
    await expectNoSeriousA11yViolations(dispatcher, 'the portal as a dispatcher');
  });

  await test.step('the owner sees the dispatcher in the team, and reads the audit log', async () => {
    await page.reload();
    await page.getByRole('tab', { name: 'Team' }).click();
    await expect(page.getByRole('tabpanel', { name: 'Team' }).getByText(dispatcherEmail)).toBeVisible();
    await page.getByRole('tab', { name: 'Audit log' }).click();
    const log = page.getByRole('list', { name: 'Audit log' });
    await expect(log.getByText('Invitation accepted')).toBeVisible();
    await expect(log.getByText(`Alex Morgan · Invitation accepted · ${dispatcherEmail}`)).toBeVisible();
    await expect(log.getByText(`Dana Driver · Invitation sent · ${dispatcherEmail}`)).toBeVisible();
    const panel = page.getByRole('tabpanel', { name: 'Audit log' });
    await panel.getByLabel('What', { exact: true }).selectOption({ label: 'Invitation sent' });
    await expect(log.getByText('Invitation accepted')).toHaveCount(0);
    await expect(panel.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/audit/export.csv?kind=invitation-sent');
    await expectNoSeriousA11yViolations(page, 'the audit log');
  });

  await test.step('a driver who joins lands on My jobs', async () => {
    const driverEmail = `sam-${Date.now().toString(36)}@example.co.uk`;
    await page.getByRole('tab', { name: 'Team' }).click();
    const team = page.getByRole('tabpanel', { name: 'Team' });
    await team.getByRole('textbox', { name: 'Email address' }).fill(driverEmail);
    await team.getByLabel('Role', { exact: true }).selectOption('driver');
    await team.getByRole('button', { name: 'Send invitation' }).click();
    await expectToast(page, 'Invitation sent');
    const driverPhone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const driver = await driverPhone.newPage();
    await driver.goto(await invitationLink(driverEmail));
    await driver.getByLabel('Your name').fill('Sam Wheeler');
    await driver.getByLabel('Choose a password').fill('gravel-lantern-kettle-52');
    await driver.getByRole('button', { name: 'Join and sign in' }).click();
    await expect(driver).toHaveURL(/\/dashboard\/my-jobs$/, { timeout: 20_000 });
    await expect(driver.getByText('No jobs for you today yet. New ones appear here as they are given to you.')).toBeVisible();
    await expectNoSeriousA11yViolations(driver, 'a driver’s jobs');
    await driverPhone.close();
  });

  await phone.close();
});
