// The layout of api/engine/distance/data/postcodes.bin, shared by the build script that writes it and the
// loader that reads it.
//
// The file is one brotli stream. Decompressed, it is:
//   "UKPC", format version (1 byte), then varints: district count, sector count, unit count
//   districts: per district, key delta then zigzag lat delta, lng delta (each from the previous district)
//   sectors:   the same, per sector
//   per sector: its unit count
//   per unit:  suffix gap (suffix minus previous suffix in the sector, minus 1)
//   per unit:  zigzag lat delta  (from the previous unit of the sector; the first from the sector centroid)
//   per unit:  zigzag lng delta  (likewise)
// Keys are packed integers (see packKey), sorted ascending; units are grouped by sector in sector
// order and sorted by suffix. Coordinates are integers of 1e-5 degree, the precision of the source
// CSVs, so the round trip is lossless. Columns are stored one after another rather than per row
// because like bytes next to like bytes compress better.

export const GEODATA_MAGIC = 'UKPC';
export const GEODATA_VERSION = 1;
export const COORD_SCALE = 1e5;
/** Two inward letters, A–Z each (Code-Point Open has a handful of units outside the official 20 letters). */
export const SUFFIX_COUNT = 26 * 26;

const MAX_PACKED_LENGTH = 6;

/**
 * Packs key[0, end) (digits and upper-case letters) into an integer in bijective base 37: no
 * digit is 0, so "M1" and "M01"-style keys of different lengths never collide, and 6 characters
 * stay below 2^32 (fits a Uint32Array). Returns -1 for any other character or length.
 */
export function packKey(key: string, end: number): number {
  if (end < 1 || end > MAX_PACKED_LENGTH) return -1;
  let packed = 0;
  for (let i = 0; i < end; i++) {
    const c = key.charCodeAt(i);
    let digit: number;
    if (c >= 48 && c <= 57) digit = c - 47;
    else if (c >= 65 && c <= 90) digit = c - 54;
    else return -1;
    packed = packed * 37 + digit;
  }
  return packed;
}

/** The inverse of packKey over a whole packed value: "LS14" back from its number. */
export function unpackKey(packed: number): string {
  let key = '';
  while (packed > 0) {
    const digit = ((packed - 1) % 37) + 1;
    key = String.fromCharCode(digit <= 10 ? digit + 47 : digit + 54) + key;
    packed = (packed - digit) / 37;
  }
  return key;
}

/** The unit's last two letters as 0..SUFFIX_COUNT-1, or -1 if they are not both A–Z. */
export function unitSuffix(key: string): number {
  const n = key.length;
  const a = key.charCodeAt(n - 2) - 65;
  const b = key.charCodeAt(n - 1) - 65;
  // Written so NaN (key shorter than 2) fails too.
  if (!(a >= 0 && a <= 25 && b >= 0 && b <= 25)) return -1;
  return a * 26 + b;
}

/** The two letters unitSuffix numbered. */
export const suffixLetters = (suffix: number): string => String.fromCharCode(65 + Math.floor(suffix / 26), 65 + (suffix % 26));
