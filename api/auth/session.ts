// Sealed sessions (iron-session's sealData/unsealData): the same sealed string travels as an
// HttpOnly cookie or as the x-auth-token header. The seal carries the user's session version,
// bumped on logout, so copies of an old cookie or token stop working (docs/architecture.md §3).
import { sealData, unsealData } from 'iron-session';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Db } from '../platform/db/client';
import { findUserById, type UserRow } from './store';
import { Forbidden, Unauthorized } from '../platform/errors';
import type { Role } from '#shared/roles';
import type { AppEnv } from '../platform/http/context';
import { AUTH_TOKEN_HEADER, SESSION_COOKIE } from '../contract/define';

const TTL_SECONDS = 30 * 24 * 60 * 60;

interface SessionData {
  uid: number;
  v: number;
}

export interface SessionOptions {
  secret: string;
  secureCookies: boolean;
}

/** Verified seals remembered at once: 10,000 is a few MB, and far more operators than sign in in a day. */
const VERIFIED_SEALS_MAX = 10_000;

/** Longer than any seal we make (about 270 characters for a session), far shorter than a header may be. */
export const SEAL_MAX_LENGTH = 1024;
/**
 * Exactly what iron-session's sealData writes: `Fe26.2*{password id}*{salt}*{iv}*{ciphertext}*{expiry}*{hmac salt}*{hmac}~2`.
 * iron-session itself reads only what comes before the first `~` and parseInt()s the rest, so
 * `{seal}~2junk` unsealed as the seal: every spelling of one session was accepted and remembered.
 */
const SEAL_FORMAT = /^Fe26\.2\*\d{1,8}\*[0-9a-f]{64}\*[\w-]{22}\*[\w-]{1,900}\*\d{1,16}\*[0-9a-f]{64}\*[\w-]{43}~2$/;

/** Whether `text` has the exact form of a seal this app makes (sessions, portal links, the checkout binding); checked before anything unseals it. */
export const isSealFormat = (text: string): boolean => text.length <= SEAL_MAX_LENGTH && SEAL_FORMAT.test(text);

/**
 * When a verified seal stops being valid: its expiry, milliseconds since the epoch, is the sixth
 * `*`-separated field of the iron seal (before iron-session's `~2` suffix). Read only after the
 * seal's HMAC was checked, so the field is the one we wrote.
 */
function sealExpiry(sealed: string): number {
  const expiry = Number(sealed.split('~')[0].split('*')[5]);
  return Number.isFinite(expiry) && expiry > 0 ? expiry : 0;
}

export function createSessions(db: Db, options: SessionOptions) {
  const password = options.secret;
  // Unsealing costs a key derivation, a decryption and an HMAC on every signed-in request (0.3 ms
  // at the median and 3.6 ms at p99 under load: more than a find-by-reference's whole budget). A
  // seal is immutable and authenticated, so what it said once it says until it expires; the
  // session version is still read from the user's row on every request, so logout revokes at once.
  const verified = new Map<string, { data: SessionData; expiresAt: number }>();

  async function unseal(sealed: string): Promise<SessionData | undefined> {
    // Only the exact form is looked up or unsealed, so the memory is keyed by the seal itself:
    // one entry per session, however it is spelled.
    if (!isSealFormat(sealed)) return undefined;
    const known = verified.get(sealed);
    if (known) {
      if (Date.now() < known.expiresAt) return known.data;
      verified.delete(sealed);
    }
    let data: Partial<SessionData>;
    try {
      data = await unsealData<Partial<SessionData>>(sealed, { password, ttl: TTL_SECONDS });
    } catch {
      return undefined;
    }
    if (typeof data.uid !== 'number' || typeof data.v !== 'number') return undefined;
    const session = { uid: data.uid, v: data.v };
    const expiresAt = sealExpiry(sealed);
    if (expiresAt > Date.now()) {
      // Oldest first out: Map keeps insertion order.
      if (verified.size >= VERIFIED_SEALS_MAX) verified.delete(verified.keys().next().value as string);
      verified.set(sealed, { data: session, expiresAt });
    }
    return session;
  }

  const seal = (user: UserRow): Promise<string> => sealData({ uid: user.id, v: user.sessionVersion } satisfies SessionData, { password, ttl: TTL_SECONDS });

  async function userFromSeal(sealed: string): Promise<UserRow | undefined> {
    const data = await unseal(sealed);
    if (!data) return undefined;
    const user = findUserById(db, data.uid);
    return user && user.sessionVersion === data.v ? user : undefined;
  }

  /** Issues the session cookie and returns the same sealed token for the x-auth-token header. */
  async function start(c: Context, user: UserRow): Promise<string> {
    const token = await seal(user);
    setCookie(c, SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'Lax',
      secure: options.secureCookies,
      path: '/',
      maxAge: TTL_SECONDS,
    });
    return token;
  }

  function end(c: Context): void {
    deleteCookie(c, SESSION_COOKIE, { path: '/', secure: options.secureCookies });
  }

  /**
   * Loads the user from the header token or the cookie; never rejects by itself. Not an async
   * function when there is no session to read (every motorist's request): no frame of its own is
   * held while the request is in flight (docs/decisions/025-quote-path-beyond-e4789ff.md).
   */
  const load: MiddlewareHandler<AppEnv> = (c, next) => {
    const header = c.req.header(AUTH_TOKEN_HEADER);
    const cookie = getCookie(c, SESSION_COOKIE);
    return header || cookie ? loadSession(c, next, header, cookie) : next();
  };

  async function loadSession(c: Context<AppEnv>, next: Next, header: string | undefined, cookie: string | undefined) {
    if (header) {
      const user = await userFromSeal(header);
      if (user) {
        c.set('user', user);
        c.set('authVia', 'token');
      }
    }
    if (!c.get('user') && cookie) {
      const user = await userFromSeal(cookie);
      if (user) {
        c.set('user', user);
        c.set('authVia', 'cookie');
      }
    }
    await next();
  }

  return { seal, start, end, load, userFromSeal, remembered: () => verified.size };
}

export type Sessions = ReturnType<typeof createSessions>;

/** Middleware for private routes: no valid session is a 401, with a message that says what to do. */
export const requireSignIn =
  (message?: string): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (!c.get('user')) throw new Unauthorized(message);
    await next();
  };

export const requireUser = requireSignIn();

/** Roles refused by a route: the message names what the person may not do, never what the route is. */
const ROLE_REFUSED = 'Your role in this company does not allow this. Ask the owner.';

/** Middleware after the sign-in check: a person whose role the route does not list gets 403 before any work. */
export const requireRole =
  (roles: readonly Role[]): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const user = c.get('user');
    if (!user) throw new Unauthorized();
    if (!roles.includes(user.role)) throw new Forbidden(ROLE_REFUSED, 'ROLE_NOT_ALLOWED');
    await next();
  };

export function currentUser(c: Context<AppEnv>): UserRow & { companyId: number } {
  const user = c.get('user');
  if (!user || user.companyId == null) throw new Unauthorized();
  return user as UserRow & { companyId: number };
}
