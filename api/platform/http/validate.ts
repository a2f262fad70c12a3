// The one validation refusal: the contract's zod failures (OpenAPIHono's defaultHook) become
// the docs/architecture.md §4 error shape, with the first message of each field under `fields`, and the
// first message overall as `message`.
// A JSON body is checked before zod sees it (`requireJson`, attached by api/routes.ts to every
// route that reads one): Hono's json validator reads any other media type (or none) as `{}`,
// which an all-optional schema such as the pricing one takes for "reset everything to the defaults".
import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { core, type z } from 'zod';
import { fieldMessages } from '#shared/field-messages';
import { UnsupportedMediaType, ValidationFailed } from '../errors';
import { decodedJsonText } from './body-limit';

/** application/json, or a `+json` type (RFC 6839), with any parameters such as charset. */
export const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
export const JSON_CONTENT_TYPE_REQUIRED = 'Content-Type must be application/json';
export const INVALID_UTF8 = 'Request body must be valid UTF-8';
export const EMPTY_JSON_BODY = 'Request body must be a JSON value';
/** Under `fields`, for each field whose text holds the bytes that are not UTF-8. */
export const INVALID_UTF8_FIELD = 'Must be valid UTF-8 text';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Refuses a body that is not JSON by media type, not UTF-8, or empty, and leaves its decoded text
 * in Hono's body cache for the validator to parse. api/platform/http/body-limit.ts has already decoded the
 * text strictly when it read the body straight from Node's stream.
 */
async function requireJsonBody(c: Context): Promise<void> {
  const mediaType = (c.req.header('content-type') ?? '').split(';')[0].trim();
  if (!JSON_MEDIA_TYPE.test(mediaType)) throw new UnsupportedMediaType(JSON_CONTENT_TYPE_REQUIRED);
  let text: string;
  const cache = c.req.bodyCache;
  if (cache.text !== undefined) {
    text = await (cache.text as unknown as Promise<string>);
  } else {
    const bytes = await c.req.arrayBuffer();
    try {
      text = strictUtf8.decode(bytes);
    } catch {
      const fields = Object.fromEntries(fieldsWithInvalidUtf8(bytes).map((field) => [field, INVALID_UTF8_FIELD]));
      throw new ValidationFailed(INVALID_UTF8, Object.keys(fields).length > 0 ? fields : undefined);
    }
    // Hono's cache holds promises, though it types the values as the bodies themselves.
    cache.text = Promise.resolve(text) as unknown as string;
  }
  if (isBlank(text)) throw new ValidationFailed(EMPTY_JSON_BODY);
}

/** Nothing but white space (what String.prototype.trim removes: the same set as \s). */
const isBlank = (text: string) => !/\S/.test(text);

const REPLACEMENT_CHARACTER = Buffer.from([0xef, 0xbf, 0xbd]);

/**
 * The fields (dotted paths, as zod's) whose strings hold the bytes of `bytes` that are not UTF-8,
 * so the 400 can name them. A lenient decode turns each bad sequence into U+FFFD; a U+FFFD the
 * client really sent is written as the escape `\ufffd` first, so every one the decoder makes is
 * swapped for a per-call marker no client can guess before the JSON is parsed. Bad bytes outside
 * any string (the body is not JSON either) name no field.
 */
function fieldsWithInvalidUtf8(bytes: ArrayBuffer): string[] {
  const raw = Buffer.from(bytes);
  const parts: Buffer[] = [];
  let at = 0;
  for (let i = raw.indexOf(REPLACEMENT_CHARACTER); i !== -1; i = raw.indexOf(REPLACEMENT_CHARACTER, at)) {
    parts.push(raw.subarray(at, i), Buffer.from('\\ufffd'));
    at = i + REPLACEMENT_CHARACTER.length;
  }
  parts.push(raw.subarray(at));
  const marker = `\u0000${randomUUID()}\u0000`;
  const escapedMarker = JSON.stringify(marker).slice(1, -1);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8').decode(Buffer.concat(parts)).replaceAll('\uFFFD', escapedMarker));
  } catch {
    return [];
  }
  const found: string[] = [];
  const walk = (node: unknown, path: string[]): void => {
    if (typeof node === 'string') {
      if (node.includes(marker)) found.push(path.length > 0 ? path.join('.') : '_');
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        if (key.includes(marker)) found.push([...path, key.replaceAll(marker, '\uFFFD')].join('.'));
        walk(child, [...path, key]);
      }
    }
  };
  walk(value, []);
  return found;
}

/**
 * Route middleware for every route that reads a JSON body, before its validator. A body that
 * api/platform/http/body-limit.ts has already read for a JSON media type and decoded strictly
 * needs only the blank check, with no wait on the body cache: the quote route's case
 * (docs/decisions/023-quote-path-since-017.md).
 */
export const requireJson: MiddlewareHandler = (c, next) => {
  const decoded = decodedJsonText(c);
  if (decoded === undefined) return requireJsonBody(c).then(next);
  if (isBlank(decoded)) throw new ValidationFailed(EMPTY_JSON_BODY);
  return next();
};

/**
 * Has `schema.safeParseAsync` (what every contract validator calls: @hono/zod-validator's) parse
 * synchronously, falling back to the asynchronous parse only for a schema that turns out to hold
 * an asynchronous check. The same result either way; the synchronous parse skips a Promise per
 * check and takes zod's compiled fast path for objects, ~3 µs of each quote
 * (docs/decisions/025-quote-path-beyond-e4789ff.md). Changes `schema` itself, once. The contract
 * has no asynchronous check; were one added, its first parse would run that check twice.
 */
export function parseSynchronouslyFirst<S extends z.ZodType>(schema: S): S {
  if (SYNC_FIRST.has(schema)) return schema;
  SYNC_FIRST.add(schema);
  const parseAsync = schema.safeParseAsync.bind(schema);
  let hasAsyncCheck = false;
  schema.safeParseAsync = async (data, params) => {
    if (!hasAsyncCheck) {
      try {
        return schema.safeParse(data, params);
      } catch (error) {
        if (!(error instanceof core.$ZodAsyncError)) throw error;
        hasAsyncCheck = true;
      }
    }
    return parseAsync(data, params);
  };
  return schema;
}

const SYNC_FIRST = new WeakSet<z.ZodType>();

/** OpenAPIHono's defaultHook: called with every validation result of every table route. */
export function validationHook(result: { success: true } | { success: false; error: unknown }): void {
  if (!result.success) {
    const fields = fieldMessages((result.error as z.ZodError).issues);
    throw new ValidationFailed(Object.values(fields)[0] ?? 'Invalid request', fields);
  }
}

/** Route ids are positive integers; anything else is a 404 like a missing row. */
export function parseId(raw: string): number | undefined {
  if (!/^[1-9]\d{0,9}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n <= 2 ** 31 ? n : undefined;
}
