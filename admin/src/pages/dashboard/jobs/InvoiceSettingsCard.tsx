// What a paid job's receipt or VAT invoice prints (docs/product.md §22): the business address on
// every document, and the VAT number a VAT-registered operator's invoices need (VAT registration
// itself is set in Pricing & Rates). Documents issued before a change keep what they printed.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { ApiRequestError } from '#shared/api-client';
import { invoiceSettingsUpdateSchema, type InvoiceSettings } from '#shared/documents';
import { toast } from '../../../components/toast';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Input, Spinner, Textarea } from '../../../components/ui';
import { errorText } from '../api';
import { useInvoiceSettings, useSaveInvoiceSettings } from './documents-api';

const FIELDS = ['vatNumber', 'businessAddress'] as const;

export function InvoiceSettingsCard() {
  const settings = useInvoiceSettings();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Receipts and invoices</CardTitle>
        <CardDescription>
          A job paid at booking gets a receipt when it is completed, or a VAT invoice when you are VAT registered and your VAT number is set.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isLoading ? (
          <Spinner label="Loading your invoice details" />
        ) : settings.data ? (
          <InvoiceForm settings={settings.data} />
        ) : (
          <p role="alert" className="text-sm text-red-700">
            Unable to load your invoice details. Please reload the page.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function InvoiceForm({ settings }: { settings: InvoiceSettings }) {
  const save = useSaveInvoiceSettings();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(invoiceSettingsUpdateSchema),
    values: { vatNumber: settings.vatNumber ?? '', businessAddress: settings.businessAddress ?? '' },
  });

  const onSubmit = handleSubmit((update) =>
    save.mutate(update, {
      onSuccess: () => toast({ title: 'Invoice details saved' }),
      onError: (error) => {
        toast({ title: 'Error saving invoice details', description: errorText(error), variant: 'destructive' });
        const fields = error instanceof ApiRequestError ? error.fields : undefined;
        for (const [field, message] of Object.entries(fields ?? {})) {
          if ((FIELDS as readonly string[]).includes(field)) setError(field as (typeof FIELDS)[number], { message });
        }
      },
    }),
  );

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Invoice details">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="VAT number"
          hint={
            settings.vatRegistered
              ? 'Printed on your VAT invoices. Without it your jobs get receipts.'
              : 'You are not VAT registered (Pricing & Rates): your jobs get receipts.'
          }
          error={errors.vatNumber?.message}
        >
          <Input autoComplete="off" placeholder="GB123456789" {...register('vatNumber')} />
        </Field>
        <Field label="Business address" hint="Printed on every receipt and invoice." error={errors.businessAddress?.message}>
          <Textarea autoComplete="street-address" rows={3} {...register('businessAddress')} />
        </Field>
      </div>
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Invoice Details'}
        </Button>
      </div>
    </form>
  );
}
