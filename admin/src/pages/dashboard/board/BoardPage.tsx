// The dispatch board, /dashboard/board (docs/product.md §23), for the owner and the dispatcher, on
// a phone or a desk: every open job in columns by status, jobs for later by their day in time
// order, and those done today. A card shows the route, the vehicle, how long it has waited, the
// driver and the truck; "Assign" and then one tap on a truck gives the job that truck and its
// usual driver (or the driver tapped first): two taps. Trucks that can carry the vehicle come first;
// one that cannot asks to confirm. Live: the portal's board stream reads it again at every change.
import { lazy, memo, startTransition, Suspense, useCallback, useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { ApiRequestError } from '#shared/api-client';
import { errorCodeOf } from '#shared/error-codes';
import { BOOKING_STATUS_LABELS, clockTime, isFinished } from '#shared/bookings';
import type { Board, BoardJob, TruckRow } from '#shared/dispatch-schemas';
import { TRUCK_KIND_WORDS } from '#shared/trucks';
import { PortalShell } from '../../../components/PortalShell';
import { toast } from '../../../components/toast';
import { Button, ConfirmDialog, Dialog, FullPageSpinner } from '../../../components/ui';
import { useAuth } from '../../../lib/auth';
import { useNow } from '../jobs/format';
import { useAcceptLater, useAssign, useBoard } from './api';

// Below the jobs, with forms and reads of their own: fetched after the first screen, not before it.
const TrucksCard = lazy(() => import('./TrucksCard').then((m) => ({ default: m.TrucksCard })));
const DispatchSettingsCard = lazy(() => import('./DispatchSettingsCard').then((m) => ({ default: m.DispatchSettingsCard })));

const COLUMNS = [
  { title: 'Requested', statuses: ['requested'] },
  { title: 'Accepted', statuses: ['accepted'] },
  { title: 'On the way', statuses: ['on_the_way'] },
  { title: 'At scene / loaded', statuses: ['arrived', 'loaded'] },
] as const;

const londonDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' });
const dayWords = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', weekday: 'long', day: 'numeric', month: 'long' });
/** 'Today', 'Tomorrow' or 'Thursday 11 June': the heading a later job is listed under. */
export function dayHeading(iso: string, now: number): string {
  const day = londonDay.format(new Date(iso));
  if (day === londonDay.format(new Date(now))) return 'Later today';
  if (day === londonDay.format(new Date(now + 86_400_000))) return 'Tomorrow';
  return dayWords.format(new Date(iso));
}

/** "waited 12 min", "waited 2 h 5 min". */
export function waited(since: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(since)) / 60_000));
  return minutes < 60 ? `waited ${minutes} min` : `waited ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Columns of jobs for now, later jobs by day (time order), and those done today. */
export function arrange(jobs: BoardJob[], now: number) {
  const later = jobs.filter(
    (j) => j.scheduledFor !== null && !isFinished(j.status) && j.status !== 'on_the_way' && j.status !== 'arrived' && j.status !== 'loaded',
  );
  const isLater = new Set(later);
  const forNow = jobs.filter((j) => !isLater.has(j));
  const days = new Map<string, BoardJob[]>();
  for (const job of [...later].sort((a, b) => (a.scheduledFor ?? '').localeCompare(b.scheduledFor ?? ''))) {
    const heading = dayHeading(job.scheduledFor ?? '', now);
    days.set(heading, [...(days.get(heading) ?? []), job]);
  }
  return {
    columns: COLUMNS.map((c) => ({ title: c.title, jobs: forNow.filter((j) => (c.statuses as readonly string[]).includes(j.status)) })),
    later: [...days.entries()],
    done: forNow.filter((j) => isFinished(j.status)),
  };
}

/**
 * One job's card: plain elements and no state of its own, so 200 of them cost little to draw;
 * the browser skips laying out and painting those off screen until scrolled to.
 */
const JobCard = memo(function JobCard({ job, now, onAssign }: { job: BoardJob; now: number; onAssign: (job: BoardJob) => void }) {
  return (
    <li className="rounded-lg bg-white p-3 shadow-sm ring-1 ring-slate-900/10 [contain-intrinsic-size:auto_9rem] [content-visibility:auto]">
      <p className="font-semibold">
        {job.pickupPostcode} → {job.destinationPostcode}
      </p>
      <p className="text-sm text-slate-700">
        {job.vehicleType} · {job.registration} · TQ-{job.reference}
      </p>
      <p className="text-sm text-slate-700">
        {job.scheduledFor
          ? `${clockTime(job.scheduledFor)}${job.windowMinutes ? `–${clockTime(new Date(Date.parse(job.scheduledFor) + job.windowMinutes * 60_000).toISOString())}` : ''} · ${BOOKING_STATUS_LABELS[job.status]}`
          : isFinished(job.status)
            ? BOOKING_STATUS_LABELS[job.status]
            : waited(job.status === 'requested' ? job.createdAt : job.statusChangedAt, now)}
      </p>
      <p className="text-sm">
        Driver: <strong>{job.driver?.name ?? 'none'}</strong> · Truck: <strong>{job.truck?.name ?? 'none'}</strong>
        {job.truckOverride && <span className="ml-1 text-amber-800">(cannot carry this vehicle: confirmed)</span>}
      </p>
      {!isFinished(job.status) && (
        <Button variant="outline" className="mt-2 w-full" onClick={() => onAssign(job)}>
          {job.driver || job.truck ? 'Reassign' : job.scheduledFor && job.status === 'requested' ? 'Accept for later' : 'Assign'}
        </Button>
      )}
    </li>
  );
});

/**
 * Cards drawn in each list before the board's first paint; the rest follow at once in a
 * transition, which yields to the browser (and to taps) as it goes. A phone's first screen shows
 * two or three cards, a desk's a dozen at most.
 */
export const FIRST_SCREEN_CARDS = 12;

/** The first `FIRST_SCREEN_CARDS` of a list until the board has painted once, then all of it. */
export const firstScreen = <T,>(list: T[], complete: boolean): T[] => (complete ? list : list.slice(0, FIRST_SCREEN_CARDS));

const WINDOWS = [30, 60, 120] as const;

function AssignDialog({ job, board, onClose }: { job: BoardJob; board: Board; onClose: () => void }) {
  const [driverId, setDriverId] = useState<number | null>(job.driver?.id ?? null);
  const [windowMinutes, setWindowMinutes] = useState<number>(60);
  const [refusal, setRefusal] = useState<{ message: string; truck: TruckRow } | null>(null);
  const assign = useAssign(job.reference);
  const acceptLater = useAcceptLater(job.reference);
  const laterAnswer = job.scheduledFor !== null && job.status === 'requested';
  const capable = new Set(job.capableTruckIds);
  const trucks = [...board.trucks].sort((a, b) => Number(capable.has(b.id)) - Number(capable.has(a.id)));

  async function send(truck: TruckRow | null, confirm = false) {
    const driver = driverId ?? truck?.defaultDriver?.id ?? null;
    const body = { driverId: driver, truckId: truck?.id ?? null, ...(confirm ? { confirm: true } : {}) };
    try {
      if (laterAnswer) await acceptLater.mutateAsync({ windowMinutes, ...body });
      else await assign.mutateAsync(body);
      toast({ title: laterAnswer ? 'Accepted' : 'Assigned' });
      onClose();
    } catch (error) {
      if (error instanceof ApiRequestError && errorCodeOf(error.body) === 'TRUCK_CANNOT_CARRY' && truck) setRefusal({ message: error.serverMessage, truck });
      else toast({ title: error instanceof ApiRequestError ? error.serverMessage : 'No connection. Please try again.', variant: 'destructive' });
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`TQ-${job.reference}: ${job.pickupPostcode} → ${job.destinationPostcode}`}>
      <div className="flex flex-col gap-4">
        <fieldset>
          <legend className="mb-1 text-sm font-semibold">Driver (else the truck’s usual driver)</legend>
          <div className="flex flex-wrap gap-2">
            {board.drivers.map((d) => (
              <Button key={d.id} variant={driverId === d.id ? 'primary' : 'outline'} aria-pressed={driverId === d.id} onClick={() => setDriverId(d.id)}>
                {d.name}
              </Button>
            ))}
          </div>
        </fieldset>
        {laterAnswer && (
          <fieldset>
            <legend className="mb-1 text-sm font-semibold">Time window</legend>
            <div className="flex gap-2">
              {WINDOWS.map((w) => (
                <Button key={w} variant={windowMinutes === w ? 'primary' : 'outline'} aria-pressed={windowMinutes === w} onClick={() => setWindowMinutes(w)}>
                  {w < 60 ? `${w} min` : `${w / 60} h`}
                </Button>
              ))}
            </div>
          </fieldset>
        )}
        <fieldset>
          <legend className="mb-1 text-sm font-semibold">Truck</legend>
          <ul className="flex flex-col gap-2">
            {trucks.map((t) => (
              <li key={t.id}>
                <Button variant="outline" className="w-full justify-between" onClick={() => void send(t)}>
                  <span>
                    {t.name} · {TRUCK_KIND_WORDS[t.kind]}
                    {t.defaultDriver ? ` · ${t.defaultDriver.name}` : ''}
                  </span>
                  {!capable.has(t.id) && <span className="text-amber-800">Cannot carry</span>}
                </Button>
              </li>
            ))}
            <li>
              <Button variant="outline" className="w-full" onClick={() => void send(null)}>
                {laterAnswer ? 'Accept without a truck' : 'No truck'}
              </Button>
            </li>
          </ul>
        </fieldset>
      </div>
      {refusal && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setRefusal(null)}
          title="This truck cannot carry it"
          description={refusal.message}
          confirmLabel="Assign anyway"
          onConfirm={() => void send(refusal.truck, true)}
        />
      )}
    </Dialog>
  );
}

function BoardView() {
  const board = useBoard(true);
  const now = useNow(30_000);
  // The one job being assigned: its dialog is the board's, not each card's.
  const [assigning, setAssigning] = useState<string | null>(null);
  const onAssign = useCallback((job: BoardJob) => setAssigning(job.reference), []);
  const closeAssign = useCallback(() => setAssigning(null), []);
  const [complete, setComplete] = useState(false);
  const loaded = board.data !== undefined;
  useEffect(() => {
    if (loaded) startTransition(() => setComplete(true));
  }, [loaded]);
  if (!board.data) return <FullPageSpinner />;
  const { columns, later, done } = arrange(board.data.jobs, now);
  const data = board.data;
  // The dialog follows the job in each new read of the board (a reassignment elsewhere shows in it).
  const assigningJob = assigning === null ? undefined : data.jobs.find((j) => j.reference === assigning);
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6 sm:px-6">
      <title>Dispatch board</title>
      <h1 className="text-2xl font-bold">Dispatch board</h1>
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        {columns.map((column) => (
          <section key={column.title} aria-label={column.title} className="rounded-xl bg-slate-100 p-3">
            <h2 className="mb-2 font-semibold">
              {column.title} ({column.jobs.length})
            </h2>
            <ul className="flex flex-col gap-2">
              {firstScreen(column.jobs, complete).map((job) => (
                <JobCard key={job.reference} job={job} now={now} onAssign={onAssign} />
              ))}
            </ul>
          </section>
        ))}
      </div>
      {later.map(([heading, jobs]) => (
        <section key={heading} aria-label={heading} className="rounded-xl bg-sky-50 p-3">
          <h2 className="mb-2 font-semibold">{heading}</h2>
          <ul className="grid gap-2 md:grid-cols-2 xl:grid-cols-4">
            {firstScreen(jobs, complete).map((job) => (
              <JobCard key={job.reference} job={job} now={now} onAssign={onAssign} />
            ))}
          </ul>
        </section>
      ))}
      <section aria-label="Done today" className="rounded-xl bg-slate-100 p-3">
        <h2 className="mb-2 font-semibold">Done today ({done.length})</h2>
        <ul className="grid gap-2 md:grid-cols-2 xl:grid-cols-4">
          {firstScreen(done, complete).map((job) => (
            <JobCard key={job.reference} job={job} now={now} onAssign={onAssign} />
          ))}
        </ul>
      </section>
      {assigningJob && <AssignDialog job={assigningJob} board={data} onClose={closeAssign} />}
      <Suspense fallback={null}>
        <TrucksCard trucks={data.trucks} drivers={data.drivers} />
        <DispatchSettingsCard />
      </Suspense>
    </main>
  );
}

export default function BoardPage() {
  const { user } = useAuth();
  if (user && user.role === 'driver') return <Navigate to="/dashboard/my-jobs" replace />;
  return (
    <PortalShell>
      <BoardView />
    </PortalShell>
  );
}
