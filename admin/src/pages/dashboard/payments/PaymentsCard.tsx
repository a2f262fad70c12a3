// The Payments section beside the booking settings (docs/product.md §21): the operator's own
// payment account (connect, or finish connecting, through Stripe's onboarding or local mode's
// connect page) with its state and, when a rule is set but cannot take payments, why; and the
// rule: nothing at booking, a deposit (fixed in pounds or a percentage), or the full price,
// optionally held on the card until the job is done. Coming back from onboarding
// (`?payments=return`) reads the state from Stripe again and says what happened; an expired link
// (`?payments=refresh`) starts the connection again.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { TriangleAlert } from 'lucide-react';
import { ApiRequestError } from '#shared/api-client';
import { fieldMessages } from '#shared/field-messages';
import { formatPounds } from '#shared/money';
import { paymentRuleSchema, type PaymentSettings } from '#shared/payment-schemas';
import { DEPOSIT_PERCENT, HOLD_START_WITHIN_MS, type AccountState, type DepositType, type PaymentRuleKind } from '#shared/payments';
import { toast } from '../../../components/toast';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Input, Spinner } from '../../../components/ui';
import { errorText } from '../api';
import { useConnectPayments, usePaymentSettings, useSavePaymentRule, useSyncPayments } from './api';

const HOLD_DAYS = HOLD_START_WITHIN_MS / 86_400_000;

const TONES: Record<AccountState, 'neutral' | 'warning' | 'success' | 'danger'> = {
  not_connected: 'neutral',
  details_needed: 'warning',
  ready: 'success',
  restricted: 'danger',
  disconnected: 'danger',
};

/** What the connect button says in each state. */
export const CONNECT_LABELS: Record<AccountState, string> = {
  not_connected: 'Connect payment account',
  details_needed: 'Finish connecting',
  ready: 'Manage payment account',
  restricted: 'Update account details',
  disconnected: 'Connect again',
};

/** What the account's state means for the operator. */
export const ACCOUNT_TEXT: Record<AccountState, string> = {
  not_connected:
    'Connect your own payment account to take a deposit or the full price when a motorist books. The money goes straight to you: no fee is taken on it.',
  details_needed: 'Stripe needs a few more details before your account can take payments.',
  ready: 'Your payment account is ready to take payments.',
  restricted: 'Stripe has restricted your payment account: it cannot take payments until you update it.',
  disconnected: 'Your payment account was disconnected from this service.',
};

/** What the portal says on coming back from the account's onboarding, by the state it finds. */
export const RETURN_TEXT: Record<AccountState, string> = {
  not_connected: 'Your payment account is not connected yet.',
  details_needed: 'Stripe still needs some details. Choose Finish connecting to carry on.',
  ready: 'Your payment account is connected and ready.',
  restricted: 'Your payment account is connected but restricted. Choose Update account details to fix it.',
  disconnected: 'Your payment account is disconnected.',
};
export const REFRESH_TEXT = 'The link to connect your account had expired. Starting again…';
/** Said after the return text when Stripe could not be asked. */
export const LAST_KNOWN_TEXT = 'Stripe could not be reached just now, so this is the state last known.';

/** The rule as a sentence: what a motorist pays when they book. */
export function ruleText(settings: Pick<PaymentSettings, 'rule' | 'depositType' | 'depositAmount' | 'depositPercent' | 'hold'>): string {
  if (settings.rule === 'none') return 'Motorists book without paying.';
  const due =
    settings.rule === 'full'
      ? 'the full price'
      : settings.depositType === 'fixed' && settings.depositAmount !== null
        ? `a deposit of ${formatPounds(settings.depositAmount)}`
        : `a deposit of ${settings.depositPercent ?? 0}% of the price`;
  const hold = settings.hold ? `, or have the full price held on their card for a job within ${HOLD_DAYS} days, taken when it is done` : '';
  return `Motorists pay ${due} when they book${hold}.`;
}

const goTo = (url: string) => window.location.assign(url);

export const PROVIDER_DOWN_TEXT = 'Stripe cannot be reached just now. Please try again in a minute.';
const connectFailure = (error: Error) =>
  error instanceof ApiRequestError ? (error.status === 503 ? PROVIDER_DOWN_TEXT : error.serverMessage) : 'Unable to reach the server. Please try again.';

