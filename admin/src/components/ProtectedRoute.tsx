// docs/product.md §2 protected route rule, as a pure decision (unit-tested) and the component using it.
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { hasDashboardAccess } from '#shared/subscription';
import { useAuth } from '../lib/auth';
import { FullPageSpinner } from './ui/spinner';

/** Coming back from checkout: the dashboard signs the user in itself from the session id. */
/** React Router matches /dashboard/ and /Dashboard too: the rules must see them as the dashboard. */
const isDashboard = (pathname: string) => pathname.replace(/\/+$/, '').toLowerCase() === '/dashboard';
/** The portal's pages, which need the company's subscription: the dashboard and a driver's own jobs. */
const isPortal = (pathname: string) => isDashboard(pathname) || pathname.replace(/\/+$/, '').toLowerCase() === '/dashboard/my-jobs';

function isPostPaymentVisit(pathname: string, search: string): boolean {
  if (!isDashboard(pathname)) return false;
  const query = new URLSearchParams(search);
  return query.get('payment_success') === 'true' || query.has('session_id');
}

export type ProtectedDecision = { kind: 'loading' } | { kind: 'render' } | { kind: 'redirect'; to: '/auth-page' | '/subscription' };

export function decideProtectedRoute(input: {
  isLoading: boolean;
  /** The cached user may come from localStorage: its status is text until checked. */
  user: { subscriptionStatus: string } | null;
  pathname: string;
  search: string;
}): ProtectedDecision {
  if (input.isLoading) return { kind: 'loading' };
  const postPayment = isPostPaymentVisit(input.pathname, input.search);
  if (!input.user) return postPayment ? { kind: 'render' } : { kind: 'redirect', to: '/auth-page' };
  if (isPortal(input.pathname) && !postPayment && !hasDashboardAccess(input.user.subscriptionStatus)) {
    return { kind: 'redirect', to: '/subscription' };
  }
  return { kind: 'render' };
}

export function ProtectedRoute({ children }: { children?: ReactNode }) {
  const { user, isLoading } = useAuth();
  const location = useLocation();
  const decision = decideProtectedRoute({ isLoading, user, pathname: location.pathname, search: location.search });
  // The dashboard's own loading state (docs/product.md §2) shows while the guard waits for the user.
  if (decision.kind === 'loading') return <FullPageSpinner text={isDashboard(location.pathname) ? 'Loading dashboard...' : undefined} />;
  if (decision.kind === 'redirect') {
    // Signing in comes back here (an alert email's link to a quote), see useAuth's login.
    const state = decision.to === '/auth-page' ? { returnTo: `${location.pathname}${location.search}` } : undefined;
    return <Navigate to={decision.to} replace state={state} />;
  }
  return children ?? <Outlet />;
}
