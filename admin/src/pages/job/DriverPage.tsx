// The driver's page, /driver/{token} (docs/product.md §20): who and where, in words, with the
// balance to collect and Navigate buttons, and one big button for the next step (on the way →
// arrived → loaded → completed). Kept live (live.ts), so a cancellation shows while the page is
// open. While on the way the driver may share their position, only after a tap and only until
// arrived: the motorist's ETA is recomputed from it. One-handed: the button sits at the bottom.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { ApiRequestError, api, call } from '#shared/api-client';
import type { DriverView } from '#shared/booking-responses';
import { BOOKING_STATUS_LABELS, clockTime, type DriverStep } from '#shared/bookings';
import { formatPounds } from '#shared/money';
import { BALANCE_METHOD_LABELS, BALANCE_METHODS, BALANCE_RECORDED, type BalanceMethod } from '#shared/payments';
import { telUrl, ukNational } from '#shared/phone';
import type { ProofStage, QueuedPhoto } from '#shared/proof';
import { useLiveDriverJob } from './live';
import { navigationLinks, type Place } from './navigate';
import { DriverProof, linkProof, type ProofSource } from './proof/DriverProof';
import PayLinkCode from './PayLinkCode';

const NEXT: Partial<Record<DriverView['status'], { step: DriverStep; label: string }>> = {
  accepted: { step: 'on_the_way', label: 'On the way' },
  on_the_way: { step: 'arrived', label: 'Arrived' },
  arrived: { step: 'loaded', label: 'Loaded' },
  loaded: { step: 'completed', label: 'Completed' },
};
/** The driver's position is sent at most this often. */
export const POSITION_EVERY_MS = 15_000;
export const SHARING_NOTE = 'Your position is shared only while you are on the way.';

/** What a finished job tells the driver, under its status. */
export const DRIVER_FINISHED: Partial<Record<DriverView['status'], string>> = {
  cancelled: 'The customer cancelled this job. Do not go; if you set off, turn back.',
  declined: 'This job was declined. Do not go.',
  expired: 'This job was not answered in time. Do not go.',
  completed: 'This job is completed. Thank you.',
};
export const balanceQuestion = (balance: number) => `How was the balance of ${formatPounds(balance)} paid?`;
export const NOT_PAID_YET = 'Completed, not paid yet';
/** The balance by card through a pay link (docs/product.md §22): the button, and what shows once the link is made. */
export const PAY_BY_LINK = 'Card, by pay link';
/** How often the page reads the job while its pay link is out. */
export const PAY_LINK_POLL_MS = 5_000;
export const balanceWords = (balance: number) => (balance > 0 ? `To collect: ${formatPounds(balance)}` : 'Nothing to collect: paid at booking');

const card = 'rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-900/5';

/**
 * Where the page reads and moves its job: the driver's link (its token, no sign-in), or the
 * signed-in driver's own job (docs/product.md §23, admin/src/pages/dashboard/my-jobs/). `version`
 * changes when the job changed elsewhere, and the page reads it again.
 */
export interface DriverJobSource {
  read(): Promise<DriverView>;
  /** `queuedPhotos`: with Loaded or Completed, the stage's photos still queued on this phone (the server counts them toward the operator's photo rule). */
  move(step: DriverStep, balanceMethod?: BalanceMethod, queuedPhotos?: QueuedPhoto[]): Promise<DriverView>;
  position(position: { lat: number; lng: number }): Promise<DriverView>;
  /** Records how the balance of a completed job was paid. */
  balance(method: BalanceMethod): Promise<DriverView>;
  /** Makes the balance's pay link (texted to the customer). */
  payLink(): Promise<DriverView>;
  /** The job's photos, checklist and signature: read, saved and uploaded the same way as the job. */
  proof: ProofSource;
  version?: number;
}

function linkSource(token: string): DriverJobSource {
  const endpoint = api().driver[':token'];
  const param = { token };
  return {
    read: () => call(endpoint.$get, { param }, { anonymous: true }),
    move: (status, balanceMethod, queuedPhotos) =>
      call(
        endpoint.status.$post,
        { param, json: { status, ...(balanceMethod ? { balanceMethod } : {}), ...(queuedPhotos?.length ? { queuedPhotos } : {}) } },
        { anonymous: true },
      ),
    position: (json) => call(endpoint.position.$post, { param, json }, { anonymous: true }),
    balance: (method) => call(endpoint.balance.$post, { param, json: { method } }, { anonymous: true }),
    payLink: () => call(endpoint['pay-link'].$post, { param }, { anonymous: true }),
    proof: linkProof(token),
  };
}

