// Headers every response of a request carries (the request id, the security baseline, open CORS
// on public routes), set once, whoever answers. Served by the app's server (api/server.ts), they
// are handed to Node's response, which adds them to the head it writes: the handler's Response
// keeps the plain header object node-server writes as it is, and no web Headers are built. Under
// `app.request()` (tests) there is no Node response, and they are set on Hono's Response after the
// handler. The client sees the same head either way (response-headers.test.ts serves both).
// Setting them on web Headers (a Headers object, each name and value checked by undici, then
// copied back out for Node) cost ~6 µs of every request; Node's own setHeader, which checks them
// again, about as much (docs/decisions/025-quote-path-beyond-e4789ff.md).
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import type { Context, Next } from 'hono';

/**
 * Node's response as the app's server makes it: headers added with `addHeaders` go into the head
 * it writes (over any of the same name), with no check of their own: they are the app's constants
 * and a request id that matched `[\w-]`.
 */
export class AppServerResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** Lists of [lower-case name, value], kept as given: most are the app's constants. */
  #added: (readonly (readonly [string, string])[])[] | undefined;

  /** Adds headers (lower-case names) to the head this response will write. */
  addHeaders(headers: readonly (readonly [string, string])[]): void {
    if (this.#added === undefined) this.#added = [headers];
    else this.#added.push(headers);
  }

  override writeHead(
    statusCode: number,
    reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    const added = this.#added;
    if (added === undefined) return super.writeHead(statusCode, reason as string, headers);
    if (typeof reason !== 'string') {
      headers = reason;
      reason = undefined;
    }
    if (headers === undefined || Array.isArray(headers)) {
      // Node's own calls (no object), or raw pairs: added as Node's headers, which it merges.
      for (const list of added) for (const [name, value] of list) this.setHeader(name, value);
    } else {
      // This response's own object: Hono's or the handler's, made for it (none is shared between
      // responses); node-server writes it as it is.
      for (const list of added) for (const [name, value] of list) headers[name] = value;
    }
    return super.writeHead(statusCode, reason, headers);
  }
}

/** What to pass as node-server's `serverOptions` so that its responses are AppServerResponses. */
export const appServerOptions = { ServerResponse: AppServerResponse as unknown as typeof ServerResponse };

/**
 * Runs the rest of the chain with `headers` (lower-case names) on whatever response it gives,
 * over any of the same name the handler set (none of the callers' headers is one a handler sets).
 */
export function withResponseHeaders(c: Context, next: Next, headers: readonly (readonly [string, string])[]): Promise<void> {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  if (outgoing instanceof AppServerResponse) {
    outgoing.addHeaders(headers);
    // Not an async function: no frame of its own held while the request is in flight.
    return next();
  }
  return next().then(() => {
    for (const [name, value] of headers) c.res.headers.set(name, value);
  });
}
