// A stored quote as its operator sees it: pounds, the contact marker as one object, and the lines
// as they were quoted (or, for quotes stored before lines were, rebuilt from the fee columns).
import { penceToPounds } from '#shared/money';
import type { ContactChannel } from '#shared/leads';
import type { Lead, LeadDetail } from '#shared/types';
import type { LeadDetailRow, LeadEventRow, LeadRow } from './store';

export function toLead(row: LeadRow): Lead {
  return {
    reference: row.publicId,
    createdAt: row.createdAt,
    pickupPostcode: row.pickupPostcode,
    destinationPostcode: row.destinationPostcode,
    distance: row.distance,
    vehicleType: row.vehicleType,
    gearboxType: row.gearboxType,
    rollingStatus: row.rollingStatus,
    passengerCount: row.passengerCount,
    problemType: row.problemType,
    urgency: row.urgency as Lead['urgency'],
    preferredDate: row.preferredDate,
    preferredTime: row.preferredTime,
    totalPrice: penceToPounds(row.totalPricePence),
    status: row.status,
    statusChangedAt: row.statusChangedAt,
    customerContact: row.contactChannel && row.contactedAt ? { channel: row.contactChannel, at: row.contactedAt } : null,
    customerContacts: contactTaps(row),
    takenBy: row.takenBy,
  };
}

/** Each button's first tap, oldest first; before the per-button columns, the marker stood for its own button. */
export function contactTaps(
  row: Pick<LeadRow, 'contactChannel' | 'contactedAt' | 'whatsappTappedAt' | 'phoneTappedAt'>,
): Array<{ channel: ContactChannel; at: string }> {
  const firstOf = (channel: ContactChannel, at: string | null) => at ?? (row.contactChannel === channel ? row.contactedAt : null);
  const taps: Array<{ channel: ContactChannel; at: string | null }> = [
    { channel: 'whatsapp', at: firstOf('whatsapp', row.whatsappTappedAt) },
    { channel: 'phone', at: firstOf('phone', row.phoneTappedAt) },
  ];
  return taps.filter((tap): tap is { channel: ContactChannel; at: string } => tap.at !== null).sort((a, b) => a.at.localeCompare(b.at));
}

export function toLeadDetail(row: LeadDetailRow, history: LeadEventRow[]): LeadDetail {
  return {
    ...toLead(row),
    lines: quotedLines(row).map((line) => ({ label: line.label, amount: penceToPounds(line.amountPence) })),
    vat: row.vatRatePercent > 0 ? { rate: row.vatRatePercent, amount: penceToPounds(row.vatPence) } : null,
    validUntil: row.validUntil,
    history: history.map((event) => ({ status: event.status, note: event.note, at: event.createdAt })),
  };
}

interface PenceLine {
  label: string;
  amountPence: number;
}

/**
 * The stored lines; a quote from before the "More rules" kept only the four fee columns, so the rest of
 * its total (the vehicle's base price and its gearbox, rolling-status and passenger charges) is
 * one line, and the lines still add up to the total.
 */
export function quotedLines(row: LeadDetailRow): PenceLine[] {
  if (row.lines !== null) return JSON.parse(row.lines) as PenceLine[];
  const fees: PenceLine[] = [
    { label: 'Call-out Fee', amountPence: row.callOutFeePence },
    { label: `Distance (${row.distance} miles)`, amountPence: row.distanceFeePence },
    { label: 'Labour Fee', amountPence: row.labourFeePence },
    { label: 'Extras', amountPence: row.extraFeesPence },
  ];
  const vehicle = row.totalPricePence - fees.reduce((sum, line) => sum + line.amountPence, 0);
  return [{ label: 'Vehicle and options', amountPence: vehicle }, ...fees].filter((line, i) => i < 3 || line.amountPence !== 0);
}
