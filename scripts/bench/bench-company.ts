// The company the in-process benches measure (scripts/bench/audit.ts, scripts/bench/dispatch.ts):
// an owner on the trial with a phone number and online booking on, and one more person of the
// company (a dispatcher, a driver) signed in, all through the app's own routes but for the trial and
// the second person's row (both what the portal's billing and invitations would have written).
import type { createApp } from '../../api/app';
import { updateUser } from '../../api/auth/store';
import { users } from '../../api/platform/db/schema';

export const BENCH_ORIGIN = 'http://localhost:3999';
const PASSWORD = 'correct-horse-battery';

type BuiltApp = Pick<ReturnType<typeof createApp>, 'app' | 'deps'>;
export type BenchRequest = (method: string, url: string, init?: { token?: string; body?: unknown }) => Promise<Response>;

/** A request through `app.request` (no sockets), as the signed-in `token` when given. */
export const benchRequest =
  ({ app }: BuiltApp): BenchRequest =>
  async (method, url, init = {}) =>
    app.request(`${BENCH_ORIGIN}${url}`, {
      method,
      headers: { ...(init.token ? { 'x-auth-token': init.token } : {}), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

export interface BenchCompany {
  request: BenchRequest;
  companyId: number;
  ownerToken: string;
  /** The second person's user id and session token. */
  memberId: number;
  memberToken: string;
}

export async function benchCompany(built: BuiltApp, member: { role: 'dispatcher' | 'driver'; name: string; email: string }): Promise<BenchCompany> {
  const { deps } = built;
  const request = benchRequest(built);
  const signup = (await (
    await request('POST', '/api/signup', { body: { name: 'Bench Owner', email: 'bench-owner@example.com', password: PASSWORD, companyName: 'Bench Recovery' } })
  ).json()) as { authToken: string; companyId: number; id: number };
  const trialEnd = new Date(Date.now() + 30 * 86_400_000).toISOString();
  updateUser(deps.db, signup.id, { subscriptionStatus: 'trialing', trialEndsAt: trialEnd, currentPeriodEnd: trialEnd });
  // The owner's hash, so the second person signs in with the same password.
  const hash = deps.db.select({ password: users.password }).from(users).all()[0].password;
  deps.db
    .insert(users)
    .values({ ...member, password: hash, companyId: signup.companyId, emailVerifiedAt: new Date().toISOString() })
    .run();
  const signedIn = (await (await request('POST', '/api/login', { body: { email: member.email, password: PASSWORD } })).json()) as {
    authToken: string;
    id: number;
  };
  await request('PUT', '/api/company', { token: signup.authToken, body: { phone: '0161 496 0000' } });
  await request('PUT', '/api/booking-settings', { token: signup.authToken, body: { offerBooking: true } });
  return { request, companyId: signup.companyId, ownerToken: signup.authToken, memberId: signedIn.id, memberToken: signedIn.authToken };
}
