// A dispatcher's refunds (docs/product.md, "The team"): at most the owner's limit each; the owner
// has none. Checked against the amount the refund would be before any money moves.
import { formatPence } from '#shared/money';
import type { Db } from '../platform/db/client';
import { Forbidden } from '../platform/errors';
import { refundLimitPence } from './store';

export const refundOverLimit = (limit: string) => `Refunds above ${limit} need the owner. Ask the owner to give this refund.`;

export function assertWithinRefundLimit(db: Db, companyId: number, amountPence: number): void {
  const limit = refundLimitPence(db, companyId);
  if (amountPence > limit) throw new Forbidden(refundOverLimit(formatPence(limit)), 'REFUND_OVER_LIMIT');
}
