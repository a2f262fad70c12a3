// The photos' budgets (docs/budgets.md, "Photos and signatures"), against the production bundle as
// a child process with the disk store: 20 uploads of 3 MB at once from the driver's page (the
// server's RSS growth, read from /proc every 20 ms, and each upload's time), then the job report
// PDF of a job with 12 photos and their thumbnails (its size and how long it takes to make).
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { contract } from '../../api/contract';
import { jpegFile } from '../../api/test/images';
import { call, expectStatus, type Operator, signUp, type Timings } from './bookings';
import { spawnServer, type ServerProcess } from './server-process';
import { percentile } from './stream-helpers';

export const CONCURRENT_UPLOADS = 20;
export const UPLOAD_BYTES = 3 * 1024 * 1024;
export const REPORT_PHOTOS = 12;

export interface UploadsFigures {
  uploads: Timings & { failures: number };
  rssBeforeBytes: number;
  rssPeakBytes: number;
  report: { bytes: number; ms: number };
}

const { companySlug: _demo, ...quoteExample } = contract.quotes.calculate.request.body.content['application/json'].example;

/** A booked and accepted job of the operator's: its driver's token and its reference. */
async function acceptedJob(server: ServerProcess, operator: Operator) {
  const { quoteId } = await expectStatus(
    'quote',
    call<{ quoteId: string }>(server, 'POST', '/api/quotes/calculate', { ...quoteExample, companyId: operator.companyId }),
    200,
  );
  await expectStatus(
    'booking',
    call(server, 'POST', '/api/bookings', {
      quoteId,
      bookingKey: `bench-proof-${randomBytes(9).toString('hex')}`,
      name: 'Alex Driver',
      phone: '07700 900123',
      registration: 'AB12CDE',
    }),
    201,
  );
  const { driverUrl } = await expectStatus(
    'accept',
    call<{ driverUrl: string }>(server, 'POST', `/api/bookings/${quoteId}/accept`, { etaMinutes: 20 }, operator.headers),
    200,
  );
  return { reference: quoteId, driverToken: driverUrl.split('/driver/')[1] };
}

async function upload(server: ServerProcess, token: string, body: Uint8Array<ArrayBuffer>, query: Record<string, string>) {
  const params = new URLSearchParams({ stage: 'pickup', kind: 'photo', slot: 'front', takenAt: new Date().toISOString(), ...query });
  const res = await fetch(`${server.url}/api/driver/${token}/files?${params}`, { method: 'POST', headers: { 'content-type': 'image/jpeg' }, body });
  await res.arrayBuffer();
  return res.status;
}

export async function measureUploads(script: string): Promise<UploadsFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-uploads-'));
  const server = await spawnServer({
    script,
    env: {
      NODE_ENV: 'production',
      BILLING_MODE: 'local',
      SESSION_SECRET: 'bench-uploads-session-secret-0123456789abcdef',
      UPLOADS_PATH: path.join(dir, 'uploads'),
      UPLOAD_RATE_LIMIT: '0',
      BOOKING_RATE_LIMIT: '0',
      SIGNUP_RATE_LIMIT: '0',
    },
  });
  try {
    const operator = await signUp(server);
    const job = await acceptedJob(server, operator);
    // Made first: making 60 MB of files takes seconds on a loaded machine, and done between the
    // warm-up and the uploads it let the server close the warm-up's idle keep-alive connections
    // (5 s) just as the uploads reused them (EPIPE, socket hang up).
    const files = Array.from({ length: CONCURRENT_UPLOADS }, () => new Uint8Array(jpegFile({ scanBytes: UPLOAD_BYTES })));
    // Warm the route up with two small uploads, then let the heap settle.
    for (let i = 0; i < 2; i += 1)
      await upload(server, job.driverToken, new Uint8Array(jpegFile({ scanBytes: 100_000 })), { uploadId: `bench-warm-${i}-0000000000` });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rssBeforeBytes = server.rssBytes() ?? 0;
    let rssPeakBytes = rssBeforeBytes;
    const sampler = setInterval(() => (rssPeakBytes = Math.max(rssPeakBytes, server.rssBytes() ?? 0)), 20);
    const times: number[] = [];
    let failures = 0;
    await Promise.all(
      files.map(async (file, i) => {
        const started = performance.now();
        const status = await upload(server, job.driverToken, file, { uploadId: `bench-upload-${i}-000000000` });
        times.push(performance.now() - started);
        if (status !== 201) failures += 1;
      }),
    );
    clearInterval(sampler);
    const sorted = times.sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 10) / 10;

    // The report of a job with 12 photos (about 300 KB each, as the phone sends them) and their thumbnails.
    const reported = await acceptedJob(server, operator);
    for (let i = 0; i < REPORT_PHOTOS; i += 1) {
      const uploadId = `bench-report-${i}-00000000`;
      const stage = i < REPORT_PHOTOS / 2 ? 'pickup' : 'dropoff';
      await upload(server, reported.driverToken, new Uint8Array(jpegFile({ scanBytes: 300_000 })), { uploadId, stage });
      await upload(server, reported.driverToken, new Uint8Array(jpegFile({ scanBytes: 15_000, width: 320, height: 240 })), {
        uploadId,
        stage,
        variant: 'thumbnail',
      });
    }
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) {
      await expectStatus('driver step', call(server, 'POST', `/api/driver/${reported.driverToken}/status`, { status }), 200);
    }
    const started = performance.now();
    const report = await fetch(`${server.url}/api/bookings/${reported.reference}/report`, { headers: operator.headers });
    const bytes = (await report.arrayBuffer()).byteLength;
    const ms = performance.now() - started;
    if (report.status !== 200) throw new Error(`the job report answered ${report.status}`);
    return {
      uploads: {
        count: sorted.length,
        failures,
        p50Ms: round(percentile(sorted, 0.5)),
        p90Ms: round(percentile(sorted, 0.9)),
        p99Ms: round(percentile(sorted, 0.99)),
        maxMs: round(sorted.at(-1) ?? Number.NaN),
      },
      rssBeforeBytes,
      rssPeakBytes,
      report: { bytes, ms: round(ms) },
    };
  } finally {
    await server.stop();
  }
}
