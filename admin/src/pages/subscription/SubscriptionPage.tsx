// /subscription (docs/product.md §2 Subscription page): the plan, its status and dates, billing portal,
// cancel (through the portal) and reactivate; or, without a subscription, the start-trial card.
import { useEffect, useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useNavigate } from 'react-router';
import { ArrowLeft, CalendarDays, CircleCheck, Clock, CreditCard, ExternalLink, LifeBuoy, RotateCcw, Sparkles, TriangleAlert, XCircle } from 'lucide-react';
import { ApiRequestError } from '#shared/api-client';
import { PLAN_PRICE_PENCE, PRODUCT_NAME, SUPPORT_REPLY_HOURS, TRIAL_DAYS } from '#shared/constants';
import { statusBadge, statusRules } from '#shared/subscription';
import { SUPPORT_EMAIL } from '../../lib/support-email';
import { formatLongDate, formatPence } from '#shared/money';
import type { CurrentUser, SubscriptionDetails } from '#shared/types';
import { PortalShell } from '../../components/PortalShell';
import { PausedPageNotice } from '../../components/PausedPageNotice';
import { COMPANY_KEY } from '../dashboard/api';
import { toast } from '../../components/toast';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  FullPageSpinner,
  Spinner,
  statusTone,
} from '../../components/ui';
import { AUTH_QUERY_KEY, useAuth } from '../../lib/auth';
import { fetchSubscriptionDetails, openBillingPortal, reactivateSubscription, startCheckout, SUBSCRIPTION_DETAILS_KEY } from './billing-actions';
import { accessEndDate, checkoutRequest, dayCount, daysLeft, showsManagement, trialProgressPercent } from './subscription-view';

const PLAN_LINE = `${PRODUCT_NAME} Pro - £${PLAN_PRICE_PENCE / 100}/month`;
const MONTHLY = `£${PLAN_PRICE_PENCE / 100}/month`;

const TRIAL_FEATURES = [
  'Professional quote generation',
  'Custom branding & white-label',
  'Service area mapping',
  'Pricing configuration',
  'Customer communication',
] as const;

const longDate = (iso: string | null) => (iso ? formatLongDate(iso) : 'not set');
const errorText = (error: Error) => (error instanceof ApiRequestError ? error.serverMessage : error.message);
/** docs/product.md §8: the server's error text, else this; never the browser's own "Failed to fetch". */
const LOAD_FAILED = 'Unable to load subscription details';

/** "Update Payment Details" and the cancel confirmation both go to the billing portal. */
function usePortal() {
  const [opening, setOpening] = useState(false);
  // Not a mutation: the new tab must open inside the click itself (see openBillingPortal).
  const open = () => {
    setOpening(true);
    openBillingPortal()
      .catch((error: Error) => toast({ title: 'Unable to open billing portal', description: errorText(error), variant: 'destructive' }))
      .finally(() => setOpening(false));
  };
  return { open, opening };
}

export default function SubscriptionPage() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <FullPageSpinner />;
  if (!user) return <Navigate to="/" replace />;
  return (
    <PortalShell>
      <title>{`Subscription - ${PRODUCT_NAME}`}</title>
      <SubscriptionContent user={user} />
    </PortalShell>
  );
}

