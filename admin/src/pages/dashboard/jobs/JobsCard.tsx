// The Jobs card at the top of the Quotes tab (docs/product.md, "Bookings"): bookings waiting for an
// answer first, loudest, each with the time left before it expires, accept (an ETA in minutes and
// optionally the driver) or decline (a reason); then the jobs under way, with the driver's page to
// copy or send by WhatsApp; then those finished in the last day. Every job keeps its history, and
// shows what the motorist paid at booking (docs/product.md §21), which the operator can refund, and a
// completed job's balance may be taken by card there (a QR code, and the link texted: §22).
// The list is read again every few seconds, so a new booking appears without a reload.
import { lazy, Suspense, useId, useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { Copy, MessageCircle } from 'lucide-react';
import { ApiRequestError } from '#shared/api-client';
import type { Booking } from '#shared/booking-responses';
import { bookingAcceptSchema, bookingDeclineSchema } from '#shared/booking-schemas';
import { BOOKING_STATUS_LABELS, clockTime, DECLINE_REASON_MAX, DRIVER_NAME_MAX, ETA_MINUTES, type BookingStatus } from '#shared/bookings';
import { fieldMessages } from '#shared/field-messages';
import { formatPence, formatPounds } from '#shared/money';
import { paymentRefundSchema, type BookingPayment } from '#shared/payment-schemas';
import { JOB_SOURCE_LABELS } from '#shared/phone-jobs';
import { paymentAmountsOf, paymentSummary, refundablePence } from '#shared/payments';
import type { z } from 'zod';
import { formatPhoneNational } from '#shared/phone-number';
import { telUrl } from '#shared/phone';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Input, Spinner } from '../../../components/ui';
import { formatDateTime } from '../quotes/format';
import { TAKE_BY_CARD, TAKE_BY_CARD_HINT, TEXT_THE_LINK } from '../../job/pay-link-words';
import { useAnswerJob, useJobs, usePayLink, type Answer } from './api';
import { JobDocumentLinks } from './JobDocumentLinks';
import { JobProofPanel } from './JobProofPanel';
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
        <CardDescription>
          Bookings from your quote page. Answer each before its time runs out, or it expires and the motorist is told to call you.
        </CardDescription>
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
          <Badge tone="neutral" aria-label={`From: ${JOB_SOURCE_LABELS[job.source]}`}>
            {JOB_SOURCE_LABELS[job.source]}
          </Badge>
          <Badge tone={TONES[job.status]}>{BOOKING_STATUS_LABELS[job.status]}</Badge>
        </span>
      </div>
      <p className="text-sm text-slate-800">
        <a className="font-medium text-brand-700 underline" href={telUrl(job.customerPhone)}>
          {formatPhoneNational(job.customerPhone)}
        </a>{' '}
        · {job.registration} · {job.pickupPostcode} → {job.destinationPostcode} · {formatPounds(job.price)}
      </p>
      {job.takenBy && <p className="text-sm text-slate-800">Taken by phone by {job.takenBy}</p>}
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
      {job.payment && job.payment.status !== 'awaiting' && <Payment job={job} payment={job.payment} />}
      {requested && <AnswerForms job={job} />}
      {job.driverUrl && <DriverLink job={job} url={job.driverUrl} />}
      {job.status === 'completed' && job.balance > 0 && (job.payByLink || job.payLink) && <BalanceByCard job={job} />}
      {job.status === 'completed' && job.payment && <JobDocumentLinks job={job} />}
      <JobProofPanel job={job} />
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

/** One of the card's small forms (accept, decline, refund): its fields, each error under its field, and one button. */
interface FormField {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  input?: InputHTMLAttributes<HTMLInputElement>;
}

function JobForm({
  label,
  fields,
  errors,
  button,
  variant,
  pending,
  onSubmit,
}: {
  label: string;
  fields: FormField[];
  errors: Record<string, string>;
  button: string;
  variant: 'success' | 'outline';
  pending: boolean;
  onSubmit: () => void;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form noValidate onSubmit={submit} aria-label={label} className="grid content-start gap-2">
      {fields.map((field) => (
        <Field key={field.name} label={field.label} hint={field.hint} error={errors[field.name]}>
          <Input {...field.input} value={field.value} onChange={(e) => field.onChange(e.target.value)} />
        </Field>
      ))}
      <Button type="submit" variant={variant} disabled={pending}>
        {button}
      </Button>
    </form>
  );
}

/** Checks `raw` with the shared schema as the server will, then sends it; the errors by field either way. */
function useJobAction(reference: string) {
  const answer = useAnswerJob(reference);
  const [errors, setErrors] = useState<Record<string, string>>({});
  function send<S extends z.ZodType<Answer['body']>>(action: Answer['action'], schema: S, raw: unknown, onDone?: (job: Booking) => void) {
    const checked = schema.safeParse(raw);
    if (!checked.success) return setErrors(fieldMessages(checked.error.issues));
    setErrors({});
    answer.mutate({ action, body: checked.data } as Answer, { onSuccess: onDone, onError: (error) => setErrors(serverErrors(error)) });
  }
  return { send, errors, pending: answer.isPending };
}

function FormError({ errors }: { errors: Record<string, string> }) {
  return errors._ ? (
    <p role="alert" className="text-sm text-red-700">
      {errors._}
    </p>
  ) : null;
}

/** What declining a job paid (or held) at booking costs, said before it is done; null when nothing was taken. */
export function declineWarning(payment: BookingPayment | null): string | null {
  if (payment?.status === 'held') return `${formatPounds(payment.amount)} is held on the customer’s card: declining releases it.`;
  if (payment?.status === 'paid' || payment?.status === 'partially_refunded')
    return `The customer paid ${formatPounds(payment.amount)} at booking: declining refunds what is left of it in full.`;
  return null;
}
export const CONFIRM_DECLINE = 'Yes, decline';
export const KEEP_BOOKING = 'Keep the booking';

