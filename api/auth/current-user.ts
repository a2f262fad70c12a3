// The signed-in operator as the API shows it (docs/product.md §7): sign-in, sign-up, the checkout return
// and GET /api/auth/user all answer this shape.
import type { CurrentUser } from '#shared/types';
import { effectiveStatus } from '../billing/status';
import type { UserRow } from './store';
import type { AppDeps } from '../platform/deps';

export function toCurrentUser(user: UserRow, deps: Pick<AppDeps, 'config' | 'now'>): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    companyId: user.companyId ?? 0,
    role: user.role,
    subscriptionStatus: effectiveStatus(user, deps.now(), deps.config.billing.mode),
    trialEndsAt: user.trialEndsAt,
    emailVerified: user.emailVerifiedAt != null,
    trialAvailable: !user.trialUsed,
  };
}
