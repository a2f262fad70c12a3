// The ETA the motorist sees once the driver shares their position: the product's road-distance
// estimate (straight line × the calibrated road factor, api/engine/distance/distance.ts) from the
// driver to the pickup, at an average speed for a recovery truck on mixed roads.
import { defaultRoadFactor, haversineMiles, type LatLng } from '../engine/distance/distance';

/** Miles per hour, door to door, of a recovery truck on mixed UK roads. */
export const AVERAGE_MPH = 30;

export function etaFromPosition(driver: LatLng, pickup: LatLng, now: Date, roadFactor: (straightMiles: number) => number = defaultRoadFactor): { minutes: number; at: string } {
  const straight = haversineMiles(driver, pickup);
  const miles = straight * roadFactor(straight);
  const minutes = Math.max(1, Math.ceil((miles / AVERAGE_MPH) * 60));
  return { minutes, at: new Date(now.getTime() + minutes * 60_000).toISOString() };
}
