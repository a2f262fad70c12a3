// Nearest postcode unit to a point ("Use my location", issue 18), over every unit of
// postcodes.bin. Built once at load from the decoded unit columns, in linear time:
//
//   - the country is cut into strips of STRIP_HEIGHT (0.002° of latitude, about 220 m);
//   - units are ordered by strip, then by longitude column within the strip (two counting-sort passes);
//   - per unit in that order we keep its longitude (Int32, to binary-search a strip), its latitude
//     as an offset inside its strip (one byte) and its unit number (to name its postcode).
//
// A query looks in a box of half-side r metres round the point: in each strip the box crosses, a
// binary search finds the box's west edge and a scan runs to its east edge. A unit found within r
// is the nearest (anything outside the box is further than r); otherwise r grows, up to MAX_METRES.
// About 15.75 MB for 1.75 M units (decision 013).
import { COORD_SCALE } from './geodata-format';

/** Strip height in coordinate units (1e-5 degree); below 256 so the offset fits a byte. */
const STRIP_HEIGHT = 200;
/**
 * Within a strip, units are ordered by longitude column (32 units, about 20 m wide) rather than by
 * exact longitude: a counting sort over 33 k columns is much faster at load than one over 1 M
 * longitudes, and a query scans at most a column's width more on each side.
 */
const COLUMN_SHIFT = 5;
const COLUMN_WIDTH = 1 << COLUMN_SHIFT;
/** Nothing further than this counts as near: beyond it the point is at sea or abroad. */
export const MAX_METRES = 1000;
/** Box half-sides tried in turn: small first, so a city centre scans few units. */
const RADII = [150, 400, MAX_METRES];
/** Mean Earth radius (IUGG), in metres. */
const EARTH_RADIUS_M = 6_371_008.8;
const METRES_PER_UNIT_LAT = (Math.PI / 180) * EARTH_RADIUS_M / COORD_SCALE;

export interface NearestUnit {
  /** Index of the unit in the decoded columns. */
  unit: number;
  metres: number;
}

export class NearestUnitIndex {
  private constructor(
    private readonly minLat: number,
    private readonly minLng: number,
    private readonly stripStart: Uint32Array,
    private readonly lng: Int32Array,
    private readonly latOffset: Uint8Array,
    private readonly unit: Uint32Array,
  ) {}

  /** Builds the index over units 0..n-1 with these coordinates (integers of 1e-5 degree). */
  static build(unitLat: Int32Array, unitLng: Int32Array): NearestUnitIndex {
    const n = unitLat.length;
    let minLat = Infinity;
    let maxLat = -Infinity;
    let minLng = Infinity;
    let maxLng = -Infinity;
    for (let i = 0; i < n; i++) {
      const la = unitLat[i];
      const lo = unitLng[i];
      if (la < minLat) minLat = la;
      if (la > maxLat) maxLat = la;
      if (lo < minLng) minLng = lo;
      if (lo > maxLng) maxLng = lo;
    }
    if (n === 0) return new NearestUnitIndex(0, 0, new Uint32Array(1), new Int32Array(0), new Uint8Array(0), new Uint32Array(0));
    const strips = Math.floor((maxLat - minLat) / STRIP_HEIGHT) + 1;

    // Counts per strip and per longitude column, and each unit's strip (a temporary).
    const stripOf = new Uint16Array(n);
    const stripStart = new Uint32Array(strips + 1);
    const columnStart = new Uint32Array(((maxLng - minLng) >> COLUMN_SHIFT) + 2);
    for (let i = 0; i < n; i++) {
      const strip = ((unitLat[i] - minLat) / STRIP_HEIGHT) | 0;
      stripOf[i] = strip;
      stripStart[strip + 1]++;
      columnStart[((unitLng[i] - minLng) >> COLUMN_SHIFT) + 1]++;
    }
    for (let s = 1; s <= strips; s++) stripStart[s] += stripStart[s - 1];
    for (let c = 1; c < columnStart.length; c++) columnStart[c] += columnStart[c - 1];
    // Pass 1: units by column. Pass 2, stable: by strip, so each strip stays in column order.
    const byColumn = new Uint32Array(n);
    for (let i = 0; i < n; i++) byColumn[columnStart[(unitLng[i] - minLng) >> COLUMN_SHIFT]++] = i;
    const next = stripStart.slice(0, strips);
    const unit = new Uint32Array(n);
    const lng = new Int32Array(n);
    const latOffset = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      const i = byColumn[k];
      const strip = stripOf[i];
      const at = next[strip]++;
      unit[at] = i;
      lng[at] = unitLng[i];
      latOffset[at] = unitLat[i] - minLat - strip * STRIP_HEIGHT;
    }
    return new NearestUnitIndex(minLat, minLng, stripStart, lng, latOffset, unit);
  }

  /** Bytes held by the index's arrays. */
  get byteLength(): number {
    return this.stripStart.byteLength + this.lng.byteLength + this.latOffset.byteLength + this.unit.byteLength;
  }

  /** The unit nearest to (lat, lng) in degrees, if one is within MAX_METRES; allocates only the answer. */
  nearest(lat: number, lng: number): NearestUnit | undefined {
    if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) return undefined;
    const la = lat * COORD_SCALE;
    const lo = lng * COORD_SCALE;
    const strips = this.stripStart.length - 1;
    const metresPerUnitLng = METRES_PER_UNIT_LAT * Math.cos((lat * Math.PI) / 180);
    let best = -1;
    let bestSquared = Infinity;
    for (const radius of RADII) {
      const halfLat = radius / METRES_PER_UNIT_LAT;
      const halfLng = radius / metresPerUnitLng;
      const first = Math.max(0, Math.floor((la - halfLat - this.minLat) / STRIP_HEIGHT));
      const last = Math.min(strips - 1, Math.floor((la + halfLat - this.minLat) / STRIP_HEIGHT));
      // The box's west and east edges as columns: a strip is in column order, not exact longitude order.
      const westColumn = Math.floor((lo - halfLng - this.minLng) / COLUMN_WIDTH);
      const eastColumn = Math.floor((lo + halfLng - this.minLng) / COLUMN_WIDTH);
      for (let s = first; s <= last; s++) {
        const base = this.minLat + s * STRIP_HEIGHT;
        // First unit of the strip in or east of the west edge's column.
        let low = this.stripStart[s];
        let high = this.stripStart[s + 1];
        while (low < high) {
          const mid = (low + high) >>> 1;
          if ((this.lng[mid] - this.minLng) >> COLUMN_SHIFT < westColumn) low = mid + 1;
          else high = mid;
        }
        const end = this.stripStart[s + 1];
        for (let i = low; i < end; i++) {
          const x = this.lng[i];
          if ((x - this.minLng) >> COLUMN_SHIFT > eastColumn) break;
          const dx = (x - lo) * metresPerUnitLng;
          const dy = (base + this.latOffset[i] - la) * METRES_PER_UNIT_LAT;
          const squared = dx * dx + dy * dy;
          if (squared < bestSquared) {
            bestSquared = squared;
            best = i;
          }
        }
      }
      // Every unit inside the box was scanned, and whatever lies outside it is further than
      // `radius`: a unit within `radius` is the answer.
      if (best >= 0 && bestSquared <= radius * radius) return { unit: this.unit[best], metres: Math.sqrt(bestSquared) };
    }
    return undefined;
  }
}
