// Contact Info: how customers reach the operator from a quote (WhatsApp, phone, e-mail).
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { SAVED_RESET } from '../../lib/forms';
import { useReportUnsaved } from '../../lib/unsaved';
import { formatPhoneNational } from '#shared/phone-number';
import { companyUpdateSchema } from '#shared/schemas';
import type { Company } from '#shared/types';
import { toast } from '../../components/toast';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Input, Select } from '../../components/ui';
import { errorText, useSaveCompany } from './api';
import { LINKED_FIELDS } from './go-to-field';

interface ContactForm {
  phone: string;
  whatsapp: string;
  email: string;
  preferredContact: 'whatsapp' | 'phone' | 'email';
}

const contactSchema = companyUpdateSchema.pick({ phone: true, whatsapp: true, email: true, preferredContact: true });

function toForm(company: Company): ContactForm {
  const preferred = company.preferredContact;
  return {
    // Stored in E.164; shown as the operator would write it ("07700 900456").
    phone: company.phone ? formatPhoneNational(company.phone) : '',
    whatsapp: company.whatsapp ? formatPhoneNational(company.whatsapp) : '',
    email: company.email ?? '',
    preferredContact: preferred === 'phone' || preferred === 'email' ? preferred : 'whatsapp',
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
