// The signed-in operator as the API shows it (docs/product.md §7): sign-in, sign-up, the checkout return
// and GET /api/auth/user all answer this shape. The subscription shown is the company's: its
// owner's billing state (decision 041), so a dispatcher or driver of a paying company may use the
// portal and one of a lapsed company may not.
import type { CurrentUser } from '#shared/types';
import { effectiveStatus } from '../billing/status';
import { findUserByCompanyId, type UserRow } from './store';
import type { AppDeps } from '../platform/deps';

export function toCurrentUser(user: UserRow, deps: Pick<AppDeps, 'config' | 'now' | 'db'>): CurrentUser {
  const billing = (user.companyId != null && findUserByCompanyId(deps.db, user.companyId)) || user;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    companyId: user.companyId ?? 0,
    role: user.role,
    subscriptionStatus: effectiveStatus(billing, deps.now(), deps.config.billing.mode),
    trialEndsAt: billing.trialEndsAt,
    emailVerified: user.emailVerifiedAt != null,
    trialAvailable: !billing.trialUsed,
  };
}
