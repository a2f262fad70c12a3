// One quote opened: what was quoted, line by line as the motorist saw it, and its follow-up (the
// status with an optional note, and every change with its time).
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { ApiRequestError } from '#shared/api-client';
import { LEAD_NOTE_MAX, LEAD_STATUS_LABELS } from '#shared/leads';
import { formatPounds } from '#shared/money';
import { leadStatusUpdateSchema } from '#shared/schemas';
import type { LeadDetail } from '#shared/types';
import { toast } from '../../../components/toast';
import { Button, Dialog, Field, Select, Spinner, Textarea } from '../../../components/ui';
import { errorText } from '../api';
import { useLead, useSaveLeadStatus } from './api';
import { contactText, formatDateTime, routeText, vehicleText, whenText } from './format';
import { StatusBadge, StatusOptions } from './StatusBadge';

interface LeadDetailDialogProps {
  /** The `quote` search parameter as given; null when no quote is open. */
  requested: string | null;
  /** Its reading by readReference: null when it cannot be a reference. */
  reference: string | null;
  onClose: () => void;
}

export function LeadDetailDialog({ requested, reference, onClose }: LeadDetailDialogProps) {
  const lead = useLead(reference);
  const shown = reference ? `TQ-${reference}` : requested;
  const notFound = !reference || (lead.error instanceof ApiRequestError && lead.error.status === 404);
  return (
    <Dialog open={requested !== null} onOpenChange={(open) => !open && onClose()} title={`Quote ${shown ?? ''}`}>
      {notFound ? (
        <p role="alert" className="text-sm text-red-700">
          No quote {shown} found. Check the reference the customer gave you.
        </p>
      ) : lead.isError ? (
        <p role="alert" className="text-sm text-red-700">
          Unable to load this quote: {errorText(lead.error)}
        </p>
      ) : lead.data ? (
        <LeadBody lead={lead.data} />
      ) : (
        <Spinner label="Loading the quote" />
      )}
    </Dialog>
  );
}

function LeadBody({ lead }: { lead: LeadDetail }) {
  // Here rather than in the form, which is remounted by the change it saves.
  const save = useSaveLeadStatus(lead.reference);
  return (
    <div className="grid gap-5 text-sm">
      <div className="grid gap-1 text-slate-700">
        <p>
          Quoted <time dateTime={lead.createdAt}>{formatDateTime(lead.createdAt)}</time>
        </p>
        <p className="font-medium text-slate-900">{routeText(lead)}</p>
        <p>{vehicleText(lead)}</p>
        <p>When: {whenText(lead)}</p>
        {lead.customerContacts.map((tap) => (
          <p key={tap.channel} className="font-medium text-green-800">
            {contactText(tap, lead.createdAt)}
          </p>
        ))}
      </div>

      <section aria-labelledby="lead-lines" className="grid gap-2">
        <h3 id="lead-lines" className="font-semibold">
          As quoted
        </h3>
        <dl className="divide-y divide-slate-200">
          {lead.lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list that never reorders; lines may repeat a label
            <div key={index} className="flex justify-between gap-4 py-1.5">
              <dt className="text-slate-700">{line.label}</dt>
              <dd className="tabular-nums">{formatPounds(line.amount)}</dd>
            </div>
          ))}
          <div className="flex justify-between gap-4 py-1.5 font-semibold">
            <dt>Total</dt>
            <dd className="tabular-nums">{formatPounds(lead.totalPrice)}</dd>
          </div>
        </dl>
        {lead.vat && (
          <p className="text-slate-700">
            Includes VAT ({lead.vat.rate}%): {formatPounds(lead.vat.amount)}
          </p>
        )}
        <p className="text-slate-700">Valid until {lead.validUntil ? formatDateTime(lead.validUntil) : 'not recorded'}</p>
      </section>

      <div className="grid gap-2">
        {/* Keyed by the history, so a saved change starts the form again from what was saved. */}
        <StatusForm key={`${lead.reference}-${lead.history.length}`} lead={lead} save={save} />
        {/* Said here as well as in the toast: the modal dialog hides the toaster from assistive technology. */}
        <p role="status" className="text-sm text-green-800">
          {save.isSuccess && `Saved: TQ-${save.data.reference} is now ${LEAD_STATUS_LABELS[save.data.status]}`}
        </p>
        {save.isError && (
          <p role="alert" className="text-sm text-red-700">
            Not saved: {errorText(save.error)}
          </p>
        )}
      </div>

      <section aria-labelledby="lead-history" className="grid gap-2">
        <h3 id="lead-history" className="font-semibold">
          History
        </h3>
        <ol className="grid gap-2">
          <li className="text-slate-700">
            Quoted <time dateTime={lead.createdAt}>{formatDateTime(lead.createdAt)}</time>
          </li>
          {lead.history.map((change, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a read-only history that never reorders; entries may repeat
            <li key={index} className="grid gap-1">
              <span className="flex flex-wrap items-center gap-2">
                <StatusBadge status={change.status} />
                <time dateTime={change.at} className="text-slate-700">
                  {formatDateTime(change.at)}
                </time>
              </span>
              {change.note && <p className="whitespace-pre-wrap break-words text-slate-800">{change.note}</p>}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

function StatusForm({ lead, save }: { lead: LeadDetail; save: ReturnType<typeof useSaveLeadStatus> }) {
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm({ resolver: zodResolver(leadStatusUpdateSchema), defaultValues: { status: lead.status, note: '' } });
  const noteLength = watch('note')?.length ?? 0;

  const onSubmit = handleSubmit(({ status, note }) =>
    save.mutate(note ? { status, note } : { status }, {
      onSuccess: (saved) => toast({ title: 'Quote updated', description: `TQ-${saved.reference} is now ${LEAD_STATUS_LABELS[saved.status]}` }),
      // What was typed stays in the form, so nothing is lost to a failed save.
      onError: (error) => {
        toast({ title: 'Error updating the quote', description: errorText(error), variant: 'destructive' });
        const fields = error instanceof ApiRequestError ? error.fields : undefined;
        for (const [field, message] of Object.entries(fields ?? {})) {
          if (field === 'status' || field === 'note') setError(field, { message });
        }
      },
    }),
  );

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-3 rounded-lg border border-slate-200 p-4">
      <Field label="Status" error={errors.status?.message}>
        <Select {...register('status')}>
          <StatusOptions />
        </Select>
      </Field>
      <Field label="Note (optional)" hint={`${noteLength}/${LEAD_NOTE_MAX} characters`} error={errors.note?.message}>
        <Textarea rows={3} {...register('note')} />
      </Field>
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Status'}
        </Button>
      </div>
    </form>
  );
}
