// The motorist's view of the job's photos and the job report on the status page (docs/product.md,
// "Proof of condition"), by the job's token. Read again when the job moves on.
import { useQuery } from '@tanstack/react-query';
import { api, call } from '#shared/api-client';
import type { JobView } from '#shared/booking-responses';
import { ProofGallery } from './ProofGallery';

export function JobProof({ token, job }: { token: string; job: JobView }) {
  const shown = job.status === 'arrived' || job.status === 'loaded' || job.status === 'completed';
  const proof = useQuery({
    queryKey: ['job-proof', token, job.status],
    queryFn: () => call(api().jobs[':token'].proof.$get, { param: { token } }, { anonymous: true }),
    enabled: shown,
    // Photos arrive while the driver works: looked at again every half minute until the job is done.
    refetchInterval: job.status === 'completed' ? false : 30_000,
  });
  if (!shown || !proof.data) return null;
  return (
    <section aria-label="Photos and condition" className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-900/5">
      <ProofGallery proof={proof.data} />
    </section>
  );
}
