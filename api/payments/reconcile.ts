// Reconciliation of payments at booking (docs/product.md §21): webhooks can be missed, so every
// minute the checkouts awaited past their time are asked of the provider and settled or
// abandoned (api/payments/webhooks.ts, `reconcile`). A job of the runner, listed in api/boot.ts.
import type { IntervalJob } from '../platform/jobs/runner';

export const RECONCILE_EVERY_MS = 60_000;

export function paymentReconcileJob(payments: { reconcile: () => Promise<number> }, everyMs = RECONCILE_EVERY_MS): IntervalJob {
  return {
    name: 'payment-reconcile',
    everyMs,
    async run() {
      await payments.reconcile();
    },
  };
}
