// The Driver Portal's Quotes tab (decision 016): the jobs booked from quotes first (../jobs), then
// the numbers, the inbox of stored quotes with find-by-reference, filters and export, and the
// alert, booking and payment settings. Loaded only when the tab opens (DriverPortal), so the portal's first load
// carries none of it. The open quote lives in the URL (`?tab=quotes&quote={reference}`), which
// is where the alert emails link.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Download, Phone, RefreshCw, Search } from 'lucide-react';
import { ApiRequestError } from '#shared/api-client';
import { readReference } from '#shared/leads';
import { REFERENCE_LENGTH } from '#shared/reference';
import { formatPounds } from '#shared/money';
import { leadFilterSchema } from '#shared/schemas';
import type { Lead } from '#shared/types';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Input, Label, Select, Spinner } from '../../../components/ui';
import { fieldMessages } from '#shared/field-messages';
import { errorText } from '../api';
import { BookingSettingsCard } from '../jobs/BookingSettingsCard';
import { InvoiceSettingsCard } from '../jobs/InvoiceSettingsCard';
import { ProofSettingsCard } from '../jobs/ProofSettingsCard';
import { JobsCard } from '../jobs/JobsCard';
import { PaymentsCard } from '../payments/PaymentsCard';
import { AlertSettingsCard } from './AlertSettingsCard';
import { exportHref, fetchLead, NO_FILTERS, refreshInbox, useLeadPages, type LeadFilters } from './api';
import { contactText, formatDateTime, routeText, vehicleText, whenText } from './format';
import { LeadDetailDialog } from './LeadDetailDialog';
import { LeadNumbersCard } from './LeadNumbersCard';
import { StatusBadge, StatusOptions } from './StatusBadge';

export default function QuotesTab() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('quote');
  const reference = requested === null ? null : readReference(requested);

  // Replacing, not pushing: Back leaves the portal rather than stepping through opened quotes.
  const openQuote = (found: string) =>
    setParams(
      (current) => {
        current.set('tab', 'quotes');
        current.set('quote', found);
        return current;
      },
      { replace: true },
    );
  const closeQuote = () =>
    setParams(
      (current) => {
        current.delete('quote');
        return current;
      },
      { replace: true },
    );

  return (
    <div className="grid gap-6">
      <JobsCard />
      <LeadNumbersCard />
      <Inbox onOpen={openQuote} />
      <AlertSettingsCard />
      <BookingSettingsCard />
      <PaymentsCard />
      <InvoiceSettingsCard />
      <ProofSettingsCard />
      <LeadDetailDialog requested={requested} reference={reference} onClose={closeQuote} />
    </div>
  );
}

