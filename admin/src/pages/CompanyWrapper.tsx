// docs/product.md §2 "Combined wrapper page". With a company slug and its data it is just the customer
// quote form; otherwise (the operator's /preview) a top bar toggles between the quote form and
// the Driver Portal settings, above a footer with the company's details.
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Truck } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { call, portalApi } from '#shared/api-client';
import { PRODUCT_NAME } from '#shared/constants';
import { privacyPath } from '#shared/privacy';
import { hasDashboardAccess } from '#shared/subscription';
import type { Company, PublicCompany } from '#shared/types';
import { QuoteForm } from '../components/QuoteFormEmbed';
import { Button, Spinner } from '../components/ui';
import { useAuth } from '../lib/auth';
import { cn } from '../lib/cn';
import { COMPANY_KEY } from './dashboard/api';

const DriverPortal = lazy(() => import('./dashboard/DriverPortal').then((m) => ({ default: m.DriverPortal })));

type View = 'quote' | 'portal';

function WrapperFooter({ company }: { company: Company | undefined }) {
  const name = company?.name ?? PRODUCT_NAME;
  return (
    <footer className="mt-12 bg-slate-900 py-8 text-sm text-slate-300">
      <div className="mx-auto grid max-w-4xl gap-4 px-4 sm:grid-cols-2">
        <div>
          <p className="font-semibold text-white">{name}</p>
          <p className="mt-1">{company?.companyDescription ?? 'Fast, reliable vehicle recovery.'}</p>
        </div>
        <ul className="grid gap-1 sm:text-right">
          {company?.phone && (
            <li>
              Phone:{' '}
              <a className="text-white underline" href={`tel:${company.phone}`}>
                {company.phone}
              </a>
            </li>
          )}
          {company?.whatsapp && <li>WhatsApp: {company.whatsapp}</li>}
          {company?.email && (
            <li>
              E-mail:{' '}
              <a className="text-white underline" href={`mailto:${company.email}`}>
                {company.email}
              </a>
            </li>
          )}
        </ul>
        <p className="text-slate-400 sm:col-span-2">
          © {new Date().getFullYear()} {name}. All rights reserved. ·{' '}
          {company?.customSlug ? (
            // The operator's privacy page is served by the server (not this app): a plain link, in a new tab so the preview stays.
            <a className="text-white underline" href={privacyPath(company.customSlug)} target="_blank" rel="noopener">
              Privacy Policy
            </a>
          ) : (
            'Privacy Policy'
          )}{' '}
          · Terms of Service
        </p>
      </div>
    </footer>
  );
}

export function CompanyWrapper({ company }: { company?: PublicCompany }) {
  const { user } = useAuth();
  const [view, setView] = useState<View>('quote');
  // The operator's own company, for the top bar and footer; anonymous visitors have none.
  const ownCompany = useQuery({
    queryKey: COMPANY_KEY,
    queryFn: () => call(portalApi.company.$get),
    enabled: Boolean(user) && !company,
  });

  if (company) return <QuoteForm preview company={company} />;

  const own = ownCompany.data;
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <title>{`${own?.name ?? PRODUCT_NAME} - Preview`}</title>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-4xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <span className="flex items-center gap-3 font-bold">
            {own?.logo ? (
              <img src={own.logo} alt="" className="size-9 rounded-md object-contain" />
            ) : (
              <span className="grid size-9 place-items-center rounded-md bg-brand-600 text-white">
                <Truck className="size-5" aria-hidden="true" />
              </span>
            )}
            {own?.name ?? PRODUCT_NAME}
          </span>
          {/* biome-ignore lint/a11y/useSemanticElements: a fieldset's default min-inline-size (min-content) breaks this flex/grid layout on a phone; role=group is the same to assistive technology */}
          <div role="group" aria-label="View" className="inline-flex rounded-lg bg-slate-200/70 p-1">
            {(
              [
                ['quote', 'Get Quote'],
                ['portal', 'Driver Portal'],
              ] as const
            ).map(([value, label]) => (
              <button
                key={value}
                type="button"
                aria-pressed={view === value}
                onClick={() => setView(value)}
                className={cn(
                  'rounded-md px-3 py-1.5 text-sm font-medium',
                  view === value ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-700 hover:text-slate-900',
                )}
              >
                {label}
              </button>
            ))}
          </div>
        </div>
      </header>
      {view === 'quote' ? (
        <main className="mx-auto w-full max-w-4xl flex-1 px-4 py-8">
          <h1 className="sr-only">Quote preview</h1>
          <QuoteForm preview />
        </main>
      ) : user && !hasDashboardAccess(user.subscriptionStatus) ? (
        // The same rule as /dashboard's guard (docs/product.md §2): no portal without a running subscription.
        <main className="mx-auto grid w-full max-w-md flex-1 content-start gap-4 px-4 py-16 text-center">
          <h1 className="text-xl font-bold">Start your free trial to manage your settings</h1>
          <p className="text-slate-700">The Driver Portal opens once your free trial or subscription is active.</p>
          <Button asChild>
            <Link to="/subscription">Go to Subscription</Link>
          </Button>
        </main>
      ) : user ? (
        <div className="flex-1">
          <Suspense fallback={<Spinner label="Loading the Driver Portal" className="m-8" />}>
            <DriverPortal />
          </Suspense>
        </div>
      ) : (
        <main className="mx-auto grid w-full max-w-md flex-1 content-start gap-4 px-4 py-16 text-center">
          <h1 className="text-xl font-bold">Sign in to manage your settings</h1>
          <p className="text-slate-700">The Driver Portal is where you set your rates, charges, branding and contact details.</p>
          <Button asChild>
            <Link to="/auth-page?mode=signin">Sign In</Link>
          </Button>
        </main>
      )}
      <WrapperFooter company={own} />
    </div>
  );
}
