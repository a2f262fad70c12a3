// The app every feature folder registers its contract routes on: @hono/zod-openapi's OpenAPIHono,
// except that a route reading a JSON body is validated by the app's own one synchronous step
// (`validJsonBody`, api/platform/http/validate.ts) in place of the media-type gate and the
// asynchronous validator zod-openapi adds. The route is still documented exactly as declared, in
// the same order, so the OpenAPI document does not change; only what runs does
// (docs/decisions/029-one-json-body-step.md).
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';
import { jsonBodySchema } from '../../contract/define';
import { validJsonBody } from './validate';

type Register = OpenAPIHono['openapi'];

export class ContractHono<E extends Env = Env> extends OpenAPIHono<E> {
  constructor(init?: ConstructorParameters<typeof OpenAPIHono<E>>[0]) {
    super(init);
    // zod-openapi defines `openapi` on each instance, so it is wrapped here rather than overridden.
    const register = this.openapi as unknown as Register;
    const openapi: Register = (route, handler, hook) => {
      const schema = jsonBodySchema(route);
      if (schema === undefined) return register(route, handler, hook);
      const { middleware, hide, ...documented } = route;
      if (!hide) this.openAPIRegistry.registerPath(documented);
      const own = middleware === undefined ? [] : Array.isArray(middleware) ? middleware : [middleware];
      // Registered without its body, so zod-openapi adds no validator of its own, and hidden, as it is documented above.
      return register({ ...route, hide: true, request: { ...route.request, body: undefined }, middleware: [...own, validJsonBody(schema)] }, handler, hook);
    };
    this.openapi = openapi as unknown as typeof this.openapi;
  }
}
