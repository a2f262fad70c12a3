import { LEAD_STATUS_LABELS, LEAD_STATUSES, type LeadStatus } from '#shared/leads';
import { Badge } from '../../../components/ui';

const TONES = { new: 'brand', contacted: 'warning', won: 'success', lost: 'neutral' } as const satisfies Record<LeadStatus, string>;

export function StatusBadge({ status }: { status: LeadStatus }) {
  return <Badge tone={TONES[status]}>{LEAD_STATUS_LABELS[status]}</Badge>;
}

/** The four statuses as a select's options, in their order. */
export function StatusOptions() {
  return LEAD_STATUSES.map((status) => (
    <option key={status} value={status}>
      {LEAD_STATUS_LABELS[status]}
    </option>
  ));
}