function AnswerForms({ job }: { job: Booking }) {
  const { send, errors, pending } = useJobAction(job.reference);
  const [eta, setEta] = useState('');
  const [driver, setDriver] = useState('');
  const [reason, setReason] = useState('');
  // A paid job is declined only once the operator has read what it refunds.
  const [confirming, setConfirming] = useState(false);
  const warning = declineWarning(job.payment);
  const decline = () => send('decline', bookingDeclineSchema, { reason });
  return (
    <div className="grid gap-3">
      <div className="grid gap-4 md:grid-cols-2">
        <JobForm
          label={`Accept TQ-${job.reference}`}
          fields={[
            {
              name: 'etaMinutes',
              label: 'ETA (minutes)',
              value: eta,
              onChange: setEta,
              input: { type: 'number', inputMode: 'numeric', min: ETA_MINUTES.min, max: ETA_MINUTES.max, step: 1 },
            },
            {
              name: 'driverName',
              label: 'Driver’s name (optional)',
              value: driver,
              onChange: setDriver,
              input: { maxLength: DRIVER_NAME_MAX, autoComplete: 'off' },
            },
          ]}
          errors={errors}
          button="Accept"
          variant="success"
          pending={pending}
          onSubmit={() =>
            send('accept', bookingAcceptSchema, { etaMinutes: eta.trim() === '' ? undefined : Number(eta), ...(driver.trim() ? { driverName: driver } : {}) })
          }
        />
        <JobForm
          label={`Decline TQ-${job.reference}`}
          fields={[
            {
              name: 'reason',
              label: 'Reason for declining',
              value: reason,
              onChange: setReason,
              input: { maxLength: DECLINE_REASON_MAX, placeholder: 'No truck free' },
            },
          ]}
          errors={errors}
          button="Decline"
          variant="outline"
          pending={pending}
          onSubmit={() => (warning ? setConfirming(true) : decline())}
        />
      </div>
      {confirming && warning && (
        <div role="alertdialog" aria-label={`Decline TQ-${job.reference}?`} className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3">
          <p className="text-sm text-amber-950">{warning}</p>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              disabled={pending}
              onClick={() => {
                setConfirming(false);
                decline();
              }}
            >
              {CONFIRM_DECLINE}
            </Button>
            <Button variant="success" onClick={() => setConfirming(false)}>
              {KEEP_BOOKING}
            </Button>
          </div>
        </div>
      )}
      <FormError errors={errors} />
    </div>
  );
}

/** The payment at booking with its amounts: "Deposit paid £37.44, refunded £10.00". */
function Payment({ job, payment }: { job: Booking; payment: BookingPayment }) {
  const amounts = paymentAmountsOf(payment);
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium text-slate-900">{paymentSummary(amounts)}</p>
      {refundablePence(amounts) > 0 && <RefundForm job={job} leftPence={refundablePence(amounts)} />}
    </div>
  );
}

function RefundForm({ job, leftPence }: { job: Booking; leftPence: number }) {
  const { send, errors, pending } = useJobAction(job.reference);
  const [amount, setAmount] = useState('');
  const [done, setDone] = useState('');
  const refund = () => {
    setDone('');
    send('refund', paymentRefundSchema, amount.trim() === '' ? {} : { amount: Number(amount.replace(/^£/, '').trim()) }, (after) =>
      setDone(after.payment ? `Refunded. ${paymentSummary(paymentAmountsOf(after.payment))}.` : 'Refunded.'),
    );
  };
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-brand-700">Refund the motorist</summary>
      <div className="mt-2 grid max-w-sm gap-2">
        <JobForm
          label={`Refund TQ-${job.reference}`}
          fields={[
            {
              name: 'amount',
              label: 'Amount to refund (£)',
              hint: `Up to ${formatPence(leftPence)}. Leave blank to refund all of it.`,
              value: amount,
              onChange: setAmount,
              input: { inputMode: 'decimal', autoComplete: 'off' },
            },
          ]}
          errors={errors}
          button="Refund"
          variant="outline"
          pending={pending}
          onSubmit={refund}
        />
        <FormError errors={errors} />
      </div>
      <p role="status" className="mt-1 text-sm text-slate-800">
        {done}
      </p>
    </details>
  );
}

// The QR code (and its library) loads only when a pay link is out.
const PayLinkCode = lazy(() => import('../../job/PayLinkCode'));

/** A completed job's balance by card: 'Text the link' makes the pay link and texts it to the customer; then its QR code. */
function BalanceByCard({ job }: { job: Booking }) {
  const payLink = usePayLink(job.reference);
  const error = payLink.error ? serverErrors(payLink.error)._ : null;
  return (
    <div className="grid gap-2 rounded-md bg-slate-50 p-3">
      <p className="text-sm font-medium">
        {TAKE_BY_CARD}: {formatPounds(job.balance)}
      </p>
      {job.payLink ? (
        <Suspense fallback={<Spinner label="Loading the QR code" />}>
          <PayLinkCode link={job.payLink} balance={job.balance} />
        </Suspense>
      ) : (
        <>
          <p className="text-sm text-slate-700">{TAKE_BY_CARD_HINT}</p>
          <div>
            <Button variant="outline" size="sm" disabled={payLink.isPending} onClick={() => payLink.mutate()}>
              {TEXT_THE_LINK}
            </Button>
          </div>
        </>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
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
        <Input
          readOnly
          value={url}
          aria-label={`Driver’s link for TQ-${job.reference}`}
          className="max-w-md font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
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
