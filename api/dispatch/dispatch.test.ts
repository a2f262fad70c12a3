// The team's dispatch end to end through the real app (docs/product.md §23): trucks and what a
// vehicle type needs of one, assigning a job (a truck that cannot carry it only when confirmed),
// the driver told at once (a text through the outbox, and their open screen), a driver reading and
// moving only their own jobs, the board, and jobs for later (slots, a full hour, the reminder).
import { afterEach, describe, expect, it } from 'vitest';
import { mailOutboxJobs } from '../mail/worker';
import { bookings as bookingsTable, mailOutbox } from '../platform/db/schema';
import { createTestApp, quoteBody, runnerFor } from '../test/harness';
import { startSmsFake, type SmsFake } from '../test/sms-fake';
import { boardKey, personKey } from './live';
import { laterReminderJob } from './reminders';
import { eq } from 'drizzle-orm';
import { laterSlot } from './later';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});
const silent = { info: () => {}, warn: () => {}, error: () => {} };

async function setup() {
  // 10:00 in London (BST) on a Wednesday.
  const clock = { now: new Date('2026-06-10T09:00:00Z') };
  const fake: SmsFake = await startSmsFake();
  cleanup.push(() => fake.close());
  const t = createTestApp({ now: () => clock.now, env: { ...fake.env() } });
  const now = () => clock.now;
  const worker = runnerFor(mailOutboxJobs({ db: t.deps.db, config: t.config, logger: silent, now }), { db: t.deps.db, logger: silent, now });
  cleanup.push(() => worker.stop());
  const owner = await t.operator('active');
  expect((await t.call('PUT', '/api/booking-settings', { token: owner.token, body: { offerBooking: true } })).status).toBe(200);
  let n = 0;
  const book = async (extra: Record<string, unknown> = {}) => {
    n += 1;
    const quote = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: owner.companyId, ...extra } });
    expect(quote.status).toBe(200);
    const res = await t.call('POST', '/api/bookings', {
      body: {
        quoteId: quote.json.quoteId,
        bookingKey: `dispatch-test-booking-${n}-000`,
        name: 'Jane Motorist',
        phone: '07700 900123',
        registration: 'AB12CDE',
      },
    });
    return { res, reference: quote.json.quoteId as string, jobToken: res.json?.jobToken as string };
  };
  const frames = (key: string) => {
    const got: string[] = [];
    const admission = t.bookings.live.join(key, 'test', { send: (frame) => got.push(new TextDecoder().decode(frame)), close: () => {} });
    if (!admission.ok) throw new Error('stream refused');
    cleanup.push(() => admission.leave());
    return got;
  };
  const advance = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));
  return { t, fake, clock, worker, owner, book, frames, advance };
}

describe('trucks', () => {
  it('are listed, added, changed and deleted by the office; a default driver must be a driver of the company', async () => {
    const { t, owner } = await setup();
    const dispatcher = await t.teammate(owner, 'dispatcher');
    const driver = await t.teammate(owner, 'driver');
    const created = await t.call('POST', '/api/trucks', {
      token: dispatcher.token,
      body: { name: 'Flatbed 1', kind: 'flatbed', maxWeightKg: 3500, defaultDriverId: driver.id },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: 'Flatbed 1', kind: 'flatbed', maxWeightKg: 3500, evAllowed: true, defaultDriver: { id: driver.id } });
    const changed = await t.call('PUT', `/api/trucks/${created.json.id}`, { token: owner.token, body: { evAllowed: false, maxWeightKg: 2600 } });
    expect(changed.json).toMatchObject({ evAllowed: false, maxWeightKg: 2600 });
    expect((await t.call('GET', '/api/trucks', { token: owner.token })).json).toHaveLength(1);

    // The owner and the dispatcher are not drivers, and another company's driver is nobody here.
    const otherOwner = await t.operator();
    const otherDriver = await t.teammate(otherOwner, 'driver');
    for (const id of [owner.user.id, dispatcher.id, otherDriver.id, 999_999]) {
      const refused = await t.call('PUT', `/api/trucks/${created.json.id}`, { token: owner.token, body: { defaultDriverId: id } });
      expect(refused.status).toBe(400);
      expect(refused.json.fields.defaultDriverId).toBe('Default driver must be a driver of the company');
    }
    const bad = await t.call('POST', '/api/trucks', { token: owner.token, body: { name: ' ', kind: 'crane', maxWeightKg: 10 } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.fields).sort()).toEqual(['kind', 'maxWeightKg', 'name']);
    expect((await t.call('PUT', '/api/trucks/abc', { token: owner.token, body: { maxWeightKg: 2000 } })).status).toBe(404);

    expect((await t.call('DELETE', `/api/trucks/${created.json.id}`, { token: dispatcher.token })).status).toBe(200);
    expect((await t.call('DELETE', `/api/trucks/${created.json.id}`, { token: dispatcher.token })).status).toBe(404);
    expect((await t.call('GET', '/api/trucks', { token: owner.token })).json).toEqual([]);
  });

  it('vehicle types name the kinds that may carry them, their weight and whether they are electric', async () => {
    const { t, owner } = await setup();
    const types = (await t.call('GET', '/api/vehicle-type-carriage', { token: owner.token })).json;
    const car = types.find((v: { vehicleType: string }) => v.vehicleType === 'Car');
    expect(car).toMatchObject({ truckKinds: [], weightKg: null, electric: false });
    const set = await t.call('PUT', `/api/vehicle-types/${car.vehicleTypeId}/carriage`, {
      token: owner.token,
      body: { truckKinds: ['flatbed'], weightKg: 1500, electric: true },
    });
    expect(set.json).toMatchObject({ vehicleType: 'Car', truckKinds: ['flatbed'], weightKg: 1500, electric: true });
    const twice = await t.call('PUT', `/api/vehicle-types/${car.vehicleTypeId}/carriage`, { token: owner.token, body: { truckKinds: ['flatbed', 'flatbed'] } });
    expect(twice.status).toBe(400);
  });
});

