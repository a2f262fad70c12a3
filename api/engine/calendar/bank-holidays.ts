// UK bank holidays by nation, computed from the rules for any year (docs/product.md §10): the official
// feed only ever holds a few years, and a quote for next Christmas must know it is a holiday.
// Dates are calendar dates (`YYYY-MM-DD`, UK wall clock); the caller decides which date a job is on.

import { NATIONS, type Nation } from '#shared/constants';

export { NATIONS, type Nation };

export interface BankHoliday {
  date: string;
  title: string;
}

const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 of a calendar date (month 1–12); UTC arithmetic, so no zone shifts it. */
const dayNumber = (year: number, month: number, day: number): number => Date.UTC(year, month - 1, day) / MS_PER_DAY;
const isoDate = (days: number): string => new Date(days * MS_PER_DAY).toISOString().slice(0, 10);
/** 0 = Sunday … 6 = Saturday. */
const weekday = (days: number): number => new Date(days * MS_PER_DAY).getUTCDay();
const isWeekend = (days: number): boolean => weekday(days) === 0 || weekday(days) === 6;

/** Easter Sunday by the anonymous Gregorian computus (Meeus/Jones/Butcher). */
export function easterSunday(year: number): { month: number; day: number } {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return { month, day };
}

const firstMonday = (year: number, month: number): number => {
  const first = dayNumber(year, month, 1);
  return first + ((8 - weekday(first)) % 7);
};

const lastMonday = (year: number, month: number): number => {
  const last = dayNumber(year, month + 1, 1) - 1;
  return last - ((weekday(last) + 6) % 7);
};

/**
 * Holidays proclaimed for one year only, for every nation: a moved regular holiday names the
 * title it replaces (`replaces`), so the rule's own date is dropped and this one used instead.
 */
interface OneOff {
  date: string;
  title: string;
  replaces?: string;
}

const ONE_OFFS: Record<number, OneOff[]> = {
  1995: [{ date: '1995-05-08', title: 'Early May bank holiday (VE day)', replaces: 'Early May bank holiday' }],
  1999: [{ date: '1999-12-31', title: 'Millennium celebrations' }],
  2002: [
    { date: '2002-06-04', title: 'Spring bank holiday', replaces: 'Spring bank holiday' },
    { date: '2002-06-03', title: 'Golden Jubilee bank holiday' },
  ],
  2011: [{ date: '2011-04-29', title: 'Royal wedding' }],
  2012: [
    { date: '2012-06-04', title: 'Spring bank holiday', replaces: 'Spring bank holiday' },
    { date: '2012-06-05', title: 'Diamond Jubilee bank holiday' },
  ],
  2020: [{ date: '2020-05-08', title: 'Early May bank holiday (VE day)', replaces: 'Early May bank holiday' }],
  2022: [
    { date: '2022-06-02', title: 'Spring bank holiday', replaces: 'Spring bank holiday' },
    { date: '2022-06-03', title: 'Platinum Jubilee bank holiday' },
    { date: '2022-09-19', title: 'Bank Holiday for the State Funeral of Queen Elizabeth II' },
  ],
  2023: [{ date: '2023-05-08', title: 'Bank holiday for the coronation of King Charles III' }],
};

/** A holiday on a fixed date; when it falls on a weekend the next free weekday is its substitute. */
interface FixedDay {
  month: number;
  day: number;
  title: string;
}

const FIXED: Record<Nation, FixedDay[]> = {
  'england-and-wales': [
    { month: 1, day: 1, title: 'New Year’s Day' },
    { month: 12, day: 25, title: 'Christmas Day' },
    { month: 12, day: 26, title: 'Boxing Day' },
  ],
  scotland: [
    { month: 1, day: 1, title: 'New Year’s Day' },
    { month: 1, day: 2, title: '2nd January' },
    { month: 11, day: 30, title: 'St Andrew’s Day' },
    { month: 12, day: 25, title: 'Christmas Day' },
    { month: 12, day: 26, title: 'Boxing Day' },
  ],
  'northern-ireland': [
    { month: 1, day: 1, title: 'New Year’s Day' },
    { month: 3, day: 17, title: 'St Patrick’s Day' },
    { month: 7, day: 12, title: 'Battle of the Boyne (Orangemen’s Day)' },
    { month: 12, day: 25, title: 'Christmas Day' },
    { month: 12, day: 26, title: 'Boxing Day' },
  ],
};

/** Every bank holiday of `nation` in `year`, in date order. */
export function bankHolidays(year: number, nation: Nation): BankHoliday[] {
  const easter = easterSunday(year);
  const easterDay = dayNumber(year, easter.month, easter.day);
  const moving: { days: number; title: string }[] = [
    { days: easterDay - 2, title: 'Good Friday' },
    // Scotland has no Easter Monday bank holiday.
    ...(nation === 'scotland' ? [] : [{ days: easterDay + 1, title: 'Easter Monday' }]),
    { days: firstMonday(year, 5), title: 'Early May bank holiday' },
    { days: lastMonday(year, 5), title: 'Spring bank holiday' },
    // Scotland's summer holiday is the first Monday of August, elsewhere the last.
    { days: nation === 'scotland' ? firstMonday(year, 8) : lastMonday(year, 8), title: 'Summer bank holiday' },
  ];

  const oneOffs = ONE_OFFS[year] ?? [];
  const replaced = new Set(oneOffs.flatMap((o) => (o.replaces ? [o.replaces] : [])));
  const holidays = moving.filter((h) => !replaced.has(h.title));
  for (const o of oneOffs) {
    const [y, m, d] = o.date.split('-').map(Number);
    holidays.push({ days: dayNumber(y!, m!, d!), title: o.title });
  }

  // Fixed days on a weekday keep their date; each one on a weekend moves to the next weekday not
  // already a holiday, in date order (Christmas on Saturday → Monday 27, Boxing Day → Tuesday 28;
  // Christmas on Sunday → Tuesday 27, as Monday 26 is Boxing Day itself).
  const fixed = FIXED[nation].map((f) => ({ days: dayNumber(year, f.month, f.day), title: f.title }));
  const taken = new Set(holidays.map((h) => h.days));
  for (const f of fixed) if (!isWeekend(f.days)) taken.add(f.days);
  for (const f of fixed) {
    if (!isWeekend(f.days)) {
      holidays.push(f);
      continue;
    }
    let substitute = f.days + 1;
    while (isWeekend(substitute) || taken.has(substitute)) substitute += 1;
    taken.add(substitute);
    holidays.push({ days: substitute, title: `${f.title} (substitute day)` });
  }

  return holidays.sort((a, b) => a.days - b.days).map((h) => ({ date: isoDate(h.days), title: h.title }));
}

const memo = new Map<string, Set<string>>();

/** Whether `date` (`YYYY-MM-DD`) is a bank holiday in `nation`; each year is computed once. */
export function isBankHoliday(date: string, nation: Nation): boolean {
  const year = Number(date.slice(0, 4));
  const key = `${nation}:${year}`;
  let dates = memo.get(key);
  if (!dates) {
    // Dates come from requests, so the years kept are bounded; a handful are ever in use.
    if (memo.size >= 64) memo.clear();
    dates = new Set(bankHolidays(year, nation).map((h) => h.date));
    memo.set(key, dates);
  }
  return dates.has(date);
}
