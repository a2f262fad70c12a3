// The board's arrangement and the new-booking banner's words (docs/product.md §23): columns by
// status, later jobs under their day in time order, done today apart; the title's count.
import { describe, expect, it } from 'vitest';
import type { BoardJob } from '#shared/dispatch-schemas';
import { arrange, dayHeading, waited } from './BoardPage';
import { bannerText, titleWithCount } from './NewBookingBanner';

const NOW = Date.parse('2026-06-10T09:00:00Z'); // 10:00 in London
const job = (over: Partial<BoardJob>): BoardJob => ({
  reference: 'KJAECF76R',
  status: 'requested',
  pickupPostcode: 'M1 1AE',
  destinationPostcode: 'M4 4BF',
  vehicleType: 'Car',
  registration: 'AB12 CDE',
  createdAt: '2026-06-10T08:48:00Z',
  statusChangedAt: '2026-06-10T08:48:00Z',
  scheduledFor: null,
  windowMinutes: null,
  driver: null,
  truck: null,
  truckOverride: false,
  capableTruckIds: [],
  ...over,
});

describe('the dispatch board', () => {
  it('puts jobs for now in their status column, later jobs under their day in time order, and finished ones under done today', () => {
    const jobs = [
      job({ reference: 'A', status: 'requested' }),
      job({ reference: 'B', status: 'on_the_way' }),
      job({ reference: 'C', status: 'arrived' }),
      job({ reference: 'D', status: 'loaded' }),
      job({ reference: 'E', status: 'completed' }),
      job({ reference: 'F', status: 'accepted', scheduledFor: '2026-06-11T10:00:00Z' }),
      job({ reference: 'G', status: 'requested', scheduledFor: '2026-06-11T08:00:00Z' }),
      job({ reference: 'H', status: 'requested', scheduledFor: '2026-06-10T15:00:00Z' }),
      job({ reference: 'I', status: 'requested', scheduledFor: '2026-06-13T15:00:00Z' }),
    ];
    const { columns, later, done } = arrange(jobs, NOW);
    expect(columns.map((c) => [c.title, c.jobs.map((j) => j.reference)])).toEqual([
      ['Requested', ['A']],
      ['Accepted', []],
      ['On the way', ['B']],
      ['At scene / loaded', ['C', 'D']],
    ]);
    expect(later.map(([day, list]) => [day, list.map((j) => j.reference)])).toEqual([
      ['Later today', ['H']],
      ['Tomorrow', ['G', 'F']],
      ['Saturday 13 June', ['I']],
    ]);
    expect(done.map((j) => j.reference)).toEqual(['E']);
  });

  it('says how long a job has waited', () => {
    expect(waited('2026-06-10T08:48:00Z', NOW)).toBe('waited 12 min');
    expect(waited('2026-06-10T06:55:00Z', NOW)).toBe('waited 2 h 5 min');
    // London's day, not UTC's: 22:30 UTC is 23:30 in London, 23:30 UTC is past its midnight.
    expect(dayHeading('2026-06-10T22:30:00Z', NOW)).toBe('Later today');
    expect(dayHeading('2026-06-10T23:30:00Z', NOW)).toBe('Tomorrow');
  });

  it('counts waiting bookings in the banner and the title, and takes the count off once answered', () => {
    expect(bannerText(1)).toBe('New booking waiting for an answer');
    expect(bannerText(3)).toBe('3 new bookings waiting for an answer');
    expect(titleWithCount('Dispatch board', 2)).toBe('(2) Dispatch board');
    expect(titleWithCount('(2) Dispatch board', 1)).toBe('(1) Dispatch board');
    expect(titleWithCount('(2) Dispatch board', 0)).toBe('Dispatch board');
  });
});
