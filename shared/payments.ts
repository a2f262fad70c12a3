// Payment at booking (docs/product.md §21): the operator's rule, the state of their own payment
// account, and the one pure computation of what a motorist pays at booking, in pence, from the
// quote as it was frozen. Written once for the server, the portal and the pages.

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
  /** The quote's own lines, shared out so they add up to `amountPence` to the penny. */
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

/**
 * The quote's lines shared out to `amountPence` (largest remainder, so they add up to the penny,
 * each never more than its own line). The full price keeps the lines as they are.
 */
export function shareLines(lines: readonly QuoteLine[], amountPence: number): QuoteLine[] {
  const kept = lines.filter((l) => l.amountPence > 0);
  const total = kept.reduce((sum, l) => sum + l.amountPence, 0);
  if (amountPence === total) return kept.map((l) => ({ ...l }));
  const shares = kept.map((l, i) => {
    const exact = l.amountPence * amountPence;
    return { i, label: l.label, amountPence: Math.floor(exact / total), remainder: exact % total };
  });
  let left = amountPence - shares.reduce((sum, s) => sum + s.amountPence, 0);
  for (const s of [...shares].sort((a, b) => b.remainder - a.remainder || a.i - b.i)) {
    if (left === 0) break;
    s.amountPence += 1;
    left -= 1;
  }
  return shares.filter((s) => s.amountPence > 0).map(({ label, amountPence: pence }) => ({ label, amountPence: pence }));
}

/**
 * What a booking pays, from the rule and the frozen quote: the full price held when the rule
 * holds and the job starts within the hold window, otherwise the rule's deposit or full price.
 * Lines that do not add up to the total (quotes from before lines were kept) become one line.
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
  if (rule.rule !== 'none' && rule.hold && quote.totalPence >= MIN_CHARGE_PENCE && quote.startsAt.getTime() - now.getTime() <= HOLD_START_WITHIN_MS) {
    return { kind: 'hold', amountPence: quote.totalPence, lines: shareLines(lines, quote.totalPence) };
  }
  const due = amountDue(rule, quote.totalPence);
  if (!due) return null;
  return { kind: due.kind, amountPence: due.amountPence, lines: shareLines(lines, due.amountPence) };
}

/** The account's state from what the provider last said of it. */
export function accountState(account: { accountId: string | null; chargesEnabled: boolean; detailsSubmitted: boolean; disconnected: boolean } | undefined): AccountState {
  if (!account?.accountId) return 'not_connected';
  if (account.disconnected) return 'disconnected';
  if (account.chargesEnabled && account.detailsSubmitted) return 'ready';
  return account.detailsSubmitted ? 'restricted' : 'details_needed';
}
