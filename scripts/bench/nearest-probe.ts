// Run in a fresh process by scripts/bench.ts (`node --expose-gc`, so the memory figure is what
// stays live): times the postcode data's load (which builds the nearest-unit index), measures
// the memory it holds, then times `lookups` nearest-postcode look-ups. Prints one JSON line.
import { loadGeodata, lookupPostcode, nearestPostcode } from '../../api/engine/distance/postcodes';
import { pairsCsvPostcodes } from './postcode-sample';

export interface NearestProbeResult {
  loadMs: number;
  /** The part of loadMs spent building the nearest-unit index. */
  nearestIndexMs: number;
  /** Array buffers and heap the loaded data holds, after a full collection. */
  dataBytes: number;
  lookups: number;
  perLookupUs: number;
  /** Share of the sample points that found a unit within 1 km (the rest are the sea or abroad). */
  foundShare: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const lookups = Number(process.argv[2] ?? 1_000_000);
// Nothing of the data is loaded yet: pairsCsvPostcodes only reads the CSV's text.
const postcodes = pairsCsvPostcodes();
await settle();
const before = process.memoryUsage();
const { loadMs, nearestIndexMs } = loadGeodata();
await settle();
const after = process.memoryUsage();
const dataBytes = after.arrayBuffers - before.arrayBuffers + (after.heapUsed - before.heapUsed);

// Points within about 700 m of real addresses all over the country (towns and countryside), and
// one in eight out at sea or abroad, the slowest case (every radius is tried). Fixed seed.
let seed = 42;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32;
const points: [number, number][] = [];
for (const postcode of postcodes) {
  const at = lookupPostcode(postcode.replace(' ', ''));
  if (!at) continue;
  points.push([at.lat + (random() - 0.5) * 0.012, at.lng + (random() - 0.5) * 0.02]);
}
const sea: [number, number][] = [
  [55.0, 3.0],
  [50.2, -2.5],
  [54.0, -5.0],
  [48.86, 2.35],
  [52.0, 2.2],
];
for (let i = 0; points.length % 8 !== 0 || i < points.length / 7; i++) points.push(sea[i % sea.length]);

let found = 0;
for (const [lat, lng] of points) if (nearestPostcode(lat, lng)) found++;

// Summing a distance keeps the results alive, so the optimiser cannot drop the calls.
let checksum = 0;
const run = (n: number) => {
  for (let i = 0; i < n; i++) {
    const [lat, lng] = points[i % points.length];
    checksum += nearestPostcode(lat, lng)?.distanceMetres ?? 1;
  }
};
run(50_000);
const started = process.hrtime.bigint();
run(lookups);
const elapsedNs = Number(process.hrtime.bigint() - started);
if (!Number.isFinite(checksum)) throw new Error('unreachable: keeps checksum used');

const result: NearestProbeResult = { loadMs, nearestIndexMs, dataBytes, lookups, perLookupUs: elapsedNs / lookups / 1000, foundShare: found / points.length };
process.stdout.write(`${JSON.stringify(result)}\n`);
