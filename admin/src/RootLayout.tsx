// The shell around every route: the toaster, and docs/product.md §2's payment-success override (any
// path starting /subscription-success or /subscription/success shows the success screen,
// whatever route would otherwise match).
import { lazy, Suspense } from 'react';
import { Outlet, useLocation, useRouteError } from 'react-router';
import { Toaster } from './components/toast';
import { Button } from './components/ui/button';
import { FullPageSpinner } from './components/ui/spinner';

const SubscriptionSuccessPage = lazy(() => import('./pages/subscription/SubscriptionSuccessPage'));

const isPaymentSuccessPath = (pathname: string): boolean => pathname.startsWith('/subscription-success') || pathname.startsWith('/subscription/success');

export function RootLayout() {
  const { pathname } = useLocation();
  return (
    <>
      {isPaymentSuccessPath(pathname) ? (
        <Suspense fallback={<FullPageSpinner />}>
          <SubscriptionSuccessPage />
        </Suspense>
      ) : (
        <Outlet />
      )}
      <Toaster />
    </>
  );
}

/** Shown when a screen throws or its chunk fails to download (e.g. after a deploy). */
export function RouteError() {
  const error = useRouteError();
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center">
      <title>Something went wrong</title>
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="max-w-md text-slate-700">{message}</p>
      <Button onClick={() => window.location.reload()}>Reload Page</Button>
    </main>
  );
}
