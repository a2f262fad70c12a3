// The UK calendar, in one module: London's wall-clock time (the after-hours rule, the jobs' UK
// times), UK days as instants (the numbers' and the summaries' day boundaries, across both clock
// changes), and UK dates written the en-GB way (the CSV export). Operators set their hours in
// London time and the server may run in any zone, so the offset comes from the time zone
// database, not the host. Bank holidays by nation are ./bank-holidays.ts.

const londonHour = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hour: '2-digit',
  hourCycle: 'h23',
});

const MS_PER_HOUR = 3_600_000;

// London's offset from UTC is a whole number of hours and changes only on a UTC hour
// (01:00 UTC), so it is fixed within each UTC hour: the quote path asks Intl once an hour.
let memoUtcHour = Number.NaN;
let memoLondonHour = 0;

/** Minutes since London midnight (0–1439) at the instant `now`, GMT or BST as it applies. */
export function londonMinuteOfDay(now: Date): number {
  const utcHour = Math.floor(now.getTime() / MS_PER_HOUR);
  if (utcHour !== memoUtcHour) {
    memoLondonHour = Number(londonHour.formatToParts(now).find((part) => part.type === 'hour')?.value);
    memoUtcHour = utcHour;
  }
  return memoLondonHour * 60 + now.getUTCMinutes();
}

/** `HH:MM` (24 h) to minutes since midnight, or null when it is not such a time. */
export function parseClock(value: string): number | null {
  if (value.length !== 5 || value.charCodeAt(2) !== 58) return null;
  const hours = digitPair(value, 0);
  const minutes = digitPair(value, 3);
  if (hours === null || minutes === null || hours > 23 || minutes > 59) return null;
  return hours * 60 + minutes;
}

function digitPair(value: string, at: number): number | null {
  const tens = value.charCodeAt(at) - 48;
  const units = value.charCodeAt(at + 1) - 48;
  if (tens < 0 || tens > 9 || units < 0 || units > 9) return null;
  return tens * 10 + units;
}

const londonDateFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

/** London's calendar date at the instant `now`, as YYYY-MM-DD. */
export const londonDate = (now: Date): string => londonDateFormat.format(now);

const MS_PER_DAY = 86_400_000;

/** The calendar day `days` after `day` (YYYY-MM-DD; negative goes back). */
export const addDays = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * MS_PER_DAY).toISOString().slice(0, 10);

/**
 * The instant London's day `day` (YYYY-MM-DD) begins. The clocks change at 01:00 UTC, so the
 * offset at 00:00 UTC that day (GMT +0 or BST +1) is also the offset at London's midnight.
 */
export function londonMidnight(day: string): Date {
  const utcMidnight = new Date(`${day}T00:00:00Z`);
  return new Date(utcMidnight.getTime() - londonMinuteOfDay(utcMidnight) * 60_000);
}

// UK dates and times as the inbox's export writes them (en-GB, Europe/London).
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
