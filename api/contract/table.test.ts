// The contract against what the app serves: the generated OpenAPI document is valid 3.1, and its
// operations are exactly the app's API routes, each carrying its access; and the contract itself
// runs nothing of the server's, so the front ends may take their types from it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness';
import { allRoutes } from './index';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

describe('the contract', () => {
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
      t.app.routes.filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/')).map((r) => `${r.method} ${r.path.replaceAll(/:(\w+)/g, '{$1}')}`),
    );
    expect([...documented].sort()).toEqual([...served].sort());
    expect(documented).toHaveLength(allRoutes.length);
  });

  it('carries each route’s access into its operation', async () => {
    const doc = await t.call('GET', '/api/openapi.json');
    for (const route of allRoutes) {
      expect(doc.json.paths[route.path][route.method]['x-access'], `${route.method} ${route.path}`).toBe(route['x-access']);
      expect(doc.json.paths[route.path][route.method]['x-roles'], `${route.method} ${route.path}`).toEqual(route['x-roles']);
    }
  });
});

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The value imports of a module (type-only imports and exports add no code), resolved to files or package names. */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s+(type\s+)?[^'";]*?from\s+'([^']+)'/gm)]
    .filter((m) => !m[1])
    .map((m) => {
      const target = m[2];
      // `#shared/x` is package.json's subpath import for shared/x.ts.
      if (target.startsWith('#shared/')) return `${path.join(ROOT, 'shared', target.slice('#shared/'.length))}.ts`;
      return target.startsWith('.') ? `${path.resolve(path.dirname(file), target)}.ts` : target;
    });
}

describe('the contract module', () => {
  const dir = path.dirname(fileURLToPath(import.meta.url));
  const root = path.resolve(dir, '../..');

  it('imports nothing that runs on the server: only zod, @hono/zod-openapi, shared schemas and constants', () => {
    const seen = new Set<string>();
    const outside: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const target of valueImports(file)) {
        if (!target.startsWith('/')) {
          // Packages: the schemas' own (zod, the postcode and phone-number checks) and the route helper's.
          if (!['zod', '@hono/zod-openapi', 'postcode', 'libphonenumber-js/min'].includes(target)) outside.push(`${path.relative(root, file)} → ${target}`);
        } else if (target.startsWith(dir + path.sep) || target.startsWith(path.join(root, 'shared') + path.sep)) {
          visit(target);
        } else {
          outside.push(`${path.relative(root, file)} → ${path.relative(root, target)}`);
        }
      }
    };
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) visit(path.join(dir, file));
    expect(outside).toEqual([]);
    expect(seen.size).toBeGreaterThan(10);
  });
});
