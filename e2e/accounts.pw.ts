// Trade accounts in the portal against the real server (docs/product.md §26), on a phone: the
// owner adds "Leeds Motors" on 30-day terms with a PO required and a £45 call-out in the Accounts
// tab; a quote on the account shows the £45 line; a job without a PO is refused naming the field,
// three with POs complete with no card taken (each with its delivery note); the month's run in the
// tab issues one VAT invoice of the three, which is marked paid. No serious axe finding.
import { expect, test } from '@playwright/test';
import { contract } from '../api/contract';
import { addPhoneNumber, expectNoSeriousA11yViolations, expectToast, signUpWithTrial } from './admin-helpers';

const { companySlug: _demo, ...quoteExample } = contract.quotes.calculate.request.body.content['application/json'].example;
const thisMonth = () => new Date().toISOString().slice(0, 7);

test('the owner adds an account with its rates, books three jobs on it and invoices them, on a phone', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpWithTrial(page);
  await addPhoneNumber(page);
  // VAT registered with a VAT number: the account's invoice is a VAT invoice.
  expect((await page.request.put('/api/pricing', { data: { vatRegistered: true, pricesIncludeVat: false } })).ok()).toBe(true);
  expect((await page.request.put('/api/invoice-settings', { data: { vatNumber: 'GB123456789' } })).ok()).toBe(true);

  await page.getByRole('tab', { name: 'Accounts' }).click();
  await expect(page.getByText('No accounts yet.')).toBeVisible();
  const form = page.getByRole('form', { name: 'Add an account' });
  await form.getByLabel('Account name').fill('Leeds Motors');
  await form.getByLabel('Invoice email').fill('accounts@leedsmotors.example');
  await form.getByLabel('Account code').fill('4010');
  await form.getByLabel('Call-out fee on account (£)').fill('45');
  await form.getByLabel('PO number required on every job').check();
  await form.getByRole('button', { name: 'Add account' }).click();
  await expectToast(page, 'Leeds Motors added');
  const accounts = page.getByRole('list', { name: 'Accounts' });
  await expect(accounts).toContainText('Leeds Motors · 4010 · 30 days · PO required');
  await expectNoSeriousA11yViolations(page, 'the Accounts tab with one account, on a phone');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  const [account] = (await (await page.request.get('/api/accounts')).json()) as { id: number }[];
  const quote = async () => {
    const res = await page.request.post(`/api/accounts/${account.id}/quotes`, { data: quoteExample });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as { quoteId: string; lines: { label: string; amount: number }[] };
  };
  const first = await quote();
  expect(first.lines).toContainEqual({ label: 'Call-out Fee (account rate)', amount: 45 });
  const refused = await page.request.post(`/api/accounts/${account.id}/jobs`, { data: { quoteId: first.quoteId, name: 'Sam', registration: 'AB12 CDE' } });
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toMatchObject({ code: 'PO_REQUIRED', fields: { poNumber: 'This account needs a purchase-order number on every job' } });

  for (const [index, po] of ['PO-4411', 'PO-4412', 'PO-4413'].entries()) {
    const q = index === 0 ? first : await quote();
    const booked = await page.request.post(`/api/accounts/${account.id}/jobs`, {
      data: { quoteId: q.quoteId, poNumber: po, name: 'Sam', registration: 'AB12 CDE' },
    });
    expect(booked.status(), await booked.text()).toBe(201);
    const { reference } = (await booked.json()) as { reference: string };
    const accepted = await page.request.post(`/api/bookings/${reference}/accept`, { data: { etaMinutes: 20 } });
    const driver = ((await accepted.json()) as { driverUrl: string }).driverUrl.split('/driver/')[1];
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) {
      expect((await page.request.post(`/api/driver/${driver}/status`, { data: { status } })).ok()).toBe(true);
    }
    const note = await page.request.get(`/api/bookings/${reference}/receipt`);
    expect(note.headers()['content-disposition']).toContain('delivery-note');
  }

  await page.reload();
  await page.getByRole('tab', { name: 'Accounts' }).click();
  await page.getByLabel('Month').fill(thisMonth());
  await page.getByRole('button', { name: 'Run invoices' }).click();
  await expectToast(page, '1 invoice issued');
  const invoices = page.getByRole('list', { name: 'Account invoices' });
  await expect(invoices.getByRole('link', { name: /^VAT invoice 0+1 · Leeds Motors/ })).toBeVisible();
  const [issued] = (await (await page.request.get('/api/account-invoices')).json()) as { jobs: number; balance: number }[];
  expect(issued).toMatchObject({ jobs: 3 });
  await invoices.getByRole('button', { name: 'Mark paid' }).click();
  await expectToast(page, 'Invoice 000001 marked paid');
  await expect(invoices.getByText('Paid', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the Accounts tab with a paid invoice, on a phone');
});
