// The API's request body limit, reading JSON bodies straight from Node's request stream.
// Hono's bodyLimit reads `c.req.raw.body`, which makes @hono/node-server build a full web Request
// (undici Request, AbortController, Readable.toWeb) for every API request: for the quote route
// that was a fifth of the server's time (docs/decisions/008-quote-path-profile.md).
import { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import { bodyLimit } from 'hono/body-limit';
import { PayloadTooLarge } from '../errors';

/**
 * The client went away before its body was read (Node's 'aborted' error, wherever the body was
 * being read): nothing went wrong here, and no one is there to answer. errors.ts answers these
 * with nginx's 499, which requestLogging logs as an info line.
 */
export function clientClosedRequest(env: unknown): boolean {
  const incoming = (env as { incoming?: unknown } | undefined)?.incoming;
  return incoming instanceof IncomingMessage && !incoming.complete && (incoming.destroyed || incoming.readableAborted);
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;
/** A raw image body (the driver's uploads, api/proof/routes.ts): its route streams it, and must never see it read whole first. */
const IMAGE_TYPE = /^image\/[\w.+-]+\s*(;|$)/i;

/** Passes a body on, and errors it with 413 at the byte that crosses `maxSize`. */
function countedBody(body: ReadableStream<Uint8Array>, maxSize: number): ReadableStream<Uint8Array> {
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > maxSize) controller.error(new PayloadTooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
}
// Like Request.text(): UTF-8, a leading byte-order mark dropped; but strict, so that invalid
// UTF-8 is refused by the JSON validator (api/platform/http/validate.ts) rather than read as U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true });

function readBody(incoming: IncomingMessage, maxSize: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxSize) {
        // node-server drains what is left once the response is sent.
        incoming.removeAllListeners('data');
        reject(new PayloadTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    incoming.once('end', () => resolve(Buffer.concat(chunks, size)));
    incoming.once('error', reject);
    // Should a disconnect ever close the stream without an error, the request must not hang.
    incoming.once('close', () => {
      if (!incoming.complete) reject(new Error('aborted'));
    });
  });
}

/**
 * The body's text when this middleware read it from Node's stream for a JSON media type and it
 * was valid UTF-8; undefined otherwise. Lets requireJson (api/platform/http/validate.ts) check it
 * without waiting on Hono's body cache. Kept on the request's context, which lives exactly as
 * long as the request (a WeakMap keyed by each request did the same with a table more to trace;
 * no difference was measurable, docs/decisions/025-quote-path-beyond-e4789ff.md).
 */
export const decodedJsonText = (c: Context<AppEnv>): string | undefined => c.get('jsonText');

/** Hono's bodyLimit for a size, made once per size. */
function webBodyLimitFor(maxSize: number): MiddlewareHandler {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new PayloadTooLarge();
    },
  });
}

/**
 * At most `maxSizeOf(method, path)` bytes of a request's body (the route table's `x-body-limit`,
 * docs/security.md), or 413: nothing past the limit is kept, and the body is refused as soon as
 * it is known to be over (its Content-Length, or the byte that crosses the limit).
 */
export function apiBodyLimit(maxSizeOf: number | ((method: string, path: string) => number)): MiddlewareHandler<AppEnv> {
  const sizeOf = typeof maxSizeOf === 'number' ? () => maxSizeOf : maxSizeOf;
  const webLimits = new Map<number, MiddlewareHandler>();
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const maxSize = sizeOf(c.req.method, c.req.path);
    // node-server passes Node's request as c.env.incoming; app.request() in tests has none.
    const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
    const type = c.req.header('content-type') ?? '';
    // An image sent without its length (chunked): counted as it streams to its route, where
    // Hono's bodyLimit would first read all of it into memory (docs/decisions/045-proof-of-condition.md).
    if (IMAGE_TYPE.test(type)) {
      const length = c.req.header('content-length');
      // With its length declared, the route reads Node's stream itself (imageBody below): nothing
      // here may touch `c.req.raw.body`, which would turn it into a web stream first.
      if (length !== undefined && !c.req.header('transfer-encoding')) {
        if (Number(length) > maxSize) throw new PayloadTooLarge();
        return next();
      }
      if (c.req.raw.body) {
        c.req.raw = new Request(c.req.raw, { body: countedBody(c.req.raw.body, maxSize), duplex: 'half' } as RequestInit);
        return next();
      }
    }
    if (!(incoming instanceof IncomingMessage) || !JSON_TYPE.test(type)) {
      let web = webLimits.get(maxSize);
      if (!web) webLimits.set(maxSize, (web = webBodyLimitFor(maxSize)));
      return web(c, next);
    }
    if (Number(incoming.headers['content-length']) > maxSize) throw new PayloadTooLarge();
    // Read before next(), so an over-long chunked body is a 413 here, not a JSON error later.
    const body = await readBody(incoming, maxSize);
    // c.req.json()/text() look here first. Hono types the cache by body type, but stores (and
    // awaits) promises of them. Bytes that are not UTF-8 are kept as bytes: the JSON validator
    // refuses them, and a raw-body route (the webhook) reads them as before.
    let text: string | undefined;
    try {
      text = utf8.decode(body);
    } catch {
      c.req.bodyCache.arrayBuffer = Promise.resolve(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)) as unknown as ArrayBuffer;
    }
    if (text !== undefined) {
      c.req.bodyCache.text = Promise.resolve(text) as unknown as string;
      c.set('jsonText', text);
    }
    await next();
  };
}

/**
 * The body of a raw image route as a Node stream: Node's own request when it arrives with its
 * length declared (apiBodyLimit left it untouched, so no web stream is made and undone for every
 * chunk), else the request's web body (counted by apiBodyLimit, or a test's app.request()).
 */
export function imageBody(c: Context<AppEnv>): Readable | null {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  if (incoming instanceof IncomingMessage && c.req.header('content-length') !== undefined && !c.req.header('transfer-encoding')) return incoming;
  const body = c.req.raw.body;
  return body ? Readable.fromWeb(body as WebReadableStream<Uint8Array>) : null;
}
