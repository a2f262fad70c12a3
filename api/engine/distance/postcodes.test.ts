import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packKey, unitSuffix } from './geodata-format';
import { loadGeodata, lookupPostcode, POSTCODES_FILE } from './postcodes';

describe('postcodes.bin', () => {
  it('stays within the 12 MB budget', () => {
    expect(statSync(POSTCODES_FILE).size).toBeLessThanOrEqual(12 * 1024 * 1024);
  });

  it('holds every row of the source data', () => {
    expect(loadGeodata()).toMatchObject({ units: 1_755_374, sectors: 11_123, districts: 2_944 + 22 });
  });
});

describe('lookupPostcode', () => {
  it.each([
    ['SW1A1AA', 51.50101, -0.14159],
    ['EH11YZ', 55.95033, -3.19302],
    ['BT11AA', 54.60245, -5.92229],
    ['CF101AA', 51.4791, -3.17809],
  ])('finds unit %s at its centroid', (key, lat, lng) => {
    expect(lookupPostcode(key)).toEqual({ lat, lng, level: 'unit' });
  });

  it('falls back to the sector for a unit the data does not have', () => {
    expect(lookupPostcode('M11AA')).toEqual({ lat: 53.48242, lng: -2.23524, level: 'sector' });
    expect(lookupPostcode('AB101AA')).toEqual({ lat: 57.14485, lng: -2.10688, level: 'sector' });
  });

  it('falls back to the district when the sector is unknown too', () => {
    expect(lookupPostcode('SW1A9ZZ')).toEqual({ lat: 51.50452, lng: -0.13225, level: 'district' });
    expect(lookupPostcode('M19AA')).toEqual({ lat: 53.47748, lng: -2.23622, level: 'district' });
  });

  it('knows the Crown Dependencies at district level only', () => {
    expect(lookupPostcode('JE23AB')).toMatchObject({ level: 'district' });
  });

  it('answers undefined for keys no level knows', () => {
    for (const key of ['ZZ999ZZ', 'BT999ZZ', '', 'M1', 'sw1a1aa', 'SW1A 1AA', '??']) {
      expect(lookupPostcode(key)).toBeUndefined();
    }
  });
});

describe('packKey', () => {
  it('gives keys of different lengths different numbers', () => {
    const keys = ['M1', 'M11', 'M111', 'M10', 'M01', 'AB10', 'AB101', 'ZZ99Z9'];
    expect(new Set(keys.map((k) => packKey(k, k.length))).size).toBe(keys.length);
    expect(packKey('ZZZZZZ', 6)).toBeLessThan(2 ** 32);
  });

  it('rejects characters and lengths it cannot pack', () => {
    expect(packKey('m1', 2)).toBe(-1);
    expect(packKey('M-1', 3)).toBe(-1);
    expect(packKey('', 0)).toBe(-1);
    expect(packKey('ABCDEFG', 7)).toBe(-1);
    expect(unitSuffix('A')).toBe(-1);
    expect(unitSuffix('M11A1')).toBe(-1);
  });
});
