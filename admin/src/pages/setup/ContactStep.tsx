// Set-up step 1, how customers reach you (docs/product.md §14): a phone and/or a WhatsApp number,
// at least one, and which one customers should use first. Without one a motorist gets a price and
// nobody to call, so the step does not save empty.
import { formatPhoneNational } from '#shared/phone-number';
import { companyUpdateSchema } from '#shared/schemas';
import type { Company } from '#shared/types';
import { Field, Input } from '../../components/ui';
import { useSaveCompany } from '../dashboard/api';
import { LINKED_FIELDS } from '../dashboard/go-to-field';
import { StepFrame } from './StepFrame';
import { schemaErrors, useStepForm, type Values } from './step-form';
import type { StepProps } from './steps';

/** Said under Phone when both numbers are blank. */
export const CONTACT_NEEDED = 'Add a phone or WhatsApp number, so customers who get a price can reach you';

const contactSchema = companyUpdateSchema.pick({ phone: true, whatsapp: true, preferredContact: true });
type Preferred = 'phone' | 'whatsapp';

const savedValues = (company: Company): Values => ({
  phone: company.phone ? formatPhoneNational(company.phone) : '',
  whatsapp: company.whatsapp ? formatPhoneNational(company.whatsapp) : '',
  // Blank until the operator chooses: then the number they gave is the one to use first.
  preferredContact:
    company.phone && company.whatsapp && (company.preferredContact === 'phone' || company.preferredContact === 'whatsapp') ? company.preferredContact : '',
});

/** The preferred channel: the operator's choice among the numbers given, else the one number given. */
export function preferredOf(values: Values): Preferred {
  const chosen = values.preferredContact;
  if (chosen === 'phone' && values.phone.trim()) return 'phone';
  if (chosen === 'whatsapp' && values.whatsapp.trim()) return 'whatsapp';
  return values.whatsapp.trim() ? 'whatsapp' : 'phone';
}

export function ContactStep({ userId, company, next, back, moved }: StepProps & { company: Company }) {
  const form = useStepForm(userId, 'contact', savedValues(company), ['phone', 'whatsapp', 'preferredContact']);
  const save = useSaveCompany();
  const { values, errors } = form;
  const both = Boolean(values.phone.trim() && values.whatsapp.trim());

  const actions = form.actions(next, () => {
    if (!values.phone.trim() && !values.whatsapp.trim()) return { phone: CONTACT_NEEDED };
    const body = { phone: values.phone, whatsapp: values.whatsapp, preferredContact: preferredOf(values) };
    return schemaErrors(contactSchema, body) ?? ((handlers) => save.mutate(contactSchema.parse(body), handlers));
  });

  return (
    <StepFrame
      step="contact"
      description="A motorist who gets a price calls or messages you from it. Give at least one number."
      formError={errors.form}
      saving={save.isPending}
      {...actions}
      onBack={back}
      moved={moved}
    >
      <Field label="Phone" hint="For the Call button, e.g. 01234 567890" error={errors.phone}>
        <Input id={LINKED_FIELDS.phone.id} type="tel" autoComplete="tel" value={values.phone} onChange={(e) => form.set('phone', e.target.value)} />
      </Field>
      <Field label="WhatsApp" hint="A UK mobile, e.g. 07700 900123, or +country code for one abroad" error={errors.whatsapp}>
        <Input type="tel" value={values.whatsapp} onChange={(e) => form.set('whatsapp', e.target.value)} />
      </Field>
      {both && (
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium text-slate-900">Which should customers use first?</legend>
          {(['whatsapp', 'phone'] as const).map((channel) => (
            <label key={channel} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="preferredContact"
                value={channel}
                checked={preferredOf(values) === channel}
                onChange={() => form.set('preferredContact', channel)}
                className="size-4 accent-brand-600"
              />
              {channel === 'whatsapp' ? 'WhatsApp' : 'Phone'}
            </label>
          ))}
          {errors.preferredContact && <p className="text-sm text-red-700">{errors.preferredContact}</p>}
        </fieldset>
      )}
    </StepFrame>
  );
}
