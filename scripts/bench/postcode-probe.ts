// Run in a fresh process by scripts/bench.ts (so the load is cold and nothing else is warm):
// times the built-in postcode data's load, then `lookups` look-ups over mixed unit, sector and
// district keys. Prints one JSON line.
import { loadGeodata, lookupPostcode } from '../../api/engine/distance/postcodes';
import { mixedLookupKeys } from './postcode-sample';

export interface PostcodeProbeResult {
  loadMs: number;
  lookups: number;
  perLookupUs: number;
  keysByLevel: Record<string, number>;
}

const lookups = Number(process.argv[2] ?? 1_000_000);
const { loadMs } = loadGeodata();
const keys = mixedLookupKeys(1000);
const keysByLevel: Record<string, number> = {};
for (const { level } of keys) keysByLevel[level] = (keysByLevel[level] ?? 0) + 1;

// Shuffled once (fixed seed) so the branch predictor and caches do not see one level at a time.
let seed = 42;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32;
const order = keys.map((k) => k.key);
for (let i = order.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [order[i], order[j]] = [order[j], order[i]];
}

// Summing a coordinate keeps the results alive, so the optimiser cannot drop the calls.
let checksum = 0;
const run = (n: number) => {
  for (let i = 0; i < n; i++) checksum += lookupPostcode(order[i % order.length])?.lat ?? 0;
};
run(100_000);
const started = process.hrtime.bigint();
run(lookups);
const elapsedNs = Number(process.hrtime.bigint() - started);
if (!Number.isFinite(checksum)) throw new Error('unreachable: keeps checksum used');

const result: PostcodeProbeResult = { loadMs, lookups, perLookupUs: elapsedNs / lookups / 1000, keysByLevel };
process.stdout.write(`${JSON.stringify(result)}\n`);
