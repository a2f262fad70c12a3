// Pricing & Rates: the rates every quote is built from (docs/product.md §2, §5, §9).
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { ApiRequestError } from '#shared/api-client';
import { MAX_FREE_MILES, NATION_LABELS, NATIONS, QUOTE_VALIDITY_HOURS } from '#shared/constants';
import { useReportUnsaved } from '../../lib/unsaved';
import { PRICING_DEFAULTS, pricingUpdateSchema, type PricingUpdate } from '#shared/schemas';
import type { PricingRates } from '#shared/types';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Checkbox, Field, Input, Label, Select, Spinner } from '../../components/ui';
import { asInput, SAVED_RESET } from '../../lib/forms';
import { useCompany, usePricing, useSavePricing } from './api';
import { FieldLink } from './go-to-field';

/** Numbers stay text while typed, so a blank stays blank; the schema turns them into rates. */
const toForm = (rates: PricingRates | undefined): PricingUpdate => ({
  callOutFee: asInput(rates?.callOutFee),
  labourRate: asInput(rates?.labourRate),
  mileRate: asInput(rates?.mileRate),
  labourTime: asInput(rates?.labourTime),
  afterHoursEnabled: rates?.afterHoursEnabled ?? false,
  afterHoursFee: asInput(rates?.afterHoursFee),
  afterHoursStart: rates?.afterHoursStart ?? '',
  afterHoursEnd: rates?.afterHoursEnd ?? '',
  // "More rules" (docs/product.md §10): blank is off.
  bankHolidayNation: rates?.bankHolidayNation ?? 'england-and-wales',
  bankHolidayFee: asInput(rates?.bankHolidayFee || null),
  enRouteRate: asInput(rates?.enRouteRate || null),
  freeMiles: asInput(rates?.freeMiles || null),
  minimumCharge: asInput(rates?.minimumCharge || null),
  maximumRadius: asInput(rates?.maximumRadius),
  vatRegistered: rates?.vatRegistered ?? false,
  pricesIncludeVat: rates?.pricesIncludeVat ?? true,
  quoteValidityHours: asInput(rates?.quoteValidityHours ?? QUOTE_VALIDITY_HOURS.default),
});

const RULE_MONEY_FIELDS = [
  { name: 'bankHolidayFee', label: 'Bank Holiday Fee (£)', hint: 'Added to jobs on a bank holiday of your nation' },
  { name: 'minimumCharge', label: 'Minimum Charge (£)', hint: 'A lower price is brought up to this, before rounding and VAT' },
  { name: 'enRouteRate', label: 'En-route Rate (£ per mile)', hint: 'Per mile from your base postcode to the pickup' },
] as const;

const MONEY_FIELDS = [
  { name: 'callOutFee', label: 'Call-out Fee (£)', hint: 'Charged on every job', placeholder: PRICING_DEFAULTS.callOutFee.toFixed(2) },
  { name: 'labourRate', label: 'Labour Rate (£ per hour)', hint: 'Multiplied by the labour time', placeholder: PRICING_DEFAULTS.labourRate.toFixed(2) },
  { name: 'mileRate', label: 'Mile Rate (£ per mile)', hint: 'Per mile from pickup to destination', placeholder: PRICING_DEFAULTS.mileRate.toFixed(2) },
] as const;

/** Beside a rule measured from the base postcode while none is set: the server refuses to switch it on. */
const NEEDS_BASE_POSTCODE = (
  <>
    {' '}
    <strong className="font-semibold text-amber-900">Needs your base postcode.</strong> <FieldLink field="basePostcode">Add your base postcode</FieldLink>
  </>
);

