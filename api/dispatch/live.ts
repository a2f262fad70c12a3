// The dispatch's live streams (docs/product.md §23), on the status pages' hub (api/bookings/live.ts)
// under keys of their own: every open board of a company, and every open "My jobs" screen of a
// person. A change to a job sends one small event, framed once for all the streams of its key;
// the screen then reads what it shows through its own route, so a stream never carries more than
// the person may read.
import type { LiveHub } from '../bookings/live';

export const boardKey = (companyId: number) => `board:${companyId}`;
export const personKey = (userId: number) => `person:${userId}`;

export interface JobChange {
  reference: string;
  status: string;
  /** The job was taken off this person: their screen drops it. */
  removed?: boolean;
}

export function dispatchLive(live: LiveHub) {
  return {
    /** Tells the company's boards and, when given, the person's screens that the job changed. */
    changed(companyId: number, personId: number | null, change: JobChange) {
      const data = JSON.stringify(change);
      live.publish(boardKey(companyId), 'job', data);
      if (personId !== null) live.publish(personKey(personId), 'job', data);
    },
    /** Tells one person's screens only (a job taken off them). */
    toPerson(personId: number, change: JobChange) {
      live.publish(personKey(personId), 'job', JSON.stringify(change));
    },
    watched: (companyId: number, personId: number | null) => live.watched(boardKey(companyId)) || (personId !== null && live.watched(personKey(personId))),
  };
}
export type DispatchLive = ReturnType<typeof dispatchLive>;
