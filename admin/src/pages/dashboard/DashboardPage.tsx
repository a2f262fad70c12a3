// /dashboard: the Driver Portal, and its arrival states (docs/product.md §2 Dashboard states, §4
// Payment return). Coming back from checkout with payment_success=true&session_id=… the page
// exchanges the session for a signed-in account, then reloads on a clean URL.
import { useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import type { Role } from '#shared/roles';
import { TriangleAlert } from 'lucide-react';
import { PortalShell } from '../../components/PortalShell';
import { toast } from '../../components/toast';
import { Button, FullPageSpinner } from '../../components/ui';
import { fetchCurrentUser, MY_JOBS_PATH, storeAuthSession, useAuth } from '../../lib/auth';
import { CHECKOUT_MESSAGES, finalHandling, processCheckoutSession } from '../subscription/processCheckout';
import { DriverPortal } from './DriverPortal';
import { SetupGuide } from '../setup/SetupGuide';
import { useSetupProgress } from '../../lib/setup-progress';

/** docs/product.md §9: how long to wait for a user before showing the authentication error. */
const AUTH_TIMEOUT_MS = 5000;
const REDIRECT_DELAY_MS = 2000;

function usePaymentReturn(): boolean {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { refetch } = useAuth();
  const sessionId = params.get('payment_success') === 'true' ? params.get('session_id') : null;
  const [processing, setProcessing] = useState(Boolean(sessionId));
  const started = useRef(false);

  const returnQuery = params.has('payment_success') || params.has('session_id');
  useEffect(() => {
    // A return query with nothing to exchange (no payment_success=true with a session id): drop
    // it, so the route guard, which lets any such query through, decides on the plain URL.
    if (!sessionId && returnQuery) void navigate('/dashboard', { replace: true });
  }, [sessionId, returnQuery, navigate]);

  useEffect(() => {
    // Once per page load: React's development double-invoke must not post the session twice.
    if (!sessionId || started.current) return;
    started.current = true;
    const toCleanDashboard = () =>
      setTimeout(() => {
        void refetch();
        void navigate('/dashboard', { replace: true });
      }, REDIRECT_DELAY_MS);

    void (async () => {
      const outcome = await processCheckoutSession(sessionId);
      if (outcome.ok) {
        storeAuthSession(outcome.authToken, outcome.user);
        window.history.replaceState(null, '', '/dashboard');
        window.location.reload();
        return;
      }
      const next = finalHandling(outcome.code);
      if (next === 'already-processed') {
        toast({ title: 'Subscription already active', description: 'Taking you to your dashboard...' });
        toCleanDashboard();
      } else if (next === 'check-login' && (await fetchCurrentUser().catch(() => null))) {
        toast({ title: 'Account found', description: 'Your account is ready. Taking you to your dashboard...' });
        toCleanDashboard();
      } else {
        toast({
          title: 'Payment Session Error',
          description: next === 'check-login' ? outcome.message : CHECKOUT_MESSAGES.generic,
          variant: 'destructive',
        });
        // Off the return URL: it would post the dead session again on every reload, and keep the
        // route guard treating this visit as a payment return (the portal without access).
        void navigate('/dashboard', { replace: true });
      }
      setProcessing(false);
    })();
  }, [sessionId, navigate, refetch]);

  return processing;
}

function AuthenticationError() {
  const navigate = useNavigate();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center">
      <title>Authentication Error</title>
      <TriangleAlert className="size-10 text-red-700" aria-hidden="true" />
      <h1 className="text-2xl font-bold">Authentication Error</h1>
      <p className="max-w-md text-slate-700">Unable to authenticate. Please try signing in again.</p>
      <Button onClick={() => void navigate('/')}>Go to Home</Button>
    </main>
  );
}

/** The guided set-up while it is open (from sign-up until the owner leaves or finishes it), else the portal. */
function PortalHome({ userId, role }: { userId: number; role: Role }) {
  const { progress } = useSetupProgress(userId);
  return role === 'owner' && progress?.status === 'open' ? <SetupGuide userId={userId} /> : <DriverPortal userId={userId} role={role} />;
}

export default function DashboardPage() {
  const { user, isLoading } = useAuth();
  const processing = usePaymentReturn();
  const [timedOut, setTimedOut] = useState(false);
  const waitingForUser = !processing && !isLoading && !user;

  useEffect(() => {
    if (!waitingForUser) return;
    const timer = setTimeout(() => setTimedOut(true), AUTH_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [waitingForUser]);

  if (processing) return <FullPageSpinner text="Processing your payment and setting up your account..." />;
  if (isLoading) return <FullPageSpinner text="Loading dashboard..." />;
  if (!user) return timedOut ? <AuthenticationError /> : <FullPageSpinner text="Authenticating..." />;
  // A driver's portal is their jobs (docs/product.md, "The team").
  if (user.role === 'driver') return <Navigate to={MY_JOBS_PATH} replace />;
  return (
    <PortalShell>
      <PortalHome userId={user.id} role={user.role} />
    </PortalShell>
  );
}
