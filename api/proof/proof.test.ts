// Proof of condition through the API (docs/product.md, "Proof of condition"): the driver's uploads
// by the driver's token, what the motorist and the operator see of them, refusals that store
// nothing, the per-job cap, the uploads' own rate limit, the job report PDF, deletion with the job,
// and the same uploads into S3-compatible storage (a fake S3 server in process).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_FILES_PER_JOB } from '#shared/proof';
import { bookings, jobFiles } from '../platform/db/schema';
import { createTestApp, quoteBody, runnerFor, TEST_ORIGIN } from '../test/harness';
import { GPS_MARK, heicFile, jpegFile, pngFile } from '../test/images';
import { startS3Fake } from '../test/s3-fake';
import { blobSweepJob } from './sweep';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const MB = 1024 * 1024;
const silent = { info: () => {}, warn: () => {}, error: () => {} };

async function setup(env: Record<string, string> = {}) {
  const clock = { now: new Date('2026-06-10T12:00:00Z') };
  const uploads = mkdtempSync(path.join(tmpdir(), 'proof-uploads-'));
  const t = createTestApp({ now: () => clock.now, env: { UPLOADS_PATH: uploads, UPLOAD_RATE_LIMIT: '0', ...env } });
  const storedFiles = () =>
    readdirSync(uploads, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  return { t, clock, uploads, storedFiles, ...(await newJob(t)) };
}

/** A new operator's booked job in `t`. */
async function newJob(t: ReturnType<typeof createTestApp>) {
  const op = await t.operator();
  const q = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
  const booked = await t.call('POST', '/api/bookings', {
    body: {
      quoteId: q.json.quoteId,
      bookingKey: `proof-booking-key-${Math.random().toString(36).slice(2, 10).padEnd(8, '0')}`,
      name: 'Jane Motorist',
      phone: '07700 900123',
      registration: 'ab12cde',
    },
  });
  expect(booked.status).toBe(201);
  const reference = q.json.quoteId as string;
  const accept = () => t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 20, driverName: 'Sam' } });
  return { op, reference, jobToken: booked.json.jobToken as string, accept };
}

type Setup = Awaited<ReturnType<typeof setup>>;

async function accepted(s: Setup) {
  const res = await s.accept();
  expect(res.status).toBe(200);
  return (res.json.driverUrl as string).split('/driver/')[1];
}

