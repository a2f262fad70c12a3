// ContractHono: a route with a JSON body is checked by the app's one synchronous step, answers as
// zod-openapi's own validators did, and is documented exactly as OpenAPIHono documents it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { quoteRequestSchema } from '#shared/schemas';
import { ContractHono } from './contract-hono';
import { createDatabaseFaults } from '../db/faults';
import type { AppEnv } from './context';
import { errorHandler } from './errors';
import { EMPTY_JSON_BODY, JSON_CONTENT_TYPE_REQUIRED, MALFORMED_JSON, validationHook } from './validate';

const routeWith = (schema: z.ZodType) =>
  createRoute({
    method: 'post',
    path: '/things',
    request: { body: { required: true, content: { 'application/json': { schema } } } },
    responses: { 200: { description: 'The body as validated', content: { 'application/json': { schema: z.unknown() } } } },
  });

function serve(schema: z.ZodType, App: typeof OpenAPIHono = ContractHono) {
  const app = new App<AppEnv>({ defaultHook: validationHook });
  app.openapi(routeWith(schema), (c) => c.json(c.req.valid('json' as never) as unknown, 200));
  // The app's own error path: every refusal in the one error shape.
  app.onError(errorHandler(silent, createDatabaseFaults()));
  return app;
}

const silent = { info() {}, warn() {}, error() {} };

const post = (app: OpenAPIHono<AppEnv>, body: string, contentType: string | null = 'application/json') =>
  app.request('/things', { method: 'POST', body, headers: contentType === null ? {} : { 'content-type': contentType } });

const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as unknown });

const valid = {
  companyId: 1,
  pickupPostcode: 'M1 1AE',
  destinationPostcode: 'SW1A 1AA',
  vehicleType: 'car',
  gearboxType: 'manual',
  rollingStatus: 'rolling',
  problemType: 'engine-failure',
  urgency: 'immediate',
};

describe('ContractHono', () => {
  it('gives the handler the parsed body (defaults filled in) and refuses an invalid one with the first message of each field', async () => {
    const app = serve(quoteRequestSchema);
    const ok = await answer(await post(app, JSON.stringify(valid)));
    expect(ok).toEqual({ status: 200, body: quoteRequestSchema.parse(valid) });
    const refused = await answer(await post(app, JSON.stringify({ ...valid, pickupPostcode: '', passengerCount: 'two' })));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ fields: { pickupPostcode: expect.any(String), passengerCount: expect.any(String) } });
  });

  it('refuses what is not a JSON body as before: the media type, blank text, malformed JSON', async () => {
    const app = serve(quoteRequestSchema);
    expect(await answer(await post(app, JSON.stringify(valid), 'text/plain'))).toEqual({
      status: 415,
      body: { message: JSON_CONTENT_TYPE_REQUIRED, code: 'UNSUPPORTED_MEDIA_TYPE' },
    });
    expect(await answer(await post(app, JSON.stringify(valid), null))).toEqual({
      status: 415,
      body: { message: JSON_CONTENT_TYPE_REQUIRED, code: 'UNSUPPORTED_MEDIA_TYPE' },
    });
    expect(await answer(await post(app, '  '))).toEqual({ status: 400, body: { message: EMPTY_JSON_BODY, code: 'VALIDATION_FAILED' } });
    expect(await answer(await post(app, '{"companyId":'))).toEqual({ status: 400, body: { message: MALFORMED_JSON, code: 'BAD_REQUEST' } });
    // A +json type with parameters is JSON.
    expect((await post(app, JSON.stringify(valid), 'application/vnd.api+json; charset=utf-8')).status).toBe(200);
  });

  it('answers every body as OpenAPIHono with its own validators does, once the media type is JSON', async () => {
    const mine = serve(quoteRequestSchema);
    const theirs = serve(quoteRequestSchema, OpenAPIHono);
    for (const body of [valid, { ...valid, urgency: 'later' }, { ...valid, extra: 1 }, null, 'text', 42, [valid]]) {
      expect(await answer(await post(mine, JSON.stringify(body)))).toEqual(await answer(await post(theirs, JSON.stringify(body))));
    }
    expect(await answer(await post(mine, '{"a":'))).toEqual(await answer(await post(theirs, '{"a":')));
  });

  it('parses synchronously, and falls back to the asynchronous parse for a schema with an asynchronous check', async () => {
    const sync = quoteRequestSchema.clone();
    const asyncParse = vi.spyOn(sync, 'safeParseAsync');
    expect((await post(serve(sync), JSON.stringify(valid))).status).toBe(200);
    expect(asyncParse).not.toHaveBeenCalled();

    let checks = 0;
    const checked = z.object({
      name: z.string().refine(async (name) => {
        checks++;
        return name !== 'taken';
      }, 'Name taken'),
    });
    const app = serve(checked);
    expect(await answer(await post(app, '{"name":"free"}'))).toEqual({ status: 200, body: { name: 'free' } });
    expect(await answer(await post(app, '{"name":"taken"}'))).toEqual({
      status: 400,
      body: { message: 'Name taken', code: 'VALIDATION_FAILED', fields: { name: 'Name taken' } },
    });
    expect(await answer(await post(app, '{"name":"free"}'))).toEqual({ status: 200, body: { name: 'free' } });
    // Only the first parse tries synchronously (meeting the check) before parsing asynchronously.
    expect(checks).toBe(4);
  });

  it('documents the route exactly as OpenAPIHono does', () => {
    const document = (App: typeof OpenAPIHono) => serve(quoteRequestSchema, App).getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } });
    expect(document(ContractHono)).toEqual(document(OpenAPIHono));
    expect(JSON.stringify(document(ContractHono))).toContain('pickupPostcode');
  });
});

describe('the feature folders', () => {
  it('register their contract routes through serve (api/routes.ts, on a ContractHono), never on OpenAPIHono themselves', () => {
    const api = path.resolve(import.meta.dirname, '../..');
    const sources = (readdirSync(api, { recursive: true }) as string[]).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    const read = (file: string) => readFileSync(path.join(api, file), 'utf8');
    // app.ts's own OpenAPIHono only gathers the feature folders' apps and serves the document.
    expect(sources.filter((file) => file !== 'app.ts' && read(file).includes('new OpenAPIHono'))).toEqual([]);
    // One place registers routes, with the middleware the contract asks for.
    expect(sources.filter((file) => read(file).includes('new ContractHono'))).toEqual(['routes.ts']);
    expect(sources.filter((file) => /\.openapi\(/.test(read(file)))).toEqual(['routes.ts']);
    expect(sources.filter((file) => read(file).includes('serve(parts, contract.')).length).toBeGreaterThan(10);
  });
});
