// Nearest postcode unit to a point ("Use my location", docs/product.md §17), over every unit of
// postcodes.bin, without copying the units: they stay in the decoded columns, in postcode order.
//
// Units are taken in blocks of BLOCK consecutive units (a block of one sector's units lies along a
// few streets: the inward codes follow the delivery walk). Each block has a bounding box, and a
// grid of about 1 km cells lists, per cell, the blocks with a unit in that cell. Built at load in
// two sequential passes over the units; about 6.5 MB for 1.75 M units (decision 013).
//
// A query looks in a box of half-side r metres round the point: every block listed in a cell the
// box touches, and whose bounding box meets the box, has its units measured. A unit found within r
// is the nearest (anything outside the box is further than r); otherwise r grows, up to MAX_METRES.
import { COORD_SCALE } from './geodata-format';

/** Units per block. */
const BLOCK = 16;
/** Cell size in coordinate units (1e-5 degree): 0.01° of latitude (1.1 km) by 0.016° of longitude (0.9–1.1 km in the UK). */
const CELL_LAT = 1000;
const CELL_LNG = 1600;
/** Nothing further than this counts as near: beyond it the point is at sea or abroad. */
export const MAX_METRES = 1000;
/** Box half-sides tried in turn: small first, so a city centre measures few units. */
const RADII = [150, 400, MAX_METRES];
/** Mean Earth radius (IUGG), in metres. */
const EARTH_RADIUS_M = 6_371_008.8;
const METRES_PER_UNIT_LAT = ((Math.PI / 180) * EARTH_RADIUS_M) / COORD_SCALE;

export interface NearestUnit {
  /** Index of the unit in the decoded columns. */
  unit: number;
  metres: number;
}

export class NearestUnitIndex {
  /** Per block, the query that last measured it: each block is measured once per query. */
  private readonly seen: Uint32Array;
  private query = 0;

  private constructor(
    private readonly unitLat: Int32Array,
    private readonly unitLng: Int32Array,
    private readonly minLat: number,
    private readonly minLng: number,
    private readonly rows: number,
    private readonly columns: number,
    /** Blocks with a unit in cell c are cellBlocks[cellStart[c], cellStart[c + 1]); cells row by row. */
    private readonly cellStart: Uint32Array,
    private readonly cellBlocks: Uint32Array,
    /** Per block: min lat, max lat, min lng, max lng. */
    private readonly blockBox: Int32Array,
  ) {
    this.seen = new Uint32Array(blockBox.length / 4);
  }

  /** Builds the index over units 0..n-1 with these coordinates (integers of 1e-5 degree); keeps the arrays. */
  static build(unitLat: Int32Array, unitLng: Int32Array): NearestUnitIndex {
    const n = unitLat.length;
    const blocks = Math.ceil(n / BLOCK);
    const blockBox = new Int32Array(blocks * 4);
    let minLat = Infinity;
    let maxLat = -Infinity;
    let minLng = Infinity;
    let maxLng = -Infinity;
    for (let b = 0; b < blocks; b++) {
      let bMinLat = Infinity;
      let bMaxLat = -Infinity;
      let bMinLng = Infinity;
      let bMaxLng = -Infinity;
      for (let u = b * BLOCK, end = Math.min(n, u + BLOCK); u < end; u++) {
        const la = unitLat[u];
        const lo = unitLng[u];
        if (la < bMinLat) bMinLat = la;
        if (la > bMaxLat) bMaxLat = la;
        if (lo < bMinLng) bMinLng = lo;
        if (lo > bMaxLng) bMaxLng = lo;
      }
      blockBox[b * 4] = bMinLat;
      blockBox[b * 4 + 1] = bMaxLat;
      blockBox[b * 4 + 2] = bMinLng;
      blockBox[b * 4 + 3] = bMaxLng;
      if (bMinLat < minLat) minLat = bMinLat;
      if (bMaxLat > maxLat) maxLat = bMaxLat;
      if (bMinLng < minLng) minLng = bMinLng;
      if (bMaxLng > maxLng) maxLng = bMaxLng;
    }
    if (n === 0) return new NearestUnitIndex(unitLat, unitLng, 0, 0, 0, 0, new Uint32Array(1), new Uint32Array(0), blockBox);
    const rows = Math.floor((maxLat - minLat) / CELL_LAT) + 1;
    const columns = Math.floor((maxLng - minLng) / CELL_LNG) + 1;
    const cells = rows * columns;

    // Counting sort of (cell, block) pairs, one per distinct cell of a block's units: the pairs
    // are listed once (a temporary), counted per cell, prefix-summed to each cell's end, then
    // placed in each cell backwards, which leaves cellStart[c] at the cell's start.
    const pairCell = new Int32Array(n);
    const blockPairs = new Uint32Array(blocks + 1);
    const cellStart = new Uint32Array(cells + 1);
    let pairs = 0;
    for (let b = 0; b < blocks; b++) {
      const first = pairs;
      for (let u = b * BLOCK, end = Math.min(n, u + BLOCK); u < end; u++) {
        const cell = (((unitLat[u] - minLat) / CELL_LAT) | 0) * columns + (((unitLng[u] - minLng) / CELL_LNG) | 0);
        let k = first;
        while (k < pairs && pairCell[k] !== cell) k++;
        if (k < pairs) continue;
        pairCell[pairs++] = cell;
        cellStart[cell]++;
      }
      blockPairs[b + 1] = pairs;
    }
    for (let c = 1; c < cells; c++) cellStart[c] += cellStart[c - 1];
    cellStart[cells] = pairs;
    const cellBlocks = new Uint32Array(pairs);
    for (let b = blocks - 1; b >= 0; b--) {
      for (let p = blockPairs[b]; p < blockPairs[b + 1]; p++) cellBlocks[--cellStart[pairCell[p]]] = b;
    }
    return new NearestUnitIndex(unitLat, unitLng, minLat, minLng, rows, columns, cellStart, cellBlocks, blockBox);
  }

