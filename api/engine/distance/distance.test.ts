import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Unprocessable } from '../../platform/errors';
import { createDistanceService, defaultRoadFactor, estimateMiles, haversineMiles, PostcodeNotFound, type DistanceLogger } from './distance';
import { lookupPostcode } from './postcodes';
import { openDatabase } from '../../platform/db/client';
import { routeStore } from './route-store';

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
    expect(createDistanceService({ roadFactor: 1 }).estimateMiles('SW1A 1AA', 'EH1 1YZ')).toBe(Math.round(straightPalaceToEdinburgh * 10) / 10);
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
  let answer: 'ok' | 'error' | 'no-route' | 'slow' | 'garbage' | 'late';
  /** With answer 'late': how far the breaker's clock moves while OSRM works on the request. */
  let lateMs: number;
  let requests: string[];
  /** Requests the server holds right now, and the most it held at once. */
  let open: number;
  let mostOpen: number;
  let warnings: { details: Record<string, unknown>; message: string }[];
  const logger: DistanceLogger = { warn: (details, message) => warnings.push({ details, message }) };
  /** The breaker's clock, moved by hand. */
  let clock: number;
  const now = () => clock;
  const events = (event: string) => warnings.filter((w) => w.details.event === event);

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      open++;
      mostOpen = Math.max(mostOpen, open);
      res.once('close', () => open--);
      if (answer === 'slow') return; // never answers: only the client's timeout ends it
      if (answer === 'late') clock += lateMs;
      if (answer === 'error') {
        res.writeHead(500).end('boom');
        return;
      }
      if (answer === 'garbage') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('<html>502 Bad Gateway</html>');
        return;
      }
      const body = answer === 'ok' || answer === 'late' ? { code: 'Ok', routes: [{ distance: 16_093.44, duration: 900 }] } : { code: 'NoRoute', routes: [] };
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
    open = 0;
    mostOpen = 0;
    clock = 0;
    lateMs = 0;
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

  it.each(['error', 'no-route', 'slow', 'garbage'] as const)('falls back to the built-in estimate on %s and logs it', async (kind) => {
    answer = kind;
    const service = createDistanceService({ provider: 'osrm', osrmUrl, logger, osrmTimeoutMs: 200, breakerCooldownMs: 30_000, now });
    await expect(service.distanceMiles('SW1A 1AA', 'EH1 1YZ')).resolves.toBe(service.estimateMiles('SW1A 1AA', 'EH1 1YZ'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].details).toMatchObject({ event: 'osrm_fallback', from: 'SW1A1AA', to: 'EH11YZ' });

    // The fallback is remembered like an answer, for the breaker's window, without asking OSRM again…
    answer = 'ok';
    await expect(service.distanceMiles('EH1 1YZ', 'SW1A 1AA')).resolves.toBe(service.estimateMiles('SW1A 1AA', 'EH1 1YZ'));
    expect(requests).toHaveLength(1);
    // …and never stored as a route: after the window the pair is routed.
    clock += 30_001;
    await expect(service.distanceMiles('SW1A 1AA', 'EH1 1YZ')).resolves.toBe(10);
  });

  /** Distinct pairs, so no answer comes from a cache. */
  const places = ['SW1A 1AA', 'EH1 1YZ', 'BT1 1AA', 'CF10 1AA', 'M1 1AA', 'AB10 1AA', 'LS1 1AA', 'B1 1AA', 'G1 1AA', 'NE1 1AA', 'BS1 1AA', 'L1 1AA'];
  const pairs = places.flatMap((from, i) => places.slice(i + 1).map((to) => [from, to] as const));

  /** A port nothing listens on: connections are refused. */
  async function closedPortUrl() {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    return `http://127.0.0.1:${port}`;
  }

  it.each(['slow', 'refused', 'garbage'] as const)(
    'after a few failures (%s) opens the circuit: quotes get the estimate at once, without asking OSRM, until a probe finds it back',
    async (kind) => {
      const timeoutMs = 400;
      answer = kind === 'refused' ? 'ok' : kind;
      const url = kind === 'refused' ? await closedPortUrl() : osrmUrl;
      const service = createDistanceService({
        provider: 'osrm',
        osrmUrl: url,
        logger,
        osrmTimeoutMs: timeoutMs,
        breakerThreshold: 3,
        breakerCooldownMs: 10_000,
        now,
      });
      const estimate = ([from, to]: readonly [string, string]) => service.estimateMiles(from, to);
      for (const pair of pairs.slice(0, 3)) await expect(service.distanceMiles(...pair)).resolves.toBe(estimate(pair));
      expect(events('osrm_circuit_open')).toHaveLength(1);
      const asked = requests.length;

      const started = performance.now();
      const later = pairs.slice(3, 23);
      await expect(Promise.all(later.map((pair) => service.distanceMiles(...pair)))).resolves.toEqual(later.map(estimate));
      expect(performance.now() - started).toBeLessThan(timeoutMs / 2);
      expect(requests).toHaveLength(asked);
      expect(events('osrm_fallback')).toHaveLength(3);

      // After the cool-down one probe goes through; the others still get the estimate meanwhile.
      clock += 10_001;
      answer = 'ok';
      const probe = service.distanceMiles(...pairs[30]);
      await expect(service.distanceMiles(...pairs[31])).resolves.toBe(estimate(pairs[31]));
      if (kind === 'refused') {
        // Still refused: the circuit opens again for another cool-down.
        await expect(probe).resolves.toBe(estimate(pairs[30]));
        expect(events('osrm_circuit_open')).toHaveLength(2);
        await expect(service.distanceMiles(...pairs[32])).resolves.toBe(estimate(pairs[32]));
        expect(events('osrm_fallback')).toHaveLength(4);
      } else {
        await expect(probe).resolves.toBe(10);
        expect(events('osrm_circuit_closed')).toHaveLength(1);
        await expect(service.distanceMiles(...pairs[32])).resolves.toBe(10);
      }
    },
  );

  it('opens the circuit on slowness: once the 90th percentile of answers passes 800 ms, quotes stop waiting for OSRM until a probe is quick', async () => {
    answer = 'late';
    lateMs = 1900;
    const service = createDistanceService({ provider: 'osrm', osrmUrl, logger, breakerCooldownMs: 10_000, now });
    const estimate = ([from, to]: readonly [string, string]) => service.estimateMiles(from, to);
    // Slow but answering: routed, until ten answers show the 90th percentile over the threshold.
    for (const pair of pairs.slice(0, 10)) await expect(service.distanceMiles(...pair)).resolves.toBe(10);
    expect(events('osrm_circuit_open')).toEqual([expect.objectContaining({ details: expect.objectContaining({ reason: 'slow', p90Ms: 1900 }) })]);
    const asked = requests.length;
    for (const pair of pairs.slice(10, 20)) await expect(service.distanceMiles(...pair)).resolves.toBe(estimate(pair));
    expect(requests).toHaveLength(asked);

    // A probe still slow keeps it open; a quick one closes it.
    clock += 10_001;
    await expect(service.distanceMiles(...pairs[20])).resolves.toBe(10);
    expect(events('osrm_circuit_open')).toHaveLength(2);
    await expect(service.distanceMiles(...pairs[21])).resolves.toBe(estimate(pairs[21]));
    clock += 10_001;
    lateMs = 100;
    await expect(service.distanceMiles(...pairs[22])).resolves.toBe(10);
    expect(events('osrm_circuit_closed')).toHaveLength(1);
    await expect(service.distanceMiles(...pairs[23])).resolves.toBe(10);
  });

  it('says OSRM is too slow once as the circuit opens, however many slow answers were in flight then', async () => {
    answer = 'late';
    lateMs = 1900;
    const service = createDistanceService({ provider: 'osrm', osrmUrl, logger, breakerCooldownMs: 10_000, now });
    // Nine slow answers: too few to judge.
    for (const pair of pairs.slice(0, 9)) await expect(service.distanceMiles(...pair)).resolves.toBe(10);
    expect(events('osrm_circuit_open')).toHaveLength(0);
    // Eight at once (the cap on calls in flight): the first to answer opens the circuit; the seven
    // answering after it are the same episode.
    await Promise.all(pairs.slice(9, 17).map((pair) => service.distanceMiles(...pair)));
    expect(requests).toHaveLength(17);
    expect(events('osrm_circuit_open')).toHaveLength(1);
    // A probe still slow is a new look, said again once.
    clock += 10_001;
    await service.distanceMiles(...pairs[17]);
    expect(events('osrm_circuit_open')).toHaveLength(2);
  });

  it('a mostly quick OSRM stays in use: one slow answer in twenty is not the 90th percentile', async () => {
    answer = 'late';
    const service = createDistanceService({ provider: 'osrm', osrmUrl, logger, now });
    for (const [i, pair] of pairs.slice(0, 20).entries()) {
      lateMs = i === 10 ? 1900 : 50;
      await expect(service.distanceMiles(...pair)).resolves.toBe(10);
    }
    expect(events('osrm_circuit_open')).toHaveLength(0);
  });

  it('prices a pair the same way whatever the load: an estimate given while OSRM was busy holds for the window', async () => {
    answer = 'slow';
    const service = createDistanceService({
      provider: 'osrm',
      osrmUrl,
      logger,
      osrmTimeoutMs: 300,
      breakerThreshold: 100,
      maxConcurrentOsrm: 1,
      breakerCooldownMs: 10_000,
      now,
    });
    const busy = service.distanceMiles(...pairs[0]);
    const [from, to] = pairs[1];
    // OSRM busy with another pair: this one gets the estimate…
    await expect(service.distanceMiles(from, to)).resolves.toBe(service.estimateMiles(from, to));
    await busy;
    // …and keeps it once OSRM is free and answering, until the window ends.
    answer = 'ok';
    await expect(service.distanceMiles(to, from)).resolves.toBe(service.estimateMiles(from, to));
    clock += 10_001;
    await expect(service.distanceMiles(from, to)).resolves.toBe(10);
  });

  it('caps the OSRM calls in flight: past the cap a quote gets the estimate at once', async () => {
    answer = 'slow';
    const timeoutMs = 1000;
    const service = createDistanceService({ provider: 'osrm', osrmUrl, logger, osrmTimeoutMs: timeoutMs, breakerThreshold: 100, maxConcurrentOsrm: 8, now });
    const settled: number[] = [];
    const started = performance.now();
    const asked = pairs.slice(0, 30).map((pair, i) =>
      service.distanceMiles(...pair).then((miles) => {
        settled.push(i);
        // The ones past the cap answer long before OSRM's timeout.
        if (i >= 8) expect(performance.now() - started).toBeLessThan(timeoutMs / 2);
        return miles;
      }),
    );
    await expect(Promise.all(asked)).resolves.toEqual(pairs.slice(0, 30).map(([from, to]) => service.estimateMiles(from, to)));
    expect(settled.slice(0, 22).sort((a, b) => a - b)).toEqual(Array.from({ length: 22 }, (_, i) => i + 8));
    expect(requests).toHaveLength(8);
    expect(mostOpen).toBe(8);
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
