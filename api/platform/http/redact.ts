// One redaction for every log line (docs/security.md): a token in a URL is a credential, and a log
// is read by more people than the database. Path tokens (the billing portal's link, checkout ids,
// and the account and booking links under /verify-email/, /reset-password/, /sign-in/, /join/, /job/, /api/jobs/, /driver/, the balance's pay link under /balance/, and a
// caller's quote link under /q/ and /api/quote-links/),
// `token` and `session_id` query parameters, an OAuth return's `code` and `state` (Xero's, to
// /api/books/xero/callback), checkout ids and sealed sessions anywhere in a text
// become `[redacted]`. Applied by the logger itself (api/app.ts wraps whichever logger it is
// given), so no caller has to remember it.
import type { Logger } from './observability';

export const REDACTED = '[redacted]';

/** Paths whose next segment is a bearer token. */
const TOKEN_PATHS = [
  'billing/portal',
  'billing/checkout',
  'verify-email',
  'reset-password',
  'sign-in',
  'join',
  'jobs?',
  'driver',
  'q',
  'quote-links',
  'balance',
];
const PATH_TOKEN = new RegExp(`(/(?:${TOKEN_PATHS.join('|')})/)[^/?#\\s"'<>]+`, 'g');
/** `?token=…`, `&reset_token=…`, `?session_id=…` (Stripe's checkout return), `?code=…&state=…` (an OAuth return). */
const QUERY_TOKEN = /([?&](?:[\w.-]*token|session_id|code|state)=)[^&#\s"'<>]+/gi;
/** Checkout session ids: they sign their owner in on return (decision 006). */
const CHECKOUT_ID = /\bcs_(?:local|test|live)_[\w-]+/g;
/** An iron seal: a session, a portal link, the checkout binding. */
const SEAL = /Fe26\.2\*[^\s"'<>]+/g;
/** Cheap first look: most lines (every quote's request line) carry none of these. */
const MAYBE =
  /\/(?:billing\/(?:portal|checkout)|verify-email|reset-password|sign-in|join|jobs?|driver|q|quote-links|balance)\/|token|session_id|[?&](?:code|state)=|cs_(?:local|test|live)_|Fe26\.2\*/i;

export function redact(text: string): string {
  if (!MAYBE.test(text)) return text;
  return text.replace(PATH_TOKEN, `$1${REDACTED}`).replace(QUERY_TOKEN, `$1${REDACTED}`).replace(CHECKOUT_ID, REDACTED).replace(SEAL, REDACTED);
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redact(value);
  if (depth <= 0 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth - 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = redactValue(v, depth - 1);
  return out;
}

/**
 * The one field never redacted: the account link logged once when no mail server is configured
 * (api/auth/account-mail.ts). Without SMTP_URL the log is the only way a local install's owner
 * can verify or reset, so that line carries the link on purpose; nothing else may use the field.
 */
export const UNSENT_LINK_FIELD = 'unsentLink';

/** A record with every string in it (three levels deep) redacted. */
export function redactRecord(record: Record<string, unknown>): Record<string, unknown> {
  // Copied only once something in it changes: every request line goes through here, and almost
  // none holds anything to redact.
  let out: Record<string, unknown> | undefined;
  for (const key in record) {
    if (key === UNSENT_LINK_FIELD) continue;
    const value = record[key];
    const next = typeof value === 'string' ? redact(value) : redactValue(value, 3);
    if (next !== value) (out ??= { ...record })[key] = next;
  }
  return out ?? record;
}

/** `logger` with every line redacted. */
export function redactingLogger<L extends Logger>(logger: L): L {
  return {
    ...logger,
    info: (record) => logger.info(redactRecord(record)),
    warn: (record) => logger.warn(redactRecord(record)),
    error: (record) => logger.error(redactRecord(record)),
    // The request line's fields are all strings and numbers: each string redacted as redactRecord would.
    request: (line) => {
      const requestId = redact(line.requestId);
      const method = redact(line.method);
      const path = redact(line.path);
      const redacted = requestId === line.requestId && method === line.method && path === line.path ? line : { ...line, requestId, method, path };
      if (logger.request) logger.request(redacted);
      else logger.info({ ...redacted });
    },
  };
}
