// The browser's one way to call the API (docs/product.md §7): cookies always sent, the stored auth
// token added as x-auth-token, JSON bodies typed as JSON, and a non-ok status thrown as an
// Error whose message is "{status}: {body text or status text}".

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
export const mayPass = (error: unknown): boolean =>
  !(error instanceof ApiRequestError) || error.status >= 500 || error.status === 429;

function storedToken(): string | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(AUTH_TOKEN_KEY);
  } catch {
    return null;
  }
}

export interface ApiRequestOptions {
  method?: string;
  body?: unknown;
  /** Origin of the API; '' means the page's own origin. */
  baseUrl?: string;
  /** Public calls from an embedded widget send no cookies or token. */
  anonymous?: boolean;
  signal?: AbortSignal;
  /** Extra request headers, e.g. the quote form's Idempotency-Key. */
  headers?: Record<string, string>;
  /** Let the request outlive the page, e.g. a marker sent as the customer leaves for WhatsApp. */
  keepalive?: boolean;
}

export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const token = options.anonymous ? null : storedToken();
  if (token) headers['x-auth-token'] = token;
  const response = await fetch(`${options.baseUrl ?? ''}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: options.anonymous ? 'omit' : 'include',
    signal: options.signal,
    keepalive: options.keepalive,
  });
  if (!response.ok) {
    throw new ApiRequestError(response.status, await response.text(), response.statusText);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}
