// Real postcodes for the benchmarks, drawn deterministically (fixed strides) from the routed pairs
// in api/engine/distance/testdata and the source CSVs of the postcode data (docs/data.md), so every run measures the same inputs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { lookupPostcode, type PostcodeLevel } from '../../api/engine/distance/postcodes';
import { PAIRS_CSV } from '../distance-accuracy';
import { REPO_ROOT } from './server-process';

export { PAIRS_CSV };
const SHARED_DIR = path.resolve(REPO_ROOT, '../shared');
const GEODATA_DIR = path.join(SHARED_DIR, 'geodata');

/** Every `count`-th key (evenly spread over the file) of a `key,lat,lng` CSV. */
function strideKeys(csv: string, count: number): string[] {
  const lines = csv.split('\n').slice(1).filter((line) => line !== '');
  const stride = Math.max(1, Math.floor(lines.length / count));
  const keys: string[] = [];
  for (let i = 0; i < lines.length && keys.length < count; i += stride) keys.push(lines[i].slice(0, lines[i].indexOf(',')));
  return keys;
}

/** "CB21TN" → "CB2 1TN", as a customer would type it. */
export const spaced = (key: string) => `${key.slice(0, -3)} ${key.slice(-3)}`;

/** The distinct postcodes of pairs.csv (routed, real addresses), spaced. */
export function pairsCsvPostcodes(): string[] {
  const rows = readFileSync(PAIRS_CSV, 'utf8').split('\n').slice(1).filter((line) => line !== '');
  return [...new Set(rows.flatMap((row) => row.split(',').slice(0, 2)))].sort();
}

/** `count` unit postcodes spread over the whole country (compact keys). */
export function unitKeys(count: number): string[] {
  return strideKeys(gunzipSync(readFileSync(path.join(GEODATA_DIR, 'uk_postcode_units.csv.gz'))).toString('utf8'), count);
}

/**
 * Keys that resolve at each level: real units; a sector's key with an inward letter pair no unit
 * of it has (falls back to the sector); a district's key with a sector digit it lacks (falls back
 * to the district). Candidates that resolve at another level are dropped.
 */
export function mixedLookupKeys(perLevel: number): { key: string; level: PostcodeLevel }[] {
  const keep = (candidates: string[], level: PostcodeLevel) =>
    candidates.filter((key) => lookupPostcode(key)?.level === level).map((key) => ({ key, level }));
  const sectors = strideKeys(readFileSync(path.join(GEODATA_DIR, 'uk_postcode_sectors.csv'), 'utf8'), perLevel * 2);
  const districts = strideKeys(readFileSync(path.join(GEODATA_DIR, 'uk_postcode_districts.csv'), 'utf8'), perLevel * 2);
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
