import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Unprocessable } from '../errors';
import {
  createDistanceService,
  defaultRoadFactor,
  estimateMiles,
  haversineMiles,
  PostcodeNotFound,
  type DistanceLogger,
} from './distance';
import { lookupPostcode } from './postcodes';
import { openDatabase } from '../db/client';
import { routeStore } from '../db/distance-cache';

const palace = { lat: 51.50101, lng: -0.14159 }; // SW1A 1AA
const edinburgh = { lat: 55.95033, lng: -3.19302 }; // EH1 1YZ
const straightPalaceToEdinburgh = haversineMiles(palace, edinburgh);

describe('haversineMiles', () => {
  it('measures one degree of latitude as about 69.09 miles', () => {
    expect(haversineMiles({ lat: 52, lng: -1 }, { lat: 53, lng: -1 })).toBeCloseTo(69.09, 2);
  });

  it('is zero for one point and the same both ways', () => {
    expect(haversineMiles(palace, palace)).toBe(0);
    expect(haversineMiles(edinburgh, palace)).toBe(straightPalaceToEdinburgh);
    expect(straightPalaceToEdinburgh).toBeGreaterThan(325);
    expect(straightPalaceToEdinburgh).toBeLessThan(335);
  });
});

describe('defaultRoadFactor', () => {
  it('never rises with distance and stays within plausible road/straight ratios', () => {
    let previous = Infinity;
    for (let miles = 0; miles <= 800; miles += 0.25) {
      const factor = defaultRoadFactor(miles);
      expect(factor).toBeLessThanOrEqual(previous);
      expect(factor).toBeGreaterThanOrEqual(1.2);
      expect(factor).toBeLessThanOrEqual(1.8);
      previous = factor;
    }
  });

  it('follows the calibration: ~1.36 for short trips, ~1.25 beyond 10 miles', () => {
    expect(defaultRoadFactor(3)).toBeCloseTo(1.35, 1);
    expect(defaultRoadFactor(10)).toBeCloseTo(1.25, 1);
    expect(defaultRoadFactor(300)).toBeCloseTo(1.245, 3);
  });
});

