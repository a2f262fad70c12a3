import { describe, expect, it } from 'vitest';
import { contactText, durationText, formatDateTime, funnelSteps, percent, perDaySummary, routeText, vehicleText, whenText } from './format';

describe('the Quotes tab’s wording', () => {
  it('writes times in UK time, summer and winter', () => {
    expect(formatDateTime('2026-07-01T13:02:00Z')).toBe('1 Jul 2026, 14:02');
    expect(formatDateTime('2026-11-24T14:02:00Z')).toBe('24 Nov 2026, 14:02');
  });

  it('says when the customer tapped, with the day only when it was not the quote’s', () => {
    expect(contactText({ channel: 'whatsapp', at: '2026-11-24T14:02:00Z' }, '2026-11-24T13:58:00Z')).toBe('Customer tapped WhatsApp at 14:02');
    expect(contactText({ channel: 'phone', at: '2026-11-25T09:15:00Z' }, '2026-11-24T23:58:00Z')).toBe('Customer tapped Call at 09:15 on 25 Nov 2026');
    // 23:30 UTC on 30 June is already 1 July in London.
    expect(contactText({ channel: 'phone', at: '2026-06-30T23:30:00Z' }, '2026-07-01T08:00:00Z')).toBe('Customer tapped Call at 00:30');
  });

  it('gives Now or the scheduled day and time', () => {
    expect(whenText({ urgency: 'immediate', preferredDate: null, preferredTime: null })).toBe('Now');
    expect(whenText({ urgency: 'later', preferredDate: '2026-12-05', preferredTime: '14:30' })).toBe('Sat, 5 Dec 2026 at 14:30');
  });

  it('words the vehicle and the problem as the motorist chose them', () => {
    const lead = { vehicleType: 'luton van', gearboxType: 'automatic', rollingStatus: 'not-rolling', passengerCount: 1, problemType: 'ditch-recovery' };
    expect(vehicleText(lead)).toBe('Luton Van · Automatic · Not Rolling · 1 passenger · Ditch Recovery');
    expect(vehicleText({ ...lead, gearboxType: null, rollingStatus: 'n-a', passengerCount: 0, problemType: 'flat-tire' })).toBe(
      'Luton Van · N/A · 0 passengers · Flat Tyre',
    );
    expect(routeText({ pickupPostcode: 'SW1A 1AA', destinationPostcode: 'EC1A 1BB', distance: 3.2 })).toBe('SW1A 1AA → EC1A 1BB, 3.2 miles');
  });

  it('sums up the chart in words', () => {
    expect(percent(0.456)).toBe('46%');
    const perDay = [
      { date: '2026-11-22', count: 1 },
      { date: '2026-11-23', count: 4 },
      { date: '2026-11-24', count: 2 },
    ];
    expect(perDaySummary(perDay)).toBe('7 quotes in the last 3 days; the busiest day was 23 Nov with 4.');
    expect(perDaySummary(perDay.map((day) => ({ ...day, count: 0 })))).toBe('No quotes in the last 3 days.');
  });

  it('says a time to accept in seconds, minutes, or hours and minutes', () => {
    expect(durationText(45)).toBe('45 s');
    expect(durationText(245)).toBe('4 min');
    expect(durationText(3600)).toBe('1 h');
    expect(durationText(3900)).toBe('1 h 5 min');
  });

  it('gives each step of the funnel its share of the step before, none of nothing', () => {
    expect(funnelSteps({ last30Days: 40, bookings: 10, completedBookings: 8 })).toEqual([
      { label: 'quotes', count: 40, share: null },
      { label: 'booked', count: 10, share: '25%' },
      { label: 'completed', count: 8, share: '80%' },
    ]);
    expect(funnelSteps({ last30Days: 1, bookings: 0, completedBookings: 0 }).map((step) => step.share)).toEqual([null, '0%', null]);
  });
});
