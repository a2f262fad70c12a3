// The motorist's status page, /job/{token} (docs/product.md §20): the status, the ETA as a clock
// time and a countdown, the driver's name and the operator's number to call, kept live without a
// reload (live.ts). Phone-first: one column, big targets, the call button within thumb's reach.
// No cookie, and no request to anyone but this server.
import { lazy, Suspense, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { ApiRequestError, api, call } from '#shared/api-client';
import { BOOKING_STATUS_LABELS, clockTime, isFinished, JOB_HEADLINES } from '#shared/bookings';
import { formatPounds } from '#shared/money';
import { paymentAmountsOf, paymentSummary } from '#shared/payments';
import { telUrl, ukNational } from '#shared/phone';
import { useMinutesLeft } from './format';
import { JobDocuments } from './JobDocuments';
import { JobProof } from './proof/JobProof';
import { useLiveJob } from './live';

const card = 'rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-900/5';
/** Leaflet in a chunk of its own, fetched only when there is a driver's position to draw. */
const JobMap = lazy(() => import('./JobMap'));
export const NEW_QUOTE = 'Get a new quote';
export const STOP_REVIEWS = 'Stop review requests';
export const reviewsStopped = (company: string) => `You will get no more review requests from ${company}.`;

export default function JobPage() {
  const { token = '' } = useParams();
  const [live, setJob] = useLiveJob(token);
  const job = live.state === 'ready' ? live.job : null;
  const etaLeft = useMinutesLeft(job?.eta?.at);
  const answerLeft = useMinutesLeft(job?.status === 'requested' ? job.respondBy : null);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState('');
  // The review request's link (?reviews=off): one tap stops them.
  const [search] = useSearchParams();
  const [reviews, setReviews] = useState<'ask' | 'stopped'>('ask');

  if (live.state === 'loading') {
    return (
      <main className="mx-auto max-w-md p-6">
        <title>Your recovery</title>
        <p role="status">Loading your booking…</p>
      </main>
    );
  }
  if (live.state === 'gone' || !job) {
    const closed = live.state === 'gone' && live.status === 410;
    return (
      <main className="mx-auto max-w-md p-6">
        <title>Your recovery</title>
        <h1 className="text-2xl font-bold">{closed ? 'This page has closed' : 'Job not found'}</h1>
        <p className="mt-2 text-slate-700">{closed && live.state === 'gone' ? live.message : 'Check the link in your text message.'}</p>
      </main>
    );
  }

  const { company } = job;
  const mustCall = job.status === 'declined' || job.status === 'expired';
  const callThem = company.phone ? `Please call ${company.name} on ${ukNational(company.phone)}.` : `Please call ${company.name}.`;

  async function cancel() {
    setProblem('');
    try {
      setJob(await call(api().jobs[':token'].cancel.$post, { param: { token } }, { anonymous: true }));
    } catch (error) {
      setProblem(error instanceof ApiRequestError ? error.serverMessage : 'No connection. Please try again, or call.');
    }
    setConfirming(false);
  }

  return (
    // Room below the last card for the call bar, so it never covers the receipt's links.
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-4 p-4 pb-40">
      <title>{`${JOB_HEADLINES[job.status]}: TQ-${job.reference}`}</title>
      <header>
        <p className="font-semibold">{company.name}</p>
        <p className="text-sm text-slate-700">Booking TQ-{job.reference}</p>
      </header>
      <section aria-labelledby="status-heading" className={card}>
        <h1 id="status-heading" className="text-3xl font-bold" aria-live="polite">
          {JOB_HEADLINES[job.status]}
        </h1>
        {job.status === 'awaiting_payment' && job.payment?.checkoutUrl && (
          <p className="mt-2 text-lg">
            {company.name} gets your booking once it is paid.{' '}
            <a href={job.payment.checkoutUrl} className="font-semibold underline">
              Pay {formatPounds(job.payment.amount)}
            </a>
          </p>
        )}
        {job.status === 'requested' && (
          <p className="mt-2 text-lg">
            {company.name} will answer by {clockTime(job.respondBy)}
            {answerLeft !== null && ` (in ${answerLeft} min)`}.
          </p>
        )}
        {job.eta && (job.status === 'accepted' || job.status === 'on_the_way') && (
          <p className="mt-2 text-lg">
            Expected at <strong>{clockTime(job.eta.at)}</strong>
            {etaLeft !== null && `, in ${etaLeft} min`}
            {job.eta.fromPosition && ' (from the driver’s position)'}
          </p>
        )}
        {job.driverName && !mustCall && <p className="mt-1 text-lg">Driver: {job.driverName}</p>}
        {job.status === 'arrived' && <p className="mt-2 text-lg">Your driver is with you.</p>}
        {job.status === 'completed' && <p className="mt-2 text-lg">Your recovery is completed. Thank you.</p>}
        {mustCall && (
          <p className="mt-2 text-lg font-semibold text-red-800">
            {job.status === 'declined'
              ? `${company.name} cannot take this job${job.declineReason ? `: ${job.declineReason}` : ''}.`
              : `${company.name} did not answer in time.`}{' '}
            {callThem}
          </p>
        )}
        {job.status === 'cancelled' && <p className="mt-2 text-lg">This booking was cancelled.</p>}
        {(mustCall || job.status === 'cancelled') && company.quotePath && (
          // No dead end: a new quote from the company's own page, beside the call button below.
          <a
            href={company.quotePath}
            className="mt-4 flex min-h-12 items-center justify-center rounded-lg border-2 border-brand-700 text-lg font-semibold text-brand-700"
          >
            {NEW_QUOTE}
          </a>
        )}
        {!isFinished(job.status) && (
          <p className="mt-3 text-sm text-slate-700">
            {live.live ? 'This page updates by itself.' : 'Reconnecting: this page checks for news every few seconds.'}
          </p>
        )}
      </section>
      {job.map && job.driverPosition && (
        <Suspense fallback={null}>
          <JobMap position={job.driverPosition} tiles={job.map} />
        </Suspense>
      )}
      <section aria-labelledby="details-heading" className={card}>
        <h2 id="details-heading" className="font-semibold">
          Your booking
        </h2>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-slate-700">Route</dt>
          <dd>
            {job.pickupPostcode} to {job.destinationPostcode}
          </dd>
          <dt className="text-slate-700">Vehicle</dt>
          <dd>{job.registration}</dd>
          <dt className="text-slate-700">Price</dt>
          <dd>{formatPounds(job.price)}</dd>
          {job.payment && job.payment.status !== 'awaiting' && (
            <>
              <dt className="text-slate-700">Payment</dt>
              <dd>{paymentSummary(paymentAmountsOf(job.payment))}</dd>
            </>
          )}
        </dl>
        <h2 className="mt-4 font-semibold">Progress</h2>
        <ol className="mt-2 space-y-1">
          {job.history.map((step) => (
            <li key={`${step.status}-${step.at}`}>
              {clockTime(step.at)} {BOOKING_STATUS_LABELS[step.status]}
            </li>
          ))}
        </ol>
        {(job.status === 'requested' || job.status === 'accepted') &&
          (confirming ? (
            <div className="mt-4 grid gap-2">
              <p>Cancel this booking?</p>
              <button type="button" onClick={() => void cancel()} className="min-h-12 rounded-lg bg-red-700 font-semibold text-white">
                Yes, cancel the booking
              </button>
              <button type="button" onClick={() => setConfirming(false)} className="min-h-12 rounded-lg border border-slate-300 font-semibold">
                No, keep it
              </button>
            </div>
          ) : (
            <button type="button" onClick={() => setConfirming(true)} className="mt-4 min-h-12 w-full rounded-lg border border-slate-300 font-semibold">
              Cancel booking
            </button>
          ))}
        {problem && (
          <p role="alert" className="mt-2 text-red-800">
            {problem}
          </p>
        )}
      </section>
      {search.get('reviews') === 'off' && (
        <section aria-label="Review requests" className={card}>
          {reviews === 'stopped' ? (
            <p role="status">{reviewsStopped(company.name)}</p>
          ) : (
            <button
              type="button"
              onClick={() =>
                void call(api().jobs[':token']['review-opt-out'].$post, { param: { token } }, { anonymous: true }).then(
                  () => setReviews('stopped'),
                  () => setProblem('No connection. Please try again.'),
                )
              }
              className="min-h-12 w-full rounded-lg border border-slate-300 font-semibold"
            >
              {STOP_REVIEWS}
            </button>
          )}
        </section>
      )}
      <JobDocuments token={token} job={job} />
      <JobProof token={token} job={job} />
      {company.phone && (
        <div className="fixed inset-x-0 bottom-0 bg-white/95 px-4 pt-4 pb-[max(1rem,env(safe-area-inset-bottom))] shadow-[0_-1px_4px_rgba(0,0,0,0.1)]">
          <a
            href={telUrl(company.phone)}
            className="mx-auto flex min-h-14 max-w-md items-center justify-center rounded-xl bg-brand-700 text-lg font-semibold text-white"
          >
            Call {company.name} on {ukNational(company.phone)}
          </a>
        </div>
      )}
    </main>
  );
}