export function PaymentsCard({ go = goTo }: { go?: (url: string) => void }) {
  const settings = usePaymentSettings();
  const connect = useConnectPayments(go);
  const sync = useSyncPayments();
  const [params, setParams] = useSearchParams();
  const [arrival, setArrival] = useState<'return' | 'refresh' | null>(null);
  const handled = useRef(false);
  const section = useRef<HTMLElement>(null);

  // Back from the account's onboarding: once, whatever re-renders follow; the query leaves the URL.
  const returned = params.get('payments');
  useEffect(() => {
    if (handled.current || (returned !== 'return' && returned !== 'refresh')) return;
    handled.current = true;
    setArrival(returned);
    setParams(
      (current) => {
        current.delete('payments');
        return current;
      },
      { replace: true },
    );
    section.current?.scrollIntoView?.({ block: 'start' });
    if (returned === 'return') sync.mutate();
    else connect.mutate();
  }, [returned, setParams, sync, connect]);

  // The cards above this one load after it and push it down: once what the return says is
  // known, the card's heading takes the focus, so the operator lands here, not on a card above.
  const landed = arrival !== null && settings.data !== undefined && (arrival === 'refresh' || sync.isSuccess || sync.isError);
  useEffect(() => {
    if (!landed) return;
    section.current?.querySelector<HTMLElement>('#payments-heading')?.focus({ preventScroll: true });
    section.current?.scrollIntoView?.({ block: 'start' });
  }, [landed]);

  const data = settings.data;
  return (
    <section ref={section} aria-labelledby="payments-heading" id="payments">
      <Card>
        <CardHeader>
          <CardTitle id="payments-heading" tabIndex={-1} className="focus:outline-none">
            Payments
          </CardTitle>
          <CardDescription>Take a deposit or the full price when a motorist books, paid into your own account.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          {settings.isLoading ? (
            <Spinner label="Loading your payment settings" />
          ) : !data ? (
            <p role="alert" className="text-sm text-red-700">
              Unable to load your payment settings. Please reload the page.
            </p>
          ) : (
            <>
              <p role="status" className="text-sm font-medium text-slate-900 empty:hidden">
                {arrival === 'refresh'
                  ? REFRESH_TEXT
                  : arrival === 'return' && (sync.isSuccess || sync.isError)
                    ? `${RETURN_TEXT[data.account.state]}${sync.isError ? ` ${LAST_KNOWN_TEXT}` : ''}`
                    : ''}
              </p>
              <Account settings={data} connecting={connect.isPending || connect.isSuccess} onConnect={() => connect.mutate()} />
              {connect.error && (
                <p role="alert" className="text-sm text-red-700">
                  {connectFailure(connect.error)}
                </p>
              )}
              <RuleForm key={JSON.stringify([data.rule, data.depositType, data.depositAmount, data.depositPercent, data.hold])} settings={data} />
            </>
          )}
        </CardContent>
      </Card>
    </section>
  );
}

function Account({ settings, connecting, onConnect }: { settings: PaymentSettings; connecting: boolean; onConnect: () => void }) {
  const { state, label, reason } = settings.account;
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <h3 className="text-sm font-semibold">Payment account</h3>
        <Badge tone={TONES[state]}>{label}</Badge>
      </div>
      <p className="text-sm text-slate-800">
        {ACCOUNT_TEXT[state]}
        {reason && state !== 'ready' && ` (Stripe says: ${reason})`}
      </p>
      {settings.mode === 'local' && <p className="text-xs text-slate-600">Local payments mode: built-in pages stand in for Stripe, and nothing is charged.</p>}
      {settings.offReason && (
        <p className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>{settings.offReason}</span>
        </p>
      )}
      <div>
        <Button type="button" variant={state === 'ready' ? 'outline' : 'primary'} disabled={connecting} onClick={onConnect}>
          {connecting ? 'Opening…' : CONNECT_LABELS[state]}
        </Button>
      </div>
    </div>
  );
}

interface RuleDraft {
  rule: PaymentRuleKind;
  depositType: DepositType;
  depositAmount: string;
  depositPercent: string;
  hold: boolean;
}