function Inbox({ onOpen }: { onOpen: (reference: string) => void }) {
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<LeadFilters>(NO_FILTERS);
  const filtered = Object.values(filters).some(Boolean);
  // Checked as the server will check them, so a bad range is said here and never sent.
  const checked = leadFilterSchema.safeParse(Object.fromEntries(Object.entries(filters).filter(([, value]) => value)));
  const filterErrors = checked.success ? {} : fieldMessages(checked.error.issues);
  const pages = useLeadPages(filters, checked.success);
  const quotes = pages.data?.pages.flatMap((page) => page.quotes) ?? [];
  const setFilter = (name: keyof LeadFilters) => (value: string) => setFilters((current) => ({ ...current, [name]: value }));
  const list = useRef<HTMLUListElement>(null);
  // Keyboard focus moves on to the first quote loaded, rather than staying on (or, after the last
  // page, losing) the button: the index of that quote, until it is shown.
  const focusOnArrival = useRef<number | null>(null);
  useEffect(() => {
    const index = focusOnArrival.current;
    if (index === null || quotes.length <= index) return;
    focusOnArrival.current = null;
    list.current?.querySelectorAll('button')[index]?.focus();
  }, [quotes.length]);

  const loadMore = () => {
    focusOnArrival.current = quotes.length;
    void pages.fetchNextPage();
  };

  return (
    <Card>
      <CardHeader className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>Quotes</CardTitle>
          <CardDescription>Every quote your customers got, newest first. Open one to see its lines and follow it up.</CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={() => void refreshInbox(queryClient)} disabled={pages.isFetching}>
            <RefreshCw aria-hidden="true" /> Refresh
          </Button>
          {checked.success ? (
            <Button asChild variant="outline" size="sm">
              <a href={exportHref(filters)} download>
                <Download aria-hidden="true" /> Download CSV
              </a>
            </Button>
          ) : (
            <Button variant="outline" size="sm" disabled>
              <Download aria-hidden="true" /> Download CSV
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent className="grid gap-5">
        <FindByReference onFound={onOpen} />

        <fieldset className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <legend className="sr-only">Filters</legend>
          <Field label="From" error={filterErrors.from}>
            <Input type="date" value={filters.from} onChange={(event) => setFilter('from')(event.target.value)} />
          </Field>
          <Field label="To" error={filterErrors.to}>
            <Input type="date" value={filters.to} onChange={(event) => setFilter('to')(event.target.value)} />
          </Field>
          <Field label="Status" error={filterErrors.status}>
            <Select value={filters.status} onChange={(event) => setFilter('status')(event.target.value)}>
              <option value="">All statuses</option>
              <StatusOptions />
            </Select>
          </Field>
          <Field label="Urgency" error={filterErrors.urgency}>
            <Select value={filters.urgency} onChange={(event) => setFilter('urgency')(event.target.value)}>
              <option value="">Now and scheduled</option>
              <option value="immediate">Now</option>
              <option value="later">Scheduled</option>
            </Select>
          </Field>
        </fieldset>

        {!checked.success ? null : pages.isLoading ? (
          <Spinner label="Loading your quotes" />
        ) : pages.isError ? (
          <p role="alert" className="text-sm text-red-700">
            Unable to load your quotes: {errorText(pages.error)}
          </p>
        ) : quotes.length === 0 ? (
          <div className="grid justify-items-start gap-2 rounded-lg border border-dashed border-slate-300 p-6 text-sm text-slate-700">
            {filtered ? (
              <>
                <p>No quotes match these filters.</p>
                <Button variant="outline" size="sm" onClick={() => setFilters(NO_FILTERS)}>
                  Clear filters
                </Button>
              </>
            ) : (
              <p>No quotes yet. Quotes your customers get on your quote page or website appear here.</p>
            )}
          </div>
        ) : (
          <>
            <ul ref={list} aria-label="Quotes" className="divide-y divide-slate-200 border-y border-slate-200">
              {quotes.map((lead) => (
                <LeadRow key={lead.reference} lead={lead} onOpen={onOpen} />
              ))}
            </ul>
            {pages.hasNextPage && (
              <Button variant="outline" className="justify-self-center" onClick={loadMore} disabled={pages.isFetchingNextPage}>
                {pages.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function FindByReference({ onFound }: { onFound: (reference: string) => void }) {
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const [message, setMessage] = useState('');
  const [searching, setSearching] = useState(false);
  const inputId = useId();

  const find = async (text: string) => {
    const reference = readReference(text);
    if (!reference) {
      setMessage('Enter a quote reference, such as TQ-4XD8HBZSR7');
      return;
    }
    setSearching(true);
    setMessage('');
    try {
      await fetchLead(queryClient, reference);
      onFound(reference);
    } catch (error) {
      setMessage(
        error instanceof ApiRequestError && error.status === 404
          ? `No quote TQ-${reference} found`
          : `Unable to look up TQ-${reference}: ${errorText(error as Error)}`,
      );
    } finally {
      setSearching(false);
    }
  };

  const onChange = (value: string) => {
    setTyped(value);
    setMessage('');
    // A whole reference as issued today (10 characters) opens at once; an older 8- or 9-character one
    // on Enter, since it is also the start of a longer one being typed.
    if (readReference(value)?.length === REFERENCE_LENGTH) void find(value);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void find(typed);
  };

  const hintId = `${inputId}-hint`;
  const messageId = `${inputId}-message`;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a form with role=search is the long-supported landmark; the <search> element is too new for every browser we serve
    <form role="search" aria-label="Find a quote" noValidate onSubmit={onSubmit} className="grid gap-1.5">
      <Label htmlFor={inputId}>Find by reference</Label>
      <div className="flex gap-2">
        <Input
          id={inputId}
          value={typed}
          onChange={(event) => onChange(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          placeholder="TQ-…"
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${hintId} ${messageId}` : hintId}
          className="min-w-0 flex-1"
        />
        <Button type="submit" variant="secondary" disabled={searching}>
          <Search aria-hidden="true" /> {searching ? 'Finding...' : 'Find'}
        </Button>
      </div>
      <p id={hintId} className="text-xs text-slate-600">
        As the customer gives it: TQ-4XD8HBZSR, with or without TQ-
      </p>
      {message && (
        <p id={messageId} role="alert" className="text-sm text-red-700">
          {message}
        </p>
      )}
    </form>
  );
}

function LeadRow({ lead, onOpen }: { lead: Lead; onOpen: (reference: string) => void }) {
  const when = whenText(lead);
  return (
    <li className="relative grid gap-1 px-2 py-3 focus-within:bg-slate-50 hover:bg-slate-50 sm:grid-cols-[1fr_auto] sm:gap-4">
      <div className="grid min-w-0 gap-1 text-sm">
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
          {/* The whole row opens the quote: the button's box is stretched over it. */}
          <button
            type="button"
            onClick={() => onOpen(lead.reference)}
            className="font-semibold text-brand-700 underline-offset-2 after:absolute after:inset-0 after:content-[''] hover:underline"
          >
            <span className="sr-only">Open quote </span>TQ-{lead.reference}
          </button>
          <StatusBadge status={lead.status} />
          <time dateTime={lead.createdAt} className="text-slate-600">
            {formatDateTime(lead.createdAt)}
          </time>
        </p>
        {lead.takenBy !== null && (
          // A quote taken on the phone: an icon and the words, never colour alone (docs/product.md §25).
          <p className="flex items-center gap-1 font-medium text-slate-800">
            <Phone aria-hidden="true" className="size-4 shrink-0" />
            Taken by phone by {lead.takenBy}
          </p>
        )}
        <p className="font-medium break-words">{routeText(lead)}</p>
        <p className="text-slate-700">{vehicleText(lead)}</p>
        <p className="text-slate-700">{when === 'Now' ? 'Now' : `Scheduled: ${when}`}</p>
        {lead.customerContacts.map((tap) => (
          <p key={tap.channel} className="font-medium text-green-800">
            {contactText(tap, lead.createdAt)}
          </p>
        ))}
      </div>
      <p className="text-lg font-semibold tabular-nums sm:text-right">{formatPounds(lead.totalPrice)}</p>
    </li>
  );
}
