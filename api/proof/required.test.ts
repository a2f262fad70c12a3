// The operator's photo rule on the server (docs/product.md, "Proof of condition", decision 050):
// Loaded and Completed are refused while a required side is neither received nor declared queued
// by the phone, by the driver's link and by the signed-in driver alike; what the phone declares is
// kept as promised until it arrives, and a move never waits for an upload.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp, quoteBody, TEST_ORIGIN } from '../test/harness';
import { jpegFile } from '../test/images';

async function setup(rule: { photosBeforeLoaded?: boolean; photosBeforeCompleted?: boolean }) {
  const t = createTestApp({
    now: () => new Date('2026-06-10T12:00:00Z'),
    env: { UPLOADS_PATH: mkdtempSync(path.join(tmpdir(), 'proof-required-')), UPLOAD_RATE_LIMIT: '0' },
  });
  const op = await t.operator();
  expect((await t.call('PUT', '/api/proof-settings', { token: op.token, body: rule })).status).toBe(200);
  const q = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: op.companyId } });
  const booked = await t.call('POST', '/api/bookings', {
    body: {
      quoteId: q.json.quoteId,
      bookingKey: `proof-required-${Math.random().toString(36).slice(2, 12)}`,
      name: 'Jane Motorist',
      phone: '07700 900123',
      registration: 'AB12CDE',
    },
  });
  expect(booked.status).toBe(201);
  const reference = q.json.quoteId as string;
  const accept = await t.call('POST', `/api/bookings/${reference}/accept`, { token: op.token, body: { etaMinutes: 20, driverName: 'Sam' } });
  const driver = (accept.json.driverUrl as string).split('/driver/')[1];
  const step = (status: string, extra: Record<string, unknown> = {}) => t.call('POST', `/api/driver/${driver}/status`, { body: { status, ...extra } });
  let n = 0;
  const photo = async (stage: string, slot: string, uploadId = `photo-${(n += 1)}-${Math.random().toString(36).slice(2, 12)}`) => {
    const params = new URLSearchParams({ uploadId, stage, kind: 'photo', slot, takenAt: '2026-06-10T12:10:00.000Z' });
    const res = await t.app.request(`${TEST_ORIGIN}/api/driver/${driver}/files?${params}`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg' },
      body: new Uint8Array(jpegFile()),
    });
    expect(res.status).toBe(201);
  };
  const status = async () => (await t.call('GET', `/api/driver/${driver}`)).json.status as string;
  const proof = async () => (await t.call('GET', `/api/bookings/${reference}/proof`, { token: op.token })).json;
  return { t, op, reference, driver, step, photo, status, proof };
}

const id = (n: number) => `queued-upload-${n}-abcdefgh`;

describe('the operator’s required photos, on the server', () => {
  it('refuses Loaded without the four pickup photos, naming the sides missing, and changes nothing', async () => {
    const s = await setup({ photosBeforeLoaded: true });
    for (const status of ['on_the_way', 'arrived']) expect((await s.step(status)).status).toBe(200);
    const none = await s.step('loaded');
    expect(none.status).toBe(409);
    expect(none.json).toMatchObject({ code: 'PHOTOS_REQUIRED', message: 'Take the pickup photos first: front, rear, left side and right side are missing.' });
    expect(none.json.requestId).toBeTruthy();
    await s.photo('pickup', 'front');
    await s.photo('pickup', 'rear');
    await s.photo('pickup', 'left');
    // A drop-off photo or a damage close-up is no pickup side.
    await s.photo('dropoff', 'right');
    await s.photo('pickup', 'damage');
    const one = await s.step('loaded');
    expect(one.status).toBe(409);
    expect(one.json.message).toBe('Take the pickup photos first: right side is missing.');
    expect(await s.status()).toBe('arrived');
    await s.photo('pickup', 'right');
    expect((await s.step('loaded')).status).toBe(200);
    expect(await s.status()).toBe('loaded');
  });

  it('takes photos the phone declares queued, never waiting for them, and shows them as awaited until they arrive', async () => {
    const s = await setup({ photosBeforeLoaded: true, photosBeforeCompleted: true });
    for (const status of ['on_the_way', 'arrived']) await s.step(status);
    await s.photo('pickup', 'front', id(1));
    const queued = [
      { uploadId: id(1), slot: 'front' },
      { uploadId: id(2), slot: 'rear' },
      { uploadId: id(3), slot: 'left' },
    ];
    const short = await s.step('loaded', { queuedPhotos: queued });
    expect(short.status).toBe(409);
    expect(short.json.message).toBe('Take the pickup photos first: right side is missing.');
    // A refused move promises nothing.
    expect((await s.proof()).awaiting).toEqual([]);

    expect((await s.step('loaded', { queuedPhotos: [...queued, { uploadId: id(4), slot: 'right' }] })).status).toBe(200);
    // The one received already is no promise; the other three are awaited.
    expect((await s.proof()).awaiting).toEqual(['rear', 'left', 'right'].map((slot) => ({ stage: 'pickup', slot, promisedAt: '2026-06-10T12:00:00.000Z' })));
    await s.photo('pickup', 'rear', id(2));
    expect((await s.proof()).awaiting.map((a: { slot: string }) => a.slot)).toEqual(['left', 'right']);

    // The drop-off's rule at Completed: the pickup's photos do not count for it.
    const completed = await s.step('completed');
    expect(completed.status).toBe(409);
    expect(completed.json.message).toBe('Take the drop-off photos first: front, rear, left side and right side are missing.');
  });

  it('moves without photos when the rule is off, and refuses queuedPhotos with any other step with 400', async () => {
    const s = await setup({});
    expect((await s.step('on_the_way', { queuedPhotos: [{ uploadId: id(1), slot: 'front' }] })).json).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { queuedPhotos: 'Queued photos are sent only with Loaded or Completed' },
    });
    const bad = await s.step('on_the_way', { queuedPhotos: [{ uploadId: 'x', slot: 'roof' }] });
    expect(bad.status).toBe(400);
    for (const status of ['on_the_way', 'arrived', 'loaded', 'completed']) expect((await s.step(status)).status).toBe(200);
  });

  it('holds the signed-in driver’s own job to the same rule', async () => {
    const s = await setup({ photosBeforeLoaded: true });
    expect((await s.t.call('POST', `/api/bookings/${s.reference}/assign`, { token: s.op.token, body: { driverId: s.op.user.id, truckId: null } })).status).toBe(
      200,
    );
    const mine = (status: string, extra: Record<string, unknown> = {}) =>
      s.t.call('POST', `/api/my-jobs/${s.reference}/status`, { token: s.op.token, body: { status, ...extra } });
    for (const status of ['on_the_way', 'arrived']) expect((await mine(status)).status).toBe(200);
    const refused = await mine('loaded');
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('PHOTOS_REQUIRED');
    const slots = ['front', 'rear', 'left', 'right'].map((slot, i) => ({ uploadId: id(10 + i), slot }));
    expect((await mine('loaded', { queuedPhotos: slots })).status).toBe(200);
  });
});
