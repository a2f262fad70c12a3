// Pricing & Rates: the rates every quote is built from (SPEC.md §2, §5, §9).
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { PRICING_DEFAULTS, pricingUpdateSchema, type PricingUpdate } from '../../../../shared/schemas';
import type { PricingRates } from '../../../../shared/types';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Checkbox, Field, Input, Label, Spinner } from '../../components/ui';
import { asInput } from '../../lib/forms';
import { usePricing, useSavePricing } from './api';

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
});

const MONEY_FIELDS = [
  { name: 'callOutFee', label: 'Call-out Fee (£)', hint: 'Charged on every job', placeholder: PRICING_DEFAULTS.callOutFee.toFixed(2) },
  { name: 'labourRate', label: 'Labour Rate (£ per hour)', hint: 'Multiplied by the labour time', placeholder: PRICING_DEFAULTS.labourRate.toFixed(2) },
  { name: 'mileRate', label: 'Mile Rate (£ per mile)', hint: 'Per mile from pickup to destination', placeholder: PRICING_DEFAULTS.mileRate.toFixed(2) },
] as const;

export function PricingTab() {
  const pricing = usePricing();
  const save = useSavePricing();
  const {
    register,
    handleSubmit,
    watch,
    setValue,
    formState: { errors },
  } = useForm({ resolver: zodResolver(pricingUpdateSchema), values: toForm(pricing.data) });

  if (pricing.isLoading) return <Spinner label="Loading pricing" />;

  const onSubmit = handleSubmit((rates) => save.mutate(rates));

  const afterHoursEnabled = watch('afterHoursEnabled');
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pricing & Rates</CardTitle>
        <CardDescription>
          Your standard rates. Leave a field blank to use the default shown in it.
        </CardDescription>
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
              <Input
                type="number"
                inputMode="decimal"
                min={0}
                step={0.1}
                placeholder={PRICING_DEFAULTS.labourTime.toFixed(1)}
                {...register('labourTime')}
              />
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
              UK time. The window can run past midnight, for example {PRICING_DEFAULTS.afterHoursStart} to{' '}
              {PRICING_DEFAULTS.afterHoursEnd}.
            </p>
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
