// The dispatch's reads and writes (docs/product.md §23): trucks, what vehicle types need of a
// truck, the people a job may go to, a job's assignment, the board's and a driver's jobs, and the
// later slots' counts. Writers run inside the caller's write() transaction.
import { and, asc, eq } from 'drizzle-orm';
import type { BookingStatus } from '#shared/bookings';
import type { Role } from '#shared/roles';
import type { TruckKind } from '#shared/trucks';
import type { Db } from '../platform/db/client';
import { prepared } from '../platform/db/prepared';
import { trucks, users, vehicleTypeCarriage, vehicleTypes } from '../platform/db/schema';

export type TruckRecord = typeof trucks.$inferSelect;
export type NewTruck = Pick<TruckRecord, 'name' | 'kind' | 'maxWeightKg' | 'evAllowed' | 'defaultDriverId'>;

export const companyTrucks = (db: Db, companyId: number): TruckRecord[] =>
  db.select().from(trucks).where(eq(trucks.companyId, companyId)).orderBy(asc(trucks.name), asc(trucks.id)).all();

export const truckOf = (db: Db, companyId: number, id: number): TruckRecord | undefined =>
  db
    .select()
    .from(trucks)
    .where(and(eq(trucks.companyId, companyId), eq(trucks.id, id)))
    .get();

export const insertTruck = (db: Db, companyId: number, row: NewTruck): TruckRecord =>
  db
    .insert(trucks)
    .values({ companyId, ...row })
    .returning()
    .get();

export const updateTruck = (db: Db, companyId: number, id: number, patch: Partial<NewTruck>): TruckRecord | undefined =>
  db
    .update(trucks)
    .set(patch)
    .where(and(eq(trucks.companyId, companyId), eq(trucks.id, id)))
    .returning()
    .get();

export const deleteTruck = (db: Db, companyId: number, id: number): boolean =>
  db
    .delete(trucks)
    .where(and(eq(trucks.companyId, companyId), eq(trucks.id, id)))
    .run().changes > 0;

export interface PersonRow {
  id: number;
  name: string;
  role: Role;
  phone: string | null;
}

/** The company's people, by name. */
export const companyPeople = (db: Db, companyId: number): PersonRow[] =>
  db
    .select({ id: users.id, name: users.name, role: users.role, phone: users.phone })
    .from(users)
    .where(eq(users.companyId, companyId))
    .orderBy(asc(users.name), asc(users.id))
    .all();

export const setPersonPhone = (db: Db, id: number, phone: string | null): boolean => db.update(users).set({ phone }).where(eq(users.id, id)).run().changes > 0;

/** One person of the company, with the mobile number their texts go to (null: none known). */
export function personOf(db: Db, companyId: number, id: number): PersonRow | undefined {
  const row = prepared(db, 'dispatch:person', () => db.$client.prepare('select id, name, role, phone from users where company_id = ? and id = ?')).get(
    companyId,
    id,
  ) as PersonRow | undefined;
  return row;
}

export interface CarriageRecord {
  vehicleTypeId: number;
  vehicleType: string;
  truckKinds: TruckKind[];
  weightKg: number | null;
  electric: boolean;
}

function parseKinds(stored: string | null): TruckKind[] {
  try {
    const list: unknown = JSON.parse(stored ?? '[]');
    return Array.isArray(list) ? (list.filter((k) => typeof k === 'string') as TruckKind[]) : [];
  } catch {
    return [];
  }
}

/** Every vehicle type of the company with what it needs of a truck (nothing set: any truck). */
export function companyCarriage(db: Db, companyId: number): CarriageRecord[] {
  return db
    .select({
      vehicleTypeId: vehicleTypes.id,
      vehicleType: vehicleTypes.name,
      truckKinds: vehicleTypeCarriage.truckKinds,
      weightKg: vehicleTypeCarriage.weightKg,
      electric: vehicleTypeCarriage.electric,
    })
    .from(vehicleTypes)
    .leftJoin(vehicleTypeCarriage, eq(vehicleTypeCarriage.vehicleTypeId, vehicleTypes.id))
    .where(eq(vehicleTypes.companyId, companyId))
    .orderBy(asc(vehicleTypes.id))
    .all()
    .map((r) => ({ ...r, truckKinds: parseKinds(r.truckKinds), electric: r.electric ?? false }));
}

export const vehicleTypeOf = (db: Db, companyId: number, id: number) =>
  db
    .select({ id: vehicleTypes.id, name: vehicleTypes.name })
    .from(vehicleTypes)
    .where(and(eq(vehicleTypes.companyId, companyId), eq(vehicleTypes.id, id)))
    .get();

export function setCarriage(db: Db, companyId: number, vehicleTypeId: number, value: { truckKinds: TruckKind[]; weightKg: number | null; electric: boolean }) {
  const row = { truckKinds: JSON.stringify(value.truckKinds), weightKg: value.weightKg, electric: value.electric };
  db.insert(vehicleTypeCarriage)
    .values({ vehicleTypeId, companyId, ...row })
    .onConflictDoUpdate({ target: vehicleTypeCarriage.vehicleTypeId, set: row })
    .run();
}

