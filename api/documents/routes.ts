// The documents' routes (declared in the route contract, api/contract/documents.ts): the
// motorist's by the job's token (through the bookings' look-up, with its rate limit and closing),
// the operator's by the booking's reference within their company.
import { ContractHono } from '../platform/http/contract-hono';
import type { Context } from 'hono';
import { currentUser } from '../auth/session';
import type { BookingService } from '../bookings/service';
import type { AppDeps } from '../platform/deps';
import type { AppEnv } from '../platform/http/context';
import { clientAddress } from '../platform/http/rate-limit';
import { routes } from '../routes';
import type { DocumentService } from './service';

/** A PDF download: never cached (it is reached by a credential), saved under its own name. */
function pdfAnswer(c: Context<AppEnv>, file: { bytes: Uint8Array; filename: string }) {
  c.header('Content-Type', 'application/pdf');
  c.header('Content-Disposition', `attachment; filename="${file.filename}"`);
  c.header('Cache-Control', 'no-store');
  return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200);
}

export function documentRoutes(deps: Pick<AppDeps, 'config'>, bookings: Pick<BookingService, 'job' | 'operatorBookingId'>, documents: DocumentService) {
  const r = routes.documents;
  const jobId = (c: Context<AppEnv>) => bookings.job(c.req.param('token') ?? '', clientAddress(c, deps.config.trustProxy)).id;
  const ownId = (c: Context<AppEnv>) => bookings.operatorBookingId(currentUser(c).companyId, c.req.param('reference') ?? '');
  return new ContractHono<AppEnv>()
    .openapi(r.jobList, (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(documents.list(jobId(c)), 200);
    })
    .openapi(r.jobReceipt, async (c) => pdfAnswer(c, await documents.receiptPdf(jobId(c))))
    .openapi(r.jobDocument, async (c) => pdfAnswer(c, await documents.documentPdf(jobId(c), c.req.param('number'))))
    .openapi(r.bookingList, (c) => c.json(documents.list(ownId(c)), 200))
    .openapi(r.bookingReceipt, async (c) => pdfAnswer(c, await documents.receiptPdf(ownId(c))))
    .openapi(r.bookingDocument, async (c) => pdfAnswer(c, await documents.documentPdf(ownId(c), c.req.param('number'))))
    .openapi(r.fullInvoice, async (c) => c.json(await documents.fullInvoice(ownId(c), c.req.valid('json').customerAddress), 201))
    .openapi(r.settings, (c) => c.json(documents.settings(currentUser(c).companyId), 200))
    .openapi(r.updateSettings, async (c) => c.json(await documents.updateSettings(currentUser(c).companyId, c.req.valid('json')), 200));
}
