// The documents' routes (declared in the route contract, api/contract/documents.ts): the
// motorist's by the job's token (through the bookings' look-up and its closing, under the
// contract's `job` rate limit), the operator's by the booking's reference within their company.
import type { Context } from 'hono';
import { currentUser } from '../auth/session';
import { contract } from '../contract';
import type { AppEnv } from '../platform/http/context';
import { serve, type AppParts } from '../routes';

/** A PDF download: never cached (it is reached by a credential), saved under its own name. */
function pdfAnswer(c: Context<AppEnv>, file: { bytes: Uint8Array; filename: string }) {
  c.header('Content-Type', 'application/pdf');
  c.header('Content-Disposition', `attachment; filename="${file.filename}"`);
  c.header('Cache-Control', 'no-store');
  return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200);
}

export function documentRoutes(parts: AppParts) {
  const { bookings, documents } = parts;
  const jobId = (c: Context<AppEnv>) => bookings.job(c.req.param('token') ?? '').id;
  const ownId = (c: Context<AppEnv>) => bookings.operatorBookingId(currentUser(c).companyId, c.req.param('reference') ?? '');
  return serve(parts, contract.documents, {
    jobList: (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(documents.list(jobId(c)), 200);
    },
    jobReceipt: async (c) => pdfAnswer(c, await documents.receiptPdf(jobId(c))),
    jobDocument: async (c) => pdfAnswer(c, await documents.documentPdf(jobId(c), c.req.param('number'))),
    bookingList: (c) => c.json(documents.list(ownId(c)), 200),
    bookingReceipt: async (c) => pdfAnswer(c, await documents.receiptPdf(ownId(c))),
    bookingDocument: async (c) => pdfAnswer(c, await documents.documentPdf(ownId(c), c.req.param('number'))),
    fullInvoice: async (c) => c.json(await documents.fullInvoice(ownId(c)), 201),
    settings: (c) => c.json(documents.settings(currentUser(c).companyId), 200),
    updateSettings: async (c) => c.json(await documents.updateSettings(currentUser(c).companyId, c.req.valid('json')), 200),
  });
}