describe('assigning a job', () => {
  it('asks to confirm a truck that cannot carry the vehicle, changes nothing until confirmed, then records who confirmed it', async () => {
    const { t, owner, book } = await setup();
    const dispatcher = await t.teammate(owner, 'dispatcher');
    const driver = await t.teammate(owner, 'driver');
    const car = (await t.call('GET', '/api/vehicle-type-carriage', { token: owner.token })).json.find((v: { vehicleType: string }) => v.vehicleType === 'Car');
    await t.call('PUT', `/api/vehicle-types/${car.vehicleTypeId}/carriage`, { token: owner.token, body: { truckKinds: ['flatbed'] } });
    const flatbed = (await t.call('POST', '/api/trucks', { token: owner.token, body: { name: 'Flatbed', kind: 'flatbed', maxWeightKg: 3500 } })).json;
    const lift = (await t.call('POST', '/api/trucks', { token: owner.token, body: { name: 'Lift', kind: 'wheel_lift', maxWeightKg: 3500 } })).json;
    const { reference } = await book();

    const board = (await t.call('GET', '/api/board', { token: dispatcher.token })).json;
    expect(board.requested).toBe(1);
    expect(board.jobs[0]).toMatchObject({ reference, status: 'requested', driver: null, truck: null, capableTruckIds: [flatbed.id] });

    const refused = await t.call('POST', `/api/bookings/${reference}/assign`, { token: dispatcher.token, body: { driverId: driver.id, truckId: lift.id } });
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('TRUCK_CANNOT_CARRY');
    expect(refused.json.message).toBe('This vehicle type is not carried on a wheel-lift truck. Assign it anyway?');
    expect((await t.call('GET', '/api/board', { token: dispatcher.token })).json.jobs[0]).toMatchObject({ driver: null, truck: null });

    const confirmed = await t.call('POST', `/api/bookings/${reference}/assign`, {
      token: dispatcher.token,
      body: { driverId: driver.id, truckId: lift.id, confirm: true },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toMatchObject({ driver: { id: driver.id }, truck: { id: lift.id, kind: 'wheel_lift' }, truckOverride: true });
    const row = t.deps.db.select().from(bookingsTable).all()[0];
    expect(row.truckOverrideBy).toBe(dispatcher.id);

    // A capable truck clears the record.
    const fits = await t.call('POST', `/api/bookings/${reference}/assign`, { token: dispatcher.token, body: { driverId: driver.id, truckId: flatbed.id } });
    expect(fits.json.truckOverride).toBe(false);
  });

  it('refuses a driver or truck that is not the company’s, and a finished job', async () => {
    const { t, owner, book } = await setup();
    const other = await t.operator();
    const theirDriver = await t.teammate(other, 'driver');
    const theirTruck = (await t.call('POST', '/api/trucks', { token: other.token, body: { name: 'Theirs', kind: 'flatbed', maxWeightKg: 3500 } })).json;
    const { reference, jobToken } = await book();
    const driver = await t.call('POST', `/api/bookings/${reference}/assign`, { token: owner.token, body: { driverId: theirDriver.id, truckId: null } });
    expect(driver.status).toBe(400);
    expect(driver.json.fields.driverId).toBe('Driver must be a person of the company');
    const truck = await t.call('POST', `/api/bookings/${reference}/assign`, { token: owner.token, body: { driverId: null, truckId: theirTruck.id } });
    expect(truck.json.fields.truckId).toBe('Truck must be one of the company’s trucks');
    expect((await t.call('POST', `/api/bookings/${reference}/assign`, { token: other.token, body: { driverId: null, truckId: null } })).status).toBe(404);
    await t.call('POST', `/api/jobs/${jobToken}/cancel`, {});
    const finished = await t.call('POST', `/api/bookings/${reference}/assign`, { token: owner.token, body: { driverId: owner.user.id, truckId: null } });
    expect(finished.status).toBe(409);
    expect(finished.json.code).toBe('BOOKING_OUT_OF_ORDER');
  });

  it('tells the driver at once, by text and on their open screen; a reassigned job leaves the first driver’s list and screen', async () => {
    const { t, fake, owner, book, worker, frames } = await setup();
    const a = await t.teammate(owner, 'driver');
    const b = await t.teammate(owner, 'driver');
    expect((await t.call('PUT', '/api/me/phone', { token: a.token, body: { phone: '07700 900456' } })).json).toEqual({ phone: '+447700900456' });
    expect((await t.call('PUT', '/api/me/phone', { token: b.token, body: { phone: '0161 496 0000' } })).status).toBe(400);
    const aScreen = frames(personKey(a.id));
    const bScreen = frames(personKey(b.id));
    const board = frames(boardKey(owner.companyId));
    const { reference } = await book();
    expect(board.some((f) => f.includes(reference) && f.includes('requested'))).toBe(true);
    await t.call('POST', `/api/bookings/${reference}/accept`, { token: owner.token, body: { etaMinutes: 20 } });

    expect((await t.call('POST', `/api/bookings/${reference}/assign`, { token: owner.token, body: { driverId: a.id, truckId: null } })).status).toBe(200);
    expect(aScreen.some((f) => f.includes(reference))).toBe(true);
    expect((await t.call('GET', '/api/my-jobs', { token: a.token })).json.map((j: { reference: string }) => j.reference)).toEqual([reference]);
    await worker.tick();
    const texts = fake.received.filter((m) => m.to === '+447700900456');
    expect(texts.map((m) => m.body)).toEqual([
      `RecoveryQuote: job TQ-${reference} is yours: M1 1AE to M4 4BF. Open it: ${t.config.publicUrl}/dashboard/my-jobs`,
    ]);

    await t.call('POST', `/api/bookings/${reference}/assign`, { token: owner.token, body: { driverId: b.id, truckId: null } });
    expect(aScreen.some((f) => f.includes('"removed":true'))).toBe(true);
    expect(bScreen.some((f) => f.includes(reference))).toBe(true);
    expect((await t.call('GET', '/api/my-jobs', { token: a.token })).json).toEqual([]);
    expect((await t.call('GET', `/api/my-jobs/${reference}`, { token: a.token })).status).toBe(404);
    await worker.tick();
    expect(fake.received.filter((m) => m.to === '+447700900456').at(-1)?.body).toBe(`RecoveryQuote: job TQ-${reference} is no longer yours. Do not go to it.`);
  });
  it('writes every assignment, reassignment, unassignment and confirmed override in the audit log, with the person, the job and old and new values', async () => {
    const { t, owner, book } = await setup();
    const dispatcher = await t.teammate(owner, 'dispatcher');
    const a = await t.teammate(owner, 'driver');
    const b = await t.teammate(owner, 'driver');
    const car = (await t.call('GET', '/api/vehicle-type-carriage', { token: owner.token })).json.find((v: { vehicleType: string }) => v.vehicleType === 'Car');
    await t.call('PUT', `/api/vehicle-types/${car.vehicleTypeId}/carriage`, { token: owner.token, body: { truckKinds: ['flatbed'] } });
    const flatbed = (await t.call('POST', '/api/trucks', { token: owner.token, body: { name: 'Flatbed', kind: 'flatbed', maxWeightKg: 3500 } })).json;
    const lift = (await t.call('POST', '/api/trucks', { token: owner.token, body: { name: 'Lift', kind: 'wheel_lift', maxWeightKg: 3500 } })).json;
    const { reference } = await book();
    const assign = (body: Record<string, unknown>) => t.call('POST', `/api/bookings/${reference}/assign`, { token: dispatcher.token, body });
    const assignments = async () =>
      (await t.call('GET', '/api/audit?kind=booking-assigned', { token: owner.token })).json.events.slice().reverse() as Array<Record<string, unknown>>;

    expect((await assign({ driverId: a.id, truckId: flatbed.id })).status).toBe(200);
    // The same driver and truck again is no change; a refused truck changes nothing and logs nothing.
    expect((await assign({ driverId: a.id, truckId: flatbed.id })).status).toBe(200);
    expect((await assign({ driverId: a.id, truckId: lift.id })).status).toBe(409);
    expect((await assign({ driverId: b.id, truckId: lift.id, confirm: true })).status).toBe(200);
    expect((await assign({ driverId: null, truckId: null })).status).toBe(200);

    const events = await assignments();
    expect(events).toHaveLength(3);
    for (const e of events)
      expect(e).toMatchObject({ personId: dispatcher.id, personName: dispatcher.user.name, subject: reference, requestId: expect.any(String) });
    expect(events.map(({ before, after }) => ({ before, after }))).toEqual([
      { before: { driver: null, truck: null }, after: { driver: { id: a.id, name: a.user.name }, truck: { id: flatbed.id, name: 'Flatbed' } } },
      {
        before: { driver: { id: a.id, name: a.user.name }, truck: { id: flatbed.id, name: 'Flatbed' } },
        after: { driver: { id: b.id, name: b.user.name }, truck: { id: lift.id, name: 'Lift' }, truckOverride: true },
      },
      { before: { driver: { id: b.id, name: b.user.name }, truck: { id: lift.id, name: 'Lift' } }, after: { driver: null, truck: null } },
    ]);
  });

  it('logs the accept of a job for later, and its driver, as the person who did it', async () => {
    const { t, owner, book } = await setup();
    const dispatcher = await t.teammate(owner, 'dispatcher');
    const driver = await t.teammate(owner, 'driver');
    const job = await book({ urgency: 'later', preferredDate: '2026-06-11', preferredTime: '09:00' });
    expect(job.res.status).toBe(201);
    const accepted = await t.call('POST', `/api/bookings/${job.reference}/accept-later`, {
      token: dispatcher.token,
      body: { windowMinutes: 60, driverId: driver.id },
    });
    expect(accepted.status).toBe(200);
    const events = (await t.call('GET', '/api/audit', { token: owner.token })).json.events.filter((e: { subject: string }) => e.subject === job.reference);
    expect(events.map((e: { kind: string; personId: number }) => [e.kind, e.personId])).toEqual([
      ['booking-assigned', dispatcher.id],
      ['booking-accepted', dispatcher.id],
    ]);
    expect(events[1].after).toMatchObject({ status: 'accepted', windowMinutes: 60 });
  });
});

describe('the driver told when their job will not happen', () => {
  it('texts the assigned driver once when the motorist cancels or the office declines, and no one without a number', async () => {
    const { t, fake, owner, book, worker } = await setup();
    const a = await t.teammate(owner, 'driver');
    const silentDriver = await t.teammate(owner, 'driver');
    expect((await t.call('PUT', '/api/me/phone', { token: a.token, body: { phone: '07700 900457' } })).status).toBe(200);
    const cancelled = await book();
    await t.call('POST', `/api/bookings/${cancelled.reference}/accept`, { token: owner.token, body: { etaMinutes: 20 } });
    expect((await t.call('POST', `/api/bookings/${cancelled.reference}/assign`, { token: owner.token, body: { driverId: a.id, truckId: null } })).status).toBe(
      200,
    );
    expect((await t.call('POST', `/api/jobs/${cancelled.jobToken}/cancel`)).status).toBe(200);
    const declined = await book();
    expect((await t.call('POST', `/api/bookings/${declined.reference}/assign`, { token: owner.token, body: { driverId: a.id, truckId: null } })).status).toBe(
      200,
    );
    expect((await t.call('POST', `/api/bookings/${declined.reference}/decline`, { token: owner.token, body: { reason: 'No truck free' } })).status).toBe(200);
    const other = await book();
    await t.call('POST', `/api/bookings/${other.reference}/accept`, { token: owner.token, body: { etaMinutes: 20 } });
    await t.call('POST', `/api/bookings/${other.reference}/assign`, { token: owner.token, body: { driverId: silentDriver.id, truckId: null } });
    expect((await t.call('POST', `/api/jobs/${other.jobToken}/cancel`)).status).toBe(200);
    await worker.tick();
    await worker.tick();
    // In the outbox's order (a booking's own messages first), not necessarily the order written.
    expect(
      fake.received
        .filter((m) => m.to === '+447700900457')
        .map((m) => m.body)
        .sort(),
    ).toEqual(
      [
        `RecoveryQuote: job TQ-${cancelled.reference} is yours: M1 1AE to M4 4BF. Open it: ${t.config.publicUrl}/dashboard/my-jobs`,
        `RecoveryQuote: job TQ-${cancelled.reference} is cancelled. Do not go to it; if you set off, turn back.`,
        `RecoveryQuote: job TQ-${declined.reference} is yours: M1 1AE to M4 4BF. Open it: ${t.config.publicUrl}/dashboard/my-jobs`,
        `RecoveryQuote: job TQ-${declined.reference} was declined. Do not go to it.`,
      ].sort(),
    );
    // Each once: the outbox holds one text per job and kind.
    const rows = t.deps.db.select().from(mailOutbox).all();
    expect(rows.filter((r) => r.to === '+447700900457' && /cancelled|declined/.test(r.text))).toHaveLength(2);
  });
});

describe('a driver’s own jobs', () => {
  it('reads and moves only the jobs assigned to them, without the driver’s link; the motorist’s cancel reaches their screen', async () => {
    const { t, owner, book, frames } = await setup();
    const a = await t.teammate(owner, 'driver');
    const b = await t.teammate(owner, 'driver');
    const first = await book();
    const second = await book();
    for (const job of [first, second]) await t.call('POST', `/api/bookings/${job.reference}/accept`, { token: owner.token, body: { etaMinutes: 20 } });
    await t.call('POST', `/api/bookings/${first.reference}/assign`, { token: owner.token, body: { driverId: a.id, truckId: null } });
    await t.call('POST', `/api/bookings/${second.reference}/assign`, { token: owner.token, body: { driverId: b.id, truckId: null } });

    // B's job, unassigned ones and the office's routes are not A's.
    expect((await t.call('GET', `/api/my-jobs/${second.reference}`, { token: a.token })).status).toBe(404);
    const move = await t.call('POST', `/api/my-jobs/${second.reference}/status`, { token: a.token, body: { status: 'on_the_way' } });
    expect(move.status).toBe(404);
    expect((await t.call('POST', `/api/my-jobs/${second.reference}/position`, { token: a.token, body: { lat: 53.48, lng: -2.24 } })).status).toBe(404);
    expect((await t.call('GET', '/api/bookings', { token: a.token })).status).toBe(403);
    expect((await t.call('GET', '/api/board', { token: a.token })).status).toBe(403);
    expect((await t.call('POST', `/api/bookings/${first.reference}/refund`, { token: a.token, body: { amount: 10 } })).status).toBe(403);
    expect(
      (await t.call('GET', '/api/bookings', { token: owner.token })).json.open.find((j: { reference: string }) => j.reference === second.reference).status,
    ).toBe('accepted');

    const mine = await t.call('GET', `/api/my-jobs/${first.reference}`, { token: a.token });
    expect(mine.json).toMatchObject({ reference: first.reference, status: 'accepted', customerName: 'Jane Motorist' });
    for (const status of ['on_the_way', 'arrived']) {
      const res = await t.call('POST', `/api/my-jobs/${first.reference}/status`, { token: a.token, body: { status } });
      expect(res.json.status).toBe(status);
    }
    const skip = await t.call('POST', `/api/my-jobs/${first.reference}/status`, { token: a.token, body: { status: 'completed' } });
    expect(skip.json.code).toBe('BOOKING_OUT_OF_ORDER');

    const bScreen = frames(personKey(b.id));
    await t.call('POST', `/api/jobs/${second.jobToken}/cancel`, {});
    expect(bScreen.some((f) => f.includes(second.reference) && f.includes('cancelled'))).toBe(true);
    expect((await t.call('GET', `/api/my-jobs/${second.reference}`, { token: b.token })).json.status).toBe('cancelled');
  });

  it('a job handed out by its link keeps working without any sign-in', async () => {
    const { t, owner, book } = await setup();
    const { reference } = await book();
    const accepted = await t.call('POST', `/api/bookings/${reference}/accept`, { token: owner.token, body: { etaMinutes: 20 } });
    const token = new URL(accepted.json.driverUrl).pathname.split('/').at(-1) ?? '';
    expect((await t.call('POST', `/api/driver/${token}/status`, { body: { status: 'on_the_way' } })).json.status).toBe('on_the_way');
  });
});

describe('jobs for later', () => {
  const later = (date: string, time: string) => ({ urgency: 'later', preferredDate: date, preferredTime: time });

  it('books the slot, refuses a full hour offering the next free one, and a day past how far ahead the company books', async () => {
    const { t, owner, book } = await setup();
    expect((await t.call('PUT', '/api/later-settings', { token: owner.token, body: { jobsPerHour: 1, daysAhead: 7 } })).json).toEqual({
      daysAhead: 7,
      jobsPerHour: 1,
    });
    const first = await book(later('2026-06-11', '09:00'));
    expect(first.res.status).toBe(201);
    expect(first.res.json.job.scheduledFor).toBe('2026-06-11T08:00:00.000Z');

    const full = await book(later('2026-06-11', '09:30'));
    expect(full.res.status).toBe(409);
    expect(full.res.json).toMatchObject({ code: 'SLOT_FULL', nextSlot: '2026-06-11T09:00:00.000Z' });
    expect(full.res.json.message).toBe('This hour is fully booked. The next free time is Thursday 10:00.');
    expect(t.deps.db.select().from(bookingsTable).all()).toHaveLength(1);

    const far = await book(later('2026-06-30', '09:00'));
    expect(far.res.status).toBe(409);
    expect(far.res.json.code).toBe('SLOT_OUT_OF_RANGE');
    expect((await book(later('2026-06-11', '10:15'))).res.status).toBe(201);
  });

  it('is accepted with a window and a driver, shown on its day, and its motorist reminded an hour before, once', async () => {
    const { t, fake, owner, book, worker, advance } = await setup();
    const driver = await t.teammate(owner, 'driver');
    const job = await book(later('2026-06-11', '09:00'));
    const now = await book();
    const notLater = await t.call('POST', `/api/bookings/${now.reference}/accept-later`, { token: owner.token, body: { windowMinutes: 60 } });
    expect(notLater.json.code).toBe('NOT_A_LATER_JOB');
    const accepted = await t.call('POST', `/api/bookings/${job.reference}/accept-later`, {
      token: owner.token,
      body: { windowMinutes: 60, driverId: driver.id },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ status: 'accepted', scheduledFor: '2026-06-11T08:00:00.000Z', windowMinutes: 60, driver: { id: driver.id } });
    // Not on the driver's list today, even just after midnight (London's, not UTC's); on it tomorrow.
    const night = await book(later('2026-06-11', '01:00'));
    await t.call('POST', `/api/bookings/${night.reference}/assign`, { token: owner.token, body: { driverId: driver.id, truckId: null } });
    expect((await t.call('GET', '/api/my-jobs', { token: driver.token })).json).toEqual([]);

    const reminders = runnerFor(laterReminderJob(t.bookings.service), { db: t.deps.db, now: () => t.deps.now() });
    cleanup.push(() => reminders.stop());
    advance(22 * 3_600_000); // 07:00 UTC: 08:00 in London, an hour before
    expect((await t.call('GET', '/api/my-jobs', { token: driver.token })).json.map((j: { reference: string }) => j.reference)).toEqual([
      night.reference,
      job.reference,
    ]);
    await reminders.tick();
    await reminders.tick();
    await worker.tick();
    const sent = fake.received.filter((m) => m.body.includes('reminder'));
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toMatch(
      new RegExp(
        `^Company \\d+: reminder, your recovery TQ-${job.reference} is Thursday 11 June between 09:00 and 10:00\\. Follow it here: ${t.config.publicUrl}/job/`,
      ),
    );
    // The stored text holds no token (the outbox puts the link in as it sends).
    const stored = t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.to, '+447700900123')).all();
    expect(stored.every((row) => !row.text.includes('/job/'))).toBe(true);
  });

  it('reads a London date and time across the clock changes', () => {
    expect(laterSlot('2026-01-15', '09:00')?.toISOString()).toBe('2026-01-15T09:00:00.000Z');
    expect(laterSlot('2026-07-15', '09:00')?.toISOString()).toBe('2026-07-15T08:00:00.000Z');
    expect(laterSlot('2026-03-29', '12:00')?.toISOString()).toBe('2026-03-29T11:00:00.000Z');
    expect(laterSlot('2026-10-25', '12:00')?.toISOString()).toBe('2026-10-25T12:00:00.000Z');
    expect(laterSlot(null, '09:00')).toBeNull();
  });
});
