import { describe, expect, it } from 'vitest';
import official from './testdata/uk-bank-holidays-2019-2024.json';
import { bankHolidays, easterSunday, isBankHoliday, NATIONS, type Nation } from './bank-holidays';

const YEARS = [2019, 2020, 2021, 2022, 2023, 2024];

describe('bank holidays against the GOV.UK lists, 2019–2024', () => {
  describe.each(NATIONS)('%s', (nation) => {
    const listed = (official as Record<Nation, { date: string }[]>)[nation].map((h) => h.date).sort();
    const computed = YEARS.flatMap((year) => bankHolidays(year, nation).map((h) => h.date));

    it('computes every listed date and no other', () => {
      expect(computed).toEqual(listed);
    });

    it.each(YEARS)('%i: isBankHoliday agrees day by day', (year) => {
      const ofYear = new Set(listed.filter((d) => d.startsWith(`${year}-`)));
      for (let day = Date.UTC(year, 0, 1); day < Date.UTC(year + 1, 0, 1); day += 86_400_000) {
        const date = new Date(day).toISOString().slice(0, 10);
        expect(isBankHoliday(date, nation), date).toBe(ofYear.has(date));
      }
    });
  });
});

describe('bank holidays of years the official list does not hold', () => {
  it.each<[Nation, number, string[]]>([
    ['england-and-wales', 2025, ['2025-01-01', '2025-04-18', '2025-04-21', '2025-05-05', '2025-05-26', '2025-08-25', '2025-12-25', '2025-12-26']],
    ['england-and-wales', 2026, ['2026-01-01', '2026-04-03', '2026-04-06', '2026-05-04', '2026-05-25', '2026-08-31', '2026-12-25', '2026-12-28']],
    ['england-and-wales', 2027, ['2027-01-01', '2027-03-26', '2027-03-29', '2027-05-03', '2027-05-31', '2027-08-30', '2027-12-27', '2027-12-28']],
    ['scotland', 2025, ['2025-01-01', '2025-01-02', '2025-04-18', '2025-05-05', '2025-05-26', '2025-08-04', '2025-12-01', '2025-12-25', '2025-12-26']],
    ['scotland', 2026, ['2026-01-01', '2026-01-02', '2026-04-03', '2026-05-04', '2026-05-25', '2026-08-03', '2026-11-30', '2026-12-25', '2026-12-28']],
    ['scotland', 2027, ['2027-01-01', '2027-01-04', '2027-03-26', '2027-05-03', '2027-05-31', '2027-08-02', '2027-11-30', '2027-12-27', '2027-12-28']],
    [
      'northern-ireland',
      2025,
      ['2025-01-01', '2025-03-17', '2025-04-18', '2025-04-21', '2025-05-05', '2025-05-26', '2025-07-14', '2025-08-25', '2025-12-25', '2025-12-26'],
    ],
    [
      'northern-ireland',
      2026,
      ['2026-01-01', '2026-03-17', '2026-04-03', '2026-04-06', '2026-05-04', '2026-05-25', '2026-07-13', '2026-08-31', '2026-12-25', '2026-12-28'],
    ],
    [
      'northern-ireland',
      2027,
      ['2027-01-01', '2027-03-17', '2027-03-26', '2027-03-29', '2027-05-03', '2027-05-31', '2027-07-12', '2027-08-30', '2027-12-27', '2027-12-28'],
    ],
  ])('%s %i', (nation, year, dates) => {
    expect(bankHolidays(year, nation).map((h) => h.date)).toEqual(dates);
  });

  it.each([
    // Christmas on a Sunday: Boxing Day keeps Monday 26, Christmas moves to Tuesday 27.
    ['england-and-wales', '2033-12-26', true],
    ['england-and-wales', '2033-12-27', true],
    // Scotland, 1 January on a Sunday: 2 January keeps Monday, New Year's Day moves to Tuesday.
    ['scotland', '2034-01-02', true],
    ['scotland', '2034-01-03', true],
    // St Andrew's Day on a Saturday moves to Monday 2 December.
    ['scotland', '2030-12-02', true],
    ['scotland', '2030-11-30', false],
    // St Patrick's Day and the Boyne are Northern Ireland's alone.
    ['england-and-wales', '2028-03-17', false],
    ['scotland', '2028-07-12', false],
    ['northern-ireland', '2028-07-12', true],
    // Easter Monday is not a Scottish bank holiday.
    ['scotland', '2028-04-17', false],
    ['england-and-wales', '2028-04-17', true],
  ] as const)('%s %s is a holiday: %s', (nation, date, holiday) => {
    expect(isBankHoliday(date, nation)).toBe(holiday);
  });

  it.each([
    [1818, 3, 22],
    [1943, 4, 25],
    [2008, 3, 23],
    [2038, 4, 25],
    [2285, 3, 22],
  ])('Easter %i is %i/%i (earliest and latest dates)', (year, month, day) => {
    expect(easterSunday(year)).toEqual({ month, day });
  });
});
