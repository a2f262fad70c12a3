// Payment at booking (docs/product.md §21): the operator's rule, the state of their own payment
// account, and the one pure computation of what a motorist pays at booking, in pence, from the
// quote as it was frozen; and how a booking's payment is worded and counted (what was taken, what
// is left to refund). Written once for the server, the portal, the pages and the export.
import { formatPence, formatPounds as pounds, poundsToPence } from './money';

/** No payment at booking (the default), a deposit, or the full price. */
export const PAYMENT_RULES = ['none', 'deposit', 'full'] as const;
export type PaymentRuleKind = (typeof PAYMENT_RULES)[number];
export const DEPOSIT_TYPES = ['fixed', 'percent'] as const;
export type DepositType = (typeof DEPOSIT_TYPES)[number];

/** What a booking's checkout takes: a deposit or the full price charged, or the full price held on the card. */
export type PaymentKind = 'deposit' | 'full' | 'hold';

/**
 * awaiting (checkout open) → paid (deposit or full) or held; held → captured (job completed) or
 * released (declined, expired, cancelled); paid or captured → refunded, in part or in full.
 */
export const PAYMENT_STATUSES = ['awaiting', 'paid', 'held', 'captured', 'released', 'partially_refunded', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The operator's payment account as the portal shows it. */
export const ACCOUNT_STATES = ['not_connected', 'details_needed', 'ready', 'restricted', 'disconnected'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

export const ACCOUNT_STATE_LABELS: Record<AccountState, string> = {
  not_connected: 'Not connected',
  details_needed: 'Details needed',
  ready: 'Ready',
  restricted: 'Restricted',
  disconnected: 'Disconnected',
};

/** Why payment at booking is off although a rule is set: the portal says it, the booking goes ahead unpaid. */
export const PAYMENT_OFF_REASONS: Record<Exclude<AccountState, 'ready'>, string> = {
  not_connected: 'Payment at booking is off: connect a payment account first.',
  details_needed: 'Payment at booking is off until your payment account has all its details: finish connecting it.',
  restricted: 'Payment at booking is off: your payment account is restricted. Check it in your Stripe dashboard.',
  disconnected: 'Payment at booking is off: your payment account was disconnected. Connect it again to take payments.',
};

export const PAYMENT_KIND_LABELS: Record<PaymentKind, string> = { deposit: 'Deposit', full: 'Full price', hold: 'Full price held' };

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  awaiting: 'Awaiting payment',
  paid: 'Paid',
  held: 'Held',
  captured: 'Paid',
  released: 'Hold released',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
};

/** Stripe's smallest GBP charge: a smaller amount due is not asked for at booking. */
export const MIN_CHARGE_PENCE = 30;
/** A card authorisation lasts 7 days: a hold is placed only for a job starting within 6, so it completes inside the window. */
export const HOLD_START_WITHIN_MS = 6 * 24 * 60 * 60 * 1000;
export const DEPOSIT_PERCENT = { min: 1, max: 99 } as const;
/** A fixed deposit, in pence. */
export const DEPOSIT_PENCE = { min: MIN_CHARGE_PENCE, max: 1_000_000 } as const;
/** An open checkout lapses after this long (Stripe's shortest); an abandoned one leaves no booking. */
export const CHECKOUT_LIFETIME_MS = 30 * 60 * 1000;

export interface PaymentRule {
  rule: PaymentRuleKind;
  /** A fixed deposit, or null for a percentage. */
  depositPence: number | null;
  /** A percentage deposit (whole percent), or null for a fixed one. */
  depositPercent: number | null;
  hold: boolean;
}

export interface QuoteLine {
  label: string;
  amountPence: number;
}

export interface PaymentPlan {
  kind: PaymentKind;
  amountPence: number;
  /** What the checkout names: the quote's own lines when the full price is paid or held, one deposit line for a deposit. */
  lines: QuoteLine[];
}

/** Half up to the penny, in integers: 20 % of £187.20 is £37.44. */
export const percentOf = (totalPence: number, percent: number) => Math.floor((totalPence * percent + 50) / 100);

/** What the rule asks at booking of a quote of `totalPence`: null when nothing is due. */
export function amountDue(rule: PaymentRule, totalPence: number): { kind: 'deposit' | 'full'; amountPence: number } | null {
  if (rule.rule === 'none' || totalPence < MIN_CHARGE_PENCE) return null;
  if (rule.rule === 'full') return { kind: 'full', amountPence: totalPence };
  const deposit = rule.depositPence ?? (rule.depositPercent === null ? 0 : percentOf(totalPence, rule.depositPercent));
  if (deposit >= totalPence) return { kind: 'full', amountPence: totalPence };
  if (deposit < MIN_CHARGE_PENCE) return null;
  return { kind: 'deposit', amountPence: deposit };
}

/** The one line a deposit's checkout names: never the quote's own lines, which would read as their real prices. */
export const depositLine = (reference: string) => `Deposit for recovery TQ-${reference}`;

/**
 * What a booking pays, from the rule and the frozen quote: the full price held when the rule
 * holds and the job starts within the hold window, otherwise the rule's deposit or full price.
 * The full price names the quote's lines (lines that do not add up to the total, from quotes
 * before lines were kept, become one line); a deposit names one line, "Deposit for recovery TQ-…".
 */
export function paymentPlan(
  rule: PaymentRule,
  quote: { reference: string; totalPence: number; lines: readonly QuoteLine[] | null; startsAt: Date },
  now: Date,
): PaymentPlan | null {
  const lines =
    quote.lines && quote.lines.reduce((sum, l) => sum + l.amountPence, 0) === quote.totalPence && quote.lines.every((l) => l.amountPence >= 0)
      ? quote.lines
      : [{ label: `Vehicle recovery TQ-${quote.reference}`, amountPence: quote.totalPence }];
  const kept = lines.filter((l) => l.amountPence > 0).map((l) => ({ ...l }));
  if (rule.rule !== 'none' && rule.hold && quote.totalPence >= MIN_CHARGE_PENCE && quote.startsAt.getTime() - now.getTime() <= HOLD_START_WITHIN_MS) {
    return { kind: 'hold', amountPence: quote.totalPence, lines: kept };
  }
  const due = amountDue(rule, quote.totalPence);
  if (!due) return null;
  if (due.kind === 'deposit')
    return { kind: 'deposit', amountPence: due.amountPence, lines: [{ label: depositLine(quote.reference), amountPence: due.amountPence }] };
  return { kind: 'full', amountPence: due.amountPence, lines: kept };
}

/** The account's state from what the provider last said of it. */
export function accountState(
  account: { accountId: string | null; chargesEnabled: boolean; detailsSubmitted: boolean; disconnected: boolean } | undefined,
): AccountState {
  if (!account?.accountId) return 'not_connected';
  if (account.disconnected) return 'disconnected';
  if (account.chargesEnabled && account.detailsSubmitted) return 'ready';
  return account.detailsSubmitted ? 'restricted' : 'details_needed';
}

/** A payment's amount, status and refunds: a row's pence or a view's pounds turned to pence. */
export interface PaymentAmounts {
  kind: PaymentKind;
  status: PaymentStatus;
  amountPence: number;
  refundedPence: number;
}

/**
 * A booking's payment as the API answers it (pounds) in pence, for the wording and sums here. Here
 * rather than beside its schema (shared/payment-schemas.ts), so the status page needs no zod for it.
 */
export const paymentAmountsOf = (p: { kind: PaymentKind; status: PaymentStatus; amount: number; refunded: number }): PaymentAmounts => ({
  kind: p.kind,
  status: p.status,
  amountPence: poundsToPence(p.amount),
  refundedPence: poundsToPence(p.refunded),
});

/** Statuses in which the amount was taken from the card (refunded since or not). */
const TAKEN: ReadonlySet<PaymentStatus> = new Set(['paid', 'captured', 'partially_refunded', 'refunded']);
/** Statuses in which some of what was taken may still be refunded. */
const REFUNDABLE: ReadonlySet<PaymentStatus> = new Set(['paid', 'captured', 'partially_refunded']);

/** Was the amount taken from the card (refunded since or not)? Not while awaited, held or released. */
export const wasTaken = (status: PaymentStatus): boolean => TAKEN.has(status);

/** What was taken from the card: nothing while awaited, held or released. */
export const takenPence = (p: Pick<PaymentAmounts, 'status' | 'amountPence'>): number => (TAKEN.has(p.status) ? p.amountPence : 0);

/** What was taken and kept: the money taken, less refunds. */
export const keptPence = (p: Pick<PaymentAmounts, 'status' | 'amountPence' | 'refundedPence'>): number => Math.max(0, takenPence(p) - p.refundedPence);

/**
 * What is left to pay of a job's price once what was paid at booking is counted: a hold counts in
 * full (it is taken at completion), a refund is owed again. Never below nothing.
 */
export const balancePence = (pricePence: number, p: Pick<PaymentAmounts, 'status' | 'amountPence' | 'refundedPence'> | null): number =>
  Math.max(0, pricePence - (p === null ? 0 : p.status === 'held' ? p.amountPence : keptPence(p)));

/**
 * How the balance left after payment at booking was paid, as the driver or the operator records
 * it at completion (docs/product.md §21): card on the driver's own reader, cash, bank transfer, or
 * billed to the customer's account (still due, on account).
 */
export const BALANCE_METHODS = ['card', 'cash', 'bank_transfer', 'on_account'] as const;
export type BalanceMethod = (typeof BALANCE_METHODS)[number];
export const BALANCE_METHOD_LABELS: Record<BalanceMethod, string> = { card: 'Card', cash: 'Cash', bank_transfer: 'Bank transfer', on_account: 'On account' };
/** Recorded as paid: everything but on account. */
export const balancePaidBy = (method: string | null): method is Exclude<BalanceMethod, 'on_account'> =>
  method === 'card' || method === 'cash' || method === 'bank_transfer';
/** The balance as recorded, in words: 'Balance paid by card', 'Balance on account'. */
export const BALANCE_RECORDED: Record<BalanceMethod, string> = {
  card: 'Balance paid by card',
  cash: 'Balance paid in cash',
  bank_transfer: 'Balance paid by bank transfer',
  on_account: 'Balance on account',
};

/** What the operator may still refund: taken less refunded, or nothing. */
export const refundablePence = (p: Pick<PaymentAmounts, 'status' | 'amountPence' | 'refundedPence'>): number =>
  REFUNDABLE.has(p.status) ? Math.max(0, p.amountPence - p.refundedPence) : 0;

/**
 * The payment's state in a word or two, for the portal's jobs and the export: "Deposit paid",
 * "Paid", "Held", "Hold released", "Partly refunded", "Refunded", "Awaiting payment".
 */
export function paymentLabel(p: Pick<PaymentAmounts, 'kind' | 'status'>): string {
  if (p.status === 'paid' || p.status === 'captured') return p.kind === 'deposit' ? 'Deposit paid' : 'Paid';
  return PAYMENT_STATUS_LABELS[p.status];
}

/**
 * The payment in a line, with its amounts: "Deposit paid £37.44", "Held £187.20", "Paid £187.20,
 * refunded £50.00", "Deposit paid £37.44, refunded £37.44".
 */
export function paymentSummary(p: PaymentAmounts): string {
  const taken = TAKEN.has(p.status) ? paymentLabel({ kind: p.kind, status: 'paid' }) : paymentLabel(p);
  return `${taken} ${formatPence(p.amountPence)}${p.refundedPence > 0 ? `, refunded ${formatPence(p.refundedPence)}` : ''}`;
}

/** The money the portal's numbers add up: paid at booking, less refunds. */
export const MONEY_TAKEN_LABEL = 'Money taken';
/** The export's payment columns: the status as `paymentLabel` words it, what was taken, what was refunded. */
export const PAYMENT_CSV_COLUMNS = ['Payment status', 'Amount paid (£)', 'Amount refunded (£)'] as const;

/** Why nothing can be refunded, by the payment's status (409 PAYMENT_NOT_REFUNDABLE). */
export const NOT_REFUNDABLE: Record<PaymentStatus | 'none', string> = {
  none: 'Nothing was paid on this job at booking.',
  awaiting: 'Nothing has been paid on this job yet.',
  held: 'The price is only held on the card, so there is nothing to refund: the hold is released if the job does not go ahead.',
  released: 'The hold on the card was released: nothing was taken.',
  refunded: 'Everything paid on this job has been refunded.',
  paid: 'Nothing is left to refund on this job.',
  captured: 'Nothing is left to refund on this job.',
  partially_refunded: 'Nothing is left to refund on this job.',
};

/** A refund of more than is left (400, on the amount). */
export const refundTooMuch = (leftPence: number): string => `Refund can be at most ${formatPence(leftPence)}, what is left of the payment`;

/**
 * Whether money is still to follow a job in this status: the refund or the released hold of a
 * job that will not happen, or the hold captured at completion. A job's status page keeps
 * listening while it is, so the refund shows without a reload (docs/product.md §21).
 */
export function moneyToFollow(jobStatus: string, payment: { status: PaymentStatus } | null): boolean {
  if (!payment) return false;
  if (jobStatus === 'completed') return payment.status === 'held';
  if (jobStatus === 'declined' || jobStatus === 'expired' || jobStatus === 'cancelled') {
    return payment.status === 'paid' || payment.status === 'held' || payment.status === 'partially_refunded';
  }
  return false;
}

/**
 * Whether a job's status page has seen its last change: the job finished, its money followed, and
 * a completed job's balance recorded (or nothing left to pay). Until then the page keeps
 * listening, so a refund or the balance paid shows without a reload.
 */
export function jobPageDone(job: { status: string; payment: { status: PaymentStatus } | null; balance: number; balanceRecorded: string | null }): boolean {
  const finished = job.status === 'completed' || job.status === 'declined' || job.status === 'expired' || job.status === 'cancelled';
  if (!finished || moneyToFollow(job.status, job.payment)) return false;
  return !(job.status === 'completed' && job.balance > 0 && job.balanceRecorded === null);
}

/** What a booking asks now and leaves for later, as the booking form says it before sending (pounds). */
export interface PaymentDue {
  kind: PaymentKind | 'none';
  /** Paid (or held) at booking. */
  now: number;
  /** Left to pay the driver or by the link sent. */
  later: number;
  /** The deposit as a percentage of the price, when the rule is one. */
  percent: number | null;
}

/**
 * The booking form's line on the money, before sending: "Deposit now: £30.59 (20 %). Balance
 * £122.37 to the driver or by the link we send." (docs/product.md §21).
 */
export function dueWords(due: PaymentDue): string {
  if (due.kind === 'deposit') {
    return `Deposit now: ${pounds(due.now)}${due.percent !== null ? ` (${due.percent} %)` : ''}. Balance ${pounds(due.later)} to the driver or by the link we send.`;
  }
  if (due.kind === 'full') return `Pay now: ${pounds(due.now)}, the full price. Nothing more to pay.`;
  if (due.kind === 'hold') return `${pounds(due.now)} held on your card now, taken only when the job is done.`;
  return `Nothing to pay now. ${pounds(due.later)} to the driver or by the link we send.`;
}
