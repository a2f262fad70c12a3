// Which of an operator's vehicle types a looked-up vehicle is: the operator's rules (Custom
// Charges, "Number plate look-up"), first match wins, each naming one of their vehicle types.
// A company that has never saved rules gets defaults built from the names of its own rows, so
// the starter types (Car, Van, Motorcycle) work on day one and an "EV" or "Large van" row added
// later is picked up without touching the rules. Pure: the DVLA client gives the facts, the
// store gives the rules and rows.
import type { VehicleCategory, VehicleFuel, VehicleRule } from '#shared/vehicle-rules';

/** What the lookup learnt about a vehicle, as far as the rules care. */
export interface VehicleFacts {
  /** The DVLA's type approval category: M1 car, N1 light goods, N2/N3 goods, L1–L7 two/three wheelers. */
  typeApproval?: string;
  /** Revenue weight in kg; 0 or missing when the DVLA holds none. */
  revenueWeight?: number;
  /** The DVLA's fuel type: PETROL, DIESEL, ELECTRICITY, HYBRID ELECTRIC, ELECTRIC DIESEL, … */
  fuelType?: string;
  /** e.g. "2 AXLE RIGID BODY", "2 WHEEL": tells a motorcycle when the type approval is missing. */
  wheelplan?: string;
}

/** A vehicle type row as the rules see it. */
export interface VehicleTypeRow {
  id: number;
  name: string;
  enabled: boolean;
}

/** The rule category a vehicle falls in, or null when the DVLA says too little. */
export function categoryOf(facts: VehicleFacts): Exclude<VehicleCategory, 'any'> | null {
  const approval = facts.typeApproval?.trim().toUpperCase() ?? '';
  if (approval.startsWith('L')) return 'L';
  const match = /^(M1|M2|M3|N1|N2|N3)/.exec(approval);
  if (match) return match[1] as Exclude<VehicleCategory, 'any' | 'L'>;
  if (!approval && /^2 WHEEL/i.test(facts.wheelplan ?? '')) return 'L';
  return null;
}

/** The rule fuel a vehicle has, or null for gas, steam, fuel cells, other and unknown. */
export function fuelOf(facts: VehicleFacts): Exclude<VehicleFuel, 'any'> | null {
  const fuel = facts.fuelType?.trim().toUpperCase() ?? '';
  if (fuel === 'ELECTRICITY' || fuel === 'ELECTRIC') return 'electric';
  if (fuel.includes('HYBRID') || fuel.includes('ELECTRIC')) return 'hybrid';
  if (fuel.includes('PETROL')) return 'petrol';
  if (fuel.includes('DIESEL')) return 'diesel';
  return null;
}

export function ruleMatches(rule: VehicleRule, facts: VehicleFacts): boolean {
  if (rule.category !== 'any' && rule.category !== categoryOf(facts)) return false;
  if (rule.fuel !== 'any' && rule.fuel !== fuelOf(facts)) return false;
  if (rule.overKg !== null && !((facts.revenueWeight ?? 0) > rule.overKg)) return false;
  return true;
}

/** The first matching rule's vehicle type that is still offered (enabled), else null. */
export function chooseVehicleType<R extends VehicleTypeRow>(rules: readonly VehicleRule[], facts: VehicleFacts, rows: readonly R[]): R | null {
  for (const rule of rules) {
    if (!ruleMatches(rule, facts)) continue;
    const row = rows.find((r) => r.id === rule.vehicleTypeId && r.enabled);
    if (row) return row;
  }
  return null;
}

/** The row called exactly `exact` (any case), else the first whose name matches `pattern` and not `unless`. */
function rowNamed(rows: readonly VehicleTypeRow[], exact: string[], pattern: RegExp, unless?: RegExp): VehicleTypeRow | undefined {
  const trimmed = (r: VehicleTypeRow) => r.name.trim().toLowerCase();
  return rows.find((r) => exact.includes(trimmed(r))) ?? rows.find((r) => pattern.test(r.name) && !unless?.test(r.name));
}

