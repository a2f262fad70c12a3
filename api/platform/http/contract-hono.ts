// The app every feature folder registers its contract routes on: @hono/zod-openapi's OpenAPIHono,
// except that a route reading a JSON body is validated by the app's own one synchronous step
// (`validJsonBody`, api/platform/http/validate.ts) in place of the media-type gate and the
// asynchronous validator zod-openapi adds. The route is still documented exactly as declared, in
// the same order, so the OpenAPI document does not change; only what runs does
// (docs/decisions/029-one-json-body-step.md).
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Env, MiddlewareHandler } from 'hono';
import { jsonBodySchema } from '../../contract/define';
import { validJsonBody } from './validate';

type Register = OpenAPIHono['openapi'];

/**
 * A route's middleware that must run after its JSON body is validated (its rate limits,
 * api/routes.ts, one of which counts by what the body names): put after the JSON-body step. A
 * route that reads no body runs it right after its own middleware, before zod-openapi validates
 * its query or path, so a limit there counts even a request with a malformed query. Never documented.
 */
export const AFTER_VALIDATION = 'x-after-validation-middleware';

type WithAfter = { [AFTER_VALIDATION]?: MiddlewareHandler[] };

export class ContractHono<E extends Env = Env> extends OpenAPIHono<E> {
  constructor(init?: ConstructorParameters<typeof OpenAPIHono<E>>[0]) {
    super(init);
    // zod-openapi defines `openapi` on each instance, so it is wrapped here rather than overridden.
    const register = this.openapi as unknown as Register;
    const openapi: Register = (withAfter, handler, hook) => {
      const { [AFTER_VALIDATION]: after = [], ...rest } = withAfter as typeof withAfter & WithAfter;
      // Without the middleware list it is the route as zod-openapi takes it.
      const route = rest as unknown as typeof withAfter;
      const schema = jsonBodySchema(route);
      const own = route.middleware === undefined ? [] : Array.isArray(route.middleware) ? route.middleware : [route.middleware];
      if (schema === undefined) return register(after.length > 0 ? { ...route, middleware: [...own, ...after] } : route, handler, hook);
      const { middleware: _own, hide, ...documented } = route;
      if (!hide) this.openAPIRegistry.registerPath(documented);
      // Registered without its body, so zod-openapi adds no validator of its own, and hidden, as it is documented above.
      return register(
        { ...route, hide: true, request: { ...route.request, body: undefined }, middleware: [...own, validJsonBody(schema), ...after] } as typeof withAfter,
        handler,
        hook,
      );
    };
    this.openapi = openapi as unknown as typeof this.openapi;
  }
}
