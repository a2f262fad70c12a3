// The Jobs card at the top of the Quotes tab (docs/product.md, "Bookings"): bookings waiting for an
// answer first, loudest, each with the time left before it expires, accept (an ETA in minutes and
// optionally the driver) or decline (a reason); then the jobs under way, with the driver's page to
// copy or send by WhatsApp; then those finished in the last day. Every job keeps its history.
// The list is read again every few seconds, so a new booking appears without a reload.
import { useId, useState, type FormEvent } from 'react';
import { Copy, MessageCircle } from 'lucide-react';
import { ApiRequestError } from '#shared/api-client';
import type { Booking } from '#shared/booking-responses';
import { bookingAcceptSchema, bookingDeclineSchema } from '#shared/booking-schemas';
import { BOOKING_STATUS_LABELS, clockTime, DECLINE_REASON_MAX, DRIVER_NAME_MAX, ETA_MINUTES, type BookingStatus } from '#shared/bookings';
import { fieldMessages } from '#shared/field-messages';
import { formatPounds } from '#shared/money';
import { formatPhoneNational } from '#shared/phone-number';
import { telUrl } from '#shared/phone';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Input, Spinner } from '../../../components/ui';
import { formatDateTime } from '../quotes/format';
import { useAnswerJob, useJobs } from './api';
import { JobDocumentLinks } from './JobDocumentLinks';
import { countdown, useNow, whatsappShare } from './format';

const TONES: Record<BookingStatus, 'warning' | 'brand' | 'success' | 'neutral' | 'danger'> = {
  // Never listed: a booking awaiting payment reaches the operator once paid (docs/product.md §21).
  awaiting_payment: 'neutral',
  requested: 'warning',
  accepted: 'brand',
  on_the_way: 'brand',
  arrived: 'brand',
  loaded: 'brand',
  completed: 'success',
  declined: 'neutral',
  expired: 'danger',
  cancelled: 'neutral',
};

export const waitingText = (count: number): string =>
  count === 0 ? 'No bookings waiting for an answer.' : `${count} ${count === 1 ? 'booking' : 'bookings'} waiting for your answer.`;