describe('estimateMiles', () => {
  it('is the straight line times the factor, to one decimal', () => {
    const expected = Math.round(straightPalaceToEdinburgh * defaultRoadFactor(straightPalaceToEdinburgh) * 10) / 10;
    expect(estimateMiles('SW1A 1AA', 'EH1 1YZ')).toBe(expected);
    expect(estimateMiles('SW1A 1AA', 'EH1 1YZ', 1)).toBe(Math.round(straightPalaceToEdinburgh * 10) / 10);
    expect(estimateMiles('SW1A 1AA', 'EH1 1YZ', () => 2)).toBe(Math.round(straightPalaceToEdinburgh * 20) / 10);
  });

  it('accepts any case and spacing', () => {
    const expected = estimateMiles('SW1A 1AA', 'EH1 1YZ');
    expect(estimateMiles('sw1a1aa', '  eh1   1yz ')).toBe(expected);
  });

  it('is 0 for the same postcode however written', () => {
    expect(estimateMiles('M1 1AA', 'm11aa')).toBe(0);
  });

  it('uses the fallback levels', () => {
    const sector = lookupPostcode('M11AA')!;
    const district = lookupPostcode('SW1A9ZZ')!;
    const straight = haversineMiles(sector, district);
    expect(estimateMiles('M1 1AA', 'SW1A 9ZZ', 1)).toBe(Math.round(straight * 10) / 10);
  });

  it('names an unknown postcode, formatted, in a 422', () => {
    const error = (() => {
      try {
        estimateMiles('SW1A 1AA', 'zz999zz');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(PostcodeNotFound);
    expect(error).toBeInstanceOf(Unprocessable);
    expect(error).toMatchObject({ status: 422, postcode: 'ZZ99 9ZZ', message: 'Postcode not found: ZZ99 9ZZ' });
  });

  it('treats malformed input as not found', () => {
    expect(() => estimateMiles('not a postcode', 'SW1A 1AA')).toThrow(PostcodeNotFound);
  });
});

describe('createDistanceService (builtin)', () => {
  it('answers the estimate, also through the Promise', async () => {
    const service = createDistanceService();
    const expected = estimateMiles('SW1A 1AA', 'EH1 1YZ');
    expect(service.estimateMiles('SW1A 1AA', 'EH1 1YZ')).toBe(expected);
    await expect(service.distanceMiles('SW1A1AA', 'eh1 1yz')).resolves.toBe(expected);
    await expect(service.distanceMiles('CF10 1AA', 'CF10 1AA')).resolves.toBe(0);
    await expect(service.distanceMiles('ZZ99 9ZZ', 'CF10 1AA')).rejects.toBeInstanceOf(PostcodeNotFound);
  });

  it('takes a scalar road factor', () => {
    expect(createDistanceService({ roadFactor: 1 }).estimateMiles('SW1A 1AA', 'EH1 1YZ')).toBe(
      Math.round(straightPalaceToEdinburgh * 10) / 10,
    );
    expect(() => createDistanceService({ roadFactor: 0 })).toThrow(/roadFactor/);
  });

  it('caches each pair, either way round, and forgets the least recently used', () => {
    const factor = vi.fn(() => 1.3);
    const service = createDistanceService({ roadFactor: factor, cacheSize: 2 });
    const first = service.estimateMiles('SW1A 1AA', 'EH1 1YZ');
    expect(service.estimateMiles('eh11yz', 'sw1a1aa')).toBe(first);
    expect(factor).toHaveBeenCalledTimes(1);

    service.estimateMiles('BT1 1AA', 'CF10 1AA');
    service.estimateMiles('SW1A 1AA', 'EH1 1YZ'); // now the most recent
    service.estimateMiles('M1 1AA', 'AB10 1AA'); // evicts BT1–CF10
    expect(factor).toHaveBeenCalledTimes(3);
    service.estimateMiles('SW1A 1AA', 'EH1 1YZ');
    expect(factor).toHaveBeenCalledTimes(3);
    service.estimateMiles('BT1 1AA', 'CF10 1AA');
    expect(factor).toHaveBeenCalledTimes(4);
  });
});

describe('createDistanceService (osrm)', () => {
  let server: Server;
  let osrmUrl: string;
  let answer: 'ok' | 'error' | 'no-route' | 'slow';
  let requests: string[];
  let warnings: { details: Record<string, unknown>; message: string }[];
  const logger: DistanceLogger = { warn: (details, message) => warnings.push({ details, message }) };

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      if (answer === 'slow') return; // never answers: only the client's timeout ends it
      if (answer === 'error') {
        res.writeHead(500).end('boom');
        return;
      }
      const body = answer === 'ok' ? { code: 'Ok', routes: [{ distance: 16_093.44, duration: 900 }] } : { code: 'NoRoute', routes: [] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    osrmUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    answer = 'ok';
    requests = [];
    warnings = [];
  });

  it('asks for the route between the two centroids, longitude first, and converts metres to miles', async () => {
    const service = createDistanceService({ provider: 'osrm', osrmUrl, logger });
    await expect(service.distanceMiles('SW1A 1AA', 'EH1 1YZ')).resolves.toBe(10);
    expect(requests).toEqual(['/route/v1/driving/-0.14159,51.50101;-3.19302,55.95033?overview=false']);
    expect(warnings).toEqual([]);
  });

  it('caches routed pairs and skips the server for the same postcode', async () => {
    const service = createDistanceService({ provider: 'osrm', osrmUrl, logger });
    await service.distanceMiles('SW1A 1AA', 'EH1 1YZ');
    await expect(service.distanceMiles('EH1 1YZ', 'SW1A 1AA')).resolves.toBe(10);
    await expect(service.distanceMiles('EH1 1YZ', 'eh11yz')).resolves.toBe(0);
    expect(requests).toHaveLength(1);
  });

  it.each(['error', 'no-route', 'slow'] as const)('falls back to the built-in estimate on %s and logs it', async (kind) => {
    answer = kind;
    const service = createDistanceService({ provider: 'osrm', osrmUrl, logger, osrmTimeoutMs: 200 });
    await expect(service.distanceMiles('SW1A 1AA', 'EH1 1YZ')).resolves.toBe(service.estimateMiles('SW1A 1AA', 'EH1 1YZ'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].details).toMatchObject({ event: 'osrm_fallback', from: 'SW1A1AA', to: 'EH11YZ' });

    // A fallback is not cached: once OSRM answers again, the pair is routed.
    answer = 'ok';
    await expect(service.distanceMiles('SW1A 1AA', 'EH1 1YZ')).resolves.toBe(10);
  });

  it('falls back when nothing listens, logging a JSON line by default', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const service = createDistanceService({ provider: 'osrm', osrmUrl: 'http://127.0.0.1:1' });
      await expect(service.distanceMiles('BT1 1AA', 'CF10 1AA')).resolves.toBe(estimateMiles('BT1 1AA', 'CF10 1AA'));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(JSON.parse(String(warn.mock.calls[0][0]))).toMatchObject({ level: 'warn', event: 'osrm_fallback' });
    } finally {
      warn.mockRestore();
    }
  });

  it('keeps routed pairs in the database across restarts', async () => {
    const db = openDatabase(':memory:');
    const first = createDistanceService({ provider: 'osrm', osrmUrl, logger, routeStore: routeStore(db) });
    await first.distanceMiles('SW1A 1AA', 'EH1 1YZ');
    const restarted = createDistanceService({ provider: 'osrm', osrmUrl, logger, routeStore: routeStore(db) });
    await expect(restarted.distanceMiles('EH1 1YZ', 'SW1A 1AA')).resolves.toBe(10);
    expect(requests).toHaveLength(1);
    db.$client.close();
  });

  it('still rejects unknown postcodes without asking the server', async () => {
    const service = createDistanceService({ provider: 'osrm', osrmUrl, logger });
    await expect(service.distanceMiles('SW1A 1AA', 'ZZ99 9ZZ')).rejects.toMatchObject({ postcode: 'ZZ99 9ZZ' });
    expect(requests).toEqual([]);
  });

  it('needs a URL', () => {
    expect(() => createDistanceService({ provider: 'osrm' })).toThrow(/osrmUrl/);
  });
});
