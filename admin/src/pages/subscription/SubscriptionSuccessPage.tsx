// The payment success screen (docs/product.md §2, §4 Payment return, §5, §8): exchanges the checkout
// session id for a signed-in account, welcomes the new operator, then goes to the dashboard.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Calculator, CircleCheck, Palette, PoundSterling, Share2, TriangleAlert } from 'lucide-react';
import { PRODUCT_NAME, TRIAL_DAYS } from '#shared/constants';
import { Button, Card, CardContent, CardHeader, CardTitle, Spinner } from '../../components/ui';
import { AUTH_QUERY_KEY, fetchCurrentUser, readStoredUser, storeAuthSession } from '../../lib/auth';
import { hasStoredToken, processCheckoutSession, settlePaymentReturn, type PaymentReturnResult } from './processCheckout';

const WHATS_NEXT = [
  { icon: Palette, title: 'Configure your branding', text: 'Add your logo, colours and company details to your quote page.' },
  { icon: PoundSterling, title: 'Set your pricing rates', text: 'Call-out fee, mileage, labour and your custom charges.' },
  { icon: Calculator, title: 'Start generating quotes', text: 'Customers get an instant, accurate price for their recovery.' },
  { icon: Share2, title: 'Share your custom quote page', text: 'Send customers your own branded link, or add it to your website.' },
] as const;

function Screen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 bg-slate-50 px-4 py-12 text-center">
      <title>{`${title} - ${PRODUCT_NAME}`}</title>
      {children}
    </main>
  );
}

export default function SubscriptionSuccessPage() {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [result, setResult] = useState<PaymentReturnResult | null>(null);
  const started = useRef(false);
  const sessionId = params.get('session_id');

  useEffect(() => {
    // Once per page load: React's development double-invoke must not post the session twice.
    if (started.current) return;
    started.current = true;
    void settlePaymentReturn(sessionId, {
      process: (id) => processCheckoutSession(id),
      store: (token, user) => {
        storeAuthSession(token, user);
        if (user) queryClient.setQueryData(AUTH_QUERY_KEY, user);
      },
      isSignedIn: async () => {
        const user = await fetchCurrentUser().catch(() => null);
        if (user) queryClient.setQueryData(AUTH_QUERY_KEY, user);
        return user !== null;
      },
      hasStoredSession: () => hasStoredToken() && readStoredUser() !== null,
    }).then((settled) => {
      // The session id has done its work: keep it out of history and bookmarks.
      if (sessionId && settled.kind !== 'error') void navigate(pathname, { replace: true });
      setResult(settled);
    });
  }, [sessionId, pathname, navigate, queryClient]);

  useEffect(() => {
    if (!result || result.kind === 'error') return;
    const timer = setTimeout(() => void navigate('/dashboard', { replace: true }), result.redirectAfterMs);
    return () => clearTimeout(timer);
  }, [result, navigate]);

  if (!result) {
    return (
      <Screen title="Processing Your Subscription...">
        <Spinner label="Processing" className="[&_svg]:size-10" />
        <h1 className="text-2xl font-bold">Processing Your Subscription...</h1>
        <p className="max-w-md text-slate-700">Please wait while we confirm your payment and set up your account.</p>
      </Screen>
    );
  }

  if (result.kind === 'error') {
    return (
      <Screen title="Payment Session Error">
        <TriangleAlert className="size-12 text-red-700" aria-hidden="true" />
        <h1 className="text-2xl font-bold">Payment Session Error</h1>
        <p role="alert" className="max-w-md text-slate-800">
          {result.message}
        </p>
        {result.detail && <p className="max-w-md text-sm text-slate-600">{result.detail}</p>}
        <div className="flex flex-wrap justify-center gap-3">
          <Button variant="outline" asChild>
            <Link to="/">Return to Homepage</Link>
          </Button>
          <Button asChild>
            <Link to="/auth">Try Signup Again</Link>
          </Button>
        </div>
      </Screen>
    );
  }

  if (result.kind === 'account-found') {
    return (
      <Screen title="Account found">
        <CircleCheck className="size-12 text-green-700" aria-hidden="true" />
        <h1 className="text-2xl font-bold">Account found</h1>
        <p role="status" className="max-w-md text-slate-700">
          Your account is ready. Taking you to your Driver Portal...
        </p>
        <Button onClick={() => void navigate('/dashboard')}>Go to Driver Portal</Button>
      </Screen>
    );
  }

  return (
    <Screen title={`Welcome to ${PRODUCT_NAME}!`}>
      <CircleCheck className="size-14 text-green-700" aria-hidden="true" />
      <div className="grid max-w-xl gap-2">
        <h1 className="text-3xl font-bold">Welcome to {PRODUCT_NAME}!</h1>
        <p className="text-slate-700">
          Your {TRIAL_DAYS}-day free trial has started. You won't be charged until it ends, and you can cancel anytime.
          {result.alreadyProcessed && ' Your payment was already confirmed.'}
        </p>
      </div>
      <Card className="w-full max-w-xl text-left">
        <CardHeader>
          <CardTitle>What's Next</CardTitle>
        </CardHeader>
        <CardContent>
          <ol className="grid gap-4">
            {WHATS_NEXT.map(({ icon: Icon, title, text }) => (
              <li key={title} className="flex gap-3">
                <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-brand-50 text-brand-700">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <span>
                  <span className="block font-semibold">{title}</span>
                  <span className="block text-sm text-slate-600">{text}</span>
                </span>
              </li>
            ))}
          </ol>
        </CardContent>
      </Card>
      <Button size="lg" onClick={() => void navigate('/dashboard')}>
        Go to Driver Portal
      </Button>
      <p role="status" className="text-sm text-slate-600">
        Taking you to your Driver Portal in a moment...
      </p>
    </Screen>
  );
}
