// The published document against third-party tools: Redocly's `recommended` rules find no error
// and no missing operationId or 4xx answer, and openapi-typescript turns it into types, as a
// client generator in another language or a Swagger UI would need.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness';
import { allRoutes } from './index';

describe('/api/openapi.json', () => {
  const t = createTestApp();
  const document = async () => (await t.call('GET', '/api/openapi.json')).text;

  it('passes Redocly’s recommended rules: no error, and no operation without an operationId or a 4xx answer', { timeout: 30_000 }, async () => {
    const problems = await lintFromString({ source: await document(), absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) });
    const summary = (p: (typeof problems)[number]) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`;
    expect(problems.filter((p) => p.severity === 'error').map(summary)).toEqual([]);
    expect(problems.filter((p) => ['operation-operationId', 'operation-4xx-response'].includes(p.ruleId)).map(summary)).toEqual([]);
  });

  it('generates TypeScript types with openapi-typescript, one operation per route', { timeout: 30_000 }, async () => {
    const ast = await openapiTS(await document());
    const types = astToString(ast);
    for (const route of allRoutes) expect(types, `${route.method} ${route.path}`).toContain(`${route.operationId}:`);
  });

  it('declares the session cookie and the token header, and which operations need them', async () => {
    const doc = (await t.call('GET', '/api/openapi.json')).json;
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['authToken', 'sessionCookie']);
    expect(doc.servers).toEqual([{ url: t.config.publicUrl, description: expect.any(String) }]);
    for (const route of allRoutes) {
      const operation = doc.paths[route.path][route.method];
      const expected = route['x-access'] === 'operator' ? [{ sessionCookie: [] }, { authToken: [] }] : [];
      expect(operation.security, `${route.method} ${route.path}`).toEqual(expected);
    }
  });
});
