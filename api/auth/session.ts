// Sealed sessions (iron-session's sealData/unsealData): the same sealed string travels as an
// HttpOnly cookie or as the x-auth-token header. The seal carries the user's session version,
// bumped on logout, so copies of an old cookie or token stop working (DESIGN.md §3).
import { sealData, unsealData } from 'iron-session';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Db } from '../db/client';
import { findUserById, type UserRow } from '../db/users';
import { Unauthorized } from '../errors';
import type { AppEnv } from '../http/context';

const SESSION_COOKIE = 'rq_session';
const TTL_SECONDS = 30 * 24 * 60 * 60;

interface SessionData {
  uid: number;
  v: number;
}

export interface SessionOptions {
  secret: string;
  secureCookies: boolean;
}

export function createSessions(db: Db, options: SessionOptions) {
  const password = options.secret;

  const seal = (user: UserRow): Promise<string> =>
    sealData({ uid: user.id, v: user.sessionVersion } satisfies SessionData, { password, ttl: TTL_SECONDS });

  async function userFromSeal(sealed: string): Promise<UserRow | undefined> {
    let data: Partial<SessionData>;
    try {
      data = await unsealData<Partial<SessionData>>(sealed, { password, ttl: TTL_SECONDS });
    } catch {
      return undefined;
    }
    if (typeof data.uid !== 'number' || typeof data.v !== 'number') return undefined;
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

  /** Loads the user from the header token or the cookie; never rejects by itself. */
  const load: MiddlewareHandler<AppEnv> = async (c, next) => {
    const header = c.req.header('x-auth-token');
    const cookie = getCookie(c, SESSION_COOKIE);
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
  };

  return { seal, start, end, load, userFromSeal };
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

export function currentUser(c: Context<AppEnv>): UserRow & { companyId: number } {
  const user = c.get('user');
  if (!user || user.companyId == null) throw new Unauthorized();
  return user as UserRow & { companyId: number };
}
