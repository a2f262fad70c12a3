// A completed, paid job's receipt or VAT invoice and its credit notes in the Jobs card
// (docs/product.md §22), each a PDF download, and a full VAT invoice when the customer asks for one.
import type { Booking } from '#shared/booking-responses';
import { formatPounds } from '#shared/money';
import { toast } from '../../../components/toast';
import { Button } from '../../../components/ui';
import { errorText } from '../api';
import { documentHref, useFullInvoice, useJobDocuments } from './documents-api';

export function JobDocumentLinks({ job }: { job: Booking }) {
  const documents = useJobDocuments(job.reference, job.payment?.refunded ?? 0);
  const full = useFullInvoice(job.reference);
  const list = documents.data ?? [];
  if (list.length === 0) return <p className="text-sm text-slate-700">{documents.isError ? 'Unable to load the receipt.' : 'Receipt being issued…'}</p>;
  const mayAskFull = list.some((d) => d.kind === 'simplified_invoice') && !list.some((d) => d.kind === 'vat_invoice');
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      {list.map((d) => (
        <a key={d.number} className="font-medium text-brand-700 underline" href={documentHref(job.reference, d.number)} download>
          {d.title} {d.number} ({formatPounds(d.total)}, PDF)
        </a>
      ))}
      {mayAskFull && (
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={full.isPending}
          onClick={() =>
            full.mutate(undefined, {
              onSuccess: (d) => toast({ title: `VAT invoice ${d.number} issued` }),
              onError: (error) => toast({ title: 'Could not issue the VAT invoice', description: errorText(error), variant: 'destructive' }),
            })
          }
        >
          Issue full VAT invoice
        </Button>
      )}
    </div>
  );
}
