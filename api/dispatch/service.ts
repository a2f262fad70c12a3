// The dispatch's rules (docs/product.md §23): the company's trucks and what each vehicle type
// needs of one; assigning a job to a person and a truck (a truck that cannot carry the vehicle
// only when confirmed, and recorded); the board; the signed-in person's own jobs, which they alone
// of the drivers may read and move (404 for any other); jobs for later accepted with a window; the
// company's limits on later bookings. A driver is told of a job given to them or taken off them at
// once: a text through the outbox when they have a mobile number, and their open screen.
import type { QueuedPhoto } from '#shared/proof';
import type { BalanceMethod } from '#shared/payments';
import { isFinished, type DriverStep } from '#shared/bookings';
import type { AcceptLaterBody, AssignBody, Board, BoardJob, CarriageBody, LaterSettings, MyJob, TruckBody, TruckRow } from '#shared/dispatch-schemas';
import { bookingMessageKey } from '#shared/leads';
import type { Role } from '#shared/roles';
import { whyTruckCannotCarry, type Carriage } from '#shared/trucks';
import type { DriverView } from '#shared/booking-responses';
import type { z } from 'zod';
import type { laterSettingsSchema, truckUpdateSchema } from '#shared/dispatch-schemas';
import type { BookingService } from '../bookings/service';
import { bookingById, type BookingWithQuote } from '../bookings/store';
import { updateCompany, findCompanyById } from '../company/store';
import { addDays, londonDate, londonMidnight } from '../engine/calendar/uk-calendar';
import { insertOutboxRows, type NewOutboxRow } from '../mail/store';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import type { Actor } from '../team/audit';
import { Conflict, NotFound, ValidationFailed } from '../platform/errors';
import type { DispatchLive } from './live';
import { driverMessages } from './messages';
import {
  assignedJobs,
  boardJobs,
  companyCarriage,
  companyPeople,
  companyTrucks,
  deleteTruck,
  dispatchJobById,
  insertTruck,
  personOf,
  setAssignment,
  setCarriage,
  setPersonPhone,
  truckOf,
  updateTruck,
  vehicleTypeOf,
  type CarriageRecord,
  type DispatchJobRow,
  type PersonRow,
  type TruckRecord,
} from './store';

export const TRUCK_NOT_FOUND = 'Truck not found';
export const DEFAULT_DRIVER_NOT_DRIVER = 'Default driver must be a driver of the company';
export const DRIVER_NOT_PERSON = 'Driver must be a person of the company';
export const TRUCK_NOT_OURS = 'Truck must be one of the company’s trucks';
export const JOB_NOT_OPEN = 'This job is finished: it can no longer be assigned.';
export const CONFIRM_TRUCK = 'Assign it anyway?';

type TruckUpdate = z.output<typeof truckUpdateSchema>;
type LaterSettingsBody = z.output<typeof laterSettingsSchema>;

export interface DispatchDeps extends Pick<AppDeps, 'db' | 'config' | 'now' | 'events' | 'audit'> {
  bookings: BookingService;
  live: DispatchLive;
}

/** Whom a job's texts and streams concern: the signed-in person. */
export interface Person {
  id: number;
  companyId: number;
  role: Role;
}

/** A job's driver and truck as the audit log keeps them: ids with the names they had then. */
export interface AssignmentRecord {
  driver: { id: number; name: string } | null;
  truck: { id: number; name: string } | null;
}

