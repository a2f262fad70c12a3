// A checkout session id signs its owner in on return (decision 006), so it is bound to the
// browser that opened the checkout: opening one sets a sealed HttpOnly cookie naming the session,
// its owner and the owner's session version, and only a return carrying that cookie may sign in.
// Another browser (a link sent to someone, login CSRF) has no cookie; a sign-out bumps the version,
// so the id in browser history no longer signs anyone in.
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { sealData, unsealData } from 'iron-session';
import { isSealFormat } from '../auth/session';
import type { UserRow } from '../auth/store';
import type { AppEnv } from '../platform/http/context';

export const CHECKOUT_COOKIE = 'rq_checkout';
/** Only the return call needs it: the cookie travels nowhere else. */
export const CHECKOUT_COOKIE_PATH = '/api/process-checkout-success';
/** An unpaid checkout lapses after a day; its processed id signs in for an hour after that. */
const TTL_SECONDS = 25 * 60 * 60;

interface BindingData {
  sid: string;
  uid: number;
  v: number;
}

export function createCheckoutBinding(options: { secret: string; secureCookies: boolean }) {
  // A password of its own: the cookie must never work as a session token, nor a token as it.
  const password = createHash('sha256').update(`${options.secret}:checkout-binding`).digest('hex');

  return {
    /** Marks this browser as the one that opened checkout `sessionId` for `user`. */
    async bind(c: Context<AppEnv>, sessionId: string, user: UserRow): Promise<void> {
      const sealed = await sealData({ sid: sessionId, uid: user.id, v: user.sessionVersion } satisfies BindingData, { password, ttl: TTL_SECONDS });
      setCookie(c, CHECKOUT_COOKIE, sealed, {
        httpOnly: true,
        sameSite: 'Lax',
        secure: options.secureCookies,
        path: CHECKOUT_COOKIE_PATH,
        maxAge: TTL_SECONDS,
      });
    },
    /** Whether this request comes from the browser that opened the checkout, with the owner's session version unchanged since. */
    async isBound(c: Context<AppEnv>, sessionId: string, owner: UserRow): Promise<boolean> {
      const sealed = getCookie(c, CHECKOUT_COOKIE);
      if (!sealed || !isSealFormat(sealed)) return false;
      let data: Partial<BindingData>;
      try {
        data = await unsealData<Partial<BindingData>>(sealed, { password, ttl: TTL_SECONDS });
      } catch {
        return false;
      }
      return data.sid === sessionId && data.uid === owner.id && data.v === owner.sessionVersion;
    },
  };
}
