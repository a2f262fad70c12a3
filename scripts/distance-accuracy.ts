// How far the built-in road-distance estimate is from routed driving distances
// (api/engine/distance/testdata/pairs.csv, README there). Imported by the benchmarks; run directly
// (npx tsx scripts/distance-accuracy.ts [pairs.csv]) it prints the table.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { estimateMiles, haversineMiles, type RoadFactor } from '../api/engine/distance/distance';
import { lookupPostcode } from '../api/engine/distance/postcodes';

/** The routed reference distances, kept in the repository with their attribution. */
export const PAIRS_CSV = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../api/engine/distance/testdata/pairs.csv');

export type DistanceBand = '<10 mi' | '10–60 mi' | '>60 mi';

export interface ErrorSummary {
  n: number;
  /** Median absolute percentage error, e.g. 5.1 for 5.1 %. */
  medianPct: number;
  p90Pct: number;
}

export interface DistanceAccuracy {
  overall: ErrorSummary;
  bands: (ErrorSummary & { label: DistanceBand })[];
}

const BANDS: { label: DistanceBand; contains: (straightMiles: number) => boolean }[] = [
  { label: '<10 mi', contains: (d) => d < 10 },
  { label: '10–60 mi', contains: (d) => d >= 10 && d <= 60 },
  { label: '>60 mi', contains: (d) => d > 60 },
];

function centroid(postcode: string) {
  const location = lookupPostcode(postcode.replace(/\s+/g, '').toUpperCase());
  if (!location) throw new Error(`pairs.csv postcode ${postcode} is not in the built-in data`);
  return location;
}

function quantile(sorted: number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

function summarise(errorsPct: number[]): ErrorSummary {
  const sorted = [...errorsPct].sort((a, b) => a - b);
  if (sorted.length === 0) return { n: 0, medianPct: NaN, p90Pct: NaN };
  return { n: sorted.length, medianPct: quantile(sorted, 0.5), p90Pct: quantile(sorted, 0.9) };
}

/**
 * Absolute percentage error of the estimate (one decimal, as quoted) against each row's
 * road_miles, overall and by straight-line band. `roadFactor` defaults to the built-in fitted one.
 */
export function evaluateDistanceAccuracy(pairsCsvPath: string, roadFactor?: RoadFactor): DistanceAccuracy {
  const [header, ...lines] = readFileSync(pairsCsvPath, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  if (!header.startsWith('from_postcode,to_postcode,road_miles')) throw new Error(`${pairsCsvPath}: unexpected header`);
  const rows = lines.map((line) => {
    const [from, to, roadMiles] = line.split(',');
    const road = Number(roadMiles);
    const estimate = estimateMiles(from, to, roadFactor);
    return { straight: haversineMiles(centroid(from), centroid(to)), errorPct: (Math.abs(estimate - road) / road) * 100 };
  });
  return {
    overall: summarise(rows.map((r) => r.errorPct)),
    bands: BANDS.map(({ label, contains }) => ({ label, ...summarise(rows.filter((r) => contains(r.straight)).map((r) => r.errorPct)) })),
  };
}

function printTable(title: string, accuracy: DistanceAccuracy): void {
  console.log(`\n${title}\n| band | rows | median abs error | 90th pct abs error |\n| --- | ---: | ---: | ---: |`);
  for (const { label, n, medianPct, p90Pct } of [{ label: 'all', ...accuracy.overall }, ...accuracy.bands]) {
    console.log(`| ${label} | ${n} | ${medianPct.toFixed(1)} % | ${p90Pct.toFixed(1)} % |`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const pairsCsv = path.resolve(process.argv[2] ?? PAIRS_CSV);
  printTable('Built-in estimate (fitted road factor)', evaluateDistanceAccuracy(pairsCsv));
  printTable('For comparison: flat factor 1.25', evaluateDistanceAccuracy(pairsCsv, 1.25));
}
