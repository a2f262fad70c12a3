// The built-in estimate against routed driving distances; the benchmarks report the same figures.
// The pairs live in testdata/ (attribution in its README), so the test runs in any clone.
import { describe, expect, it } from 'vitest';
import { PAIRS_CSV as pairsCsv, evaluateDistanceAccuracy } from '../../../scripts/distance-accuracy';

describe('evaluateDistanceAccuracy on pairs.csv', () => {
  const accuracy = evaluateDistanceAccuracy(pairsCsv);

  it('covers every row in the three straight-line bands', () => {
    expect(accuracy.overall.n).toBe(1288);
    expect(accuracy.bands.map((b) => [b.label, b.n])).toEqual([
      ['<10 mi', 46],
      ['10–60 mi', 178],
      ['>60 mi', 1064],
    ]);
  });

  it('keeps the median error small overall and in every band', () => {
    expect(accuracy.overall.medianPct).toBeLessThan(8);
    expect(accuracy.overall.p90Pct).toBeLessThan(16);
    for (const band of accuracy.bands) expect(band.medianPct).toBeLessThan(12);
  });

  it('beats a flat factor on short trips', () => {
    const flat = evaluateDistanceAccuracy(pairsCsv, 1.25);
    expect(accuracy.bands[0].medianPct).toBeLessThan(flat.bands[0].medianPct);
  });
});
