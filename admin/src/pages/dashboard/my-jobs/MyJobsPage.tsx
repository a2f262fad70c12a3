// "My jobs", /dashboard/my-jobs (docs/product.md §23): the signed-in driver's jobs for today, in
// order, each opening the driver's page for it (statuses, position sharing) without its link.
// Live: a job given to them appears, one taken off them goes, a cancelled one says so, with no reload.
import { useCallback, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, call, pathOf, portalApi } from '#shared/api-client';
import { BOOKING_STATUS_LABELS, clockTime } from '#shared/bookings';
import { PortalShell } from '../../../components/PortalShell';
import { toast } from '../../../components/toast';
import { Button, Card, CardContent, CardHeader, CardTitle, Field, FullPageSpinner, Input } from '../../../components/ui';
import { MY_JOBS_KEY, useJobChanges, useMyJobs } from '../board/api';

export const NO_JOBS = 'No jobs for you today yet. New ones appear here as they are given to you.';

function MyPhone() {
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | undefined>();
  async function save(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    try {
      await call(portalApi.me.phone.$put, { json: { phone } });
      toast({ title: 'Mobile number saved' });
    } catch (e) {
      setError(e instanceof ApiRequestError ? (e.fields?.phone ?? e.serverMessage) : 'No connection. Please try again.');
    }
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Texts about your jobs</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={(e) => void save(e)} className="flex flex-col gap-3">
          <Field label="Your mobile number" hint="We text you when a job is given to you or taken off you." error={error}>
            <Input inputMode="tel" autoComplete="tel" value={phone} onChange={(e) => setPhone(e.target.value)} />
          </Field>
          <Button type="submit">Save number</Button>
        </form>
      </CardContent>
    </Card>
  );
}

function MyJobs() {
  const queryClient = useQueryClient();
  const onChange = useCallback(() => void queryClient.invalidateQueries({ queryKey: MY_JOBS_KEY }), [queryClient]);
  const live = useJobChanges(pathOf(portalApi['my-jobs'].events), onChange);
  const jobs = useMyJobs(live);
  if (!jobs.data) return <FullPageSpinner />;
  return (
    <main className="mx-auto flex max-w-md flex-col gap-4 p-4">
      <title>My jobs</title>
      <h1 className="text-2xl font-bold">My jobs</h1>
      {jobs.data.length === 0 ? (
        <p>{NO_JOBS}</p>
      ) : (
        <ol className="flex flex-col gap-3">
          {jobs.data.map((job) => (
            <li key={job.reference}>
              <Link
                to={`/dashboard/my-jobs/${job.reference}`}
                className="block rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-900/10"
                aria-label={`TQ-${job.reference}, ${BOOKING_STATUS_LABELS[job.status]}, ${job.pickupPostcode} to ${job.destinationPostcode}`}
              >
                <p className="text-lg font-semibold">
                  {job.pickupPostcode} → {job.destinationPostcode}
                </p>
                <p className="text-slate-700">
                  {BOOKING_STATUS_LABELS[job.status]}
                  {job.scheduledFor ? ` · ${clockTime(job.scheduledFor)}` : ''} · {job.vehicleType} · {job.registration}
                  {job.truck ? ` · ${job.truck}` : ''}
                </p>
              </Link>
            </li>
          ))}
        </ol>
      )}
      <MyPhone />
    </main>
  );
}

export default function MyJobsPage() {
  return (
    <PortalShell>
      <MyJobs />
    </PortalShell>
  );
}
