// docs/product.md §2 route table. Every screen is its own lazy chunk, so the landing page downloads only
// the landing page (docs/budgets.md). The three subscription screens belong to the billing work
// and are imported by their default export.
import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { ProtectedRoute } from './components/ProtectedRoute';
import { FullPageSpinner } from './components/ui/spinner';
import { prefetchCurrentUser } from './lib/auth';
import { queryClient } from './lib/query';
import { prefetchBoard } from './pages/dashboard/board/api';
import { prefetchJob } from './pages/job/first-read';
import { RootLayout, RouteError } from './RootLayout';

type LazyRoute = NonNullable<RouteObject['lazy']>;

/** A lazy route whose module's default export is the screen. */
const screen =
  (load: () => Promise<{ default: ComponentType }>): LazyRoute =>
  async () => ({
    Component: (await load()).default,
  });

export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: FullPageSpinner,
    children: [
      { path: '/', lazy: screen(() => import('./pages/LandingPage')) },
      { path: '/auth', lazy: screen(() => import('./pages/AuthPage')) },
      { path: '/auth-page', lazy: screen(() => import('./pages/AuthPage')) },
      { path: '/preview', lazy: screen(() => import('./pages/PreviewPage')) },
      { path: '/company/:slug', lazy: screen(() => import('./pages/CompanyPage')) },
      // The motorist's and the driver's job pages (docs/product.md §20): public, named by a token.
      {
        path: '/job/:token',
        // The job's read (and, with a position to show, the map's chunk) starts with the page's chunk, not after it.
        loader: ({ params }) => {
          prefetchJob(params.token ?? '');
          return null;
        },
        lazy: screen(() => import('./pages/job/JobPage')),
      },
      { path: '/driver/:token', lazy: screen(() => import('./pages/job/DriverPage')) },
      // A quote the operator sent a caller (docs/product.md §25): public, named by a token.
      { path: '/q/:token', lazy: screen(() => import('./pages/phone/QuoteLinkPage')) },
      { path: '/subscription-test', lazy: screen(() => import('./pages/subscription/SubscriptionTestPage')) },
      // The pages the account's emailed links open (docs/product.md, Accounts).
      { path: '/verify-email/:token', lazy: screen(() => import('./pages/account/VerifyEmailPage')) },
      { path: '/reset-password/:token', lazy: screen(() => import('./pages/account/ResetPasswordPage')) },
      { path: '/sign-in/:token', lazy: screen(() => import('./pages/account/SignInLinkPage')) },
      // The owner's invitation (docs/product.md, "The team").
      { path: '/join/:token', lazy: screen(() => import('./pages/account/JoinPage')) },
      {
        Component: ProtectedRoute,
        // The guard's read of the signed-in user starts with the page's chunk, not once it has run.
        loader: () => {
          prefetchCurrentUser(queryClient);
          return null;
        },
        children: [
          { path: '/dashboard', lazy: screen(() => import('./pages/dashboard/DashboardPage')) },
          { path: '/dashboard/new-quote', lazy: screen(() => import('./pages/phone/NewQuotePage')) },
          // The board's read starts with its chunk and the signed-in user's, not after both
          // (docs/budgets.md "Dispatch"): the loader does not wait for it.
          {
            path: '/dashboard/board',
            loader: () => {
              prefetchBoard(queryClient);
              return null;
            },
            lazy: screen(() => import('./pages/dashboard/board/BoardPage')),
          },
          { path: '/dashboard/my-jobs', lazy: screen(() => import('./pages/dashboard/my-jobs/MyJobsPage')) },
          { path: '/dashboard/my-jobs/:reference', lazy: screen(() => import('./pages/dashboard/my-jobs/MyJobPage')) },
          { path: '/subscription', lazy: screen(() => import('./pages/subscription/SubscriptionPage')) },
          { path: '/contact', lazy: screen(() => import('./pages/ContactPage')) },
        ],
      },
      { path: '*', lazy: screen(() => import('./pages/NotFoundPage')) },
    ],
  },
];

export const router = createBrowserRouter(routes);
