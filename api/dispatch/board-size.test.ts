// The dispatch board's read for a busy day (docs/budgets.md "Dispatch"): 200 open jobs, some with a
// driver and a truck, as the board's first screen waits for it. Sizes, not times: what goes over
// the wire (gzipped, as every browser asks) and what the page then parses; the stream beside it
// is never compressed, which would hold its events back.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createTestApp, quoteBody, TEST_ORIGIN } from '../test/harness';

const BOARD_JOBS = 200;
/** The board's read of BOARD_JOBS jobs as sent, gzipped (about 4 KB; 81 KB uncompressed before). */
const BOARD_WIRE_BUDGET_BYTES = 8_000;
/** The same read decoded, what the page parses: only what the board shows or needs to assign (89 KB before). */
const BOARD_JSON_BUDGET_BYTES = 80_000;

async function busyBoard() {
  const t = createTestApp({ env: { BOOKING_RATE_LIMIT: '0', BOOKING_COMPANY_RATE_LIMIT: '0' } });
  const owner = await t.operator('active');
  expect((await t.call('PUT', '/api/booking-settings', { token: owner.token, body: { offerBooking: true } })).status).toBe(200);
  const driver = await t.teammate(owner, 'driver');
  const trucks: number[] = [];
  for (const [name, kind] of [
    ['Flatbed 1', 'flatbed'],
    ['Flatbed 2', 'flatbed'],
    ['Lift 1', 'wheel_lift'],
    ['HGV 1', 'hgv'],
  ]) {
    const truck = await t.call('POST', '/api/trucks', { token: owner.token, body: { name, kind, maxWeightKg: 3500, defaultDriverId: driver.id } });
    expect(truck.status).toBe(201);
    trucks.push(truck.json.id);
  }
  for (let n = 0; n < BOARD_JOBS; n += 1) {
    const quote = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: owner.companyId } });
    expect(quote.status).toBe(200);
    const booked = await t.call('POST', '/api/bookings', {
      body: { quoteId: quote.json.quoteId, bookingKey: `board-size-booking-${n}-0000`, name: 'Jane Motorist', phone: '07700 900123', registration: 'AB12CDE' },
    });
    expect(booked.status).toBe(201);
    // Half of the day's jobs already have a driver and a truck.
    if (n % 2 === 0) {
      const assigned = await t.call('POST', `/api/bookings/${quote.json.quoteId}/assign`, {
        token: owner.token,
        body: { driverId: driver.id, truckId: trucks[n % trucks.length] },
      });
      expect(assigned.status).toBe(200);
    }
  }
  const read = (headers: Record<string, string>) => t.app.request(`${TEST_ORIGIN}/api/board`, { headers: { 'x-auth-token': owner.token, ...headers } });
  return { t, owner, read };
}

describe('the board’s read of a busy day', () => {
  it(`is at most ${BOARD_WIRE_BUDGET_BYTES / 1000} KB on the wire for ${BOARD_JOBS} jobs, gzipped, and the same board when decoded`, {
    timeout: 60_000,
  }, async () => {
    const { read } = await busyBoard();
    const gzipped = await read({ 'accept-encoding': 'gzip, deflate, br' });
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.headers.get('vary')).toMatch(/accept-encoding/i);
    const wire = new Uint8Array(await gzipped.arrayBuffer());
    expect(wire.length).toBeLessThanOrEqual(BOARD_WIRE_BUDGET_BYTES);

    // A client that does not ask for gzip gets the same JSON as it is.
    const plain = await read({});
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    expect(gunzipSync(wire).toString('utf8')).toBe(text);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(BOARD_JSON_BUDGET_BYTES);
    const board = JSON.parse(text);
    expect(board.jobs).toHaveLength(BOARD_JOBS);
    expect(board.requested).toBe(BOARD_JOBS);
    expect(board.jobs.filter((j: { truck: unknown }) => j.truck !== null)).toHaveLength(BOARD_JOBS / 2);
  });

  it('leaves the board’s live stream uncompressed, whatever the browser accepts', async () => {
    const t = createTestApp();
    const owner = await t.operator('active');
    const stream = await t.app.request(`${TEST_ORIGIN}/api/board/events`, { headers: { 'x-auth-token': owner.token, 'accept-encoding': 'gzip' } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('content-encoding')).toBeNull();
    await stream.body?.cancel();
  });
});