const LARGE_VAN = /\b(large|big|long|lwb|luton|xl)\b/i;

/**
 * The rules a company gets until it saves its own: each default targets a row by its name, and
 * is left out when the company has no such row.
 */
export function defaultRules(rows: readonly VehicleTypeRow[]): VehicleRule[] {
  const rule = (row: VehicleTypeRow | undefined, category: VehicleCategory, fuel: VehicleFuel = 'any', overKg: number | null = null) =>
    row ? [{ category, fuel, overKg, vehicleTypeId: row.id }] : [];
  const hgv = rowNamed(rows, ['hgv', 'lorry', 'truck'], /\b(hgv|lgv|lorry|lorries|truck|heavy)\b/i);
  const largeVan = rows.find((r) => /\bvans?\b/i.test(r.name) && LARGE_VAN.test(r.name));
  const minibus = rowNamed(rows, ['minibus'], /\b(minibus|bus|coach)\b/i);
  return [
    ...rule(rowNamed(rows, ['ev', 'electric', 'electric vehicle'], /\b(ev|evs|electric)\b/i), 'any', 'electric'),
    ...rule(rowNamed(rows, ['motorcycle', 'motorbike'], /\b(motor ?(cycle|bike)s?|bikes?|scooters?|moped)\b/i), 'L'),
    ...rule(hgv, 'N3'),
    ...rule(hgv, 'N2'),
    ...rule(largeVan, 'N1', 'any', 3000),
    ...rule(rowNamed(rows, ['van'], /\bvans?\b/i, LARGE_VAN), 'N1'),
    ...rule(minibus, 'M2'),
    ...rule(minibus, 'M3'),
    ...rule(rowNamed(rows, ['car'], /\bcars?\b/i), 'M1'),
  ];
}

// ------------------------------------------------------------------ words for the motorist

const ACRONYM = /^[A-Z0-9]{2,}$/;

/** "FORD" → "Ford", "MERCEDES-BENZ" → "Mercedes-Benz", "BMW" → "BMW": vowel-less or two-letter makes stay capitals. */
export function makeName(make: string): string {
  return make
    .trim()
    .toLowerCase()
    .replace(/[a-z0-9]+/g, (word) => (word.length <= 2 || !/[aeiouy]/.test(word) ? word.toUpperCase() : word[0].toUpperCase() + word.slice(1)));
}

/** "an" before a vowel sound: "an orange Ford", "an EV", "an HGV", "a van", "a utility van". */
export function article(phrase: string): 'a' | 'an' {
  const first = phrase.split(/\s+/)[0] ?? '';
  if (ACRONYM.test(first)) return /^([AEFHILMNORSX]|8|11|18)/.test(first) ? 'an' : 'a';
  if (/^u[^aeiou][aeiou]/i.test(first) || /^eu/i.test(first) || /^one\b/i.test(first)) return 'a';
  if (/^(hour|honest|heir)/i.test(first)) return 'an';
  return /^[aeiou]/i.test(first) ? 'an' : 'a';
}

/** A vehicle type's name as it reads mid-sentence: "Large Van" → "large van", "EV" stays "EV". */
export function typePhrase(name: string): string {
  const words = name
    .trim()
    .split(/\s+/)
    .map((w) => (ACRONYM.test(w) ? w : w.toLowerCase()));
  const phrase = words.join(' ');
  return `${article(phrase)} ${phrase}`;
}

/** "a white Ford", "an Audi", "a vehicle" when the DVLA gives neither. */
export function vehiclePhrase(colour: string | undefined, make: string | undefined): string {
  const words = [colour?.trim().toLowerCase(), make?.trim() ? makeName(make) : undefined].filter(Boolean).join(' ') || 'vehicle';
  return `${article(words)} ${words}`;
}
