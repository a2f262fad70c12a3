// UK calendar days as instants: the inbox's filters, numbers and export speak in Europe/London
// days, and quotes are stored with UTC instants (created_at), so each day becomes the UTC range
// from its London midnight to the next.
import { londonDate } from '../pricing/london-time';

const MS_PER_DAY = 86_400_000;
const MS_PER_HOUR = 3_600_000;

/** `YYYY-MM-DD` plus `days` (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * MS_PER_DAY).toISOString().slice(0, 10);
}

/**
 * The instant London's `date` begins. London is UTC or an hour ahead, and its clocks change at
 * 01:00 UTC, never at midnight: the day begins at 00:00 UTC, or at 23:00 UTC the day before when
 * that is already `date` in London (summer time).
 */
export function londonMidnight(date: string): Date {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  const summer = new Date(utcMidnight - MS_PER_HOUR);
  return londonDate(summer) === date ? summer : new Date(utcMidnight);
}

const ukDateTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** en-GB date and time in UK time: `24/11/2026` and `14:02`. */
export function ukDateAndTime(iso: string): { date: string; time: string } {
  const parts = ukDateTime.formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return { date: `${part('day')}/${part('month')}/${part('year')}`, time: `${part('hour')}:${part('minute')}` };
}

/** A stored UK calendar date (YYYY-MM-DD) the en-GB way: `24/11/2026`. */
export const ukDate = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
