// A job's photos, signatures, checklists and job report in the Jobs card (docs/product.md, "Proof
// of condition"), through the operator's session: thumbnails, full size on tap, each photo's
// time. Shown from the driver's arrival on, folded until opened.
import { useQuery } from '@tanstack/react-query';
import { call, pathOf, portalApi } from '#shared/api-client';
import type { Booking } from '#shared/booking-responses';
import { ProofGallery } from '../../job/proof/ProofGallery';

export function JobProofPanel({ job }: { job: Booking }) {
  const shown = job.status === 'arrived' || job.status === 'loaded' || job.status === 'completed';
  const proof = useQuery({
    queryKey: [pathOf(portalApi.bookings[':reference'].proof, { param: { reference: job.reference } }), job.status],
    queryFn: () => call(portalApi.bookings[':reference'].proof.$get, { param: { reference: job.reference } }),
    enabled: shown,
  });
  if (
    !shown ||
    !proof.data ||
    (proof.data.files.length === 0 && proof.data.conditions.length === 0 && proof.data.awaiting.length === 0 && !proof.data.reportUrl)
  )
    return null;
  return (
    <details className="rounded-md border border-slate-200 p-3">
      <summary className="cursor-pointer text-sm font-medium text-brand-700">
        Photos and condition ({proof.data.files.length} {proof.data.files.length === 1 ? 'file' : 'files'})
      </summary>
      <div className="mt-2">
        <ProofGallery proof={proof.data} headingLevel={3} />
      </div>
    </details>
  );
}
