// The firm's trucks and what they may carry (docs/product.md §23), written once for the server's
// check at assignment and the board's list of trucks (capable ones first).

export const TRUCK_KINDS = ['flatbed', 'wheel_lift', 'spec_lift', 'hgv'] as const;
export type TruckKind = (typeof TRUCK_KINDS)[number];

export const TRUCK_KIND_WORDS: Record<TruckKind, string> = {
  flatbed: 'Flatbed / slide',
  wheel_lift: 'Wheel-lift',
  spec_lift: 'Spec lift',
  hgv: 'HGV recovery',
};

/** What a vehicle type needs of a truck: the kinds that may carry it (none named: any kind), its weight if known, and whether it is electric. */
export interface Carriage {
  truckKinds: readonly TruckKind[];
  weightKg: number | null;
  electric: boolean;
}

export interface TruckCapacity {
  kind: TruckKind;
  maxWeightKg: number;
  evAllowed: boolean;
}

/** Why a truck cannot carry a vehicle of this type, in the words the board shows; null when it can. */
export function whyTruckCannotCarry(truck: TruckCapacity, carriage: Carriage | null): string | null {
  if (!carriage) return null;
  if (carriage.truckKinds.length > 0 && !carriage.truckKinds.includes(truck.kind))
    return `This vehicle type is not carried on a ${TRUCK_KIND_WORDS[truck.kind].toLowerCase()} truck.`;
  if (carriage.weightKg !== null && carriage.weightKg > truck.maxWeightKg) return 'This vehicle is heavier than the truck may carry.';
  if (carriage.electric && !truck.evAllowed) return 'This truck may not carry an electric vehicle.';
  return null;
}
