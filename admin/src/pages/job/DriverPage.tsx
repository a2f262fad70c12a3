// The driver's page, /driver/{token} (docs/product.md §20): who and where, and one big button for
// the next step (on the way → arrived → loaded → completed). While on the way the driver may share
// their position, only after a tap and only until arrived: the motorist's ETA is recomputed from
// it. One-handed: the button sits at the bottom of the screen.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { ApiRequestError, api, call } from '#shared/api-client';
import type { DriverView } from '#shared/booking-responses';
import { BOOKING_STATUS_LABELS, clockTime, type DriverStep } from '#shared/bookings';
import { telUrl, ukNational } from '#shared/phone';
import { DriverProof } from './proof/DriverProof';

const NEXT: Partial<Record<DriverView['status'], { step: DriverStep; label: string }>> = {
  accepted: { step: 'on_the_way', label: 'On the way' },
  on_the_way: { step: 'arrived', label: 'Arrived' },
  arrived: { step: 'loaded', label: 'Loaded' },
  loaded: { step: 'completed', label: 'Completed' },
};
/** The driver's position is sent at most this often. */
export const POSITION_EVERY_MS = 15_000;
export const SHARING_NOTE = 'Your position is shared only while you are on the way.';

const card = 'rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-900/5';

/**
 * Where the page reads and moves its job: the driver's link (its token, no sign-in), or the
 * signed-in driver's own job (docs/product.md §23, admin/src/pages/dashboard/my-jobs/). `version`
 * changes when the job changed elsewhere, and the page reads it again.
 */
export interface DriverJobSource {
  read(): Promise<DriverView>;
  move(step: DriverStep): Promise<DriverView>;
  position(position: { lat: number; lng: number }): Promise<DriverView>;
  version?: number;
}

function linkSource(token: string): DriverJobSource {
  const endpoint = api().driver[':token'];
  const param = { token };
  return {
    read: () => call(endpoint.$get, { param }, { anonymous: true }),
    move: (status) => call(endpoint.status.$post, { param, json: { status } }, { anonymous: true }),
    position: (json) => call(endpoint.position.$post, { param, json }, { anonymous: true }),
  };
}

