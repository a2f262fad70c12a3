// The operator's photo rule on the server (docs/product.md, "Proof of condition", decision 050):
// with 'Require the four pickup photos before Loaded' (drop-off before Completed) on, the move is
// refused (409 PHOTOS_REQUIRED, naming the sides missing) unless each of the four sides is either
// received or declared by the phone as taken and still queued. A move never waits for an upload:
// what the phone declares is recorded as promised (api/proof/store.ts) and shown to the operator
// until it arrives.
import type { BookingStatus } from '#shared/bookings';
import { photosMissing, type PhotoSlot, type ProofStage, type QueuedPhoto, REQUIRED_SLOTS } from '#shared/proof';
import type { Db } from '../platform/db/client';
import { Conflict } from '../platform/errors';
import { proofSettingsOf, receivedSlots, recordPromises } from './store';

/** The stage whose photos a move to `to` closes: the pickup's at Loaded, the drop-off's at Completed. */
export const stageClosedBy = (to: BookingStatus): ProofStage | null => (to === 'loaded' ? 'pickup' : to === 'completed' ? 'dropoff' : null);

/**
 * Checks the rule for a move of the booking to `to`: throws 409 PHOTOS_REQUIRED when a required side
 * is neither received nor queued; answers the promises to record with the move (none when the rule
 * move closes no stage).
 */
export function checkRequiredPhotos(
  db: Db,
  booking: { id: number; companyId: number },
  to: BookingStatus,
  queued: readonly QueuedPhoto[],
): { stage: ProofStage; photos: readonly QueuedPhoto[] } | null {
  const stage = stageClosedBy(to);
  if (!stage) return null;
  const settings = proofSettingsOf(db, booking.companyId);
  // Without the rule, what the phone declares is still kept as promised.
  if (!(stage === 'pickup' ? settings.photosBeforeLoaded : settings.photosBeforeCompleted)) return { stage, photos: queued };
  const have = new Set<string>([...receivedSlots(db, booking.id, stage), ...queued.map((q) => q.slot)]);
  const missing: PhotoSlot[] = REQUIRED_SLOTS.filter((slot) => !have.has(slot));
  if (missing.length > 0) throw new Conflict(photosMissing(stage, missing), 'PHOTOS_REQUIRED');
  return { stage, photos: queued };
}

/** Records the promises a checked move carries, inside the move's own write. */
export function keepPromises(db: Db, booking: { id: number; companyId: number }, checked: ReturnType<typeof checkRequiredPhotos>, at: string): void {
  if (checked && checked.photos.length > 0)
    recordPromises(db, { bookingId: booking.id, companyId: booking.companyId, stage: checked.stage, promisedAt: at }, checked.photos);
}
