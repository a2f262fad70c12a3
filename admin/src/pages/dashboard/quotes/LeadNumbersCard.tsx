// The figures at the top of the Quotes tab (decision 016): counts, follow-up shares, the
// median total, quotes per day (a chart, its summary and a table) and the top pickup districts;
// and the bookings: how many, the median time to accept, the money taken at booking less refunds,
// and the funnel quotes → bookings → completed.
import { lazy, Suspense, useId } from 'react';
import { formatPounds } from '#shared/money';
import { MONEY_TAKEN_LABEL } from '#shared/payments';
import type { LeadNumbers } from '#shared/types';
import { Card, CardContent, CardHeader, CardTitle, Spinner } from '../../../components/ui';
import { useLeadNumbers } from './api';
import { durationText, formatDay, funnelSteps, percent, perDaySummary } from './format';

const QuotesPerDayChart = lazy(() => import('./QuotesPerDayChart'));

export function LeadNumbersCard() {
  const numbers = useLeadNumbers();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your numbers</CardTitle>
      </CardHeader>
      <CardContent>
        {numbers.isLoading ? (
          <Spinner label="Loading your numbers" />
        ) : numbers.data ? (
          <Figures numbers={numbers.data} />
        ) : (
          <p role="alert" className="text-sm text-red-700">
            Unable to load your numbers. Please reload the page.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/** The review requests sent of the last 30 days' bookings (docs/product.md §20). */
export const REVIEW_REQUESTS_LABEL = 'Review requests sent (30 days)';

function Figures({ numbers }: { numbers: LeadNumbers }) {
  const chartTitle = useId();
  const stats = [
    { label: 'Quotes today', value: String(numbers.today) },
    { label: 'Last 7 days', value: String(numbers.last7Days) },
    { label: 'Last 30 days', value: String(numbers.last30Days) },
    { label: 'Contacted', value: percent(numbers.contactedShare) },
    { label: 'Won', value: percent(numbers.wonShare) },
    { label: 'Median quote', value: numbers.medianTotal === null ? '–' : formatPounds(numbers.medianTotal) },
    { label: 'Bookings', value: String(numbers.bookings) },
    { label: 'Median time to accept', value: numbers.medianAcceptanceSeconds === null ? '–' : durationText(numbers.medianAcceptanceSeconds) },
    { label: MONEY_TAKEN_LABEL, value: formatPounds(numbers.moneyTaken) },
    // Phone jobs counted apart from web ones (docs/product.md §25).
    { label: 'Phone quotes (30 days)', value: String(numbers.phoneQuotes) },
    { label: 'Phone bookings (30 days)', value: String(numbers.phoneBookings) },
    { label: REVIEW_REQUESTS_LABEL, value: String(numbers.reviewRequests) },
  ];
  return (
    <div className="grid gap-6">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {stats.map((stat) => (
          <div key={stat.label} className="rounded-lg bg-slate-50 p-3">
            <dt className="text-xs font-medium text-slate-600">{stat.label}</dt>
            <dd className="text-xl font-semibold tabular-nums">{stat.value}</dd>
          </div>
        ))}
      </dl>
      <p className="-mt-3 text-xs text-slate-600">Shares, medians, bookings and money taken are of the last 30 days.</p>
      <section aria-labelledby={`${chartTitle}-funnel`} className="grid gap-2">
        <h3 id={`${chartTitle}-funnel`} className="text-sm font-semibold">
          From quote to job, last 30 days
        </h3>
        <ol className="flex flex-wrap items-center gap-2 text-sm">
          {funnelSteps(numbers).map((step, i) => (
            <li key={step.label} className="flex items-center gap-2">
              {i > 0 && <span aria-hidden="true">→</span>}
              <span className="rounded bg-slate-50 px-3 py-1.5">
                <span className="font-semibold tabular-nums">{step.count}</span> {step.label}
                {step.share !== null && <span className="text-slate-700"> ({step.share})</span>}
              </span>
            </li>
          ))}
        </ol>
      </section>

      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <figure aria-labelledby={chartTitle} className="grid gap-2">
          <figcaption id={chartTitle} className="text-sm font-semibold">
            Quotes per day, last 30 days
          </figcaption>
          <p className="text-sm text-slate-700">{perDaySummary(numbers.perDay)}</p>
          <div aria-hidden="true" className="h-48">
            <Suspense fallback={null}>
              <QuotesPerDayChart perDay={numbers.perDay} />
            </Suspense>
          </div>
          <details className="text-sm">
            <summary className="cursor-pointer text-brand-700 underline-offset-2 hover:underline">Show as a table</summary>
            <table className="mt-2 w-full max-w-xs text-left">
              <caption className="sr-only">Quotes per day, last 30 days</caption>
              <thead>
                <tr>
                  <th scope="col" className="py-1 font-medium">
                    Day
                  </th>
                  <th scope="col" className="py-1 text-right font-medium">
                    Quotes
                  </th>
                </tr>
              </thead>
              <tbody>
                {numbers.perDay.map((day) => (
                  <tr key={day.date} className="border-t border-slate-200">
                    <td className="py-1">{formatDay(day.date)}</td>
                    <td className="py-1 text-right tabular-nums">{day.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </figure>
        <section aria-labelledby={`${chartTitle}-districts`} className="grid content-start gap-2">
          <h3 id={`${chartTitle}-districts`} className="text-sm font-semibold">
            Top pickup districts
          </h3>
          {numbers.topDistricts.length === 0 ? (
            <p className="text-sm text-slate-700">None in the last 30 days.</p>
          ) : (
            <ol className="grid gap-1 text-sm">
              {numbers.topDistricts.map((district) => (
                <li key={district.district} className="flex justify-between gap-4 rounded bg-slate-50 px-3 py-1.5">
                  <span className="font-medium">{district.district}</span>
                  <span className="tabular-nums text-slate-700">
                    {district.count} {district.count === 1 ? 'quote' : 'quotes'}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </div>
  );
}