export function JobsCard() {
  const jobs = useJobs();
  const open = jobs.data?.open ?? [];
  const recent = jobs.data?.recent ?? [];
  const waiting = open.filter((job) => job.status === 'requested').length;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Jobs</CardTitle>
        <CardDescription>Bookings from your quote page. Answer each before its time runs out, or it expires and the motorist is told to call you.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {jobs.isLoading ? (
          <Spinner label="Loading your jobs" />
        ) : !jobs.data ? (
          <p role="alert" className="text-sm text-red-700">
            Unable to load your jobs. Please reload the page.
          </p>
        ) : (
          <>
            <p role="status" className={waiting > 0 ? 'font-semibold text-amber-900' : 'text-sm text-slate-700'}>
              {waitingText(waiting)}
            </p>
            {open.length > 0 && <JobList label="Open jobs" jobs={open} />}
            {recent.length > 0 && (
              <details className="text-sm">
                <summary className="cursor-pointer font-medium text-brand-700">Finished in the last 24 hours ({recent.length})</summary>
                <JobList label="Finished jobs" jobs={recent} className="mt-3" />
              </details>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function JobList({ label, jobs, className }: { label: string; jobs: readonly Booking[]; className?: string }) {
  return (
    <ul aria-label={label} className={`grid gap-4 ${className ?? ''}`}>
      {jobs.map((job) => (
        <li key={job.reference}>
          <JobItem job={job} />
        </li>
      ))}
    </ul>
  );
}

function JobItem({ job }: { job: Booking }) {
  const heading = useId();
  const requested = job.status === 'requested';
  return (
    <article aria-labelledby={heading} className={`grid gap-2 rounded-lg border p-4 ${requested ? 'border-amber-300 bg-amber-50/60' : 'border-slate-200'}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={heading} className="text-base font-semibold">
          TQ-{job.reference} · {job.customerName}
        </h3>
        <span className="flex items-center gap-3">
          {requested && <TimeLeft respondBy={job.respondBy} />}
          <Badge tone={TONES[job.status]}>{BOOKING_STATUS_LABELS[job.status]}</Badge>
        </span>
      </div>
      <p className="text-sm text-slate-800">
        <a className="font-medium text-brand-700 underline" href={telUrl(job.customerPhone)}>
          {formatPhoneNational(job.customerPhone)}
        </a>{' '}
        · {job.registration} · {job.pickupPostcode} → {job.destinationPostcode} · {formatPounds(job.price)}
      </p>
      {job.note && <p className="text-sm text-slate-800">Note: {job.note}</p>}
      {job.position && (
        <p className="text-sm">
          <a
            className="text-brand-700 underline"
            href={`https://www.google.com/maps/search/?api=1&query=${job.position.lat},${job.position.lng}`}
            target="_blank"
            rel="noopener noreferrer"
          >
            The motorist’s position (opens a map)
          </a>
        </p>
      )}
      {job.eta && !requested && (
        <p className="text-sm text-slate-800">
          Expected at {clockTime(job.eta.at)} ({job.eta.minutes} min{job.eta.fromPosition ? ', from the driver’s position' : ''})
          {job.driverName && ` · Driver: ${job.driverName}`}
        </p>
      )}
      {job.declineReason && <p className="text-sm text-slate-800">Declined: {job.declineReason}</p>}
      {requested && <AnswerForms job={job} />}
      {job.driverUrl && <DriverLink job={job} url={job.driverUrl} />}
      {job.status === 'completed' && job.payment && <JobDocumentLinks job={job} />}
      <History job={job} />
    </article>
  );
}

function TimeLeft({ respondBy }: { respondBy: string }) {
  const now = useNow();
  return (
    <span role="timer" className="font-semibold text-amber-900 tabular-nums">
      Answer within {countdown(respondBy, now)}
    </span>
  );
}

/** The server's per-field messages, or its message for the form as a whole. */
function serverErrors(error: Error): Record<string, string> {
  if (error instanceof ApiRequestError) return error.fields ?? { _: error.serverMessage };
  return { _: error.message };
}

function AnswerForms({ job }: { job: Booking }) {
  const answer = useAnswerJob(job.reference);
  const [eta, setEta] = useState('');
  const [driver, setDriver] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const accept = (event: FormEvent) => {
    event.preventDefault();
    const checked = bookingAcceptSchema.safeParse({ etaMinutes: eta.trim() === '' ? undefined : Number(eta), ...(driver.trim() ? { driverName: driver } : {}) });
    if (!checked.success) return setErrors(fieldMessages(checked.error.issues));
    setErrors({});
    answer.mutate({ action: 'accept', body: checked.data }, { onError: (error) => setErrors(serverErrors(error)) });
  };
  const decline = (event: FormEvent) => {
    event.preventDefault();
    const checked = bookingDeclineSchema.safeParse({ reason });
    if (!checked.success) return setErrors(fieldMessages(checked.error.issues));
    setErrors({});
    answer.mutate({ action: 'decline', body: checked.data }, { onError: (error) => setErrors(serverErrors(error)) });
  };

  return (
    <div className="grid gap-3">
      <div className="grid gap-4 md:grid-cols-2">
        <form noValidate onSubmit={accept} aria-label={`Accept TQ-${job.reference}`} className="grid content-start gap-2">
          <Field label="ETA (minutes)" error={errors.etaMinutes}>
            <Input type="number" inputMode="numeric" min={ETA_MINUTES.min} max={ETA_MINUTES.max} step={1} value={eta} onChange={(e) => setEta(e.target.value)} />
          </Field>
          <Field label="Driver’s name (optional)" error={errors.driverName}>
            <Input value={driver} maxLength={DRIVER_NAME_MAX} autoComplete="off" onChange={(e) => setDriver(e.target.value)} />
          </Field>
          <Button type="submit" variant="success" disabled={answer.isPending}>
            Accept
          </Button>
        </form>
        <form noValidate onSubmit={decline} aria-label={`Decline TQ-${job.reference}`} className="grid content-start gap-2">
          <Field label="Reason for declining" error={errors.reason}>
            <Input value={reason} maxLength={DECLINE_REASON_MAX} placeholder="No truck free" onChange={(e) => setReason(e.target.value)} />
          </Field>
          <Button type="submit" variant="outline" disabled={answer.isPending}>
            Decline
          </Button>
        </form>
      </div>
      {errors._ && (
        <p role="alert" className="text-sm text-red-700">
          {errors._}
        </p>
      )}
    </div>
  );
}

function DriverLink({ job, url }: { job: Booking; url: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(url).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );
  return (
    <div className="grid gap-2 rounded-md bg-slate-50 p-3">
      <p className="text-sm font-medium">The driver’s page</p>
      <div className="flex flex-wrap items-center gap-2">
        <Input readOnly value={url} aria-label={`Driver’s link for TQ-${job.reference}`} className="max-w-md font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
        <Button variant="outline" size="sm" onClick={() => void copy()}>
          <Copy aria-hidden="true" /> Copy driver link
        </Button>
        <Button asChild variant="outline" size="sm">
          <a href={whatsappShare(job.reference, job.pickupPostcode, url)} target="_blank" rel="noopener noreferrer">
            <MessageCircle aria-hidden="true" /> Send by WhatsApp
          </a>
        </Button>
      </div>
      <p role="status" className="text-xs text-slate-700">
        {copied === 'yes' ? 'Copied.' : copied === 'no' ? 'Could not copy: select the link and copy it.' : ''}
      </p>
    </div>
  );
}

function History({ job }: { job: Booking }) {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-brand-700">History</summary>
      <ol aria-label={`History of TQ-${job.reference}`} className="mt-2 grid gap-1">
        {job.history.map((entry) => (
          <li key={`${entry.status}-${entry.at}`} className="flex gap-3">
            <time dateTime={entry.at} className="tabular-nums text-slate-700">
              {formatDateTime(entry.at)}
            </time>
            <span>{BOOKING_STATUS_LABELS[entry.status]}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}
