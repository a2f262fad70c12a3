// The motorist's receipt, VAT invoice and credit notes on the status page (docs/product.md §22):
// listed once the job is completed with money paid at booking, each a PDF download by the job's
// token. Read again when a refund changes what was paid, so a new credit note appears. A job on a
// trade account lists its delivery note in the receipt's place (§26), downloaded as the receipt.
import { useQuery } from '@tanstack/react-query';
import { api, call, pathOf } from '#shared/api-client';
import type { DocumentSummary } from '#shared/documents';
import type { JobView } from '#shared/booking-responses';
import { formatPounds } from '#shared/money';

const linkName = (d: DocumentSummary) =>
  d.kind === 'delivery_note'
    ? 'Download delivery note (PDF)'
    : `Download ${d.title.toLowerCase().replace(/^vat/, 'VAT').replace(/ vat /, ' VAT ')} ${d.number} (PDF)`;

/** A receipt, an invoice or a delivery note: what this section is for (the job report is listed with the photos). */
const isIssued = (d: DocumentSummary) => d.kind !== 'job_report';

export function JobDocuments({ token, job }: { token: string; job: JobView }) {
  // Paid at booking, or the balance recorded at completion: a receipt is owed, issued again when the balance is recorded later.
  // On account: the delivery note stands in the receipt's place.
  const owed = job.status === 'completed' && ((job.payment !== null && job.payment.status !== 'awaiting') || job.balanceRecorded !== null || job.onAccount);
  const client = api();
  const documents = useQuery({
    queryKey: ['job-documents', token, job.payment?.refunded ?? 0, job.balanceRecorded],
    queryFn: () => call(client.jobs[':token'].documents.$get, { param: { token } }, { anonymous: true }),
    enabled: owed,
    // Issued as the job completes: a moment's wait at most.
    refetchInterval: (query) => (query.state.data?.some(isIssued) ? false : 3_000),
  });
  if (!owed) return null;
  return (
    <section aria-labelledby="documents-heading" className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-900/5">
      <h2 id="documents-heading" className="font-semibold">
        {job.onAccount ? 'Delivery note' : 'Receipt'}
      </h2>
      {documents.data?.some(isIssued) ? (
        <ul className="mt-2 space-y-2">
          {/* The job report has its own link under 'Photos and condition' on this page. */}
          {documents.data.filter(isIssued).map((d) => (
            <li key={`${d.kind}-${d.number}`}>
              <a
                href={
                  d.kind === 'delivery_note'
                    ? pathOf(client.jobs[':token'].receipt, { param: { token } })
                    : pathOf(client.jobs[':token'].documents[':number'], { param: { token, number: d.number } })
                }
                download
                className="flex min-h-12 items-center justify-between rounded-lg border border-slate-300 px-4 font-semibold underline"
              >
                <span>{linkName(d)}</span>
                {d.total !== null && <span className="text-slate-700">{formatPounds(d.total)}</span>}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-slate-700" role="status">
          {documents.isError ? 'Your receipt could not be loaded. Please reload the page.' : 'Your receipt is being prepared…'}
        </p>
      )}
    </section>
  );
}
