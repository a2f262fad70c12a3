import { describe, expect, it } from 'vitest';
import { MAX_METRES, NearestUnitIndex } from './nearest';
import { lookupPostcode, nearestPostcode } from './postcodes';

// A fixed-seed generator, so a failure names the same points every run.
function random(seed: number) {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32;
}

/** Haversine distance in metres between two points in degrees. */
function metres(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(a));
}

describe('NearestUnitIndex', () => {
  // Dense clusters (a town every few km) and sparse countryside between them, near Leeds.
  const next = random(7);
  const lat = new Int32Array(20_000);
  const lng = new Int32Array(20_000);
  for (let i = 0; i < lat.length; i++) {
    const town = i % 40 < 30;
    const centreLat = 53.5 + (Math.floor(i / 40) % 10) * 0.05;
    const centreLng = -1.8 + (Math.floor(i / 400) % 10) * 0.08;
    lat[i] = Math.round((town ? centreLat + (next() - 0.5) * 0.02 : 53.4 + next() * 0.7) * 1e5);
    lng[i] = Math.round((town ? centreLng + (next() - 0.5) * 0.03 : -1.9 + next() * 1.0) * 1e5);
  }
  const index = NearestUnitIndex.build(lat, lng);

  const bruteForce = (qLat: number, qLng: number) => {
    let best = -1;
    let bestMetres = Infinity;
    for (let i = 0; i < lat.length; i++) {
      const d = metres(qLat, qLng, lat[i] / 1e5, lng[i] / 1e5);
      if (d < bestMetres) {
        bestMetres = d;
        best = i;
      }
    }
    return { unit: best, metres: bestMetres };
  };

  it('finds the same nearest unit as a brute-force search, within 1 km, and nothing beyond', () => {
    let found = 0;
    let none = 0;
    for (let q = 0; q < 1200; q++) {
      // Points over and around the data, so some are further than 1 km from every unit.
      const qLat = 53.35 + next() * 0.8;
      const qLng = -2.0 + next() * 1.2;
      const expected = bruteForce(qLat, qLng);
      const actual = index.nearest(qLat, qLng);
      if (expected.metres > MAX_METRES + 1) {
        expect(actual).toBeUndefined();
        none++;
      } else if (expected.metres < MAX_METRES - 1) {
        expect(actual).toBeDefined();
        // Units can tie: what must match is the distance (the index's flat-earth metres agree with
        // the haversine's to well under a metre at this range), and the unit must be that far away.
        expect(actual!.metres).toBeCloseTo(expected.metres, 0);
        expect(metres(qLat, qLng, lat[actual!.unit] / 1e5, lng[actual!.unit] / 1e5)).toBeCloseTo(expected.metres, 0);
        found++;
      }
    }
    // Both outcomes are exercised.
    expect(found).toBeGreaterThan(300);
    expect(none).toBeGreaterThan(50);
  });

  it('answers undefined for positions that are not on Earth or far outside the data', () => {
    expect(index.nearest(Number.NaN, 0)).toBeUndefined();
    expect(index.nearest(91, 0)).toBeUndefined();
    expect(index.nearest(0, 0)).toBeUndefined();
    expect(index.nearest(-53.7, -1.5)).toBeUndefined();
  });

  it('works on an empty set', () => {
    expect(NearestUnitIndex.build(new Int32Array(0), new Int32Array(0)).nearest(53.7, -1.5)).toBeUndefined();
  });
});

describe('nearestPostcode over the built-in data', () => {
  it.each(['SW1A1AA', 'LS14AP', 'EH11YZ', 'BT11AA', 'CF101AA', 'ZE29QP', 'TR210NA'])('finds a unit at the centroid of %s at 0 m', (key) => {
    const location = lookupPostcode(key)!;
    expect(location.level).toBe('unit');
    const found = nearestPostcode(location.lat, location.lng)!;
    expect(found.distanceMetres).toBe(0);
    // Units can share a centroid: whichever is named must be at the same point.
    expect(lookupPostcode(found.postcode.replace(' ', ''))).toEqual(location);
  });

  it('names the unit in the customer spelling', () => {
    expect(nearestPostcode(51.50101, -0.14159)).toEqual({ postcode: 'SW1A 1AA', distanceMetres: 0 });
    expect(nearestPostcode(53.7997, -1.5492)?.postcode).toMatch(/^LS1 \d[A-Z]{2}$/);
  });
});