export default function DriverPage({ source }: { source?: DriverJobSource }) {
  const { token = '' } = useParams();
  const byLink = useMemo(() => linkSource(token), [token]);
  const job = source ?? byLink;
  const [view, setView] = useState<DriverView | null>(null);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const [sharing, setSharing] = useState(false);
  /** Why the next step waits (the operator requires photos not yet taken), or null. */
  const [proofBlock, setProofBlock] = useState<string | null>(null);
  const watch = useRef<number | null>(null);
  const lastSent = useRef(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: read again when the job changed elsewhere (`version`)
  useEffect(() => {
    job
      .read()
      .then(setView)
      .catch((error: unknown) =>
        setProblem(error instanceof ApiRequestError && error.status === 410 ? error.serverMessage : 'Job not found. Check the link the operator sent.'),
      );
  }, [job, job.version]);

  const stopSharing = () => {
    if (watch.current !== null) navigator.geolocation.clearWatch(watch.current);
    watch.current = null;
    setSharing(false);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: stops sharing on unmount only; stopSharing touches refs and state setters, which are stable
  useEffect(() => stopSharing, []);
  // Only while on the way: arriving (or anything after) stops it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to a new job status only; stopSharing touches refs and state setters, which are stable
  useEffect(() => {
    if (view && view.status !== 'on_the_way') stopSharing();
  }, [view]);

  async function move(step: DriverStep) {
    setBusy(true);
    setProblem('');
    try {
      setView(await job.move(step));
    } catch (error) {
      setProblem(error instanceof ApiRequestError ? error.serverMessage : 'No connection. Try again.');
    } finally {
      setBusy(false);
    }
  }

  function share() {
    if (!('geolocation' in navigator)) return setProblem('This phone cannot share its position.');
    setSharing(true);
    lastSent.current = 0;
    watch.current = navigator.geolocation.watchPosition(
      (position) => {
        if (Date.now() - lastSent.current < POSITION_EVERY_MS) return;
        lastSent.current = Date.now();
        job
          .position({ lat: position.coords.latitude, lng: position.coords.longitude })
          .then(setView)
          .catch(() => undefined);
      },
      () => {
        setProblem('Your position could not be read. The customer still sees the ETA you were given.');
        stopSharing();
      },
      { enableHighAccuracy: true, maximumAge: 10_000 },
    );
  }

  if (!view) {
    return (
      <main className="mx-auto max-w-md p-6">
        <title>Job</title>
        {problem ? <h1 className="text-2xl font-bold">{problem}</h1> : <p role="status">Loading the job…</p>}
      </main>
    );
  }
  const next = NEXT[view.status];
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-4 p-4 pb-40">
      <title>{`${BOOKING_STATUS_LABELS[view.status]}: TQ-${view.reference}`}</title>
      <header>
        <p className="text-sm text-slate-700">
          {view.companyName} · TQ-{view.reference}
        </p>
        <h1 className="text-3xl font-bold" aria-live="polite">
          {BOOKING_STATUS_LABELS[view.status]}
        </h1>
        {view.eta && (view.status === 'accepted' || view.status === 'on_the_way') && (
          <p className="text-lg">The customer expects you at {clockTime(view.eta.at)}</p>
        )}
      </header>
      <section aria-labelledby="customer-heading" className={card}>
        <h2 id="customer-heading" className="text-xl font-semibold">
          {view.customerName}
        </h2>
        <a
          href={telUrl(view.customerPhone)}
          className="mt-2 flex min-h-12 items-center justify-center rounded-lg border-2 border-brand-700 text-lg font-semibold text-brand-700"
        >
          Call {ukNational(view.customerPhone)}
        </a>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-lg">
          <dt className="text-slate-700">Reg</dt>
          <dd className="font-semibold">{view.registration}</dd>
          <dt className="text-slate-700">Pickup</dt>
          <dd>{view.pickupPostcode}</dd>
          <dt className="text-slate-700">To</dt>
          <dd>{view.destinationPostcode}</dd>
          <dt className="text-slate-700">Vehicle</dt>
          <dd>{view.vehicleType}</dd>
          <dt className="text-slate-700">Problem</dt>
          <dd>{view.problemType}</dd>
          {view.position && (
            <>
              <dt className="text-slate-700">Position</dt>
              <dd>
                {view.position.lat.toFixed(5)}, {view.position.lng.toFixed(5)}
              </dd>
            </>
          )}
        </dl>
        {view.note && <p className="mt-3 rounded-lg bg-amber-50 p-3">{view.note}</p>}
      </section>
      {view.status === 'on_the_way' && (
        <section className={card} aria-label="Your position">
          {sharing ? (
            <p role="status">Sharing your position with the customer until you arrive.</p>
          ) : (
            <button type="button" onClick={share} className="min-h-12 w-full rounded-lg border-2 border-slate-700 text-lg font-semibold">
              Share my position
            </button>
          )}
          <p className="mt-2 text-sm text-slate-700">{SHARING_NOTE}</p>
        </section>
      )}
      <DriverProof token={token} status={view.status} onBlock={setProofBlock} />
      {problem && (
        <p role="alert" className="text-red-800">
          {problem}
        </p>
      )}
      {next && (
        <div className="fixed inset-x-0 bottom-0 bg-white/95 p-4 shadow-[0_-1px_4px_rgba(0,0,0,0.1)]">
          {proofBlock && <p className="mx-auto mb-2 max-w-md text-center font-semibold text-red-800">{proofBlock}</p>}
          <button
            type="button"
            disabled={busy || proofBlock !== null}
            onClick={() => void move(next.step)}
            className="mx-auto flex min-h-16 w-full max-w-md items-center justify-center rounded-xl bg-brand-700 text-xl font-bold text-white disabled:opacity-60"
          >
            {next.label}
          </button>
        </div>
      )}
    </main>
  );
}
