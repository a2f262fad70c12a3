// One of the signed-in driver's jobs, /dashboard/my-jobs/{reference} (docs/product.md §23): the
// driver's page (admin/src/pages/job/DriverPage.tsx) on the session's routes instead of a link's
// token, read again whenever the job changes (a cancel by the motorist, a reassignment); its
// photos, checklist and signature go up with the session too, queued on the phone as by the link.
import { useCallback, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { call, pathOf, portalApi } from '#shared/api-client';
import DriverPage, { type DriverJobSource } from '../../job/DriverPage';
import { myJobProof } from '../../job/proof/DriverProof';
import { useJobChanges } from '../board/api';

/** The driver's page's source for the signed-in person's own job: its session routes, as the link's are by token. */
export function myJobSource(reference: string, version: number): DriverJobSource {
  const endpoint = portalApi['my-jobs'][':reference'];
  const param = { reference };
  return {
    read: () => call(endpoint.$get, { param }),
    // With Loaded or Completed, the stage's photos still queued on this phone, which the server counts.
    move: (status, balanceMethod, queuedPhotos) =>
      call(endpoint.status.$post, {
        param,
        json: { status, ...(balanceMethod ? { balanceMethod } : {}), ...(queuedPhotos?.length ? { queuedPhotos } : {}) },
      }),
    position: (json) => call(endpoint.position.$post, { param, json }),
    // How the balance was paid, recorded after completion, and the balance by card (QR code and a
    // text to the customer): both as the driver's link page takes them.
    balance: (method) => call(endpoint.balance.$post, { param, json: { method } }),
    payLink: () => call(endpoint['pay-link'].$post, { param }),
    proof: myJobProof(reference),
    version,
  };
}

export default function MyJobPage() {
  const { reference = '' } = useParams();
  const [version, setVersion] = useState(0);
  const onChange = useCallback((change: { reference: string }) => change.reference === reference && setVersion((v) => v + 1), [reference]);
  useJobChanges(pathOf(portalApi['my-jobs'].events), onChange);
  const source = useMemo(() => myJobSource(reference, version), [reference, version]);
  return <DriverPage source={source} />;
}
