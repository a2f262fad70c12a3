// A completed, paid job's receipt or VAT invoice and its credit notes in the Jobs card
// (docs/product.md §22), with its job report once issued, each a PDF download, and a full VAT
// invoice when the customer asks for one.
import { useState } from 'react';
import type { Booking } from '#shared/booking-responses';
import { CUSTOMER_ADDRESS_REQUIRED } from '#shared/documents';
import { formatPounds } from '#shared/money';
import { toast } from '../../../components/toast';
import { Button, Field, Textarea } from '../../../components/ui';
import { errorText } from '../api';
import { documentHref, useFullInvoice, useJobDocuments } from './documents-api';

export function JobDocumentLinks({ job }: { job: Booking }) {
  const documents = useJobDocuments(job.reference, job.payment?.refunded ?? 0);
  const full = useFullInvoice(job.reference);
  // A full VAT invoice shows the customer's address: asked for first.
  const [asking, setAsking] = useState(false);
  const [address, setAddress] = useState('');
  const [addressError, setAddressError] = useState<string | undefined>();
  const list = documents.data ?? [];
  if (list.length === 0) return <p className="text-sm text-slate-700">{documents.isError ? 'Unable to load the receipt.' : 'Receipt being issued…'}</p>;
  const mayAskFull = list.some((d) => d.kind === 'simplified_invoice') && !list.some((d) => d.kind === 'vat_invoice');
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      {list.map((d) => (
        <a key={`${d.kind}-${d.number}`} className="font-medium text-brand-700 underline" href={documentHref(job.reference, d)} download>
          {d.kind === 'job_report'
            ? `${d.title} (PDF)`
            : `${[d.title, d.number].filter(Boolean).join(' ')} (${d.total === null ? '' : `${formatPounds(d.total)}, `}PDF)`}
        </a>
      ))}
      {mayAskFull && !asking && (
        <Button type="button" variant="outline" size="sm" onClick={() => setAsking(true)}>
          Issue full VAT invoice
        </Button>
      )}
      {mayAskFull && asking && (
        <form
          noValidate
          aria-label={`Full VAT invoice for TQ-${job.reference}`}
          className="grid w-full gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (address.trim() === '') return setAddressError(CUSTOMER_ADDRESS_REQUIRED);
            setAddressError(undefined);
            full.mutate(address, {
              onSuccess: (d) => {
                setAsking(false);
                toast({ title: `VAT invoice ${d.number} issued` });
              },
              onError: (error) => toast({ title: 'Could not issue the VAT invoice', description: errorText(error), variant: 'destructive' }),
            });
          }}
        >
          <Field label="Customer’s address" hint="A full VAT invoice shows it, as the customer gives it." error={addressError}>
            <Textarea rows={3} maxLength={300} value={address} onChange={(event) => setAddress(event.currentTarget.value)} />
          </Field>
          <div>
            <Button type="submit" size="sm" disabled={full.isPending}>
              Issue VAT invoice
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
