// Real postcodes for the benchmarks, drawn deterministically (fixed strides) from the routed pairs
// in api/engine/distance/testdata and from the postcode CSVs of docs/data.md, so every run
// measures the same inputs. The CSVs are not kept in the repository (44 MB); the keys drawn from
// them are, in postcode-keys.json: every n-th row of each file, evenly spread over it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lookupPostcode, type PostcodeLevel } from '../../api/engine/distance/postcodes';
import { PAIRS_CSV } from '../distance-accuracy';

export { PAIRS_CSV };

interface KeySample {
  units: Record<string, string[]>;
  sectors: Record<string, string[]>;
  districts: Record<string, string[]>;
}

const KEYS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'postcode-keys.json');
let sample: KeySample | undefined;

/** The `count` keys drawn from one CSV, as stored; only the counts the benchmarks use are kept. */
function strideKeys(file: keyof KeySample, count: number): string[] {
  sample ??= JSON.parse(readFileSync(KEYS_FILE, 'utf8')) as KeySample;
  const keys = sample[file][String(count)];
  if (!keys) throw new Error(`${KEYS_FILE} holds no sample of ${count} ${file}`);
  return keys;
}

/** "CB21TN" → "CB2 1TN", as a customer would type it. */
export const spaced = (key: string) => `${key.slice(0, -3)} ${key.slice(-3)}`;

/** The distinct postcodes of pairs.csv (routed, real addresses), spaced. */
export function pairsCsvPostcodes(): string[] {
  const rows = readFileSync(PAIRS_CSV, 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line !== '');
  return [...new Set(rows.flatMap((row) => row.split(',').slice(0, 2)))].sort();
}

/** `count` unit postcodes spread over the whole country (compact keys). */
export function unitKeys(count: number): string[] {
  return strideKeys('units', count);
}

/**
 * Keys that resolve at each level: real units; a sector's key with an inward letter pair no unit
 * of it has (falls back to the sector); a district's key with a sector digit it lacks (falls back
 * to the district). Candidates that resolve at another level are dropped.
 */
export function mixedLookupKeys(perLevel: number): { key: string; level: PostcodeLevel }[] {
  const keep = (candidates: string[], level: PostcodeLevel) => candidates.filter((key) => lookupPostcode(key)?.level === level).map((key) => ({ key, level }));
  const sectors = strideKeys('sectors', perLevel * 2);
  const districts = strideKeys('districts', perLevel * 2);
  return [
    ...keep(unitKeys(perLevel), 'unit'),
    ...keep(
      sectors.map((sector) => `${sector}ZZ`),
      'sector',
    ).slice(0, perLevel),
    ...keep(
      districts.map((district) => `${district}9ZZ`),
      'district',
    ).slice(0, perLevel),
  ];
}
