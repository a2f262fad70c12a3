// Converts the postcode centroid CSVs (docs/data.md: the files, their sources and licences)
// into api/engine/distance/data/postcodes.bin, the one file the built-in distance provider reads.
// Layout: api/engine/distance/geodata-format.ts. Usage: npm run geodata -- <folder of the CSVs>
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gunzipSync } from 'node:zlib';
import { COORD_SCALE, GEODATA_MAGIC, GEODATA_VERSION, packKey, unitSuffix } from '../api/engine/distance/geodata-format';
import { PostcodeIndex, POSTCODES_FILE } from '../api/engine/distance/postcodes';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_FILE_BYTES = 12 * 1024 * 1024;

interface Centroid {
  key: string;
  packed: number;
  lat: number;
  lng: number;
}

function toFixedPoint(text: string, where: string): number {
  const scaled = Number(text) * COORD_SCALE;
  const rounded = Math.round(scaled);
  // The format is lossless only for the source's 5 decimal places.
  if (!Number.isFinite(scaled) || Math.abs(scaled - rounded) > 1e-6) throw new Error(`${where}: bad coordinate ${text}`);
  return rounded;
}

function parseCentroids(csv: string, file: string, packedLength: (key: string) => number): Centroid[] {
  const lines = csv.split('\n');
  if (lines[0] !== 'key,lat,lng') throw new Error(`${file}: expected header key,lat,lng`);
  const rows: Centroid[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === '') continue;
    const [key, lat, lng] = lines[i].split(',');
    const where = `${file}:${i + 1}`;
    const packed = packKey(key, packedLength(key));
    if (packed < 0) throw new Error(`${where}: unusable key ${key}`);
    rows.push({ key, packed, lat: toFixedPoint(lat, where), lng: toFixedPoint(lng, where) });
  }
  return rows;
}

function sortUnique(rows: Centroid[], what: string): Centroid[] {
  rows.sort((a, b) => a.packed - b.packed);
  for (let i = 1; i < rows.length; i++) {
    if (rows[i].packed === rows[i - 1].packed) throw new Error(`duplicate ${what} ${rows[i].key}`);
  }
  return rows;
}

class ByteWriter {
  private bytes = new Uint8Array(1 << 20);
  private length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  ascii(text: string): void {
    this.reserve(text.length);
    for (let i = 0; i < text.length; i++) this.bytes[this.length++] = text.charCodeAt(i);
  }

  byte(value: number): void {
    this.reserve(1);
    this.bytes[this.length++] = value;
  }

  varint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`varint out of range: ${value}`);
    this.reserve(8);
    let rest = value;
    while (rest >= 0x80) {
      this.bytes[this.length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.bytes[this.length++] = rest;
  }

  zigzag(value: number): void {
    this.varint(value < 0 ? -2 * value - 1 : 2 * value);
  }

  result(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

function writeCentroids(out: ByteWriter, rows: Centroid[]): void {
  let previous = { packed: 0, lat: 0, lng: 0 };
  for (const row of rows) {
    out.varint(row.packed - previous.packed);
    out.zigzag(row.lat - previous.lat);
    out.zigzag(row.lng - previous.lng);
    previous = row;
  }
}

function buildGeodata(geodataDir: string): { payloadBytes: number; file: Buffer; counts: Record<string, number> } {
  const read = (name: string) => readFileSync(path.join(geodataDir, name), 'utf8');
  const districts = parseCentroids(read('uk_postcode_districts.csv'), 'uk_postcode_districts.csv', (k) => k.length);
  const crownFile = 'crown_dependencies_districts_geonames.csv';
  if (existsSync(path.join(geodataDir, crownFile))) {
    districts.push(...parseCentroids(read(crownFile), crownFile, (k) => k.length));
  }
  sortUnique(districts, 'district');
  const sectors = sortUnique(
    parseCentroids(read('uk_postcode_sectors.csv'), 'uk_postcode_sectors.csv', (k) => k.length),
    'sector',
  );

  const unitsCsv = gunzipSync(readFileSync(path.join(geodataDir, 'uk_postcode_units.csv.gz'))).toString('utf8');
  const units = parseCentroids(unitsCsv, 'uk_postcode_units.csv', (k) => k.length - 2);
  const sectorIndex = new Map(sectors.map((s, i) => [s.packed, i]));
  const unitsBySector: { suffix: number; lat: number; lng: number }[][] = sectors.map(() => []);
  for (const unit of units) {
    const s = sectorIndex.get(unit.packed);
    const suffix = unitSuffix(unit.key);
    if (s === undefined) throw new Error(`unit ${unit.key} has no sector row`);
    if (suffix < 0) throw new Error(`unit ${unit.key}: inward code must end in two letters`);
    unitsBySector[s].push({ suffix, lat: unit.lat, lng: unit.lng });
  }

  const out = new ByteWriter();
  out.ascii(GEODATA_MAGIC);
  out.byte(GEODATA_VERSION);
  out.varint(districts.length);
  out.varint(sectors.length);
  out.varint(units.length);
  writeCentroids(out, districts);
  writeCentroids(out, sectors);
  for (const group of unitsBySector) {
    group.sort((a, b) => a.suffix - b.suffix);
    out.varint(group.length);
  }
  for (const group of unitsBySector) {
    let previous = -1;
    for (const unit of group) {
      if (unit.suffix === previous) throw new Error('duplicate unit postcode');
      out.varint(unit.suffix - previous - 1);
      previous = unit.suffix;
    }
  }
  for (const coord of ['lat', 'lng'] as const) {
    unitsBySector.forEach((group, s) => {
      // Neighbouring units usually share a street, so the previous unit predicts better than the centroid.
      let previous = sectors[s][coord];
      for (const unit of group) {
        out.zigzag(unit[coord] - previous);
        previous = unit[coord];
      }
    });
  }

  const payload = out.result();
  const file = brotliCompressSync(payload, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
      [zlibConstants.BROTLI_PARAM_LGWIN]: zlibConstants.BROTLI_MAX_WINDOW_BITS,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: payload.length,
    },
  });

  // Read it back before anyone commits it: every unit must come back exact.
  const index = PostcodeIndex.decode(file);
  for (const unit of units) {
    const found = index.lookup(unit.key);
    if (found?.level !== 'unit' || Math.round(found.lat * COORD_SCALE) !== unit.lat || Math.round(found.lng * COORD_SCALE) !== unit.lng) {
      throw new Error(`round trip failed for ${unit.key}`);
    }
  }
  return { payloadBytes: payload.length, file, counts: index.counts };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // The source CSVs are not kept in the repository (44 MB); docs/data.md says what they hold.
  if (!process.argv[2]) {
    console.error('usage: npm run geodata -- <folder holding the postcode CSVs named in docs/data.md>');
    process.exit(2);
  }
  const geodataDir = path.resolve(process.argv[2]);
  const started = performance.now();
  const { payloadBytes, file, counts } = buildGeodata(geodataDir);
  if (file.length > MAX_FILE_BYTES) throw new Error(`postcodes.bin is ${file.length} bytes, over the ${MAX_FILE_BYTES} limit`);
  const target = POSTCODES_FILE;
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, file);
  console.log(
    `${path.relative(repoRoot, target)}: ${file.length} bytes (${payloadBytes} before brotli); ` +
      `${counts.units} units, ${counts.sectors} sectors, ${counts.districts} districts; ${Math.round(performance.now() - started)} ms`,
  );
}
