import { describe, expect, it } from 'vitest';
import { addDays, londonMidnight, londonMinuteOfDay, parseClock, ukDate, ukDateAndTime } from './uk-calendar';

const clock = (minute: number): string => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

describe('londonMinuteOfDay', () => {
  it.each([
    ['winter is GMT', '2026-01-15T17:30:00Z', '17:30'],
    ['summer is BST', '2026-07-01T17:30:00Z', '18:30'],
    ['BST crosses London midnight before UTC does', '2026-07-01T23:15:00Z', '00:15'],
    ['last minute of the day', '2026-12-31T23:59:00Z', '23:59'],
    ['spring change: 00:59 UTC is still GMT', '2026-03-29T00:59:00Z', '00:59'],
    ['spring change: 01:00 UTC is 02:00 BST', '2026-03-29T01:00:00Z', '02:00'],
    ['spring change day evening', '2026-03-29T17:30:00Z', '18:30'],
    ['autumn change: 00:59 UTC is still BST', '2026-10-25T00:59:00Z', '01:59'],
    ['autumn change: 01:00 UTC is 01:00 GMT', '2026-10-25T01:00:00Z', '01:00'],
    ['autumn change day morning', '2026-10-25T07:30:00Z', '07:30'],
    ['day before the autumn change', '2026-10-24T07:30:00Z', '08:30'],
  ])('%s (%s → %s)', (_, instant, expected) => {
    expect(clock(londonMinuteOfDay(new Date(instant)))).toBe(expected);
  });

  it('gives the right answer whatever order instants arrive in', () => {
    const instants = [
      ['2026-03-29T00:30:00Z', '00:30'],
      ['2026-03-29T01:30:00Z', '02:30'],
      ['2026-03-29T00:45:00Z', '00:45'],
      ['2026-03-29T01:05:00Z', '02:05'],
      ['2026-03-29T01:59:59Z', '02:59'],
      ['2026-01-15T01:05:00Z', '01:05'],
    ];
    for (const [instant, expected] of instants) {
      expect(clock(londonMinuteOfDay(new Date(instant))), instant).toBe(expected);
    }
  });

  it('refuses an invalid date rather than guessing', () => {
    expect(() => londonMinuteOfDay(new Date('not a date'))).toThrow(RangeError);
  });
});

describe('parseClock', () => {
  it.each([
    ['00:00', 0],
    ['08:00', 480],
    ['18:00', 1080],
    ['23:59', 1439],
    ['24:00', null],
    ['18:60', null],
    ['8:00', null],
    ['18-00', null],
    ['18:00:00', null],
    ['ab:cd', null],
    ['', null],
  ])('%j → %s', (value, minutes) => {
    expect(parseClock(value)).toBe(minutes);
  });
});

describe('londonMidnight', () => {
  it.each([
    ['a winter day begins at 00:00 UTC', '2026-01-14', '2026-01-14T00:00:00.000Z'],
    ['a summer day begins at 23:00 UTC the day before', '2026-07-14', '2026-07-13T23:00:00.000Z'],
    ['the spring change day (23 hours) begins in GMT', '2026-03-29', '2026-03-29T00:00:00.000Z'],
    ['the day after it begins in BST', '2026-03-30', '2026-03-29T23:00:00.000Z'],
    ['the autumn change day (25 hours) begins in BST', '2026-10-25', '2026-10-24T23:00:00.000Z'],
    ['the day after it begins in GMT', '2026-10-26', '2026-10-26T00:00:00.000Z'],
  ])('%s (%s → %s)', (_, day, instant) => {
    expect(londonMidnight(day).toISOString()).toBe(instant);
  });
});

describe('addDays', () => {
  it.each([
    ['2026-01-01', -1, '2025-12-31'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-03-29', 1, '2026-03-30'],
    ['2026-10-25', -1, '2026-10-24'],
  ])('%s %+d → %s', (day, days, expected) => {
    expect(addDays(day, days)).toBe(expected);
  });
});

describe('UK days', () => {
  it('begin at London midnight, in winter and in summer time', () => {
    expect(londonMidnight('2026-01-15').toISOString()).toBe('2026-01-15T00:00:00.000Z');
    expect(londonMidnight('2026-07-15').toISOString()).toBe('2026-07-14T23:00:00.000Z');
    // The days the clocks change: both begin before the change at 01:00 UTC.
    expect(londonMidnight('2026-03-29').toISOString()).toBe('2026-03-29T00:00:00.000Z');
    expect(londonMidnight('2026-03-30').toISOString()).toBe('2026-03-29T23:00:00.000Z');
    expect(londonMidnight('2026-10-25').toISOString()).toBe('2026-10-24T23:00:00.000Z');
    expect(londonMidnight('2026-10-26').toISOString()).toBe('2026-10-26T00:00:00.000Z');
  });

  it('add across months, years and leap days', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2026-11-24', -29)).toBe('2026-10-26');
  });

  it('are written en-GB in UK time', () => {
    expect(ukDateAndTime('2026-07-14T23:30:00.000Z')).toEqual({ date: '15/07/2026', time: '00:30' });
    expect(ukDateAndTime('2026-01-05T14:02:00.000Z')).toEqual({ date: '05/01/2026', time: '14:02' });
    expect(ukDate('2026-11-02')).toBe('02/11/2026');
  });
});
