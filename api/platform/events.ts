// The app's events between features (decision 039): a small typed emitter, made once per app in
// api/app.ts and handed to every feature in its dependencies (`deps.events`), so that a feature
// tells others what happened without calling them, and none of them imports another in a circle.
//
// - `job.changed`: a booking changed (its status, the driver's position, a refund, its balance
//   recorded as paid). Emitted by the bookings (api/bookings/) after the change is committed, and
//   by the payments when a job's payment changed by itself after the job moved (`payment`: money
//   that followed late, a refund made in the provider's dashboard). Heard by the payments (the money
//   follows the job: api/payments/refunds.ts), the documents (a completed job's receipt, its
//   updated receipt after the balance, a refund's credit note: api/documents/service.ts), the live
//   status pages, the motorist's and the driver's (api/bookings/context.ts), in that order.
//
// Messages written to the outbox need no event: every write nudges the outbox's lanes itself
// (`onOutboxWritten`, api/mail/store.ts and api/boot.ts).
//
// Listeners run one after the other in the order they subscribed, each awaited, so a listener may
// rely on the ones before it (the receipt after the hold was captured). A listener that throws is
// logged and the others still run: the change it hears of is committed already, and the jobs that
// sweep up after (reconciliation, the document sweep) finish what it could not.
import type { BookingStatus } from '#shared/bookings';
import type { Logger } from './http/observability';

/**
 * What changed about a job: the status it moved to, the driver's position, the operator's refund,
 * its balance recorded as paid, or its payment changing by itself after the job moved.
 */
export type JobChangeKind = BookingStatus | 'position' | 'refunded' | 'balance' | 'payment';

export interface JobChanged {
  companyId: number;
  bookingId: number;
  kind: JobChangeKind;
}

export interface AppEventMap {
  'job.changed': JobChanged;
}

type Listener<E> = (event: E) => void | Promise<void>;

export interface Events<M> {
  /** Subscribes `listener` to `name`; answers how to unsubscribe. */
  on<K extends keyof M>(name: K, listener: Listener<M[K]>): () => void;
  /** Runs every listener of `name`, in the order subscribed, each awaited; never rejects. */
  emit<K extends keyof M>(name: K, event: M[K]): Promise<void>;
}

export function createEvents<M>(logger: Pick<Logger, 'error'>): Events<M> {
  const listeners = new Map<keyof M, Listener<never>[]>();
  return {
    on(name, listener) {
      const list = listeners.get(name) ?? [];
      list.push(listener as Listener<never>);
      listeners.set(name, list);
      return () => {
        const index = list.indexOf(listener as Listener<never>);
        if (index >= 0) list.splice(index, 1);
      };
    },
    async emit(name, event) {
      for (const listener of [...(listeners.get(name) ?? [])]) {
        try {
          await (listener as Listener<typeof event>)(event);
        } catch (err) {
          logger.error({ msg: 'An event listener failed', event: String(name), error: err instanceof Error ? err.message : String(err) });
        }
      }
    },
  };
}

export type AppEvents = Events<AppEventMap>;

export const createAppEvents = (logger: Pick<Logger, 'error'>): AppEvents => createEvents<AppEventMap>(logger);
