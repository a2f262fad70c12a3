// Set-up step 2, your prices (docs/product.md §14): call-out, per mile and labour, prefilled with
// the starting rates (the demo's), and beside them a sample quote the server's pricing engine
// prices with the rates as typed (POST /api/pricing/sample), so the operator sees what a motorist
// would pay before saving. The rest of the pricing is left as it is.
import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, portalApi } from '#shared/api-client';
import { formatPounds } from '#shared/money';
import { pricingSampleSchema, type PricingUpdate } from '#shared/schemas';
import type { PricingRates } from '#shared/types';
import { Field, Input, Spinner } from '../../components/ui';
import { asInput } from '../../lib/forms';
import { errorText, usePricing, useSavePricing } from '../dashboard/api';
import { StepFrame } from './StepFrame';
import { schemaErrors, useStepForm, type Values } from './step-form';
import type { StepProps } from './steps';

const RATE_FIELDS = [
  { name: 'callOutFee', label: 'Call-out Fee (£)', hint: 'Charged on every job' },
  { name: 'mileRate', label: 'Mile Rate (£ per mile)', hint: 'Per mile from pickup to destination' },
  { name: 'labourRate', label: 'Labour Rate (£ per hour)', hint: 'Multiplied by the labour time' },
] as const;
const FIELD_NAMES = RATE_FIELDS.map((field) => field.name);

const savedValues = (rates: PricingRates): Values => ({
  callOutFee: asInput(rates.callOutFee),
  mileRate: asInput(rates.mileRate),
  labourRate: asInput(rates.labourRate),
});

/** The whole pricing as saved, with the three rates as typed: a save here changes nothing else. */
export function pricingBody(rates: PricingRates, values: Values): PricingUpdate {
  const { id: _id, companyId: _companyId, maximumRadius, ...rest } = rates;
  return { ...rest, maximumRadius: asInput(maximumRadius), callOutFee: values.callOutFee, mileRate: values.mileRate, labourRate: values.labourRate };
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the value's content (key), so a new but equal object is not a change
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
    // Keyed by content: a new object with the same rates is not a change.
  }, [key, ms]);
  return settled;
}

/** The sample quote for the rates as typed, asked again once typing pauses. */
function SampleQuote({ values }: { values: Values }) {
  const rates = useDebounced(values, 300);
  const valid = schemaErrors(pricingSampleSchema, rates) === null;
  const sample = useQuery({
    queryKey: ['pricing-sample', rates],
    queryFn: () => call(portalApi.pricing.sample.$post, { json: rates }),
    enabled: valid,
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="sample-quote-title" className="grid content-start gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4">
      <h3 id="sample-quote-title" className="text-sm font-semibold">
        Sample quote
      </h3>
      {sample.data ? (
        <>
          <p className="text-sm text-slate-700">
            A {sample.data.vehicleType.toLowerCase()}, {sample.data.miles} miles, in working hours
          </p>
          <dl className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 text-sm">
            {sample.data.lines.map((line) => (
              <div key={line.label} className="contents">
                <dt className="text-slate-700">{line.label}</dt>
                <dd className="text-right tabular-nums">{formatPounds(line.amount)}</dd>
              </div>
            ))}
            <div className="contents font-semibold">
              <dt className="border-t border-slate-300 pt-1">Customer pays</dt>
              <dd className="border-t border-slate-300 pt-1 text-right tabular-nums" aria-live="polite">
                {formatPounds(sample.data.totalPrice)}
              </dd>
            </div>
          </dl>
        </>
      ) : sample.isError ? (
        <p className="text-sm text-red-700">{errorText(sample.error)}</p>
      ) : (
        <Spinner label="Pricing a sample quote" />
      )}
    </section>
  );
}

function PricesForm({ userId, rates, next, back, moved }: StepProps & { rates: PricingRates }) {
  const form = useStepForm(userId, 'prices', savedValues(rates), FIELD_NAMES);
  const save = useSavePricing();
  const { values, errors } = form;

  const actions = form.actions(next, () => schemaErrors(pricingSampleSchema, values) ?? ((handlers) => save.mutate(pricingBody(rates, values), handlers)));

  return (
    <StepFrame
      step="prices"
      description="Your base rates, filled in with our starting prices. Change them to yours: the sample shows what a customer would pay."
      formError={errors.form}
      saving={save.isPending}
      {...actions}
      onBack={back}
      moved={moved}
      aside={<SampleQuote values={values} />}
    >
      {RATE_FIELDS.map((field) => (
        <Field key={field.name} label={field.label} hint={field.hint} error={errors[field.name]}>
          <Input type="number" inputMode="decimal" min={0} step={0.01} value={values[field.name]} onChange={(e) => form.set(field.name, e.target.value)} />
        </Field>
      ))}
    </StepFrame>
  );
}

export function PricesStep(props: StepProps) {
  const pricing = usePricing();
  if (pricing.isLoading) return <Spinner label="Loading your prices" />;
  if (!pricing.data) return <p className="text-red-700">Unable to load your prices. Please reload the page.</p>;
  return <PricesForm {...props} rates={pricing.data} />;
}
