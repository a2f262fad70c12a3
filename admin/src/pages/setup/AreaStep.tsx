// Set-up step 3, where you work (docs/product.md §14): the base postcode distances are measured
// from (the service area on the quote page, the out-of-area fee, travel to you) and the service radius.
import { formatPostcode, isValidPostcode } from '#shared/postcode';
import { companyUpdateSchema } from '#shared/schemas';
import type { Company } from '#shared/types';
import { Field, Input } from '../../components/ui';
import { asInput } from '../../lib/forms';
import { useSaveCompany } from '../dashboard/api';
import { LINKED_FIELDS } from '../dashboard/go-to-field';
import { StepFrame } from './StepFrame';
import { schemaErrors, useStepForm, type Values } from './step-form';
import type { StepProps } from './steps';

export const POSTCODE_NEEDED = 'Enter your base postcode, e.g. M1 1AE';

const areaSchema = companyUpdateSchema.pick({ basePostcode: true, serviceRadius: true });

const savedValues = (company: Company): Values => ({
  basePostcode: company.basePostcode ?? '',
  serviceRadius: asInput(company.serviceRadius),
});

export function AreaStep({ userId, company, next, back, moved }: StepProps & { company: Company }) {
  const form = useStepForm(userId, 'area', savedValues(company), ['basePostcode', 'serviceRadius']);
  const save = useSaveCompany();
  const { values, errors } = form;

  const actions = form.actions(next, () => {
    const refused = values.basePostcode.trim() ? schemaErrors(areaSchema, values) : { basePostcode: POSTCODE_NEEDED };
    return refused ?? ((handlers) => save.mutate(areaSchema.parse(values), handlers));
  });

  return (
    <StepFrame
      step="area"
      description="Where your vans start from, and how far you usually go. Customers see your area on your quote page."
      formError={errors.form}
      saving={save.isPending}
      {...actions}
      onBack={back}
      moved={moved}
    >
      <Field label="Base postcode" hint="Distances to a pickup are measured from here" error={errors.basePostcode}>
        <Input
          id={LINKED_FIELDS.basePostcode.id}
          autoComplete="postal-code"
          autoCapitalize="characters"
          value={values.basePostcode}
          onChange={(e) => form.set('basePostcode', e.target.value)}
          // Shown as it will be saved once the operator moves on ("m11ae" → "M1 1AE").
          onBlur={(e) => isValidPostcode(e.target.value) && form.set('basePostcode', formatPostcode(e.target.value))}
        />
      </Field>
      <Field label="Service radius (miles)" hint="Beyond it, your out-of-area fee applies" error={errors.serviceRadius}>
        <Input type="number" inputMode="decimal" min={0} step={1} value={values.serviceRadius} onChange={(e) => form.set('serviceRadius', e.target.value)} />
      </Field>
    </StepFrame>
  );
}
