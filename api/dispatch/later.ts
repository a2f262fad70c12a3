// Jobs for later (docs/product.md §23): a quote for a London date and time books that slot. The
// company takes slots up to `daysAhead` days ahead and at most `jobsPerHour` jobs in one clock
// hour; a full hour is refused with the next hour that has room. London's offsets from UTC are
// whole hours, so a UTC hour is a London clock hour.
import { londonMinuteOfDay, parseClock } from '../engine/calendar/uk-calendar';
import type { Db } from '../platform/db/client';
import { Conflict, SlotFull } from '../platform/errors';
import { laterSlotsTaken } from './store';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export const SLOT_IN_PAST = 'This time has passed. Please choose a later time.';
export const slotTooFar = (days: number) => `This company takes bookings up to ${days} days ahead. Please choose an earlier day, or call them.`;
export const SLOT_FULL = 'This hour is fully booked.';
export const slotFullMessage = (next: string | null) =>
  next
    ? `${SLOT_FULL} The next free time is ${new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(next))}.`
    : `${SLOT_FULL} Please call the company.`;

/** The instant of a London date (YYYY-MM-DD) and wall-clock time (HH:MM), or null when either is missing or malformed. */
export function laterSlot(date: string | null, time: string | null): Date | null {
  if (!date || !time || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const minutes = parseClock(time);
  const utc = Date.parse(`${date}T${time}:00Z`);
  if (minutes === null || Number.isNaN(utc)) return null;
  // London is UTC or one hour ahead: the offset read at the UTC guess, then at the instant itself.
  const offsetAt = (ms: number) => {
    const at = new Date(ms);
    return (londonMinuteOfDay(at) - (at.getUTCHours() * 60 + at.getUTCMinutes()) + 1440) % 1440;
  };
  const guess = utc - offsetAt(utc) * 60_000;
  return new Date(utc - offsetAt(guess) * 60_000);
}

const hourOf = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

/**
 * Checks that `slot` can be booked for the company now: not past, within its days ahead, and with
 * room in its hour (409 SLOT_FULL offering the next free hour from the slot on). Answers the slot as stored.
 */
export function checkLaterSlot(db: Db, company: { id: number; daysAhead: number; jobsPerHour: number }, slot: Date, now: Date): string {
  if (slot.getTime() < now.getTime()) throw new Conflict(SLOT_IN_PAST, 'SLOT_OUT_OF_RANGE');
  const horizon = now.getTime() + company.daysAhead * DAY_MS;
  if (slot.getTime() > horizon) throw new Conflict(slotTooFar(company.daysAhead), 'SLOT_OUT_OF_RANGE');
  const first = hourOf(slot.getTime());
  const taken = new Map<number, number>();
  for (const at of laterSlotsTaken(db, company.id, new Date(first).toISOString(), new Date(hourOf(horizon) + HOUR_MS).toISOString())) {
    const hour = hourOf(Date.parse(at));
    taken.set(hour, (taken.get(hour) ?? 0) + 1);
  }
  if ((taken.get(first) ?? 0) < company.jobsPerHour) return slot.toISOString();
  let next: string | null = null;
  for (let hour = first + HOUR_MS; hour <= horizon; hour += HOUR_MS) {
    if ((taken.get(hour) ?? 0) < company.jobsPerHour) {
      next = new Date(hour).toISOString();
      break;
    }
  }
  throw new SlotFull(slotFullMessage(next), next);
}
