// The route table against what the app serves: the generated OpenAPI document is valid 3.1, and
// its operations are exactly the app's API routes, each carrying its access.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness';
import { allRoutes } from './table';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

describe('the route table', () => {
  const t = createTestApp();

  it('publishes a valid OpenAPI 3.1 document', async () => {
    const doc = await t.call('GET', '/api/openapi.json');
    expect(doc.status).toBe(200);
    const validator = new Validator();
    const result = await validator.validate(doc.json);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('documents every route the app serves under /api, and nothing it does not serve', async () => {
    const doc = await t.call('GET', '/api/openapi.json');
    const documented = Object.entries(doc.json.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      METHODS.filter((m) => m in item).map((m) => `${m.toUpperCase()} ${path}`),
    );
    // One entry per handler in a route's chain (sign-in check, validators, handler): one per route here.
    const served = new Set(
      t.app.routes
        .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/'))
        .map((r) => `${r.method} ${r.path.replaceAll(/:(\w+)/g, '{$1}')}`),
    );
    expect([...documented].sort()).toEqual([...served].sort());
    expect(documented).toHaveLength(allRoutes.length);
  });

  it('carries each route’s access into its operation', async () => {
    const doc = await t.call('GET', '/api/openapi.json');
    for (const route of allRoutes) {
      expect(doc.json.paths[route.path][route.method]['x-access'], `${route.method} ${route.path}`).toBe(route['x-access']);
    }
  });
});

describe('route files', () => {
  it('import no other route file: shared rules live in services, routes in the table', () => {
    const dir = path.dirname(fileURLToPath(import.meta.url));
    const routeFiles = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'table.ts');
    for (const file of routeFiles) {
      const imports = [...readFileSync(path.join(dir, file), 'utf8').matchAll(/from '\.\/([\w-]+)'/g)].map((m) => m[1]);
      expect(imports.filter((name) => name !== 'table'), file).toEqual([]);
    }
  });
});
