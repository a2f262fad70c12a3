// While the subscription gives no access, the company's page and its embed name it, say "Online quotes
// from … are paused" and quote nothing (docs/product.md §13). The owner is told what their customers
// see and how to resume: a banner across the portal, and the same words on the subscription page,
// where the Subscribe button is.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { CirclePause } from 'lucide-react';
import { call, portalApi } from '#shared/api-client';
import { quotesClosedMessage } from '#shared/share';
import { useAuth } from '../lib/auth';
import { COMPANY_KEY } from '../pages/dashboard/api';

/** The words the company's page shows while paused, or null while it quotes (or is not known yet). */
export function usePausedPageMessage(): string | null {
  const { user } = useAuth();
  const company = useQuery({ queryKey: COMPANY_KEY, queryFn: () => call(portalApi.company.$get), enabled: Boolean(user) });
  return company.data?.onlineQuotes === 'paused' ? quotesClosedMessage(company.data.name, 'paused') : null;
}

/** `banner`: across the top of the portal, linking to Subscribe; `inline`: on the subscription page itself. */
export function PausedPageNotice({ variant }: { variant: 'banner' | 'inline' }) {
  const message = usePausedPageMessage();
  if (!message) return null;
  const words = (
    <p className="flex items-start gap-2">
      <CirclePause className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>
        Your page shows “{message}”: your customers get no price until you resume.{' '}
        {variant === 'banner' ? (
          <Link to="/subscription" className="font-semibold underline">
            Subscribe to resume online quotes
          </Link>
        ) : (
          'Subscribe to resume online quotes.'
        )}
      </span>
    </p>
  );
  return variant === 'banner' ? (
    <section aria-label="Online quotes paused" className="border-b border-amber-200 bg-amber-50">
      <div className="mx-auto max-w-6xl px-4 py-3 text-sm text-amber-950 sm:px-6">{words}</div>
    </section>
  ) : (
    <section aria-label="Online quotes paused" className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950">
      {words}
    </section>
  );
}