function SubscriptionContent({ user }: { user: CurrentUser }) {
  // Refetched on focus, unlike other reads: cancelling happens in the portal's tab.
  const details = useQuery({ queryKey: SUBSCRIPTION_DETAILS_KEY, queryFn: fetchSubscriptionDetails, refetchOnWindowFocus: true, staleTime: 0 });
  const queryClient = useQueryClient();
  const { refetch } = details;
  useEffect(() => {
    // The query library refetches when the tab becomes visible again, but the billing portal may
    // open in another window, or the operator may come back without this tab ever being hidden:
    // coming back to this window (focus), or to this page from the history (pageshow), reads the
    // status again, so a cancellation shows without a reload.
    const readAgain = () => void refetch();
    window.addEventListener('focus', readAgain);
    window.addEventListener('pageshow', readAgain);
    return () => {
      window.removeEventListener('focus', readAgain);
      window.removeEventListener('pageshow', readAgain);
    };
  }, [refetch]);
  const freshStatus = details.data?.status;
  useEffect(() => {
    // The signed-in user is cached without refetching, and the dashboard's guard reads it: a
    // payment fixed in the portal's tab must not leave "Back to Driver Portal" bouncing back here.
    if (freshStatus && freshStatus !== user.subscriptionStatus) {
      queryClient.setQueryData<CurrentUser | null>(AUTH_QUERY_KEY, (cached) => (cached ? { ...cached, subscriptionStatus: freshStatus } : cached));
      // Whether the company's page quotes follows the subscription (the paused notice).
      void queryClient.invalidateQueries({ queryKey: COMPANY_KEY });
    }
  }, [freshStatus, user.subscriptionStatus, queryClient]);

  if (details.isPending) {
    return (
      <main className="flex justify-center p-12">
        <Spinner label="Loading subscription details" />
      </main>
    );
  }
  if (details.isError || details.data?.error) {
    const message = details.isError ? (details.error instanceof ApiRequestError ? details.error.serverMessage : LOAD_FAILED) : details.data?.error;
    return (
      <CenteredMessage icon={<TriangleAlert className="size-10 text-red-700" aria-hidden="true" />} title="Something went wrong">
        <p role="alert" className="text-slate-700">
          {message || LOAD_FAILED}
        </p>
        <Button onClick={() => window.location.reload()}>Try Again</Button>
      </CenteredMessage>
    );
  }
  if (!details.data) {
    return (
      <CenteredMessage icon={<CreditCard className="size-10 text-slate-500" aria-hidden="true" />} title="No Subscription Data">
        <p className="text-slate-700">We could not find any subscription information for your account.</p>
        <Button onClick={() => window.location.reload()}>Reload Page</Button>
      </CenteredMessage>
    );
  }
  return showsManagement(user.subscriptionStatus, details.data.status) ? (
    <SubscriptionManagement details={details.data} />
  ) : (
    <StartTrial user={user} status={details.data.status} />
  );
}

function CenteredMessage({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <main className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-16 text-center">
      {icon}
      <h1 className="text-2xl font-bold">{title}</h1>
      {children}
    </main>
  );
}

