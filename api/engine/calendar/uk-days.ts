// UK dates and times as the inbox's export writes them (en-GB, Europe/London). Days as instants
// (addDays, londonMidnight) are api/engine/calendar/london-time.ts's, shared with the mail worker.
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
