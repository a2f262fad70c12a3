// Proof of condition's routes (declared in the route contract, api/contract/proof.ts): the driver's
// uploads, checklist and view by the driver's token, the motorist's view, files and report by the
// job's token (both through the bookings' look-ups, with their 404, 410 and rate limits), and the
// operator's by the booking's reference within their company. The rules are api/proof/service.ts's.
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import { currentUser } from '../auth/session';
import { contract } from '../contract';
import { imageBody } from '../platform/http/body-limit';
import type { AppEnv } from '../platform/http/context';
import { clientAddress } from '../platform/http/rate-limit';
import { serve, type AppParts } from '../routes';
import type { Audience, ProofService } from './service';

type FileAnswer = Awaited<ReturnType<ProofService['file']>>;

/** An image reached by a credential: never cached, never sniffed into anything else, never run as a page. */
export function imageAnswer(c: Context<AppEnv>, file: FileAnswer) {
  c.header('Content-Type', file.contentType);
  c.header('Content-Length', String(file.size));
  c.header('Cache-Control', 'no-store');
  c.header('Content-Security-Policy', "default-src 'none'; sandbox");
  return c.body(Readable.toWeb(file.body) as ReadableStream<Uint8Array>, 200);
}

function pdfAnswer(c: Context<AppEnv>, file: { bytes: Uint8Array; filename: string }) {
  c.header('Content-Type', 'application/pdf');
  c.header('Content-Disposition', `attachment; filename="${file.filename}"`);
  c.header('Cache-Control', 'no-store');
  return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200);
}

export function proofRoutes(parts: AppParts) {
  const { bookings, proof, deps } = parts;
  const client = (c: Context<AppEnv>) => clientAddress(c, deps.config.trustProxy);
  const token = (c: Context<AppEnv>) => c.req.param('token') ?? '';
  const reference = (c: Context<AppEnv>) => c.req.param('reference') ?? '';
  const driverJob = (c: Context<AppEnv>) => ({ id: bookings.driverBookingId(token(c)), audience: { kind: 'driver', token: token(c) } as Audience });
  const motoristJob = (c: Context<AppEnv>) => ({ id: bookings.job(token(c)).id, audience: { kind: 'motorist', token: token(c) } as Audience });
  const ownJob = (c: Context<AppEnv>) => ({
    id: bookings.operatorBookingId(currentUser(c).companyId, reference(c)),
    audience: { kind: 'operator', reference: reference(c) } as Audience,
  });
  const fileOf = async (c: Context<AppEnv>, job: { id: number; audience: Audience }) =>
    imageAnswer(c, await proof.file(job.id, c.req.param('fileId') ?? '', job.audience, c.req.query('size')));
  const viewOf = (c: Context<AppEnv>, job: { id: number; audience: Audience }) => {
    c.header('Cache-Control', 'no-store');
    return c.json(proof.view(job.id, job.audience), 200);
  };

  return serve(parts, contract.proof, {
    upload: async (c) => {
      // The uploads' own limit, before the token is looked up or a byte of the body is read.
      proof.checkUploadRate(client(c));
      const id = bookings.driverBookingId(token(c));
      const { created, file } = await proof.upload(id, { kind: 'driver', token: token(c) }, c.req.query(), c.req.header('content-type'), imageBody(c));
      c.header('Cache-Control', 'no-store');
      return c.json(file, created ? 201 : 200);
    },
    driverProof: (c) => viewOf(c, driverJob(c)),
    condition: async (c) => c.json(await proof.saveCondition(driverJob(c).id, c.req.valid('json')), 200),
    driverFile: async (c) => fileOf(c, driverJob(c)),
    jobProof: (c) => viewOf(c, motoristJob(c)),
    jobFile: async (c) => fileOf(c, motoristJob(c)),
    jobReport: async (c) => pdfAnswer(c, await proof.report(motoristJob(c).id)),
    bookingProof: (c) => viewOf(c, ownJob(c)),
    bookingFile: async (c) => fileOf(c, ownJob(c)),
    bookingReport: async (c) => pdfAnswer(c, await proof.report(ownJob(c).id)),
    settings: (c) => c.json(proof.settings(currentUser(c).companyId), 200),
    updateSettings: async (c) => c.json(await proof.updateSettings(currentUser(c).companyId, c.req.valid('json')), 200),
  });
}
