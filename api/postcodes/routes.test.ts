import { describe, expect, it } from 'vitest';
import type { Logger } from '../platform/http/observability';
import { createTestApp, quoteBody } from '../test/harness';
import { NO_POSTCODE_NEAR } from './routes';

const nearest = (lat: string | number, lng: string | number) => `/api/postcodes/nearest?lat=${lat}&lng=${lng}`;

describe('GET /api/postcodes/nearest', () => {
  const t = createTestApp();

  it('answers a point in Leeds city centre with a Leeds postcode and its distance, to any origin', async () => {
    const res = await t.raw('GET', nearest(53.7997, -1.5492), { origin: 'https://someone-elses-site.example' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ postcode: expect.stringMatching(/^LS\d{1,2} \d[A-Z]{2}$/), distanceMetres: expect.any(Number) });
    expect(res.json.distanceMetres).toBeGreaterThanOrEqual(0);
    expect(res.json.distanceMetres).toBeLessThan(100);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    // A browser or proxy must not keep the position (it is in the URL).
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers a unit centroid with that unit at 0 m', async () => {
    const res = await t.raw('GET', nearest(51.50101, -0.14159));
    expect(res.json).toEqual({ postcode: 'SW1A 1AA', distanceMetres: 0 });
  });

  it.each([
    ['17 significant digits, as JavaScript writes a coordinate', '51.50100999999999', '-0.14159000000000001'],
    ['a longitude within 1e-6 of the meridian, in exponent form', '51.4779', String(5e-7)],
  ])('takes %s', async (_what, lat, lng) => {
    const res = await t.raw('GET', nearest(lat, lng));
    expect(res.status).toBe(200);
    expect(res.json.postcode).toMatch(/^[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}$/);
  });

  it.each([
    ['the North Sea', 55.0, 3.0],
    ['the sea off Skegness, 2 km out', 53.1436, 0.3742],
    ['Paris', 48.8566, 2.3522],
    ['Calais', 50.9513, 1.8587],
    ['New York', 40.7128, -74.006],
  ])('answers %s with 404 NO_POSTCODE_NEAR, not a far-away postcode', async (_where, lat, lng) => {
    const res = await t.raw('GET', nearest(lat, lng));
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ message: NO_POSTCODE_NEAR, code: 'NO_POSTCODE_NEAR', requestId: expect.any(String) });
  });

  it.each([
    ['no lat', '/api/postcodes/nearest?lng=-1.5', 'lat'],
    ['no lng', '/api/postcodes/nearest?lat=53.8', 'lng'],
    ['no query at all', '/api/postcodes/nearest', 'lat'],
    ['text', nearest('leeds', -1.5), 'lat'],
    ['an empty value', nearest('', -1.5), 'lat'],
    ['an exponent', nearest('5.38e1', -1.5), 'lat'],
    ['hex', nearest(53.8, '0x10'), 'lng'],
    ['Infinity', nearest('Infinity', -1.5), 'lat'],
    ['a latitude past the pole', nearest(90.5, -1.5), 'lat'],
    ['a longitude past 180', nearest(53.8, 180.01), 'lng'],
  ])('refuses %s with 400 in the error shape', async (_what, url, field) => {
    const res = await t.raw('GET', url);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      message: expect.any(String),
      code: 'VALIDATION_FAILED',
      fields: expect.objectContaining({ [field]: expect.any(String) }),
      requestId: expect.any(String),
    });
  });

  it('never writes the position to the log', async () => {
    const records: Record<string, unknown>[] = [];
    const logger: Logger = { info: (r) => records.push(r), warn: (r) => records.push(r), error: (r) => records.push(r) };
    const logged = createTestApp({ logger });
    await logged.raw('GET', nearest(53.79971, -1.54923));
    await logged.raw('GET', nearest(55.01234, 3.01234));
    await logged.raw('GET', nearest('53.79975x', -1.54927));
    expect(records).toHaveLength(3);
    expect(records.map((r) => r.path)).toEqual(['/api/postcodes/nearest', '/api/postcodes/nearest', '/api/postcodes/nearest']);
    const text = JSON.stringify(records);
    for (const fragment of ['53.799', '-1.549', '55.012', '3.012', 'lat=', 'lng=']) expect(text).not.toContain(fragment);
  });

  it('shares the quote rate limit: look-ups and quotes draw on one budget per client', async () => {
    const limited = createTestApp({ env: { QUOTE_RATE_LIMIT: '2' } });
    expect((await limited.raw('GET', nearest(53.7997, -1.5492))).status).toBe(200);
    expect((await limited.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: 1 } })).status).toBe(200);
    const over = await limited.raw('GET', nearest(53.7997, -1.5492));
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await limited.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: 1 } })).status).toBe(429);
  });

  it('is documented in /api/openapi.json', async () => {
    const res = await t.call('GET', '/api/openapi.json');
    const op = res.json.paths['/api/postcodes/nearest']?.get;
    expect(op).toBeDefined();
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(['lat', 'lng']);
    expect(Object.keys(op.responses)).toEqual(['200', '400', '404', '429']);
  });
});
