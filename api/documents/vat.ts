// The arithmetic of receipts, VAT invoices and credit notes (docs/product.md §22), pure and in
// pence: each line of the frozen quote split into net, rate and VAT so the lines add up to the
// penny to the quote's total and its VAT, which document a job gets, and a credit note's VAT.
import { SIMPLIFIED_INVOICE_LIMIT_PENCE, type DocumentKind } from '#shared/documents';

/** A line of a stored quote, as frozen with it. */
export interface QuoteLine {
  label: string;
  amountPence: number;
}

/** A line as a document prints it. */
export interface DocumentLine {
  label: string;
  /** A second, smaller line under the label: an account invoice's vehicle and route. */
  detail?: string;
  netPence: number;
  vatRatePercent: number;
  vatPence: number;
  grossPence: number;
}

export interface DocumentTotals {
  netPence: number;
  vatPence: number;
  grossPence: number;
  /** Paid by card (at booking, less any refund made before the document); a credit note: 0. */
  paidPence: number;
  /** Left to pay the operator: gross less paid. */
  balancePence: number;
}

/** What a quote froze of its price. */
export interface FrozenPrice {
  lines: QuoteLine[] | null;
  totalPence: number;
  vatPence: number;
  vatRatePercent: number;
}

/**
 * Shares `amount` out over `weights` in proportion, each share a whole penny, adding up to exactly
 * `amount`: floors first, then the pennies left to the largest remainders (earlier lines on a tie).
 */
export function shareOut(amount: number, weights: readonly number[]): number[] {
  const base = weights.map((w) => Math.max(w, 0));
  const sum = base.reduce((a, b) => a + b, 0);
  if (weights.length === 0) return [];
  if (sum === 0) return weights.map((_, i) => (i === 0 ? amount : 0));
  const exact = base.map((w) => (amount * w) / sum);
  const shares = exact.map(Math.floor);
  let left = amount - shares.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, r: e - Math.floor(e) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left -= 1) shares[order[k].i] += 1;
  return shares;
}

const sumOf = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const isVatLine = (line: QuoteLine, vatPence: number) => /^VAT\b/.test(line.label) && line.amountPence === vatPence;

/**
 * The quote's lines with their net, rate and VAT. Prices that exclude VAT carry a 'VAT (20%)'
 * line: the other lines are net, and that VAT is shared over them. Prices that include VAT carry
 * none: the lines are gross, and the quote's VAT is shared over them. Either way the grosses add
 * up to the quote's total and the VATs to its VAT. Lines that do not add up (a quote stored before
 * lines were kept) become one line of the total.
 */
export function documentLines(price: FrozenPrice): DocumentLine[] {
  const rate = price.vatPence > 0 ? price.vatRatePercent : 0;
  const vat = rate > 0 ? price.vatPence : 0;
  let lines = price.lines && sumOf(price.lines.map((l) => l.amountPence)) === price.totalPence ? price.lines : null;
  let netLines = false;
  if (lines && vat > 0) {
    const vatLine = lines.findIndex((l) => isVatLine(l, vat));
    if (vatLine >= 0) {
      lines = lines.filter((_, i) => i !== vatLine);
      netLines = true;
    }
  }
  lines ??= [{ label: 'Vehicle recovery', amountPence: price.totalPence }];
  const vats = shareOut(
    vat,
    lines.map((l) => l.amountPence),
  );
  return lines.map((l, i) => {
    const net = netLines ? l.amountPence : l.amountPence - vats[i];
    return { label: l.label, netPence: net, vatRatePercent: rate, vatPence: vats[i], grossPence: net + vats[i] };
  });
}

/** The totals of `lines`, with what was paid. */
export function totalsOf(lines: readonly DocumentLine[], paidPence: number): DocumentTotals {
  const grossPence = sumOf(lines.map((l) => l.grossPence));
  return {
    netPence: sumOf(lines.map((l) => l.netPence)),
    vatPence: sumOf(lines.map((l) => l.vatPence)),
    grossPence,
    paidPence,
    balancePence: Math.max(grossPence - paidPence, 0),
  };
}

/**
 * The document a completed, paid job gets: a receipt unless the operator issues VAT invoices
 * (registered, with a VAT number, and VAT in the price); then a simplified VAT invoice up to £250
 * including VAT, a full one above it or when asked for.
 */
export function documentKindFor(vatInvoice: boolean, grossPence: number, fullAskedFor = false): Exclude<DocumentKind, 'credit_note'> {
  if (!vatInvoice) return 'receipt';
  return fullAskedFor || grossPence > SIMPLIFIED_INVOICE_LIMIT_PENCE ? 'vat_invoice' : 'simplified_invoice';
}

/**
 * A credit note's one line for `refundPence` against an original of `original` totals, after
 * `creditedPence` already credited: its VAT is the difference between the original's VAT share of
 * everything credited after it and before it, so the credit notes of a full refund add up to the
 * penny to the original's VAT.
 */
export function creditLine(
  label: string,
  refundPence: number,
  creditedPence: number,
  original: Pick<DocumentTotals, 'grossPence' | 'vatPence'>,
  vatRatePercent: number,
): DocumentLine {
  const vatShare = (amount: number) => (original.grossPence > 0 ? Math.round((amount * original.vatPence) / original.grossPence) : 0);
  const vatPence = original.vatPence > 0 ? vatShare(creditedPence + refundPence) - vatShare(creditedPence) : 0;
  return { label, netPence: refundPence - vatPence, vatRatePercent: vatPence > 0 ? vatRatePercent : 0, vatPence, grossPence: refundPence };
}