  /** Bytes held by the index's own arrays (the unit columns it reads belong to the postcode data). */
  get byteLength(): number {
    return this.seen.byteLength + this.cellStart.byteLength + this.cellBlocks.byteLength + this.blockBox.byteLength;
  }

  /** The unit nearest to (lat, lng) in degrees, if one is within MAX_METRES; allocates only the answer. */
  nearest(lat: number, lng: number): NearestUnit | undefined {
    if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180) || this.rows === 0) return undefined;
    const la = lat * COORD_SCALE;
    const lo = lng * COORD_SCALE;
    const metresPerUnitLng = METRES_PER_UNIT_LAT * Math.cos((lat * Math.PI) / 180);
    if (++this.query === 2 ** 32) {
      this.seen.fill(0);
      this.query = 1;
    }
    const query = this.query;
    const { unitLat, unitLng, blockBox, seen } = this;
    const n = unitLat.length;
    let best = -1;
    let bestSquared = Infinity;
    for (const radius of RADII) {
      const halfLat = radius / METRES_PER_UNIT_LAT;
      const halfLng = radius / metresPerUnitLng;
      const south = la - halfLat;
      const north = la + halfLat;
      const west = lo - halfLng;
      const east = lo + halfLng;
      const firstRow = Math.max(0, Math.floor((south - this.minLat) / CELL_LAT));
      const lastRow = Math.min(this.rows - 1, Math.floor((north - this.minLat) / CELL_LAT));
      const firstColumn = Math.max(0, Math.floor((west - this.minLng) / CELL_LNG));
      const lastColumn = Math.min(this.columns - 1, Math.floor((east - this.minLng) / CELL_LNG));
      for (let row = firstRow; row <= lastRow; row++) {
        for (let column = firstColumn; column <= lastColumn; column++) {
          const cell = row * this.columns + column;
          for (let e = this.cellStart[cell], end = this.cellStart[cell + 1]; e < end; e++) {
            const b = this.cellBlocks[e];
            if (seen[b] === query) continue;
            const box = b * 4;
            // A block that misses this box may still meet a bigger one: not marked seen.
            if (blockBox[box] > north || blockBox[box + 1] < south || blockBox[box + 2] > east || blockBox[box + 3] < west) continue;
            seen[b] = query;
            for (let u = b * BLOCK, last = Math.min(n, u + BLOCK); u < last; u++) {
              const dx = (unitLng[u] - lo) * metresPerUnitLng;
              const dy = (unitLat[u] - la) * METRES_PER_UNIT_LAT;
              const squared = dx * dx + dy * dy;
              if (squared < bestSquared) {
                bestSquared = squared;
                best = u;
              }
            }
          }
        }
      }
      // Every unit inside the box was measured, and whatever lies outside it is further than
      // `radius`: a unit within `radius` is the answer.
      if (best >= 0 && bestSquared <= radius * radius) return { unit: best, metres: Math.sqrt(bestSquared) };
    }
    return undefined;
  }
}
