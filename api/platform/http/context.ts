// The Hono environment shared by every sub-app: per-request variables set by middleware.
import type { UserRow } from '../../auth/store';

export interface AppEnv {
  Variables: {
    requestId: string;
    /** The signed-in operator, when the request carries a valid session. */
    user?: UserRow;
    /** How the session arrived: a cookie needs CSRF protection, a header token does not. */
    authVia?: 'cookie' | 'token';
    /** A JSON body's text, read and decoded strictly by the body limit (api/platform/http/body-limit.ts). */
    jsonText?: string;
  };
}
