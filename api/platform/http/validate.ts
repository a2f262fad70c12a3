// The one validation refusal: the contract's zod failures (OpenAPIHono's defaultHook) become
// the docs/architecture.md §4 error shape, with the first message of each field under `fields`, and the
// first message overall as `message`.
// A JSON body is checked before zod sees it (`validJsonBody`, every contract route that reads one):
// Hono's json validator read any other media type (or none) as `{}`, which an all-optional schema
// such as the pricing one takes for "reset everything to the defaults".
import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { HTTPException } from 'hono/http-exception';
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
 * Refuses a body that is not JSON by media type, not UTF-8, or empty; gives its decoded text, and
 * leaves it in Hono's body cache for any other reader.
 */
async function requireJsonBody(c: Context): Promise<string> {
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
  return text;
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

/** What Hono's own JSON validator answers for a body that does not parse. */
export const MALFORMED_JSON = 'Malformed JSON in request body';

/**
 * The one JSON-body step of every contract route that reads one: the media-type and encoding
 * checks, the parse, the schema, and the body left where `c.req.valid('json')` reads it. It stands
 * in for @hono/zod-openapi's media-type gate and @hono/zod-validator's validator, which the
 * contract's routes do not get (api/platform/http/contract-hono.ts), and answers as they would:
 * the same refusals in the same order, through `validationHook`. In one synchronous step: without
 * their two asynchronous layers and the Promise of each parse, the quote route served 10–24 % more
 * side by side (docs/decisions/029-one-json-body-step.md). A body that
 * api/platform/http/body-limit.ts has already read for a JSON media type and decoded strictly (the
 * quote route's case) is parsed at once; any other is read and checked first. A schema holding an
 * asynchronous check (the contract has none) is parsed asynchronously.
 */
export function validJsonBody(schema: z.ZodType): MiddlewareHandler {
  /** Set once a parse meets an asynchronous check: from then on every parse is asynchronous. */
  let asynchronous = false;
  const validate = (c: Context, next: Next, text: string) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new HTTPException(400, { message: MALFORMED_JSON });
    }
    let result: z.ZodSafeParseResult<unknown> | undefined;
    if (!asynchronous) {
      try {
        result = schema.safeParse(value);
      } catch (error) {
        if (!(error instanceof core.$ZodAsyncError)) throw error;
        asynchronous = true;
      }
    }
    if (result !== undefined) return accept(c, next, result);
    return schema.safeParseAsync(value).then((asyncResult) => accept(c, next, asyncResult));
  };
  return (c, next) => {
    const decoded = decodedJsonText(c);
    if (decoded === undefined) return requireJsonBody(c).then((text) => validate(c, next, text));
    if (isBlank(decoded)) throw new ValidationFailed(EMPTY_JSON_BODY);
    return validate(c, next, decoded);
  };
}

function accept(c: Context, next: Next, result: z.ZodSafeParseResult<unknown>): Promise<void> {
  validationHook(result);
  c.req.addValidatedData('json', result.data as object);
  return next();
}

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
