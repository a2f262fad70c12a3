// Contact Info: how customers reach the operator from a quote (WhatsApp, phone, e-mail).
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { SAVED_RESET } from '../../lib/forms';
import { useReportUnsaved } from '../../lib/unsaved';
import { formatPhoneNational } from '#shared/phone-number';
import { PRIVACY_TEXT_MAX, privacyPath } from '#shared/privacy';
import { companyUpdateSchema } from '#shared/schemas';
import type { Company } from '#shared/types';
import { toast } from '../../components/toast';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Input, Select, Textarea } from '../../components/ui';
import { errorText, useSaveCompany } from './api';
import { LINKED_FIELDS } from './go-to-field';

interface ContactForm {
  phone: string;
  whatsapp: string;
  email: string;
  preferredContact: 'whatsapp' | 'phone' | 'email';
  privacyText: string;
}

const contactSchema = companyUpdateSchema.pick({ phone: true, whatsapp: true, email: true, preferredContact: true, privacyText: true });

/** The privacy notice field's words (docs/product.md §13, "The privacy page"). */
export const PRIVACY_FIELD = {
  label: 'Privacy notice',
  hint: 'Shown on your privacy page, which the booking form and your page’s footer link to. Plain text; a blank line starts a new paragraph. Leave it empty to show our standard notice, which names you, your contact details and how long details are kept.',
} as const;

function toForm(company: Company): ContactForm {
  const preferred = company.preferredContact;
  return {
    // Stored in E.164; shown as the operator would write it ("07700 900456").
    phone: company.phone ? formatPhoneNational(company.phone) : '',
    whatsapp: company.whatsapp ? formatPhoneNational(company.whatsapp) : '',
    email: company.email ?? '',
    preferredContact: preferred === 'phone' || preferred === 'email' ? preferred : 'whatsapp',
    privacyText: company.privacyText ?? '',
  };
}

export function ContactTab({ company }: { company: Company }) {
  const save = useSaveCompany();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
    // A branding save refreshes the company: what is typed here and not saved stays.
  } = useForm({ resolver: zodResolver(contactSchema), values: toForm(company), resetOptions: { keepDirtyValues: true } });
  useReportUnsaved('contact', isDirty);

  const onSubmit = handleSubmit((contact) => {
    save.mutate(contact, {
      onSuccess: (saved) => {
        // The numbers as the server stored them become the form's: a saved form is clean.
        reset(toForm(saved), SAVED_RESET);
        toast({ title: 'Company settings updated successfully' });
      },
      onError: (error) => toast({ title: 'Error updating company settings', description: errorText(error), variant: 'destructive' }),
    });
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Contact Info</CardTitle>
        <CardDescription>Customers contact you from their quote with these details.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
          <Field label="Phone" hint="Used by the Call Now button" error={errors.phone?.message}>
            <Input id={LINKED_FIELDS.phone.id} type="tel" autoComplete="tel" placeholder="01234 567890" {...register('phone')} />
          </Field>
          <Field label="WhatsApp" hint="A UK number as you dial it, or +country code for one abroad" error={errors.whatsapp?.message}>
            <Input type="tel" placeholder="07700 900123" {...register('whatsapp')} />
          </Field>
          <Field label="Email" error={errors.email?.message}>
            <Input type="email" autoComplete="email" {...register('email')} />
          </Field>
          <Field label="Preferred contact" error={errors.preferredContact?.message}>
            <Select {...register('preferredContact')}>
              <option value="whatsapp">WhatsApp</option>
              <option value="phone">Phone</option>
              <option value="email">Email</option>
            </Select>
          </Field>
          <Field label={PRIVACY_FIELD.label} hint={PRIVACY_FIELD.hint} error={errors.privacyText?.message} className="sm:col-span-2">
            <Textarea rows={8} maxLength={PRIVACY_TEXT_MAX} {...register('privacyText')} />
          </Field>
          {company.customSlug && (
            <p className="text-sm sm:col-span-2">
              <a className="text-brand-700 underline" href={privacyPath(company.customSlug)} target="_blank" rel="noopener">
                See your privacy page
              </a>
            </p>
          )}
          <div className="sm:col-span-2">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save Contact Info'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