const draftOf = (settings: PaymentSettings): RuleDraft => ({
  rule: settings.rule,
  depositType: settings.depositType ?? 'percent',
  depositAmount: settings.depositAmount === null ? '' : settings.depositAmount.toFixed(2),
  depositPercent: settings.depositPercent === null ? '' : String(settings.depositPercent),
  hold: settings.hold,
});

/** A typed number, or undefined when blank (the shared schema says what is missing). */
const typed = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text.replace(/^£/, '').trim()));

const RULES: { value: PaymentRuleKind; label: string }[] = [
  { value: 'none', label: 'Nothing: the motorist books without paying' },
  { value: 'deposit', label: 'A deposit' },
  { value: 'full', label: 'The full price' },
];
const DEPOSITS: { value: DepositType; label: string }[] = [
  { value: 'percent', label: 'A percentage of the price' },
  { value: 'fixed', label: 'A fixed amount' },
];

function RuleForm({ settings }: { settings: PaymentSettings }) {
  const save = useSavePaymentRule();
  const [draft, setDraft] = useState(() => draftOf(settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof RuleDraft>(name: K, value: RuleDraft[K]) => setDraft((current) => ({ ...current, [name]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const deposit =
      draft.rule !== 'deposit'
        ? {}
        : draft.depositType === 'fixed'
          ? { depositType: 'fixed' as const, depositAmount: typed(draft.depositAmount) }
          : { depositType: 'percent' as const, depositPercent: typed(draft.depositPercent) };
    const checked = paymentRuleSchema.safeParse({ rule: draft.rule, ...deposit, hold: draft.rule !== 'none' && draft.hold });
    if (!checked.success) return setErrors(fieldMessages(checked.error.issues));
    setErrors({});
    save.mutate(checked.data, {
      onSuccess: () => toast({ title: 'Payment rule saved' }),
      onError: (error) => {
        toast({ title: 'Error saving the payment rule', description: errorText(error), variant: 'destructive' });
        if (error instanceof ApiRequestError && error.fields) setErrors(error.fields);
      },
    });
  };

  return (
    <form noValidate onSubmit={submit} aria-label="Payment rule" className="grid gap-4">
      <p className="text-sm text-slate-800">{ruleText(settings)}</p>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-semibold">When a motorist books, they pay</legend>
        {RULES.map((option) => (
          <label key={option.value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="rule"
              value={option.value}
              checked={draft.rule === option.value}
              onChange={() => set('rule', option.value)}
              className="size-4 accent-brand-600"
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      {draft.rule === 'deposit' && (
        <div className="grid gap-3 rounded-lg bg-slate-50 p-3">
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">The deposit is</legend>
            {DEPOSITS.map((option) => (
              <label key={option.value} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="depositType"
                  value={option.value}
                  checked={draft.depositType === option.value}
                  onChange={() => set('depositType', option.value)}
                  className="size-4 accent-brand-600"
                />
                {option.label}
              </label>
            ))}
            {errors.depositType && <p className="text-sm text-red-700">{errors.depositType}</p>}
          </fieldset>
          {draft.depositType === 'percent' ? (
            <Field label="Deposit (%)" hint="Of the quoted price, rounded to the penny." error={errors.depositPercent} className="max-w-48">
              <Input
                type="number"
                inputMode="numeric"
                min={DEPOSIT_PERCENT.min}
                max={DEPOSIT_PERCENT.max}
                step={1}
                value={draft.depositPercent}
                onChange={(e) => set('depositPercent', e.target.value)}
              />
            </Field>
          ) : (
            <Field label="Deposit (£)" hint="A deposit at or above the price takes the full price." error={errors.depositAmount} className="max-w-48">
              <Input inputMode="decimal" value={draft.depositAmount} onChange={(e) => set('depositAmount', e.target.value)} />
            </Field>
          )}
        </div>
      )}
      {draft.rule !== 'none' && (
        <div className="grid gap-1">
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" checked={draft.hold} onChange={(e) => set('hold', e.target.checked)} className="mt-0.5 size-4 accent-brand-600" />
            Hold the full price on the card instead, and take it when the job is done (for jobs starting within {HOLD_DAYS} days; later jobs pay the rule above)
          </label>
          {errors.hold && <p className="text-sm text-red-700">{errors.hold}</p>}
        </div>
      )}
      {errors.rule && <p className="text-sm text-red-700">{errors.rule}</p>}
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Payment Rule'}
        </Button>
      </div>
    </form>
  );
}
