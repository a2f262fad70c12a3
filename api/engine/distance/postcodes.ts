// Built-in postcode centroids (docs/product.md §11): api/engine/distance/data/postcodes.bin, written by
// scripts/build-geodata.ts, decoded once into typed arrays. Look-ups are binary searches over
// packed integer keys, so they allocate nothing but the result.
import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import { COORD_SCALE, GEODATA_MAGIC, GEODATA_VERSION, SUFFIX_COUNT, packKey, suffixLetters, unitSuffix, unpackKey } from './geodata-format';
import { NearestUnitIndex } from './nearest';

export type PostcodeLevel = 'unit' | 'sector' | 'district';

export interface PostcodeLocation {
  lat: number;
  lng: number;
  level: PostcodeLevel;
}

/** A unit postcode near a point, formatted ("LS1 4AP"), and how far the point is from its centroid. */
export interface NearbyPostcode {
  postcode: string;
  distanceMetres: number;
}

export interface GeodataStats {
  /** The whole load: reading, decoding and building the nearest-unit index. */
  loadMs: number;
  /** The part of loadMs spent building the nearest-unit index. */
  nearestIndexMs: number;
  fileBytes: number;
  units: number;
  sectors: number;
  districts: number;
}

import { POSTCODES_FILE } from '../../platform/paths';

export { POSTCODES_FILE };

/** First index i in keys[from, to) with keys[i] === key, or -1. */
function findKey(keys: Uint32Array | Uint16Array, key: number, from: number, to: number): number {
  let lo = from;
  let hi = to - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const k = keys[mid];
    if (k < key) lo = mid + 1;
    else if (k > key) hi = mid - 1;
    else return mid;
  }
  return -1;
}

class ByteReader {
  private pos = 0;
  constructor(private readonly bytes: Uint8Array) {}

  ascii(length: number): string {
    const text = String.fromCharCode(...this.bytes.subarray(this.pos, this.pos + length));
    this.pos += length;
    return text;
  }

  byte(): number {
    return this.bytes[this.pos++];
  }

  varint(): number {
    const bytes = this.bytes;
    let b = bytes[this.pos++];
    if (b < 0x80) return b;
    // Bit operations while the value fits 28 bits (every coordinate delta), multiplication beyond,
    // where shifts would wrap (packed keys can exceed 2^31).
    let value = b & 0x7f;
    for (let shift = 7; shift < 28; shift += 7) {
      b = bytes[this.pos++];
      value |= (b & 0x7f) << shift;
      if (b < 0x80) return value;
    }
    let scale = 2 ** 28;
    for (;;) {
      if (this.pos >= bytes.length) throw new Error('postcodes.bin is truncated');
      b = bytes[this.pos++];
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
    }
  }

  /** Zigzag-decoded varint; the values written are far below 2^31, so bit operations are safe. */
  zigzag(): number {
    const v = this.varint();
    return (v >>> 1) ^ -(v & 1);
  }

  get done(): boolean {
    return this.pos === this.bytes.length;
  }
}

interface CentroidTable {
  keys: Uint32Array;
  lat: Int32Array;
  lng: Int32Array;
}

function readCentroids(reader: ByteReader, count: number): CentroidTable {
  const table = { keys: new Uint32Array(count), lat: new Int32Array(count), lng: new Int32Array(count) };
  let key = 0;
  let lat = 0;
  let lng = 0;
  for (let i = 0; i < count; i++) {
    key += reader.varint();
    lat += reader.zigzag();
    lng += reader.zigzag();
    table.keys[i] = key;
    table.lat[i] = lat;
    table.lng[i] = lng;
  }
  return table;
}

export class PostcodeIndex {
  private constructor(
    private readonly districts: CentroidTable,
    private readonly sectors: CentroidTable,
    /** Units of sector i are unitSuffix/Lat/Lng[sectorStart[i], sectorStart[i + 1]). */
    private readonly sectorStart: Uint32Array,
    private readonly unitSuffixes: Uint16Array,
    private readonly unitLat: Int32Array,
    private readonly unitLng: Int32Array,
    private readonly near: NearestUnitIndex,
    /** Milliseconds the nearest-unit index took to build. */
    readonly nearestIndexMs: number,
  ) {}