export function PricingTab() {
  const pricing = usePricing();
  const company = useCompany();
  const needsBase = company.data !== undefined && !company.data.basePostcode;
  const withBaseNote = (hint: string) =>
    needsBase ? (
      <>
        {hint}.{NEEDS_BASE_POSTCODE}
      </>
    ) : (
      hint
    );
  const save = useSavePricing();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    setValue,
    reset,
    formState: { errors, isDirty },
    // A refreshed read keeps what the operator has typed and not saved.
  } = useForm({ resolver: zodResolver(pricingUpdateSchema), values: toForm(pricing.data), resetOptions: { keepDirtyValues: true } });
  useReportUnsaved('pricing', isDirty);

  if (pricing.isLoading) return <Spinner label="Loading pricing" />;

  const onSubmit = handleSubmit((rates) =>
    save.mutate(rates, {
      // The saved rates become the form's, as the server stored them ("65.50" → 65.5, a blank →
      // its default): a saved form is clean.
      onSuccess: (saved) => reset(toForm(saved), SAVED_RESET),
      // The server also checks what the form cannot, e.g. the maximum radius against the service radius.
      onError: (error) => {
        const fields = error instanceof ApiRequestError ? error.fields : undefined;
        for (const [field, message] of Object.entries(fields ?? {})) setError(field as keyof PricingUpdate, { message });
      },
    }),
  );

  const afterHoursEnabled = watch('afterHoursEnabled');
  const vatRegistered = watch('vatRegistered');
  const pricesIncludeVat = watch('pricesIncludeVat');
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pricing & Rates</CardTitle>
        <CardDescription>Your standard rates. Leave a field blank to use the default shown in it.</CardDescription>
      </CardHeader>
      <CardContent>
        {pricing.isError && (
          <p role="alert" className="mb-4 text-sm text-red-700">
            Unable to load your current rates. Saving will replace them.
          </p>
        )}
        <form noValidate onSubmit={onSubmit} className="grid gap-6">
          <div className="grid gap-4 sm:grid-cols-2">
            {MONEY_FIELDS.map((field) => (
              <Field key={field.name} label={field.label} hint={field.hint} error={errors[field.name]?.message}>
                <Input type="number" inputMode="decimal" min={0} step={0.01} placeholder={field.placeholder} {...register(field.name)} />
              </Field>
            ))}
            <Field label="Labour Time (hours)" hint="Typical time on a job" error={errors.labourTime?.message}>
              <Input type="number" inputMode="decimal" min={0} step={0.1} placeholder={PRICING_DEFAULTS.labourTime.toFixed(1)} {...register('labourTime')} />
            </Field>
          </div>

          <fieldset className="grid gap-4 rounded-lg border border-slate-200 p-4">
            <legend className="px-1 text-sm font-semibold">After-hours</legend>
            <div className="flex items-center gap-3">
              <Checkbox
                id="afterHoursEnabled"
                checked={afterHoursEnabled === true}
                onCheckedChange={(checked) => setValue('afterHoursEnabled', checked === true, { shouldDirty: true })}
              />
              <Label htmlFor="afterHoursEnabled">Charge an after-hours fee</Label>
            </div>
            <div className="grid gap-4 sm:grid-cols-3">
              <Field label="After-hours Fee (£)" error={errors.afterHoursFee?.message}>
                <Input
                  type="number"
                  inputMode="decimal"
                  min={0}
                  step={0.01}
                  placeholder={PRICING_DEFAULTS.afterHoursFee.toFixed(2)}
                  {...register('afterHoursFee')}
                />
              </Field>
              <Field label="Starts at" error={errors.afterHoursStart?.message}>
                <Input type="time" {...register('afterHoursStart')} />
              </Field>
              <Field label="Ends at" error={errors.afterHoursEnd?.message}>
                <Input type="time" {...register('afterHoursEnd')} />
              </Field>
            </div>
            <p className="text-xs text-slate-600">
              UK time. The window can run past midnight, for example {PRICING_DEFAULTS.afterHoursStart} to {PRICING_DEFAULTS.afterHoursEnd}.
            </p>
          </fieldset>

          <fieldset className="grid gap-4 rounded-lg border border-slate-200 p-4">
            <legend className="px-1 text-sm font-semibold">More rules</legend>
            <p className="text-xs text-slate-600">
              Optional. Leave a rule blank or at 0 to turn it off. They apply in this order: bank holiday fee, travel to you, minimum charge, price rounding,
              VAT.
            </p>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Bank Holidays Of" hint="Whose bank holidays count for the bank holiday fee" error={errors.bankHolidayNation?.message}>
                <Select {...register('bankHolidayNation')}>
                  {NATIONS.map((nation) => (
                    <option key={nation} value={nation}>
                      {NATION_LABELS[nation]}
                    </option>
                  ))}
                </Select>
              </Field>
              {RULE_MONEY_FIELDS.map((field) => (
                <Field
                  key={field.name}
                  label={field.label}
                  hint={field.name === 'enRouteRate' ? withBaseNote(field.hint) : field.hint}
                  error={errors[field.name]?.message}
                >
                  <Input type="number" inputMode="decimal" min={0} step={0.01} placeholder="0.00" {...register(field.name)} />
                </Field>
              ))}
              <Field
                label="Free Miles"
                hint={`Miles to the pickup before the en-route rate starts (up to ${MAX_FREE_MILES})`}
                error={errors.freeMiles?.message}
              >
                <Input type="number" inputMode="decimal" min={0} max={MAX_FREE_MILES} step={0.1} placeholder="0" {...register('freeMiles')} />
              </Field>
              <Field
                label="Maximum Radius (miles)"
                hint={withBaseNote('Pickups farther than this from your base postcode are asked to call you. Blank: no limit')}
                error={errors.maximumRadius?.message}
              >
                <Input type="number" inputMode="decimal" min={0} step={0.1} placeholder="No limit" {...register('maximumRadius')} />
              </Field>
              <Field
                label="Price Valid For (hours)"
                hint={`Shown with each quote, ${QUOTE_VALIDITY_HOURS.min} to ${QUOTE_VALIDITY_HOURS.max} hours`}
                error={errors.quoteValidityHours?.message}
              >
                <Input
                  type="number"
                  inputMode="numeric"
                  min={QUOTE_VALIDITY_HOURS.min}
                  max={QUOTE_VALIDITY_HOURS.max}
                  step={1}
                  placeholder={String(QUOTE_VALIDITY_HOURS.default)}
                  {...register('quoteValidityHours')}
                />
              </Field>
            </div>
            <div className="grid gap-3">
              <div className="flex items-center gap-3">
                <Checkbox
                  id="vatRegistered"
                  checked={vatRegistered}
                  onCheckedChange={(checked) => setValue('vatRegistered', checked === true, { shouldDirty: true })}
                />
                <Label htmlFor="vatRegistered">VAT registered</Label>
              </div>
              <div className="flex items-center gap-3">
                <Checkbox
                  id="pricesIncludeVat"
                  checked={pricesIncludeVat}
                  disabled={!vatRegistered}
                  onCheckedChange={(checked) => setValue('pricesIncludeVat', checked === true, { shouldDirty: true })}
                />
                <Label htmlFor="pricesIncludeVat">My prices include VAT</Label>
              </div>
              <p className="text-xs text-slate-600">
                Customers always see the full price. When your prices do not include VAT, a VAT (20%) line is added to each quote.
              </p>
            </div>
          </fieldset>

          <div>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save Pricing'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
