// Trade accounts' routes (declared in the route contract, api/contract/accounts.ts): each handler
// parses, calls the account service or the books, and answers. Every route is the signed-in
// operator's, on their own company's accounts only.
import type { Context } from 'hono';
import { currentUser } from '../auth/session';
import { contract } from '../contract';
import type { AppEnv } from '../platform/http/context';
import { serve, type AppParts } from '../routes';

function pdfAnswer(c: Context<AppEnv>, file: { bytes: Uint8Array; filename: string }) {
  c.header('Content-Type', 'application/pdf');
  c.header('Content-Disposition', `attachment; filename="${file.filename}"`);
  c.header('Cache-Control', 'no-store');
  return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200);
}

export function accountRoutes(parts: AppParts) {
  const { accounts, books, xero } = parts;
  const company = (c: Context<AppEnv>) => currentUser(c).companyId;
  const id = (c: Context<AppEnv>) => c.req.param('id') ?? '';
  const number = (c: Context<AppEnv>) => c.req.param('number') ?? '';
  return serve(parts, contract.accounts, {
    list: (c) => c.json(accounts.list(company(c)), 200),
    create: async (c) => c.json(await accounts.create(company(c), c.req.valid('json')), 201),
    update: async (c) => c.json(await accounts.update(company(c), id(c), c.req.valid('json')), 200),
    quote: async (c) => c.json(await accounts.quote(company(c), id(c), c.req.valid('json')), 200),
    book: async (c) => c.json(await accounts.book(company(c), id(c), c.req.valid('json')), 201),
    statement: (c) => c.json(accounts.statement(company(c), id(c)), 200),
    statementPdf: async (c) => pdfAnswer(c, await accounts.statementPdf(company(c), id(c))),
    invoicePdf: async (c) => pdfAnswer(c, await accounts.documentPdf(company(c), id(c), number(c))),
    pay: async (c) => c.json(await accounts.pay(company(c), id(c), number(c), c.req.valid('json')), 200),
    credit: async (c) => c.json(await accounts.credit(company(c), id(c), number(c), c.req.valid('json')), 201),
    invoices: (c) => c.json(accounts.invoices(company(c)), 200),
    runInvoices: async (c) => {
      const body = c.req.valid('json');
      return c.json(await accounts.runInvoices(company(c), body.month, body.accountId), 201);
    },
    exportBooks: (c) => books.exportCsv(c, company(c), { format: c.req.query('format'), kind: c.req.query('kind'), month: c.req.query('month') }),
    xeroSync: async (c) => c.json(await books.syncXero(company(c)), 200),
    xeroStatus: (c) => c.json(xero.status(company(c)), 200),
    xeroConnect: async (c) => c.json(await xero.start(company(c), currentUser(c).id, c.req.valid('json')), 200),
    xeroCallback: async (c) => {
      const user = currentUser(c);
      const outcome = await xero.callback(user.companyId, user.id, { code: c.req.query('code'), state: c.req.query('state'), error: c.req.query('error') });
      return c.body(null, 302, { Location: `/dashboard?tab=accounts&xero=${outcome}` });
    },
    xeroDisconnect: async (c) => c.json(await xero.disconnect(company(c)), 200),
  });
}
