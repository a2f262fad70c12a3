// Trade accounts' routes (declared in the route contract, api/contract/accounts.ts): each handler
// parses, calls the account service or the books, and answers. Every route is the signed-in
// operator's, on their own company's accounts only.
import type { Context } from 'hono';
import { currentUser } from '../auth/session';
import { ContractHono } from '../platform/http/contract-hono';
import type { AppEnv } from '../platform/http/context';
import { routes } from '../routes';
import type { AccountService } from './service';
import type { Books } from './books';

function pdfAnswer(c: Context<AppEnv>, file: { bytes: Uint8Array; filename: string }) {
  c.header('Content-Type', 'application/pdf');
  c.header('Content-Disposition', `attachment; filename="${file.filename}"`);
  c.header('Cache-Control', 'no-store');
  return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200);
}

export function accountRoutes(accounts: AccountService, books: Books) {
  const r = routes.accounts;
  const company = (c: Context<AppEnv>) => currentUser(c).companyId;
  const id = (c: Context<AppEnv>) => c.req.param('id') ?? '';
  const number = (c: Context<AppEnv>) => c.req.param('number') ?? '';
  return new ContractHono<AppEnv>()
    .openapi(r.list, (c) => c.json(accounts.list(company(c)), 200))
    .openapi(r.create, async (c) => c.json(await accounts.create(company(c), c.req.valid('json')), 201))
    .openapi(r.update, async (c) => c.json(await accounts.update(company(c), id(c), c.req.valid('json')), 200))
    .openapi(r.quote, async (c) => c.json(await accounts.quote(company(c), id(c), c.req.valid('json')), 200))
    .openapi(r.book, async (c) => c.json(await accounts.book(company(c), id(c), c.req.valid('json')), 201))
    .openapi(r.statement, (c) => c.json(accounts.statement(company(c), id(c)), 200))
    .openapi(r.statementPdf, async (c) => pdfAnswer(c, await accounts.statementPdf(company(c), id(c))))
    .openapi(r.invoicePdf, async (c) => pdfAnswer(c, await accounts.documentPdf(company(c), id(c), number(c))))
    .openapi(r.pay, async (c) => c.json(await accounts.pay(company(c), id(c), number(c), c.req.valid('json')), 200))
    .openapi(r.credit, async (c) => c.json(await accounts.credit(company(c), id(c), number(c), c.req.valid('json')), 201))
    .openapi(r.invoices, (c) => c.json(accounts.invoices(company(c)), 200))
    .openapi(r.runInvoices, async (c) => {
      const body = c.req.valid('json');
      return c.json(await accounts.runInvoices(company(c), body.month, body.accountId), 201);
    })
    .openapi(r.exportBooks, (c) => books.exportCsv(c, company(c), { format: c.req.query('format'), kind: c.req.query('kind'), month: c.req.query('month') }))
    .openapi(r.xeroSync, async (c) => c.json(await books.syncXero(company(c)), 200));
}