function SubscriptionManagement({ details }: { details: SubscriptionDetails }) {
  const { status } = details;
  const portal = usePortal();
  const navigate = useNavigate();
  return (
    <main className="mx-auto grid max-w-3xl gap-6 px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Subscription Management</h1>
          <p className="text-slate-600">Your {PRODUCT_NAME} plan and billing.</p>
        </div>
        <Button variant="outline" onClick={() => void navigate('/dashboard')}>
          <ArrowLeft aria-hidden="true" /> Back to Driver Portal
        </Button>
      </div>
      <PausedPageNotice variant="inline" />

      <Card>
        <CardHeader>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <CardTitle>Current Plan</CardTitle>
            <Badge tone={statusTone(status)}>{statusBadge(status)}</Badge>
          </div>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div>
            <p className="text-lg font-semibold">{status === 'inactive' ? 'No Active Plan' : PLAN_LINE}</p>
            <p className="text-sm text-slate-600">
              Account: <span className="font-medium text-slate-900">{details.email}</span>
            </p>
          </div>
          <PlanStatusPanel details={details} now={new Date()} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Payment & Billing</CardTitle>
          <CardDescription>Update your card and see your invoices in the secure billing portal.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="outline" onClick={portal.open} disabled={portal.opening}>
            <ExternalLink aria-hidden="true" /> {portal.opening ? 'Opening billing portal...' : 'Update Payment Details'}
          </Button>
        </CardContent>
      </Card>

      {statusRules(status).cancellable && <CancelCard details={details} portal={portal} />}
      {statusRules(status).reactivatable && <ReactivateCard details={details} />}

      <Card>
        <CardHeader>
          <CardTitle>Need Help?</CardTitle>
          <CardDescription>
            Questions about billing or your plan? Email{' '}
            <a className="font-medium text-brand-700 underline" href={`mailto:${SUPPORT_EMAIL}`}>
              {SUPPORT_EMAIL}
            </a>
            . We typically respond within {SUPPORT_REPLY_HOURS} hours.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="outline" onClick={() => void navigate('/contact')}>
            <LifeBuoy aria-hidden="true" /> Contact Us
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}

/** The status panel of docs/product.md §2: days left, dates and amounts for each status. */
function PlanStatusPanel({ details, now }: { details: SubscriptionDetails; now: Date }) {
  const panel = 'grid gap-2 rounded-lg border p-4';
  switch (details.status) {
    case 'trialing': {
      const left = daysLeft(details.trialEnd, now);
      const used = trialProgressPercent(details.trialEnd, now);
      return (
        <section aria-label="Free trial" className={`${panel} border-brand-100 bg-brand-50`}>
          <p className="flex items-center gap-2 font-semibold">
            <Clock className="size-4 text-brand-700" aria-hidden="true" /> Free Trial: {dayCount(left)} left
          </p>
          <p className="text-sm text-slate-700">Trial ends on {longDate(details.trialEnd)}</p>
          <div
            role="progressbar"
            aria-label="Trial used"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={used}
            aria-valuetext={`${dayCount(left)} of ${TRIAL_DAYS} left`}
            className="h-2 overflow-hidden rounded-full bg-white"
          >
            <div className="h-full rounded-full bg-brand-600" style={{ width: `${used}%` }} />
          </div>
          <p className="text-sm text-slate-700">After your trial, your subscription continues at {MONTHLY}.</p>
        </section>
      );
    }
    case 'active': {
      const left = daysLeft(details.currentPeriodEnd, now);
      return (
        <section aria-label="Next payment" className={`${panel} border-green-200 bg-green-50`}>
          <p className="flex items-center gap-2 font-semibold">
            <CalendarDays className="size-4 text-green-800" aria-hidden="true" /> Next Payment Due
          </p>
          <p className="text-sm text-slate-700">
            {longDate(details.currentPeriodEnd)} ({dayCount(left)} from now)
          </p>
          <p className="text-sm text-slate-700">
            Amount: <span className="font-semibold text-slate-900">{formatPence(PLAN_PRICE_PENCE)}</span>
          </p>
        </section>
      );
    }
    case 'cancelled': {
      const left = daysLeft(details.currentPeriodEnd, now);
      return (
        <section aria-label="Cancellation" className={`${panel} border-amber-200 bg-amber-50`}>
          <p className="flex items-center gap-2 font-semibold">
            <XCircle className="size-4 text-amber-800" aria-hidden="true" /> Subscription Cancelled
          </p>
          <p className="text-sm text-slate-700">
            Your access continues until {longDate(details.currentPeriodEnd)} ({dayCount(left)} left).
          </p>
          <p className="text-sm text-slate-700">You can reactivate your subscription any time before then.</p>
        </section>
      );
    }
    default:
      return (
        <section aria-label="No subscription" className={`${panel} border-slate-200 bg-slate-50`}>
          <p className="font-semibold">No Active Subscription</p>
          <p className="text-sm text-slate-700">Start your free trial to use the Driver Portal and your quote page.</p>
          <div>
            <Button asChild size="sm">
              {/* A full load: the signed-in user's cached status may still claim a subscription. */}
              <Link to="/subscription" reloadDocument>
                Start Free Trial
              </Link>
            </Button>
          </div>
        </section>
      );
  }
}

function CancelCard({ details, portal }: { details: SubscriptionDetails; portal: ReturnType<typeof usePortal> }) {
  const [confirming, setConfirming] = useState(false);
  const endsOn = longDate(accessEndDate(details));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Cancel Subscription</CardTitle>
        <CardDescription>
          You can cancel any time. You keep access until the end of your current {details.status === 'active' ? 'billing period' : 'trial'}.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="outline" className="border-red-300 text-red-800 hover:bg-red-50" onClick={() => setConfirming(true)}>
          <XCircle aria-hidden="true" /> Cancel Subscription
        </Button>
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title="Cancel Your Subscription?"
          description={
            <div className="grid gap-2">
              <p>
                You will keep access to all features until <strong>{endsOn}</strong>. After that, your Driver Portal and your customer quote page stop working.
              </p>
              <p>The cancellation is completed in the secure billing portal, which opens in a new tab.</p>
            </div>
          }
          cancelLabel="Keep My Subscription"
          confirmLabel="Yes, Cancel Subscription"
          destructive
          pending={portal.opening}
          onConfirm={() => {
            portal.open();
            setConfirming(false);
          }}
        />
      </CardContent>
    </Card>
  );
}