export function dispatchService(deps: DispatchDeps) {
  const { db, config, bookings, live } = deps;
  const smsReady = config.sms !== undefined;

  const startOfToday = () => londonMidnight(londonDate(deps.now())).toISOString();

  function toTruck(t: TruckRecord, people: Map<number, PersonRow>): TruckRow {
    const driver = t.defaultDriverId === null ? undefined : people.get(t.defaultDriverId);
    return {
      id: t.id,
      name: t.name,
      kind: t.kind,
      maxWeightKg: t.maxWeightKg,
      evAllowed: t.evAllowed,
      defaultDriver: driver ? { id: driver.id, name: driver.name } : null,
    };
  }
  const peopleOf = (companyId: number) => new Map(companyPeople(db, companyId).map((p) => [p.id, p]));

  function checkDefaultDriver(companyId: number, id: number | null | undefined) {
    if (id === null || id === undefined) return;
    if (personOf(db, companyId, id)?.role !== 'driver') throw new ValidationFailed(DEFAULT_DRIVER_NOT_DRIVER, { defaultDriverId: DEFAULT_DRIVER_NOT_DRIVER });
  }

  const carriageByName = (companyId: number): Map<string, CarriageRecord> => {
    const map = new Map<string, CarriageRecord>();
    // Vehicle types are unique by name within a company (trimmed, any case): the quote keeps the name.
    for (const c of companyCarriage(db, companyId)) map.set(c.vehicleType.trim().toLowerCase(), c);
    return map;
  };
  const carriageOf = (map: Map<string, CarriageRecord>, vehicleType: string): Carriage | null => map.get(vehicleType.trim().toLowerCase()) ?? null;

  function toBoardJob(j: DispatchJobRow, trucks: TruckRecord[], carriage: Map<string, CarriageRecord>): BoardJob {
    const needs = carriageOf(carriage, j.vehicleType);
    return {
      reference: j.reference,
      status: j.status,
      pickupPostcode: j.pickupPostcode,
      destinationPostcode: j.destinationPostcode,
      vehicleType: j.vehicleType,
      registration: j.registration,
      createdAt: j.createdAt,
      statusChangedAt: j.statusChangedAt,
      scheduledFor: j.scheduledFor,
      windowMinutes: j.windowMinutes,
      driver: j.assignedUserId !== null && j.driverPersonName !== null ? { id: j.assignedUserId, name: j.driverPersonName } : null,
      truck: j.truckId !== null && j.truckName !== null && j.truckKind !== null ? { id: j.truckId, name: j.truckName, kind: j.truckKind } : null,
      truckOverride: j.truckOverrideAt !== null,
      capableTruckIds: trucks.filter((t) => whyTruckCannotCarry(t, needs) === null).map((t) => t.id),
    };
  }

  const toMyJob = (j: DispatchJobRow): MyJob => ({
    reference: j.reference,
    status: j.status,
    pickupPostcode: j.pickupPostcode,
    destinationPostcode: j.destinationPostcode,
    vehicleType: j.vehicleType,
    registration: j.registration,
    scheduledFor: j.scheduledFor,
    windowMinutes: j.windowMinutes,
    truck: j.truckName,
  });

  /** A text to a person of the company about a job, through the outbox (its budgets apply); none without a number or provider. */
  function personText(b: { id: number; companyId: number }, to: string | null, step: string, body: string, at: string): NewOutboxRow[] {
    if (!to) return [];
    return [
      {
        companyId: b.companyId,
        bookingId: b.id,
        kind: 'booking',
        channel: 'sms',
        // One text per assignment: the same person given the job again later is told again.
        dedupeKey: `${bookingMessageKey(b.id, 'operator', step)}:${at}`,
        to,
        subject: body.slice(0, 120),
        text: body,
        html: '',
        status: smsReady ? 'pending' : 'unsent',
        attempts: 0,
        nextAttemptAt: smsReady ? at : null,
        lastError: smsReady ? null : 'not sent: no SMS provider configured',
        createdAt: at,
      },
    ];
  }

  // The driver a job is assigned to is texted when it will not happen (a cancellation, by the
  // motorist or the office, or a decline), once, when their number is set: their page may be closed.
  deps.events.on('job.changed', async ({ bookingId, kind }) => {
    if (kind !== 'cancelled' && kind !== 'declined') return;
    const b = bookingById(db, bookingId);
    const driver = b?.assignedUserId ? personOf(db, b.companyId, b.assignedUserId) : undefined;
    if (!b || !driver?.phone) return;
    const at = deps.now().toISOString();
    const texts = personText(b, driver.phone, `${kind}-${driver.id}`, driverMessages[kind](b), at).map((row) => ({
      ...row,
      dedupeKey: bookingMessageKey(b.id, 'operator', `driver-${kind}-${driver.id}`),
    }));
    await write(db, () => insertOutboxRows(db, texts));
  });

  /** The job of the company by reference, as the bookings' rules find it (404 for another company's). */
  function ownJob(companyId: number, reference: string): BookingWithQuote {
    const id = bookings.operatorBookingId(companyId, reference);
    const b = bookingById(db, id);
    if (!b) throw new NotFound('Booking not found');
    return b;
  }

  /** Checks a driver and truck for a job; answers the override to record, or throws 409 TRUCK_CANNOT_CARRY unless confirmed. */
  function checkAssignment(
    b: BookingWithQuote,
    by: Person,
    driverId: number | null | undefined,
    truckId: number | null | undefined,
    confirm: boolean | undefined,
  ) {
    const driver = driverId === null || driverId === undefined ? null : personOf(db, b.companyId, driverId);
    if (driverId !== null && driverId !== undefined && !driver) throw new ValidationFailed(DRIVER_NOT_PERSON, { driverId: DRIVER_NOT_PERSON });
    const truck = truckId === null || truckId === undefined ? null : truckOf(db, b.companyId, truckId);
    if (truckId !== null && truckId !== undefined && !truck) throw new ValidationFailed(TRUCK_NOT_OURS, { truckId: TRUCK_NOT_OURS });
    const why = truck ? whyTruckCannotCarry(truck, carriageOf(carriageByName(b.companyId), b.vehicleType)) : null;
    if (why && confirm !== true) throw new Conflict(`${why} ${CONFIRM_TRUCK}`, 'TRUCK_CANNOT_CARRY');
    return { driver: driver ?? null, truck, overrideBy: why ? by.id : null };
  }

  /** The job's driver and truck now, as the audit log's "before". */
  function assignmentOf(bookingId: number): AssignmentRecord {
    const j = dispatchJobById(db, bookingId);
    return {
      driver: j?.assignedUserId != null && j.driverPersonName !== null ? { id: j.assignedUserId, name: j.driverPersonName } : null,
      truck: j?.truckId != null && j.truckName !== null ? { id: j.truckId, name: j.truckName } : null,
    };
  }

  async function applyAssignment(b: BookingWithQuote, checked: ReturnType<typeof checkAssignment>, who: Actor) {
    const now = deps.now();
    const at = now.toISOString();
    const before = b.assignedUserId;
    const after = checked.driver?.id ?? null;
    const was = assignmentOf(b.id);
    const becomes: AssignmentRecord = {
      driver: checked.driver ? { id: checked.driver.id, name: checked.driver.name } : null,
      truck: checked.truck ? { id: checked.truck.id, name: checked.truck.name } : null,
    };
    // Every change of driver or truck is logged (docs/product.md §23), and so is every confirmed
    // truck that cannot carry the vehicle, even when it was already on the job: the confirmation is
    // the act the log must show. Saving the same driver and truck again changes nothing to record.
    const changed = was.driver?.id !== becomes.driver?.id || was.truck?.id !== becomes.truck?.id;
    const override = checked.overrideBy !== null;
    const texts: NewOutboxRow[] = [];
    if (after !== before) {
      if (checked.driver) texts.push(...personText(b, checked.driver.phone, `assigned-${checked.driver.id}`, driverMessages.assigned(b, config.publicUrl), at));
      const previous = before === null ? undefined : personOf(db, b.companyId, before);
      if (previous) texts.push(...personText(b, previous.phone, `unassigned-${previous.id}`, driverMessages.unassigned(b), at));
    }
    await write(db, () => {
      setAssignment(db, b.id, { userId: after, truckId: checked.truck?.id ?? null, at, overrideBy: checked.overrideBy });
      if (texts.length > 0) insertOutboxRows(db, texts);
      if (changed || override) {
        deps.audit(
          who,
          {
            companyId: b.companyId,
            kind: 'booking-assigned',
            subject: b.reference,
            before: was,
            after: override ? { ...becomes, truckOverride: true } : becomes,
          },
          now,
        );
      }
    });
    // The outbox's lanes send the driver's texts now rather than at their next tick.
    live.changed(b.companyId, after, { reference: b.reference, status: b.status });
    if (before !== null && before !== after) live.toPerson(before, { reference: b.reference, status: b.status, removed: true });
  }

  function boardJobOf(id: number): BoardJob {
    const j = dispatchJobById(db, id);
    if (!j) throw new NotFound('Booking not found');
    return toBoardJob(j, companyTrucks(db, j.companyId), carriageByName(j.companyId));
  }

  /** The signed-in person's own job: any other (another's, unassigned, another company's) is the same 404. */
  function myOwnJob(person: Person, reference: string): BookingWithQuote {
    let b: BookingWithQuote | undefined;
    try {
      b = ownJob(person.companyId, reference);
    } catch {
      b = undefined;
    }
    if (!b || b.assignedUserId !== person.id || b.status === 'awaiting_payment') throw new NotFound('Job not found');
    return b;
  }

  return {
    trucks(companyId: number): TruckRow[] {
      const people = peopleOf(companyId);
      return companyTrucks(db, companyId).map((t) => toTruck(t, people));
    },

    async createTruck(companyId: number, body: TruckBody & { evAllowed: boolean; defaultDriverId: number | null }): Promise<TruckRow> {
      checkDefaultDriver(companyId, body.defaultDriverId);
      const row = await write(db, () => insertTruck(db, companyId, body));
      return toTruck(row, peopleOf(companyId));
    },

    async updateTruck(companyId: number, id: number, body: TruckUpdate): Promise<TruckRow> {
      if (!truckOf(db, companyId, id)) throw new NotFound(TRUCK_NOT_FOUND);
      checkDefaultDriver(companyId, body.defaultDriverId);
      const row = await write(db, () => updateTruck(db, companyId, id, body));
      if (!row) throw new NotFound(TRUCK_NOT_FOUND);
      return toTruck(row, peopleOf(companyId));
    },

    async deleteTruck(companyId: number, id: number): Promise<{ success: true }> {
      if (!(await write(db, () => deleteTruck(db, companyId, id)))) throw new NotFound(TRUCK_NOT_FOUND);
      return { success: true };
    },

    carriage: (companyId: number) => companyCarriage(db, companyId),

    async setCarriage(
      companyId: number,
      vehicleTypeId: number,
      body: Required<Pick<CarriageBody, 'truckKinds'>> & { weightKg: number | null; electric: boolean },
    ) {
      if (!vehicleTypeOf(db, companyId, vehicleTypeId)) throw new NotFound('No such vehicle type row of this company');
      await write(db, () => setCarriage(db, companyId, vehicleTypeId, { truckKinds: [...body.truckKinds], weightKg: body.weightKg, electric: body.electric }));
      const row = companyCarriage(db, companyId).find((c) => c.vehicleTypeId === vehicleTypeId);
      if (!row) throw new NotFound('No such vehicle type row of this company');
      return row;
    },

    board(companyId: number): Board {
      // Open jobs, and those finished since the start of today (UK): the "done today" column.
      const jobs = boardJobs(db, companyId, startOfToday());
      const trucks = companyTrucks(db, companyId);
      const carriage = carriageByName(companyId);
      const people = companyPeople(db, companyId);
      const rank: Record<Role, number> = { driver: 0, owner: 1, dispatcher: 2 };
      return {
        jobs: jobs.map((j) => toBoardJob(j, trucks, carriage)),
        drivers: people.map(({ id, name, role }) => ({ id, name, role })).sort((a, b) => rank[a.role] - rank[b.role]),
        trucks: trucks.map((t) => toTruck(t, new Map(people.map((p) => [p.id, p])))),
        requested: jobs.filter((j) => j.status === 'requested').length,
      };
    },

    async assign(by: Person, reference: string, body: AssignBody, who: Actor): Promise<BoardJob> {
      const b = ownJob(by.companyId, reference);
      if (isFinished(b.status) || b.status === 'awaiting_payment') throw new Conflict(JOB_NOT_OPEN, 'BOOKING_OUT_OF_ORDER');
      const checked = checkAssignment(b, by, body.driverId, body.truckId, body.confirm);
      await applyAssignment(b, checked, who);
      return boardJobOf(b.id);
    },

    /** Accepts a job for later with its time window, and its driver and truck when given (docs/product.md §23). */
    async acceptLater(by: Person, reference: string, body: AcceptLaterBody, who: Actor): Promise<BoardJob> {
      const b = ownJob(by.companyId, reference);
      if (!b.scheduledFor) throw new Conflict('This job is for now: accept it with an ETA.', 'NOT_A_LATER_JOB');
      const assigning = body.driverId !== undefined || body.truckId !== undefined;
      // Everything is checked before the job moves: a refused truck leaves it requested.
      const checked = assigning ? checkAssignment(b, by, body.driverId ?? null, body.truckId ?? null, body.confirm) : null;
      await bookings.acceptLater(by.companyId, reference, body.windowMinutes, who);
      const accepted = bookingById(db, b.id);
      if (checked && accepted) await applyAssignment(accepted, checked, who);
      return boardJobOf(b.id);
    },

    laterSettings(companyId: number): LaterSettings {
      const company = findCompanyById(db, companyId);
      if (!company) throw new NotFound('Company not found');
      return { daysAhead: company.laterDaysAhead, jobsPerHour: company.laterJobsPerHour };
    },

    async updateLaterSettings(companyId: number, body: LaterSettingsBody): Promise<LaterSettings> {
      const patch = {
        ...(body.daysAhead !== undefined ? { laterDaysAhead: body.daysAhead } : {}),
        ...(body.jobsPerHour !== undefined ? { laterJobsPerHour: body.jobsPerHour } : {}),
      };
      if (Object.keys(patch).length > 0) await write(db, () => updateCompany(db, companyId, patch));
      return this.laterSettings(companyId);
    },

    /** The signed-in person's jobs for today, in order: open ones (a later one only on its day) and those finished today. */
    myJobs(person: Person): MyJob[] {
      // London's next midnight: a day is 23 or 25 hours long on the clocks' change days.
      const endOfToday = londonMidnight(addDays(londonDate(deps.now()), 1)).toISOString();
      return assignedJobs(db, person.id, startOfToday())
        .filter((j) => j.status !== 'awaiting_payment' && (j.scheduledFor === null || j.scheduledFor < endOfToday))
        .map(toMyJob);
    },

    myJob: (person: Person, reference: string): DriverView => bookings.driverViewOf(myOwnJob(person, reference)),

    /** The id of the signed-in person's own job, for its photos and checklist (404 as for any other of their routes). */
    myJobId: (person: Person, reference: string): number => myOwnJob(person, reference).id,

    myStep: (person: Person, reference: string, step: DriverStep, balanceMethod?: BalanceMethod, queuedPhotos?: readonly QueuedPhoto[]): Promise<DriverView> =>
      bookings.driverStepOf(myOwnJob(person, reference), step, balanceMethod, queuedPhotos),

    /** The balance's pay link of the signed-in person's own completed job: the same link and text as the driver's page's. */
    myPayLink: (person: Person, reference: string): Promise<DriverView> => bookings.driverPayLinkOf(myOwnJob(person, reference)),

    /** How the balance of the signed-in person's own completed job was paid, as the driver's page records it; the audit log names them. */
    myBalance: (person: Person, reference: string, method: BalanceMethod, who: Actor): Promise<DriverView> =>
      bookings.driverBalanceOf(myOwnJob(person, reference), method, who),

    myPosition: (person: Person, reference: string, position: { lat: number; lng: number }): Promise<DriverView> =>
      bookings.driverPositionOf(myOwnJob(person, reference), position),

    async setMyPhone(person: Person, phone: string | null): Promise<{ phone: string | null }> {
      await write(db, () => setPersonPhone(db, person.id, phone));
      return { phone };
    },

    /** A job changed (booked, answered, moved, cancelled): its company's boards and its driver's screens are told. */
    jobChanged(bookingId: number) {
      const j = dispatchJobById(db, bookingId);
      if (!j || j.status === 'awaiting_payment') return;
      live.changed(j.companyId, j.assignedUserId, { reference: j.reference, status: j.status });
    },
  };
}

export type DispatchService = ReturnType<typeof dispatchService>;
