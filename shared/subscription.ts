// Subscription status (docs/product.md §4) as one union, and the one place that says what each status
// allows. Every check on the server and in the portal asks `statusRules`; its switch is
// exhaustive, so a new status does not compile until each rule is decided for it.

/** One spelling of the trial: `trialing`, as Stripe names it and as every writer stores it. */
export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'cancelled', 'inactive'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export interface StatusRules {
  /** The badge text of docs/product.md §4's table. */
  label: string;
  /** Opens the Driver Portal (docs/product.md §2 protected route rule). */
  dashboardAccess: boolean;
  /** A subscription already runs: a second checkout is refused. */
  subscribed: boolean;
  /** May be cancelled at the period end (docs/product.md §4: active or trialing). */
  cancellable: boolean;
  /** A cancelled subscription still running may be renewed. */
  reactivatable: boolean;
  /** A failed invoice payment moves it to past_due. */
  paymentCanFail: boolean;
  /** A paid invoice (real money) makes it active. */
  paymentMakesActive: boolean;
  /**
   * The company's name may lead the texts sent to its motorists (docs/product.md §20): only a
   * subscription paid and running. A trial, a cancelled or lapsed one (which may never have been
   * paid) and one whose payment failed get the platform's fixed wording.
   */
  namesMotoristTexts: boolean;
}

export function statusRules(status: SubscriptionStatus): StatusRules {
  switch (status) {
    case 'trialing':
      return {
        label: 'Trial',
        dashboardAccess: true,
        subscribed: true,
        cancellable: true,
        reactivatable: false,
        paymentCanFail: true,
        paymentMakesActive: true,
        namesMotoristTexts: false,
      };
    case 'active':
      return {
        label: 'Active',
        dashboardAccess: true,
        subscribed: true,
        cancellable: true,
        reactivatable: false,
        paymentCanFail: true,
        paymentMakesActive: true,
        namesMotoristTexts: true,
      };
    case 'past_due':
      return {
        label: 'Past Due',
        dashboardAccess: false,
        subscribed: true,
        cancellable: false,
        reactivatable: false,
        paymentCanFail: false,
        paymentMakesActive: true,
        namesMotoristTexts: false,
      };
    case 'cancelled':
      return {
        label: 'Cancelled',
        dashboardAccess: true,
        subscribed: true,
        cancellable: false,
        reactivatable: true,
        paymentCanFail: false,
        paymentMakesActive: false,
        namesMotoristTexts: false,
      };
    case 'inactive':
      return {
        label: 'Inactive',
        dashboardAccess: false,
        subscribed: false,
        cancellable: false,
        reactivatable: false,
        paymentCanFail: false,
        paymentMakesActive: false,
        namesMotoristTexts: false,
      };
    default:
      return unknownStatus(status);
  }
}

function unknownStatus(status: never): never {
  throw new Error(`Unknown subscription status: ${String(status)}`);
}

const KNOWN: ReadonlySet<string> = new Set(SUBSCRIPTION_STATUSES);

/**
 * A status from outside the type system (a stored row, a JSON body, a cached user), or undefined
 * when it names none. docs/product.md §4 also names the spelling `trial`: it reads as `trialing`.
 */
export function parseSubscriptionStatus(raw: string | null | undefined): SubscriptionStatus | undefined {
  if (raw === 'trial') return 'trialing';
  return raw != null && KNOWN.has(raw) ? (raw as SubscriptionStatus) : undefined;
}

/** docs/product.md §2: active, trialing (trial) and cancelled open the dashboard; an unknown status does not. */
export function hasDashboardAccess(raw: string | null | undefined): boolean {
  const status = parseSubscriptionStatus(raw);
  return status !== undefined && statusRules(status).dashboardAccess;
}

/** docs/product.md §4's badge: the status's label, 'Unknown' for anything else. */
export function statusBadge(raw: string | null | undefined): string {
  const status = parseSubscriptionStatus(raw);
  return status === undefined ? 'Unknown' : statusRules(status).label;
}