function ReactivateCard({ details }: { details: SubscriptionDetails }) {
  const queryClient = useQueryClient();
  const reactivate = useMutation({
    mutationFn: reactivateSubscription,
    onSuccess: async () => {
      toast({ title: 'Subscription reactivated', description: 'Your subscription has been reactivated and will continue as normal.' });
      await Promise.all([queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_DETAILS_KEY }), queryClient.invalidateQueries({ queryKey: AUTH_QUERY_KEY })]);
    },
    onError: () => toast({ title: 'Reactivation failed', description: 'Unable to reactivate subscription. Please try again.', variant: 'destructive' }),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Reactivate Subscription</CardTitle>
        <CardDescription>Changed your mind? Reactivate before {longDate(details.currentPeriodEnd)} and your subscription continues as normal.</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="success" onClick={() => reactivate.mutate()} disabled={reactivate.isPending}>
          <RotateCcw aria-hidden="true" /> {reactivate.isPending ? 'Reactivating...' : 'Reactivate Subscription'}
        </Button>
      </CardContent>
    </Card>
  );
}

function StartTrial({ user, status }: { user: CurrentUser; status: string }) {
  const portal = usePortal();
  const start = useMutation({
    mutationFn: () => startCheckout(checkoutRequest(user)),
    onError: () => toast({ title: 'Payment Setup Failed', description: 'Unable to start payment process. Please try again.', variant: 'destructive' }),
  });
  // Success leaves the page for checkout: stay busy until the browser has gone.
  const busy = start.isPending || start.isSuccess;
  // One free trial per account: a returning customer is offered the plan itself.
  const returning = !user.trialAvailable;
  return (
    <main className="mx-auto grid max-w-xl gap-6 px-4 py-8 sm:px-6">
      <PausedPageNotice variant="inline" />
      {status === 'past_due' && (
        <div role="alert" className="grid gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4">
          <p className="font-semibold">Your last payment failed</p>
          <p className="text-sm text-slate-700">Update your payment details to restore access to the Driver Portal and your quote page.</p>
          <div>
            <Button variant="outline" size="sm" onClick={portal.open} disabled={portal.opening}>
              <ExternalLink aria-hidden="true" /> Update Payment Details
            </Button>
          </div>
        </div>
      )}
      <Card>
        <CardHeader className="text-center">
          <Sparkles className="mx-auto size-10 text-brand-600" aria-hidden="true" />
          <h1 className="text-2xl font-bold">{returning ? 'Welcome Back' : 'Start Your Free Trial'}</h1>
          <CardDescription>
            {returning
              ? `${PRODUCT_NAME} Pro: pick up where you left off. Your free trial has been used, so your subscription starts today at ${MONTHLY}.`
              : `${PRODUCT_NAME} Pro: everything you need to quote recovery jobs instantly. ${MONTHLY} after your ${TRIAL_DAYS}-day free trial.`}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <div>
            <h2 className="mb-2 text-sm font-semibold text-slate-900">Included features</h2>
            <ul className="grid gap-2">
              {TRIAL_FEATURES.map((feature) => (
                <li key={feature} className="flex items-center gap-2 text-slate-800">
                  <CircleCheck className="size-4 shrink-0 text-green-700" aria-hidden="true" /> {feature}
                </li>
              ))}
            </ul>
          </div>
          <Button size="lg" onClick={() => start.mutate()} disabled={busy}>
            {busy ? 'Setting up payment...' : returning ? 'Subscribe' : 'Start 3-Day Free Trial'}
          </Button>
          <p className="text-center text-sm text-slate-600">
            {returning ? '£20/month from today • No trial this time • Cancel anytime' : '3-day free trial • £20/month after trial • Cancel anytime'}
          </p>
        </CardContent>
      </Card>
    </main>
  );
}
