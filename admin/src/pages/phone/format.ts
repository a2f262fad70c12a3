// A date and time as the caller's page shows it: UK time, en-GB, "28 November 2026 at 14:30".
const ukDateAndTime = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', dateStyle: 'long', timeStyle: 'short' });

export const ukDateTime = (iso: string): string => ukDateAndTime.format(new Date(iso));
