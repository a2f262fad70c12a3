// The ETA the motorist sees once the driver shares their position: the product's road-distance
// estimate (straight line × the calibrated road factor, api/engine/distance/distance.ts) from the
// driver to the pickup, at an average speed for a recovery truck on mixed roads.
import { defaultRoadFactor, haversineMiles, type LatLng } from '../engine/distance/distance';

/** Miles per hour, door to door, of a recovery truck on mixed UK roads. */
export const AVERAGE_MPH = 30;

/** A driver further than this (straight line) from both ends of the job is not on their way to it. */
export const JOB_AREA_MILES = 150;

/** The UK, Ireland, the Channel Islands and the Isle of Man, with a margin of sea. */
const UK_AND_IRELAND = { south: 49.0, north: 61.5, west: -11.5, east: 2.5 };

/**
 * Whether a driver's position can be taken for the job's ETA: in the UK or Ireland, and within
 * JOB_AREA_MILES of the pickup or the destination (where either is known). A position elsewhere
 * (a phone's stale or made-up fix) is stored, but the ETA is left as it was: any point on Earth
 * otherwise gave a 24,686-minute ETA.
 */
export function inJobArea(driver: LatLng, ends: (LatLng | undefined)[]): boolean {
  const { south, north, west, east } = UK_AND_IRELAND;
  if (driver.lat < south || driver.lat > north || driver.lng < west || driver.lng > east) return false;
  const known = ends.filter((end): end is LatLng => end !== undefined);
  return known.length === 0 || known.some((end) => haversineMiles(driver, end) <= JOB_AREA_MILES);
}

export function etaFromPosition(
  driver: LatLng,
  pickup: LatLng,
  now: Date,
  roadFactor: (straightMiles: number) => number = defaultRoadFactor,
): { minutes: number; at: string } {
  const straight = haversineMiles(driver, pickup);
  const miles = straight * roadFactor(straight);
  const minutes = Math.max(1, Math.ceil((miles / AVERAGE_MPH) * 60));
  return { minutes, at: new Date(now.getTime() + minutes * 60_000).toISOString() };
}