  /** Decodes a postcodes.bin file's contents (brotli-compressed). */
  static decode(file: Uint8Array): PostcodeIndex {
    const reader = new ByteReader(brotliDecompressSync(file));
    if (reader.ascii(GEODATA_MAGIC.length) !== GEODATA_MAGIC) throw new Error('postcodes.bin: bad magic');
    const version = reader.byte();
    if (version !== GEODATA_VERSION) throw new Error(`postcodes.bin: format ${version}, expected ${GEODATA_VERSION}`);
    const districtCount = reader.varint();
    const sectorCount = reader.varint();
    const unitCount = reader.varint();
    const districts = readCentroids(reader, districtCount);
    const sectors = readCentroids(reader, sectorCount);

    const sectorStart = new Uint32Array(sectorCount + 1);
    for (let s = 0; s < sectorCount; s++) sectorStart[s + 1] = sectorStart[s] + reader.varint();
    if (sectorStart[sectorCount] !== unitCount) throw new Error('postcodes.bin: unit counts do not add up');

    const suffixes = new Uint16Array(unitCount);
    const unitLat = new Int32Array(unitCount);
    const unitLng = new Int32Array(unitCount);
    for (let s = 0; s < sectorCount; s++) {
      let suffix = -1;
      for (let u = sectorStart[s]; u < sectorStart[s + 1]; u++) {
        suffix += reader.varint() + 1;
        if (suffix >= SUFFIX_COUNT) throw new Error('postcodes.bin: unit suffix out of range');
        suffixes[u] = suffix;
      }
    }
    for (const [column, base] of [
      [unitLat, sectors.lat],
      [unitLng, sectors.lng],
    ] as const) {
      for (let s = 0; s < sectorCount; s++) {
        let value = base[s];
        for (let u = sectorStart[s]; u < sectorStart[s + 1]; u++) {
          value += reader.zigzag();
          column[u] = value;
        }
      }
    }
    if (!reader.done) throw new Error('postcodes.bin: trailing bytes');
    const started = performance.now();
    const near = NearestUnitIndex.build(unitLat, unitLng);
    return new PostcodeIndex(districts, sectors, sectorStart, suffixes, unitLat, unitLng, near, performance.now() - started);
  }

  get counts(): { units: number; sectors: number; districts: number } {
    return { units: this.unitSuffixes.length, sectors: this.sectors.keys.length, districts: this.districts.keys.length };
  }

  /** Bytes held by the decoded data and its nearest-unit index. */
  get byteLength(): number {
    const table = (t: CentroidTable) => t.keys.byteLength + t.lat.byteLength + t.lng.byteLength;
    return (
      table(this.districts) +
      table(this.sectors) +
      this.sectorStart.byteLength +
      this.unitSuffixes.byteLength +
      this.unitLat.byteLength +
      this.unitLng.byteLength +
      this.near.byteLength
    );
  }

  /** The unit postcode nearest to (lat, lng) in degrees, if one is within 1 km. */
  nearest(lat: number, lng: number): NearbyPostcode | undefined {
    const found = this.near.nearest(lat, lng);
    if (!found) return undefined;
    // The unit's sector: the last s with sectorStart[s] <= unit.
    let low = 0;
    let high = this.sectors.keys.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.sectorStart[mid] <= found.unit) low = mid;
      else high = mid - 1;
    }
    const sector = unpackKey(this.sectors.keys[low]);
    const postcode = `${sector.slice(0, -1)} ${sector.slice(-1)}${suffixLetters(this.unitSuffixes[found.unit])}`;
    return { postcode, distanceMetres: Math.round(found.metres) };
  }

  /** `key` is a full postcode, upper case, no spaces: unit, then sector (key minus 2), then district (key minus 3). */
  lookup(key: string): PostcodeLocation | undefined {
    const n = key.length;
    const sectorKey = packKey(key, n - 2);
    const sector = sectorKey < 0 ? -1 : findKey(this.sectors.keys, sectorKey, 0, this.sectors.keys.length);
    if (sector >= 0) {
      const suffix = unitSuffix(key);
      const unit = suffix < 0 ? -1 : findKey(this.unitSuffixes, suffix, this.sectorStart[sector], this.sectorStart[sector + 1]);
      if (unit >= 0) return { lat: this.unitLat[unit] / COORD_SCALE, lng: this.unitLng[unit] / COORD_SCALE, level: 'unit' };
      return { lat: this.sectors.lat[sector] / COORD_SCALE, lng: this.sectors.lng[sector] / COORD_SCALE, level: 'sector' };
    }
    const districtKey = packKey(key, n - 3);
    const district = districtKey < 0 ? -1 : findKey(this.districts.keys, districtKey, 0, this.districts.keys.length);
    if (district < 0) return undefined;
    return { lat: this.districts.lat[district] / COORD_SCALE, lng: this.districts.lng[district] / COORD_SCALE, level: 'district' };
  }
}

let loaded: { index: PostcodeIndex; stats: GeodataStats } | undefined;

function ensureLoaded(): { index: PostcodeIndex; stats: GeodataStats } {
  if (!loaded) {
    const started = performance.now();
    const file = readFileSync(POSTCODES_FILE);
    const index = PostcodeIndex.decode(file);
    const loadMs = performance.now() - started;
    loaded = { index, stats: { loadMs, nearestIndexMs: index.nearestIndexMs, fileBytes: file.length, ...index.counts } };
  }
  return loaded;
}

/**
 * Loads the built-in data once (synchronously: call it at server start so the first quote does
 * not pay for it) and reports how long that took. Later calls return the same figures.
 */
export function loadGeodata(): GeodataStats {
  return ensureLoaded().stats;
}

/** Milliseconds the one load took (loads now if nothing has yet). */
export function geodataLoadMs(): number {
  return ensureLoaded().stats.loadMs;
}

/** The unit postcode nearest to a point, if one is within 1 km (none at sea or abroad). */
export function nearestPostcode(lat: number, lng: number): NearbyPostcode | undefined {
  return ensureLoaded().index.nearest(lat, lng);
}

/** Centroid of a postcode key (upper case, no spaces), at the most precise level known. */
export function lookupPostcode(key: string): PostcodeLocation | undefined {
  return ensureLoaded().index.lookup(key);
}