/** A booking as the board and the driver's list read it. */
export interface DispatchJobRow {
  id: number;
  companyId: number;
  reference: string;
  status: BookingStatus;
  pickupPostcode: string;
  destinationPostcode: string;
  vehicleType: string;
  registration: string;
  createdAt: string;
  statusChangedAt: string;
  respondBy: string;
  finishedAt: string | null;
  scheduledFor: string | null;
  windowMinutes: number | null;
  assignedUserId: number | null;
  driverPersonName: string | null;
  truckId: number | null;
  truckName: string | null;
  truckKind: TruckKind | null;
  truckOverrideAt: string | null;
}

const JOB_COLUMNS = `select b.id, b.company_id as companyId, q.public_id as reference, b.status, q.pickup_postcode as pickupPostcode,
  q.destination_postcode as destinationPostcode, q.vehicle_type as vehicleType, b.registration, b.created_at as createdAt,
  b.status_changed_at as statusChangedAt, b.respond_by as respondBy, b.finished_at as finishedAt, b.scheduled_for as scheduledFor,
  b.window_minutes as windowMinutes, b.assigned_user_id as assignedUserId, u.name as driverPersonName, b.truck_id as truckId,
  t.name as truckName, t.kind as truckKind, b.truck_override_at as truckOverrideAt
  from bookings b join quotes q on q.id = b.quote_id left join users u on u.id = b.assigned_user_id left join trucks t on t.id = b.truck_id`;

/** The board: open jobs and those finished since `since`, oldest first; never one awaiting payment. */
export function boardJobs(db: Db, companyId: number, since: string): DispatchJobRow[] {
  return prepared(db, 'dispatch:board', () =>
    db.$client.prepare(
      `${JOB_COLUMNS} where b.company_id = ? and b.status != 'awaiting_payment' and (b.finished_at is null or b.finished_at >= ?)
       order by coalesce(b.scheduled_for, b.created_at), b.id limit 500`,
    ),
  ).all(companyId, since) as DispatchJobRow[];
}

/** The jobs assigned to one person: open ones, and those finished since `since`. */
export function assignedJobs(db: Db, userId: number, since: string): DispatchJobRow[] {
  return prepared(db, 'dispatch:assigned', () =>
    db.$client.prepare(
      `${JOB_COLUMNS} where b.assigned_user_id = ? and (b.finished_at is null or b.finished_at >= ?)
       order by coalesce(b.scheduled_for, b.accepted_at, b.created_at), b.id limit 200`,
    ),
  ).all(userId, since) as DispatchJobRow[];
}

export function dispatchJobById(db: Db, id: number): DispatchJobRow | undefined {
  return prepared(db, 'dispatch:byId', () => db.$client.prepare(`${JOB_COLUMNS} where b.id = ?`)).get(id) as DispatchJobRow | undefined;
}

/** Writes a job's driver and truck (either may be null), and the confirmation when the truck does not fit. */
export function setAssignment(
  db: Db,
  bookingId: number,
  value: { userId: number | null; truckId: number | null; at: string; overrideBy: number | null },
): boolean {
  return (
    prepared(db, 'dispatch:assign', () =>
      db.$client.prepare(
        `update bookings set assigned_user_id = @userId, truck_id = @truckId, assigned_at = @at,
          truck_override_by = @overrideBy, truck_override_at = case when @overrideBy is null then null else @at end
         where id = @bookingId`,
      ),
    ).run({ bookingId, ...value }).changes > 0
  );
}

/** Later jobs of the company still to happen whose slot starts in [from, to): the slots' counts. */
export function laterSlotsTaken(db: Db, companyId: number, from: string, to: string): string[] {
  const rows = prepared(db, 'dispatch:slots', () =>
    db.$client.prepare(
      `select scheduled_for as slot from bookings where company_id = ? and scheduled_for >= ? and scheduled_for < ?
        and status in ('awaiting_payment', 'requested', 'accepted', 'on_the_way', 'arrived', 'loaded', 'completed')`,
    ),
  ).all(companyId, from, to) as { slot: string }[];
  return rows.map((r) => r.slot);
}

/** Accepted later jobs whose reminder is due by `dueBy` (their slot within the hour) and not yet written. */
export function remindersDue(db: Db, nowIso: string, dueBy: string, limit: number): { id: number }[] {
  return prepared(db, 'dispatch:reminders', () =>
    db.$client.prepare(
      `select id from bookings where status = 'accepted' and reminder_at is null and scheduled_for is not null
        and scheduled_for <= ? and scheduled_for > ? order by scheduled_for limit ?`,
    ),
  ).all(dueBy, nowIso, limit) as { id: number }[];
}

export function markReminded(db: Db, id: number, at: string): boolean {
  return (
    prepared(db, 'dispatch:reminded', () => db.$client.prepare('update bookings set reminder_at = ? where id = ? and reminder_at is null')).run(at, id)
      .changes > 0
  );
}
