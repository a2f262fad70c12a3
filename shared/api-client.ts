// The browser's one way to call the API: a client typed from the contract (api/contract/, type-only
// imports shaped as Hono's RPC client `hc`, so no zod and no route list reach the bundles), whose
// requests send cookies, add the stored auth token as x-auth-token, type JSON bodies as JSON, and
// throw a non-ok status as an Error whose message is "{status}: {body text or status text}".
// Every path the admin and the widget call is spelled here, through `api`, and checked against
// the contract by the compiler.
import type { ClientRequestOptions, ClientResponse, hc } from 'hono/client';
import type { SuccessStatusCode } from 'hono/utils/http-status';
import type { ContractApp } from '../api/contract/client-types';

export const AUTH_TOKEN_KEY = 'recovery_auth_token';
export const AUTH_USER_KEY = 'recovery_auth_user';

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
  ) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiRequestError';
  }

  /** The server's `message` field when the body is our JSON error shape, else the raw text. */
  get serverMessage(): string {
    try {
      const parsed: unknown = JSON.parse(this.body);
      if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
        return parsed.message;
      }
    } catch {
      // Not JSON: the text itself is the message.
    }
    return this.body || this.message;
  }

  get fields(): Record<string, string> | undefined {
    try {
      const parsed = JSON.parse(this.body) as { fields?: Record<string, string> };
      return parsed.fields;
    } catch {
      return undefined;
    }
  }
}

/** Worth asking again: no answer at all (network), a server error, or a rate limit. A 4xx is final. */
export const mayPass = (error: unknown): boolean => !(error instanceof ApiRequestError) || error.status >= 500 || error.status === 429;

function storedToken(): string | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(AUTH_TOKEN_KEY);
  } catch {
    return null;
  }
}

/** The signed-in session's header, for a request `call` cannot make (an image body streamed from the phone's queue). */
export function sessionHeaders(): Record<string, string> {
  const token = storedToken();
  return token ? { 'x-auth-token': token } : {};
}

export interface ApiRequestOptions {
  /** Public calls from an embedded widget send no cookies or token. */
  anonymous?: boolean;
  signal?: AbortSignal;
  /** Extra request headers, e.g. the quote form's Idempotency-Key. */
  headers?: Record<string, string>;
  /** Let the request outlive the page, e.g. a marker sent as the customer leaves for WhatsApp. */
  keepalive?: boolean;
}

type RequestArgs = { param?: Record<string, string>; query?: Record<string, string>; json?: unknown } | undefined;

/**
 * A path from the segments walked (`:id` is a parameter, encoded so a typed value stays one
 * segment) and a query (the caller leaves out what it does not send).
 */
function pathFrom(segments: string[], args: RequestArgs): string {
  const search = `${new URLSearchParams(args?.query)}`;
  return `/${segments.map((s) => (s[0] === ':' ? encodeURIComponent(args!.param![s.slice(1)]) : s)).join('/')}${search && `?${search}`}`;
}

/**
 * Hono's RPC client in miniature (its own runtime would cost the widget 1.7 KB gzip): property
 * access walks the path; `$get()`, `$post()`, … send their method through the `fetch` they are given
 * (`call` adds the body), and called
 * without one (`$path()`) answer the path. The types are hc's, computed from the contract.
 */
function walk(origin: string, segments: string[]): unknown {
  return new Proxy(
    {},
    {
      // Only string keys are ever asked for: no code coerces or awaits a walk.
      get: (_target, key: string) =>
        key[0] === '$'
          ? (args: RequestArgs, options?: ClientRequestOptions) => {
              const path = pathFrom(segments, args);
              return options ? (options.fetch as typeof fetch)(origin + path, { method: key.slice(1).toUpperCase() }) : path;
            }
          : walk(origin, [...segments, key]),
    },
  );
}

/**
 * The API's routes as the contract declares them, from `origin` ('' is the page's own):
 * `api().company.$get`, `api().quotes[':reference'].status.$put`. Pass an endpoint to `call`, or
 * ask it for its `$path()` (a link, a download, a cache key).
 */
export const api = (origin = '') => (walk(origin, []) as ReturnType<typeof hc<ContractApp>>).api;

/** The routes on the page's own origin: the admin's. */
export const portalApi = /* @__PURE__ */ api();

type Endpoint = (args: never, options?: ClientRequestOptions) => Promise<ClientResponse<unknown, number, 'json' | 'text' | string>>;

/** What an endpoint answers with a success status. */
export type Success<E extends Endpoint> =
  Awaited<ReturnType<E>> extends infer R ? (R extends ClientResponse<infer T, infer S, infer _F> ? (S extends SuccessStatusCode ? T : never) : never) : never;

type Args<E extends Endpoint> = Parameters<E>[0];

/** An endpoint's path with its parameters and query filled in, for a link or a download. */
export function pathOf<E extends { $path: (arg?: never) => string }>(endpoint: E, ...args: Parameters<E['$path']>): string {
  return endpoint.$path(args[0] as never);
}

/**
 * Calls one route of the contract: `call(portalApi.company.$put, { json: body })` answers the
 * route's success body, typed from the contract; any other status throws an ApiRequestError.
 */
export function call<E extends Endpoint>(
  endpoint: E,
  ...rest: undefined extends Args<E> ? [args?: Args<E>, options?: ApiRequestOptions] : [args: Args<E>, options?: ApiRequestOptions]
): Promise<Success<E>>;
export async function call(endpoint: Endpoint, args?: unknown, options: ApiRequestOptions = {}): Promise<unknown> {
  // The client builds the URL, method and JSON body from the contract; this sends them the one way.
  const json = (args as RequestArgs)?.json;
  const send = (url: string, init: RequestInit) => {
    const headers: Record<string, string> = { ...options.headers };
    if (json !== undefined) headers['Content-Type'] = 'application/json';
    const token = options.anonymous ? null : storedToken();
    if (token) headers['x-auth-token'] = token;
    // The signal and keepalive ride along from the options (fetch ignores the rest of them).
    return fetch(url, {
      ...options,
      ...init,
      headers,
      body: json === undefined ? undefined : JSON.stringify(json),
      credentials: options.anonymous ? 'omit' : 'include',
    });
  };
  const response = await endpoint(args as never, { fetch: send as unknown as typeof fetch });
  const text = await response.text();
  if (!response.ok) throw new ApiRequestError(response.status, text, response.statusText);
  return text ? JSON.parse(text) : undefined;
}