let uploadCounter = 0;
/** Uploads `body` as the driver's page does: the image itself, what it is in the query. */
async function upload(
  s: Setup,
  driverToken: string,
  body: Uint8Array | string,
  query: Record<string, string> = {},
  headers: Record<string, string> = { 'content-type': 'image/jpeg' },
) {
  uploadCounter += 1;
  const params = new URLSearchParams({
    uploadId: `upload-${uploadCounter}-${Math.random().toString(36).slice(2, 10)}`,
    stage: 'pickup',
    kind: 'photo',
    slot: 'front',
    takenAt: '2026-06-10T12:10:00.000Z',
    lat: '52.4862',
    lng: '-1.8904',
    ...query,
  });
  const res = await s.t.app.request(`${TEST_ORIGIN}/api/driver/${driverToken}/files?${params}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, uploadId: params.get('uploadId')! };
}

const bytes = async (s: Setup, url: string, init: { token?: string } = {}) => {
  const res = await s.t.app.request(`${TEST_ORIGIN}${url}`, { headers: init.token ? { 'x-auth-token': init.token } : {} });
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
};

describe('the driver’s uploads', () => {
  it('stores a photo as sent for the operator, without its EXIF position for the motorist, with its SHA-256, time, place and taker', async () => {
    const s = await setup();
    const driver = await accepted(s);
    const photo = jpegFile();
    const res = await upload(s, driver, photo, { slot: 'rear', note: 'Scuff on the bumper' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      stage: 'pickup',
      kind: 'photo',
      slot: 'rear',
      note: 'Scuff on the bumper',
      takenAt: '2026-06-10T12:10:00.000Z',
      takenBy: 'Sam',
      position: { lat: 52.4862, lng: -1.8904 },
      contentType: 'image/jpeg',
      size: photo.length,
    });
    expect(res.json.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(res.json.sha256).toMatch(/^[0-9a-f]{64}$/);

    const operator = await s.t.call('GET', `/api/bookings/${s.reference}/proof`, { token: s.op.token });
    expect(operator.json.files).toHaveLength(1);
    const asUploaded = await bytes(s, operator.json.files[0].url, { token: s.op.token });
    expect(asUploaded.status).toBe(200);
    expect(asUploaded.body.equals(photo)).toBe(true);

    const motorist = await s.t.call('GET', `/api/jobs/${s.jobToken}/proof`);
    expect(motorist.status).toBe(200);
    const shownFile = motorist.json.files[0];
    expect(shownFile).toMatchObject({ slot: 'rear', position: null, sha256: null });
    expect(shownFile.url).toBe(`/api/jobs/${s.jobToken}/files/${res.json.id}`);
    const shown = await bytes(s, shownFile.url);
    expect(shown.status).toBe(200);
    expect(shown.type).toBe('image/jpeg');
    expect(shown.body.includes(GPS_MARK)).toBe(false);
    expect(photo.includes(GPS_MARK)).toBe(true);
    // Nothing of it is in the database but its facts.
    const row = s.t.deps.db.select().from(jobFiles).all()[0];
    expect(JSON.stringify(row)).not.toContain(GPS_MARK);
  });

  it('answers a repeat of the same upload with the file stored the first time, storing nothing more', async () => {
    const s = await setup();
    const driver = await accepted(s);
    const first = await upload(s, driver, jpegFile());
    const files = s.storedFiles().length;
    const again = await upload(s, driver, jpegFile(), { uploadId: first.uploadId });
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(first.json.id);
    expect(s.t.deps.db.select().from(jobFiles).all()).toHaveLength(1);
    expect(s.storedFiles()).toHaveLength(files);
  });

  it.each([
    ['a PDF', Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'), 'image/jpeg', 415, 'NOT_AN_IMAGE'],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/svg+xml', 415, 'NOT_AN_IMAGE'],
    ['JSON', Buffer.from('{"stage":"pickup"}'), 'application/json', 415, 'NOT_AN_IMAGE'],
    ['an empty body', Buffer.alloc(0), 'image/jpeg', 415, 'NOT_AN_IMAGE'],
    [
      'a JPEG whose segments are broken',
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0]), Buffer.from('garbage here')]),
      'image/jpeg',
      415,
      'NOT_AN_IMAGE',
    ],
  ])('refuses %s with a 4xx, storing nothing', async (_what, body, type, status, code) => {
    const s = await setup();
    const driver = await accepted(s);
    const res = await upload(s, driver, body, {}, { 'content-type': type });
    expect(res.status).toBe(status);
    expect(res.json).toMatchObject({ code, message: expect.any(String), requestId: expect.any(String) });
    expect(s.storedFiles()).toEqual([]);
    expect(s.t.deps.db.select().from(jobFiles).all()).toEqual([]);
  });

  it('refuses a body over 15 MB with 413, whether it says its length or not, storing nothing', async () => {
    const s = await setup();
    const driver = await accepted(s);
    const big = jpegFile({ scanBytes: 15 * MB + 10 });
    const declared = await upload(s, driver, big);
    expect(declared.status).toBe(413);
    // Sent as a stream, with no Content-Length: counted as it comes.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < big.length; at += MB) controller.enqueue(big.subarray(at, at + MB));
        controller.close();
      },
    });
    const res = await s.t.app.request(
      `${TEST_ORIGIN}/api/driver/${driver}/files?uploadId=stream-upload-000001&stage=pickup&kind=photo&slot=left&takenAt=2026-06-10T12:10:00Z`,
      {
        method: 'POST',
        headers: { 'content-type': 'image/jpeg' },
        body: stream,
        duplex: 'half',
      } as RequestInit,
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE');
    expect(s.storedFiles()).toEqual([]);
    expect(s.t.deps.db.select().from(jobFiles).all()).toEqual([]);
  });

  it('streams a body sent without its length to the route, rather than reading all of it first: a refusal comes before it ends', async () => {
    const s = await setup();
    const driver = await accepted(s);
    // A body that starts as no image does and never ends: only a route reading it as it streams can answer.
    const endless = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('<html><script>alert(1)</script>'));
      },
    });
    const res = await s.t.app.request(
      `${TEST_ORIGIN}/api/driver/${driver}/files?uploadId=endless-upload-00001&stage=pickup&kind=photo&slot=left&takenAt=2026-06-10T12:10:00Z`,
      {
        method: 'POST',
        headers: { 'content-type': 'image/jpeg' },
        body: endless,
        duplex: 'half',
      } as RequestInit,
    );
    expect(res.status).toBe(415);
    expect(s.storedFiles()).toEqual([]);
  }, 10_000);

  it('refuses bad query values with the field’s message, and a token of no job with 404', async () => {
    const s = await setup();
    const driver = await accepted(s);
    const noSlot = await upload(s, driver, jpegFile(), { slot: '' });
    expect(noSlot.status).toBe(400);
    expect(noSlot.json.fields.slot).toBeTruthy();
    const badTime = await upload(s, driver, jpegFile(), { takenAt: 'yesterday' });
    expect(badTime.status).toBe(400);
    const unsigned = await upload(s, driver, pngFile(), { kind: 'signature' }, { 'content-type': 'image/png' });
    expect(unsigned.json.fields.signer).toBe('Type the name of the person signing');
    expect((await upload(s, 'A'.repeat(32), jpegFile())).status).toBe(404);
    // The motorist's token is not the driver's.
    expect((await upload(s, s.jobToken, jpegFile())).status).toBe(404);
    expect(s.storedFiles()).toEqual([]);
  });

  it('takes no photos before the job is accepted', async () => {
    const s = await setup();
    const driver = await accepted(s);
    s.t.deps.db.update(bookings).set({ status: 'requested' }).run();
    const res = await upload(s, driver, jpegFile());
    expect(res.status).toBe(409);
    expect(s.storedFiles()).toEqual([]);
  });

  it(`keeps at most ${MAX_FILES_PER_JOB} files a job`, async () => {
    const s = await setup();
    const driver = await accepted(s);
    const small = jpegFile({ scanBytes: 100 });
    for (let i = 0; i < MAX_FILES_PER_JOB; i += 1) expect((await upload(s, driver, small)).status).toBe(201);
    const over = await upload(s, driver, small);
    expect(over.status).toBe(409);
    expect(over.json.code).toBe('PROOF_FILES_FULL');
    expect(s.t.deps.db.select().from(jobFiles).all()).toHaveLength(MAX_FILES_PER_JOB);
    expect(s.storedFiles()).toHaveLength(MAX_FILES_PER_JOB * 2);
  });

  it('has a rate limit of its own per client address', async () => {
    const s = await setup({ UPLOAD_RATE_LIMIT: '2' });
    const driver = await accepted(s);
    expect((await upload(s, driver, jpegFile())).status).toBe(201);
    expect((await upload(s, driver, jpegFile())).status).toBe(201);
    const third = await upload(s, driver, jpegFile());
    expect(third.status).toBe(429);
    expect(third.json.code).toBe('RATE_LIMITED');
    // The driver's page itself is not held up by it.
    expect((await s.t.call('GET', `/api/driver/${driver}`)).status).toBe(200);
  });

  it('serves a file only under its own job’s credential', async () => {
    const a = await setup();
    const driverA = await accepted(a);
    const photo = await upload(a, driverA, jpegFile());
    const b = { ...a, ...(await newJob(a.t)) };
    const driverB = await accepted(b);
    // A file id of job A under job B's tokens, or B's operator: no such file.
    expect((await bytes(a, `/api/driver/${driverB}/files/${photo.json.id}`)).status).toBe(404);
    expect((await bytes(a, `/api/jobs/${b.jobToken}/files/${photo.json.id}`)).status).toBe(404);
    expect((await bytes(a, `/api/bookings/${b.reference}/files/${photo.json.id}`, { token: b.op.token })).status).toBe(404);
    expect((await a.t.call('GET', `/api/bookings/${a.reference}/proof`, { token: b.op.token })).status).toBe(404);
    expect((await bytes(a, `/api/bookings/${a.reference}/files/${photo.json.id}`, { token: b.op.token })).status).toBe(404);
    // Under its own, it is there.
    expect((await bytes(a, `/api/jobs/${a.jobToken}/files/${photo.json.id}`)).status).toBe(200);
    expect((await bytes(a, `/api/driver/${driverA}/files/${photo.json.id}`)).status).toBe(200);
    expect((await bytes(a, `/api/bookings/${a.reference}/files/${photo.json.id}`, { token: a.op.token })).status).toBe(200);
    expect((await bytes(a, `/api/jobs/${a.jobToken}/files/not-an-id`)).status).toBe(404);
  });

  it('saves the checklist and notes of a stage, and the operator sets what is asked', async () => {
    const s = await setup();
    const driver = await accepted(s);
    const settings = await s.t.call('PUT', '/api/proof-settings', {
      token: s.op.token,
      body: { photosBeforeLoaded: true, checklist: ['Keys handed over', 'Wheel nut key'] },
    });
    expect(settings.json).toEqual({ photosBeforeLoaded: true, photosBeforeCompleted: false, checklist: ['Keys handed over', 'Wheel nut key'] });
    const view = await s.t.call('GET', `/api/driver/${driver}/proof`);
    expect(view.json.settings.checklist).toEqual(['Keys handed over', 'Wheel nut key']);
    const saved = await s.t.call('PUT', `/api/driver/${driver}/condition`, {
      body: { stage: 'pickup', checklist: [{ item: 'Keys handed over', checked: true }], notes: 'Dent on the nearside door' },
    });
    expect(saved.status).toBe(200);
    const motorist = await s.t.call('GET', `/api/jobs/${s.jobToken}/proof`);
    expect(motorist.json.conditions).toEqual([expect.objectContaining({ stage: 'pickup', notes: 'Dent on the nearside door' })]);
    const bad = await s.t.call('PUT', `/api/driver/${driver}/condition`, { body: { stage: 'pickup', checklist: [], notes: 'a\u202Eb' } });
    expect(bad.status).toBe(400);
  });
});

describe('the signed-in driver’s own job ("My jobs")', () => {
  /** Uploads as the driver's page does on a signed-in driver's own job: the session instead of the link. */
  async function myUpload(s: Setup, token: string, reference: string, body: Uint8Array, query: Record<string, string> = {}) {
    uploadCounter += 1;
    const params = new URLSearchParams({
      uploadId: `my-upload-${uploadCounter}-${Math.random().toString(36).slice(2, 10)}`,
      stage: 'pickup',
      kind: 'photo',
      slot: 'front',
      takenAt: '2026-06-10T12:10:00.000Z',
      ...query,
    });
    const res = await s.t.app.request(`${TEST_ORIGIN}/api/my-jobs/${reference}/files?${params}`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg', 'x-auth-token': token },
      body: new Uint8Array(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  }
  const checklist = { stage: 'pickup', checklist: [{ item: 'Keys handed over', checked: true }], notes: 'Scuff on the mirror' };

  it('takes photos, a signature and the checklist through the session, taken by the person, seen by the operator', async () => {
    const s = await setup();
    const driver = await s.t.teammate(s.op, 'driver');
    await accepted(s);
    expect((await s.t.call('POST', `/api/bookings/${s.reference}/assign`, { token: s.op.token, body: { driverId: driver.id, truckId: null } })).status).toBe(
      200,
    );

    const photo = jpegFile();
    const res = await myUpload(s, driver.token, s.reference, photo, { slot: 'rear' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ slot: 'rear', takenBy: driver.user.name, size: photo.length });
    expect(res.json.url).toBe(`/api/my-jobs/${s.reference}/files/${res.json.id}`);
    const signature = await myUpload(s, driver.token, s.reference, pngFile(), { kind: 'signature', signer: 'Jane Motorist' });
    expect(signature.status).toBe(201);
    expect((await s.t.call('PUT', `/api/my-jobs/${s.reference}/condition`, { token: driver.token, body: checklist })).status).toBe(200);

    const mine = await s.t.call('GET', `/api/my-jobs/${s.reference}/proof`, { token: driver.token });
    expect(mine.status).toBe(200);
    expect(mine.json.files.map((f: { kind: string }) => f.kind)).toEqual(['photo', 'signature']);
    expect(mine.json.conditions[0]).toMatchObject({ stage: 'pickup', notes: 'Scuff on the mirror' });
    const got = await bytes(s, res.json.url, { token: driver.token });
    expect(got.status).toBe(200);
    expect(got.body.equals(photo)).toBe(true);

    const operator = await s.t.call('GET', `/api/bookings/${s.reference}/proof`, { token: s.op.token });
    expect(operator.json.files.map((f: { takenBy: string }) => f.takenBy)).toEqual([driver.user.name, driver.user.name]);
    expect(operator.json.conditions).toHaveLength(1);
  });

  it('answers 404 to anyone the job is not assigned to: another driver, the office, another company; nothing is stored', async () => {
    const s = await setup();
    const a = await s.t.teammate(s.op, 'driver');
    const b = await s.t.teammate(s.op, 'driver');
    const dispatcher = await s.t.teammate(s.op, 'dispatcher');
    const other = await s.t.operator();
    const otherDriver = await s.t.teammate(other, 'driver');
    await accepted(s);
    // Not assigned to anyone yet: nobody's own job, not even the owner's.
    expect((await myUpload(s, s.op.token, s.reference, jpegFile())).status).toBe(404);
    await s.t.call('POST', `/api/bookings/${s.reference}/assign`, { token: s.op.token, body: { driverId: a.id, truckId: null } });
    const stored = (await myUpload(s, a.token, s.reference, jpegFile())).json;

    for (const who of [b, dispatcher, s.op, other, otherDriver]) {
      expect((await myUpload(s, who.token, s.reference, jpegFile())).status).toBe(404);
      expect((await s.t.call('GET', `/api/my-jobs/${s.reference}/proof`, { token: who.token })).status).toBe(404);
      expect((await s.t.call('PUT', `/api/my-jobs/${s.reference}/condition`, { token: who.token, body: checklist })).status).toBe(404);
      expect((await bytes(s, stored.url, { token: who.token })).status).toBe(404);
    }
    expect(s.t.deps.db.select().from(jobFiles).all()).toHaveLength(1);
    expect((await s.t.call('GET', `/api/bookings/${s.reference}/proof`, { token: s.op.token })).json.conditions).toEqual([]);

    // Reassigned: the first driver loses it at once, the second has it, files and all.
    await s.t.call('POST', `/api/bookings/${s.reference}/assign`, { token: dispatcher.token, body: { driverId: b.id, truckId: null } });
    expect((await s.t.call('GET', `/api/my-jobs/${s.reference}/proof`, { token: a.token })).status).toBe(404);
    expect((await bytes(s, stored.url, { token: a.token })).status).toBe(404);
    expect((await s.t.call('GET', `/api/my-jobs/${s.reference}/proof`, { token: b.token })).json.files).toHaveLength(1);
    // The office's people may be given a job too, and then it is theirs.
    await s.t.call('POST', `/api/bookings/${s.reference}/assign`, { token: s.op.token, body: { driverId: dispatcher.id, truckId: null } });
    expect((await myUpload(s, dispatcher.token, s.reference, jpegFile())).status).toBe(201);
  });

  it('takes nothing before acceptance, nor once the job finished more than a day ago', async () => {
    const s = await setup();
    const driver = await s.t.teammate(s.op, 'driver');
    await s.t.call('POST', `/api/bookings/${s.reference}/assign`, { token: s.op.token, body: { driverId: driver.id, truckId: null } });
    const early = await myUpload(s, driver.token, s.reference, jpegFile());
    expect(early.status).toBe(409);
    expect(early.json.message).toBe('This job takes no photos now.');
    await accepted(s);
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) {
      expect((await s.t.call('POST', `/api/my-jobs/${s.reference}/status`, { token: driver.token, body: { status } })).status).toBe(200);
    }
    // A queued photo arriving late the same day still goes up…
    s.clock.now = new Date(s.clock.now.getTime() + 23 * 3_600_000);
    expect((await myUpload(s, driver.token, s.reference, jpegFile())).status).toBe(201);
    // …but not after the day the driver's link would have been open.
    s.clock.now = new Date(s.clock.now.getTime() + 2 * 3_600_000);
    expect((await myUpload(s, driver.token, s.reference, jpegFile())).status).toBe(409);
    expect((await s.t.call('PUT', `/api/my-jobs/${s.reference}/condition`, { token: driver.token, body: checklist })).status).toBe(409);
    expect(s.t.deps.db.select().from(jobFiles).all()).toHaveLength(1);
  });
});

describe('HEIC photos', () => {
  it('get a motorist’s copy with the EXIF and XMP position zeroed; one whose image data comes first is kept for the operator only', async () => {
    const s = await setup();
    const driver = await accepted(s);
    const heic = { 'content-type': 'image/heic' };
    const file = heicFile({ imageBytes: 100_000 });
    expect((await upload(s, driver, file, { slot: 'front' }, heic)).status).toBe(201);
    const unreadable = heicFile({ mdatFirst: true });
    expect((await upload(s, driver, unreadable, { slot: 'rear' }, heic)).status).toBe(201);

    const motorist = (await s.t.call('GET', `/api/jobs/${s.jobToken}/proof`)).json.files;
    expect(motorist.map((f: { slot: string; contentType: string }) => [f.slot, f.contentType])).toEqual([
      ['front', 'image/heic'],
      ['rear', 'image/heic'],
    ]);
    const shown = await bytes(s, motorist[0].url);
    expect(shown.status).toBe(200);
    expect(shown.type).toBe('image/heic');
    expect(shown.body.length).toBe(file.length);
    expect(file.includes(GPS_MARK)).toBe(true);
    expect(shown.body.includes(GPS_MARK)).toBe(false);
    expect(shown.body.includes('GPSLatitude')).toBe(false);
    expect(motorist[1].url).toBeNull();

    const operator = (await s.t.call('GET', `/api/bookings/${s.reference}/proof`, { token: s.op.token })).json.files;
    expect((await bytes(s, operator[0].url, { token: s.op.token })).body.equals(file)).toBe(true);
    expect((await bytes(s, operator[1].url, { token: s.op.token })).body.equals(unreadable)).toBe(true);
    // The front's two copies and the rear's one; nothing left of the rear's copy that could not be made.
    expect(s.storedFiles()).toHaveLength(3);
  });
});

describe('over a real connection (Node’s own request stream)', () => {
  it('stores an upload sent with its length, and nothing of one whose connection drops half way', async () => {
    const s = await setup();
    const driver = await accepted(s);
    // Each request's handling, settled: the dropped upload's is awaited below rather than a
    // while, which a loaded machine can outlast (its partial file was still being written).
    const handled = new Map<string, Promise<unknown>>();
    const server = createAdaptorServer({
      fetch: (request: Request, ...rest: unknown[]) => {
        const answer = Promise.resolve(s.t.app.fetch(request, ...(rest as []))) as Promise<Response>;
        handled.set(
          new URL(request.url).searchParams.get('uploadId') ?? '',
          answer.catch(() => undefined),
        );
        return answer;
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    const photo = jpegFile({ scanBytes: 3 * MB });
    const send = (uploadId: string, bytes: Buffer, drop: boolean) =>
      new Promise<number>((resolve) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: `/api/driver/${driver}/files?uploadId=${uploadId}&stage=pickup&kind=photo&slot=front&takenAt=2026-06-10T12:10:00Z`,
            headers: { 'content-type': 'image/jpeg', 'content-length': String(photo.length) },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        request.on('error', () => resolve(0));
        if (drop) {
          request.write(bytes.subarray(0, bytes.length / 2), () => setTimeout(() => request.destroy(), 50));
        } else request.end(bytes);
      });
    expect(await send('socket-upload-whole-01', photo, false)).toBe(201);
    expect(s.storedFiles()).toHaveLength(2);
    await send('socket-upload-dropped-1', photo, true);
    // The server sees the connection go, and deletes what it had begun before its handling ends.
    await expect.poll(() => handled.has('socket-upload-dropped-1'), { timeout: 10_000 }).toBe(true);
    await handled.get('socket-upload-dropped-1');
    expect(s.storedFiles()).toHaveLength(2);
    expect(s.t.deps.db.select().from(jobFiles).all()).toHaveLength(1);
    expect(readdirSync(path.join(s.uploads, '.partial'))).toEqual([]);
  });
});

describe('the job report', () => {
  it('is a PDF of the completed job with its photos, signature, checklist and times, for the motorist and the operator, under 2 MB with 12 photos', async () => {
    const s = await setup();
    const driver = await accepted(s);
    const slots = ['front', 'rear', 'left', 'right'];
    for (let i = 0; i < 12; i += 1) {
      const stage = i < 6 ? 'pickup' : 'dropoff';
      const photo = await upload(s, driver, jpegFile({ scanBytes: 250_000 }), {
        stage,
        slot: slots[i % 4],
        takenAt: `2026-06-10T12:${String(10 + i)}:00.000Z`,
      });
      expect(photo.status).toBe(201);
      const thumb = await upload(s, driver, jpegFile({ scanBytes: 15_000, width: 320, height: 240 }), {
        uploadId: photo.uploadId,
        stage,
        variant: 'thumbnail',
      });
      expect(thumb.status).toBe(200);
    }
    const signature = await upload(
      s,
      driver,
      pngFile({ width: 300, height: 100 }),
      { kind: 'signature', signer: 'Jane Motorist' },
      { 'content-type': 'image/png' },
    );
    expect(signature.status).toBe(201);
    await s.t.call('PUT', `/api/driver/${driver}/condition`, {
      body: { stage: 'pickup', checklist: [{ item: 'Keys handed over', checked: true }], notes: 'All fine' },
    });
    expect((await bytes(s, `/api/jobs/${s.jobToken}/report`)).status).toBe(409);
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) {
      expect((await s.t.call('POST', `/api/driver/${driver}/status`, { body: { status } })).status).toBe(200);
    }
    const proof = await s.t.call('GET', `/api/jobs/${s.jobToken}/proof`);
    expect(proof.json.reportUrl).toBe(`/api/jobs/${s.jobToken}/report`);
    const report = await bytes(s, proof.json.reportUrl);
    expect(report.status).toBe(200);
    expect(report.type).toBe('application/pdf');
    expect(report.body.length).toBeLessThan(2 * MB);
    const operator = await bytes(s, `/api/bookings/${s.reference}/report`, { token: s.op.token });
    expect(operator.status).toBe(200);

    const file = path.join(mkdtempSync(path.join(tmpdir(), 'report-')), 'report.pdf');
    writeFileSync(file, report.body);
    const words = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    for (const expected of [
      'Job report',
      `TQ-${s.reference}`,
      'Pickup',
      'Drop-off',
      'Front',
      'Keys handed over',
      'All fine',
      'Jane Motorist',
      'Completed',
      'Signature',
    ]) {
      expect(words).toContain(expected);
    }
    // Twelve thumbnails and the signature (its alpha channel is listed apart, as an smask).
    const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .slice(2)
      .filter((line) => line.trim().split(/\s+/)[2] === 'image');
    expect(images).toHaveLength(13);
  });
});

describe('the job report’s small pictures', () => {
  it('embeds every thumbnail as itself, however small (a small file read from the store sits part way into Node’s buffer pool)', async () => {
    const s = await setup();
    const driver = await accepted(s);
    const sizes = { front: [320, 240], rear: [300, 200], left: [280, 210], right: [260, 195] } as const;
    for (const [slot, [width, height]] of Object.entries(sizes)) {
      const photo = await upload(s, driver, jpegFile({ scanBytes: 50_000 }), { slot });
      await upload(s, driver, jpegFile({ scanBytes: 600, width, height }), { uploadId: photo.uploadId, slot, variant: 'thumbnail' });
    }
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) await s.t.call('POST', `/api/driver/${driver}/status`, { body: { status } });
    const report = await bytes(s, `/api/bookings/${s.reference}/report`, { token: s.op.token });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'report-')), 'report.pdf');
    writeFileSync(file, report.body);
    // Each picture with its own width and height, in the order taken: none read from another file's bytes.
    const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .slice(2)
      .map((line) => line.trim().split(/\s+/).slice(3, 5).join('x'));
    expect(images).toEqual(Object.values(sizes).map(([w, h]) => `${w}x${h}`));
    expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).not.toContain('Photo kept online');
  });
});

describe('the job report kept with the documents', () => {
  const pdfText = (body: Buffer) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'report-')), 'report.pdf');
    writeFileSync(file, body);
    return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  };
  const reports = (s: Setup) =>
    s.t.deps.db.$client.prepare('select store_key as key, size, sha256 from job_reports').all() as { key: string; size: number; sha256: string }[];

  it('is issued and stored at completion, listed with the documents and downloadable by both, and stays as issued', async () => {
    const s = await setup();
    const driver = await accepted(s);
    await upload(s, driver, jpegFile(), { slot: 'front' });
    for (const status of ['on_the_way', 'arrived', 'loaded']) await s.t.call('POST', `/api/driver/${driver}/status`, { body: { status } });
    expect(reports(s)).toEqual([]);
    const filesBefore = s.storedFiles().length;
    await s.t.call('POST', `/api/driver/${driver}/status`, { body: { status: 'completed' } });
    // Stored as the job completes: its row, and its PDF in the blob store.
    const [issued] = reports(s);
    expect(issued).toBeDefined();
    expect(s.storedFiles()).toHaveLength(filesBefore + 1);
    expect(s.storedFiles()).toContain(issued.key);

    const entry = { number: 'job-report', kind: 'job_report', title: 'Job report', total: null, issuedAt: '2026-06-10T12:00:00.000Z' };
    expect((await s.t.call('GET', `/api/jobs/${s.jobToken}/documents`)).json).toContainEqual(entry);
    expect((await s.t.call('GET', `/api/bookings/${s.reference}/documents`, { token: s.op.token })).json).toContainEqual(entry);
    const motorist = await bytes(s, `/api/jobs/${s.jobToken}/documents/job-report`);
    const operator = await bytes(s, `/api/bookings/${s.reference}/documents/job-report`, { token: s.op.token });
    const direct = await bytes(s, `/api/jobs/${s.jobToken}/report`);
    expect(motorist.status).toBe(200);
    expect(motorist.type).toBe('application/pdf');
    expect(createHash('sha256').update(motorist.body).digest('hex')).toBe(issued.sha256);
    expect(operator.body.equals(motorist.body)).toBe(true);
    expect(direct.body.equals(motorist.body)).toBe(true);
    // Another company's operator does not reach it.
    const other = await s.t.operator();
    expect((await bytes(s, `/api/bookings/${s.reference}/documents/job-report`, { token: other.token })).status).toBe(404);

    // Frozen: what the company changes later does not reach the report issued.
    s.clock.now = new Date('2026-06-10T13:00:00Z');
    expect((await s.t.call('PUT', '/api/company', { token: s.op.token, body: { name: 'Renamed Recovery' } })).status).toBe(200);
    const later = await bytes(s, `/api/jobs/${s.jobToken}/report`);
    expect(later.body.equals(motorist.body)).toBe(true);
    expect(pdfText(later.body)).not.toContain('Renamed Recovery');
    expect(reports(s)).toEqual([issued]);
  });

  it('is issued again when a queued photo arrives after completion, the replaced copy going from the store', async () => {
    const s = await setup();
    const driver = await accepted(s);
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) await s.t.call('POST', `/api/driver/${driver}/status`, { body: { status } });
    const [first] = reports(s);
    expect(pdfText((await bytes(s, `/api/jobs/${s.jobToken}/report`)).body)).not.toContain('Rear');
    s.clock.now = new Date('2026-06-10T12:30:00Z');
    expect((await upload(s, driver, jpegFile(), { slot: 'rear', stage: 'dropoff' })).status).toBe(201);
    const again = await bytes(s, `/api/jobs/${s.jobToken}/documents/job-report`);
    expect(pdfText(again.body)).toContain('Rear');
    const [second] = reports(s);
    expect(second.key).not.toBe(first.key);
    expect((await s.t.call('GET', `/api/jobs/${s.jobToken}/documents`)).json).toContainEqual(
      expect.objectContaining({ kind: 'job_report', issuedAt: '2026-06-10T12:30:00.000Z' }),
    );
    expect(s.t.deps.db.$client.prepare('select key from blob_deletions').all()).toEqual([{ key: first.key }]);
  });

  it('is not listed or served before completion, and goes with the job at retention', async () => {
    const s = await setup();
    const driver = await accepted(s);
    expect((await bytes(s, `/api/jobs/${s.jobToken}/documents/job-report`)).status).toBe(404);
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) await s.t.call('POST', `/api/driver/${driver}/status`, { body: { status } });
    expect(s.storedFiles()).toHaveLength(1);
    s.t.deps.db.delete(bookings).run();
    expect(reports(s)).toEqual([]);
    const sweep = runnerFor(blobSweepJob({ db: s.t.deps.db, blobs: s.t.bookings.proof.blobs }), { db: s.t.deps.db, now: () => s.clock.now, logger: silent });
    cleanup.push(() => sweep.stop());
    await sweep.tick();
    expect(s.storedFiles()).toEqual([]);
  });
});

describe('deletion with the job', () => {
  it('queues a deleted job’s files for the store, and the sweep deletes them', async () => {
    const s = await setup();
    const driver = await accepted(s);
    await upload(s, driver, jpegFile());
    expect(s.storedFiles()).toHaveLength(2);
    s.t.deps.db.delete(bookings).run();
    const sweep = runnerFor(blobSweepJob({ db: s.t.deps.db, blobs: s.t.bookings.proof.blobs }), { db: s.t.deps.db, now: () => s.clock.now, logger: silent });
    cleanup.push(() => sweep.stop());
    await sweep.tick();
    expect(s.storedFiles()).toEqual([]);
    expect(s.t.deps.db.$client.prepare('select count(*) as n from blob_deletions').get()).toEqual({ n: 0 });
  });
});

describe('with S3_BUCKET set', () => {
  it('stores the files in the S3-compatible store and serves them from it; a refused upload leaves no object', async () => {
    const s3 = await startS3Fake();
    cleanup.push(() => s3.close());
    const s = await setup(s3.env());
    const driver = await accepted(s);
    const photo = jpegFile();
    const res = await upload(s, driver, photo);
    expect(res.status).toBe(201);
    expect(s3.objects.size).toBe(2);
    expect([...s3.objects.values()].some((o) => o.body.equals(photo))).toBe(true);
    expect(s.storedFiles()).toEqual([]);
    const shown = await bytes(s, `/api/jobs/${s.jobToken}/files/${res.json.id}`);
    expect(shown.body.includes(GPS_MARK)).toBe(false);
    expect((await upload(s, driver, Buffer.from('not an image at all'))).status).toBe(415);
    expect(s3.objects.size).toBe(2);
  });
});
