// /subscription-test (docs/product.md §2 Subscription test page): a developer page showing how billing
// is set up, the billing endpoints, and buttons that start a trial or manage a subscription
// with sample data.
import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { FlaskConical } from 'lucide-react';
import { pathOf, portalApi } from '#shared/api-client';
import { PRODUCT_NAME } from '#shared/constants';
import { formatPounds } from '#shared/money';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Input, Spinner } from '../../components/ui';
import { BILLING_CONFIG_KEY, fetchBillingConfig, startCheckout, type BillingConfig } from './billing-actions';

const BILLING_ENDPOINTS = [
  { method: 'GET', path: pathOf(portalApi.billing.config), purpose: 'Billing mode and plan (this page)' },
  { method: 'POST', path: pathOf(portalApi['create-checkout-session']), purpose: 'Start checkout for the free trial' },
  { method: 'POST', path: pathOf(portalApi['process-checkout-success']), purpose: 'Confirm the checkout and sign in' },
  { method: 'GET', path: pathOf(portalApi['subscription-details']), purpose: 'Status and dates of the signed-in operator' },
  { method: 'POST', path: pathOf(portalApi['reactivate-subscription']), purpose: 'Undo a cancellation before it takes effect' },
  { method: 'POST', path: pathOf(portalApi['customer-portal']), purpose: 'Open the billing portal' },
  { method: 'POST', path: pathOf(portalApi.webhook), purpose: 'Stripe events (Stripe mode only)' },
] as const;

const SAMPLE = { email: 'test@example.com', name: 'Test User' };

const MODE_TEXT: Record<BillingConfig['mode'], string> = {
  local: 'Local: checkout and billing portal are pages of this app. No card is needed and nothing is charged.',
  stripe: 'Stripe: checkout, billing portal and webhooks run through Stripe.',
};

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 border-b border-slate-100 py-2 last:border-0">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-right font-medium">{children}</dd>
    </div>
  );
}

export default function SubscriptionTestPage() {
  const config = useQuery({ queryKey: BILLING_CONFIG_KEY, queryFn: fetchBillingConfig });
  const [email, setEmail] = useState(SAMPLE.email);
  const [name, setName] = useState(SAMPLE.name);
  const [starting, setStarting] = useState(false);

  async function startTrial() {
    if (!email.trim() || !name.trim()) {
      window.alert('Please provide email and name for subscription');
      return;
    }
    setStarting(true);
    try {
      await startCheckout({ email: email.trim(), name: name.trim(), companyName: `${name.trim()} Recovery`, prefilled_email: email.trim() });
    } catch {
      window.alert('Failed to create checkout session');
      setStarting(false);
    }
  }

  return (
    <main className="mx-auto grid max-w-3xl gap-6 px-4 py-8 sm:px-6">
      <title>{`Subscription Test - ${PRODUCT_NAME}`}</title>
      <div className="flex items-center gap-3">
        <FlaskConical className="size-8 text-brand-600" aria-hidden="true" />
        <div>
          <h1 className="text-2xl font-bold">Subscription Test</h1>
          <p className="text-slate-600">Developer page for trying the billing flow.</p>
        </div>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Billing Mode</CardTitle>
        </CardHeader>
        <CardContent>
          {config.isPending && <Spinner label="Loading billing configuration" />}
          {config.isError && (
            <p role="alert" className="text-red-800">
              Unable to load the billing configuration.
            </p>
          )}
          {config.data && (
            <p>
              <span className="mr-2 rounded bg-slate-100 px-2 py-0.5 font-mono text-sm">{config.data.mode}</span>
              {MODE_TEXT[config.data.mode]}
            </p>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Product Configuration</CardTitle>
        </CardHeader>
        <CardContent>
          {config.data && (
            <dl>
              <Row label="Plan">{config.data.product}</Row>
              <Row label="Price">
                {formatPounds(config.data.priceGbp)} per {config.data.interval}
              </Row>
              <Row label="Free trial">{config.data.trialDays} days</Row>
              <Row label="Currency">{config.data.currency}</Row>
            </dl>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Endpoints</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-2">
            {BILLING_ENDPOINTS.map((endpoint) => (
              <li key={endpoint.path} className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <code className="w-12 text-xs font-semibold text-brand-700">{endpoint.method}</code>
                <code className="font-mono text-sm">{endpoint.path}</code>
                <span className="text-sm text-slate-600">{endpoint.purpose}</span>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Try It</CardTitle>
          <CardDescription>
            Starts a checkout for the account you are signed in as (sign in first: the server ignores the email for anyone else). Returning from it in this
            browser starts the trial and signs you in.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Email">
              <Input type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            </Field>
            <Field label="Name">
              <Input value={name} onChange={(e) => setName(e.target.value)} />
            </Field>
          </div>
          <div className="flex flex-wrap gap-3">
            <Button onClick={() => void startTrial()} disabled={starting}>
              {starting ? 'Setting up payment...' : 'Start Free Trial'}
            </Button>
            <Button variant="outline" asChild>
              <Link to="/subscription">Manage Subscription</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </main>
  );
}
