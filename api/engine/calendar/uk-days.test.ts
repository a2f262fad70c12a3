import { describe, expect, it } from 'vitest';
import { addDays, londonMidnight } from './london-time';
import { ukDate, ukDateAndTime } from './uk-days';

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