export default function DriverPage({ source }: { source?: DriverJobSource }) {
  const { token = '' } = useParams();
  const byLink = useMemo(() => linkSource(token), [token]);
  const job = source ?? byLink;
  // By its link the page follows its own stream (live.ts); a signed-in driver's own job is read
  // again whenever `version` says it changed elsewhere.
  const [live, setLiveView] = useLiveDriverJob(token, source === undefined);
  const [ownView, setOwnView] = useState<DriverView | null>(null);
  const [readFailed, setReadFailed] = useState<string | null>(null);
  const view = source ? ownView : live.state === 'ready' ? live.job : null;
  const setView = source ? setOwnView : setLiveView;
  const [problem, setProblem] = useState('');
  // Completing a job with a balance to collect asks first how it was paid.
  const [askBalance, setAskBalance] = useState(false);
  const [busy, setBusy] = useState(false);
  const [sharing, setSharing] = useState(false);
  /** Why the next step waits (the operator requires photos not yet taken), or null. */
  const [proofBlock, setProofBlock] = useState<string | null>(null);
  /** The photos still queued on this phone, by stage: sent with the step that leaves their stage. */
  const queuedPhotos = useRef<Record<ProofStage, QueuedPhoto[]>>({ pickup: [], dropoff: [] });
  const watch = useRef<number | null>(null);
  const lastSent = useRef(0);

  useEffect(() => {
    if (!source) return;
    source
      .read()
      .then(setOwnView)
      .catch((error: unknown) =>
        setReadFailed(error instanceof ApiRequestError && error.status === 410 ? error.serverMessage : 'Job not found. Check the link the operator sent.'),
      );
  }, [source, source?.version]);

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

  /** Sends a change, showing the answer (or the server's word). */
  async function send(request: () => Promise<DriverView>) {
    setBusy(true);
    setProblem('');
    try {
      setView(await request());
    } catch (error) {
      setProblem(error instanceof ApiRequestError ? error.serverMessage : 'No connection. Try again.');
    } finally {
      setBusy(false);
    }
  }
  const move = (step: DriverStep, balanceMethod?: BalanceMethod) => {
    setAskBalance(false);
    const leaving = step === 'loaded' ? 'pickup' : step === 'completed' ? 'dropoff' : null;
    return send(() => job.move(step, balanceMethod, leaving ? queuedPhotos.current[leaving] : undefined));
  };
  const recordBalance = (method: BalanceMethod) => send(() => job.balance(method));
  const makePayLink = () => send(() => job.payLink());
  // A completed job's stream has ended: while its pay link is out, the page reads the job now and
  // then, so 'Balance paid by card' shows once the customer has paid.
  const payLinkOut = view?.status === 'completed' && view.payLink !== null;
  useEffect(() => {
    if (!payLinkOut) return;
    const timer = setInterval(() => void job.read().then(setView, () => {}), PAY_LINK_POLL_MS);
    return () => clearInterval(timer);
  }, [payLinkOut, job, setView]);

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
    const gone = source ? readFailed : live.state === 'gone' ? (live.status === 410 ? live.message : 'Job not found. Check the link the operator sent.') : null;
    return (
      <main className="mx-auto max-w-md p-6">
        <title>Job</title>
        {gone ? <h1 className="text-2xl font-bold">{gone}</h1> : <p role="status">Loading the job…</p>}
      </main>
    );
  }
  const next = NEXT[view.status];
  const finished = DRIVER_FINISHED[view.status];
  const pickup: Place = view.position ?? { postcode: view.pickupPostcode };
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
        {finished && (
          <p role="alert" className={`mt-2 text-lg font-semibold ${view.status === 'completed' ? '' : 'text-red-800'}`}>
            {finished}
          </p>
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
          {view.gearbox && (
            <>
              <dt className="text-slate-700">Gearbox</dt>
              <dd>{view.gearbox}</dd>
            </>
          )}
          {view.rolling && (
            <>
              <dt className="text-slate-700">Rolling</dt>
              <dd>{view.rolling}</dd>
            </>
          )}
          <dt className="text-slate-700">Problem</dt>
          <dd>{view.problemType}</dd>
          <dt className="text-slate-700">Passengers</dt>
          <dd>{view.passengers === 0 ? 'None' : view.passengers}</dd>
          {view.position && (
            <>
              <dt className="text-slate-700">Position sent</dt>
              <dd>
                {view.position.lat.toFixed(5)}, {view.position.lng.toFixed(5)}
              </dd>
            </>
          )}
        </dl>
        {view.note && <p className="mt-3 rounded-lg bg-amber-50 p-3">{view.note}</p>}
        <p className="mt-3 text-xl font-bold">
          {view.balanceRecorded && view.balance === 0 ? BALANCE_RECORDED[view.balanceRecorded] : balanceWords(view.balance)}
        </p>
        {view.balanceRecorded === 'on_account' && <p className="mt-1">{BALANCE_RECORDED.on_account}</p>}
      </section>
      {view.status === 'completed' && view.balance > 0 && (
        <section aria-labelledby="balance-heading" className={card}>
          <h2 id="balance-heading" className="text-lg font-semibold">
            {balanceQuestion(view.balance)}
          </h2>
          <BalanceButtons busy={busy} onPick={(method) => void recordBalance(method)} skip={view.balanceRecorded === 'on_account' ? 'on_account' : null} />
          {view.payByLink && !view.payLink && (
            <button
              type="button"
              disabled={busy}
              onClick={() => void makePayLink()}
              className="mt-2 min-h-12 w-full rounded-lg border-2 border-brand-700 text-lg font-semibold text-brand-700 disabled:opacity-60"
            >
              {PAY_BY_LINK}
            </button>
          )}
          {view.payLink && <PayLinkCode link={view.payLink} balance={view.balance} />}
        </section>
      )}
      {!finished && (
        <section aria-labelledby="navigate-heading" className={card}>
          <h2 id="navigate-heading" className="text-lg font-semibold">
            Navigate
          </h2>
          <Navigate label={view.position ? 'To the customer’s position' : `To the pickup, ${view.pickupPostcode}`} place={pickup} />
          <Navigate label={`To the destination, ${view.destinationPostcode}`} place={{ postcode: view.destinationPostcode }} />
        </section>
      )}
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
      {/* Photos and signatures go up the way the job is reached: its link's token, or the signed-in driver's session. */}
      <DriverProof source={job.proof} status={view.status} onBlock={setProofBlock} onQueued={(queued) => (queuedPhotos.current = queued)} />
      {problem && (
        <p role="alert" className="text-red-800">
          {problem}
        </p>
      )}
      {next && askBalance && (
        <fieldset className="fixed inset-x-0 bottom-0 grid gap-2 bg-white/95 p-4 shadow-[0_-1px_4px_rgba(0,0,0,0.1)]" aria-labelledby="complete-balance">
          <p id="complete-balance" className="mx-auto w-full max-w-md text-lg font-semibold">
            {balanceQuestion(view.balance)}
          </p>
          <div className="mx-auto w-full max-w-md">
            <BalanceButtons busy={busy} onPick={(method) => void move('completed', method)} skip={null} />
          </div>
          <button
            type="button"
            disabled={busy}
            onClick={() => void move('completed')}
            className="mx-auto min-h-12 w-full max-w-md rounded-lg border-2 border-slate-700 text-lg font-semibold"
          >
            {NOT_PAID_YET}
          </button>
        </fieldset>
      )}
      {next && !askBalance && (
        <div className="fixed inset-x-0 bottom-0 bg-white/95 p-4 shadow-[0_-1px_4px_rgba(0,0,0,0.1)]">
          {proofBlock && <p className="mx-auto mb-2 max-w-md text-center font-semibold text-red-800">{proofBlock}</p>}
          <button
            type="button"
            disabled={busy || proofBlock !== null}
            onClick={() => (next.step === 'completed' && view.balance > 0 ? setAskBalance(true) : void move(next.step))}
            className="mx-auto flex min-h-16 w-full max-w-md items-center justify-center rounded-xl bg-brand-700 text-xl font-bold text-white disabled:opacity-60"
          >
            {next.label}
          </button>
        </div>
      )}
    </main>
  );
}

function Navigate({ label, place }: { label: string; place: Place }) {
  return (
    <div className="mt-3">
      <p className="font-medium">{label}</p>
      <div className="mt-1 grid grid-cols-3 gap-2">
        {navigationLinks(place).map((link) => (
          <a
            key={link.app}
            href={link.href}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`${label} in ${link.app}`}
            className="flex min-h-12 items-center justify-center rounded-lg border-2 border-slate-700 px-1 text-center text-sm font-semibold"
          >
            {link.app}
          </a>
        ))}
      </div>
    </div>
  );
}

/** One button per way the balance may have been paid (one left out: the one recorded already). */
function BalanceButtons({ busy, onPick, skip }: { busy: boolean; onPick: (method: BalanceMethod) => void; skip: BalanceMethod | null }) {
  return (
    <div className="mt-2 grid grid-cols-2 gap-2">
      {BALANCE_METHODS.filter((method) => method !== skip).map((method) => (
        <button
          key={method}
          type="button"
          disabled={busy}
          onClick={() => onPick(method)}
          className="min-h-12 rounded-lg bg-brand-700 text-lg font-semibold text-white disabled:opacity-60"
        >
          {BALANCE_METHOD_LABELS[method]}
        </button>
      ))}
    </div>
  );
}
