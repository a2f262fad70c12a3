// The Accounts tab (docs/product.md §26): the operator's trade accounts with what each owes, a
// form to add one with its terms and rate card, the month's invoices with their PDFs and a way to
// mark one paid, the statement of each account, and the books (CSV files, the Xero sync).
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { accountCreateSchema, type AccountInvoice } from '#shared/accounts';
import { ApiRequestError } from '#shared/api-client';
import { formatPounds } from '#shared/money';
import { useEffect, useState } from 'react';
import { toast } from '../../../components/toast';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Input, Spinner, Textarea } from '../../../components/ui';
import { errorText } from '../api';
import {
  exportHref,
  invoicePdfHref,
  statementPdfHref,
  useAccountInvoices,
  useAccounts,
  useCreateAccount,
  useMarkPaid,
  useRunInvoices,
  useXeroConnect,
  useXeroDisconnect,
  useXeroStatus,
  useXeroSyncAndStatus,
} from './accounts-api';

/** The form's fields: the account with the rate card's call-out and percentage off (the API takes the whole card). */
const formSchema = accountCreateSchema.omit({ rateCard: true }).extend({
  callOutFee: z.union([z.literal(''), z.coerce.number().min(0, 'Call-out fee must not be negative')]),
  percentOff: z.union([z.literal(''), z.coerce.number().min(0, 'Percentage off must be at least 0').max(100, 'Percentage off must be at most 100')]),
});
type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;
const FIELDS = ['name', 'email', 'billingAddress', 'vatNumber', 'paymentTermsDays', 'creditLimit', 'accountCode'] as const;

/** Last month, YYYY-MM, in the browser's calendar: the month-end run's usual month. */
function lastMonth(): string {
  const d = new Date();
  d.setDate(1);
  d.setMonth(d.getMonth() - 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

export default function AccountsTab() {
  const accounts = useAccounts();
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Trade accounts</CardTitle>
          <CardDescription>Garages, dealers, fleets and clubs you bill monthly: their own rates, a PO on every job, one invoice a month.</CardDescription>
        </CardHeader>
        <CardContent>
          {accounts.isLoading ? (
            <Spinner label="Loading your accounts" />
          ) : accounts.isError ? (
            <p role="alert" className="text-sm text-red-700">
              Unable to load your accounts. Please reload the page.
            </p>
          ) : (accounts.data ?? []).length === 0 ? (
            <p className="text-sm text-slate-700">No accounts yet.</p>
          ) : (
            <ul className="grid gap-2" aria-label="Accounts">
              {(accounts.data ?? []).map((a) => (
                <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 rounded border border-slate-200 p-3 text-sm">
                  <span>
                    <span className="font-medium">{a.name}</span> · {a.accountCode} · {a.paymentTermsDays} days{a.poRequired ? ' · PO required' : ''}
                  </span>
                  <span className="flex items-center gap-3">
                    <span>Owes {formatPounds(a.owed)}</span>
                    <a className="font-medium text-brand-700 underline" href={statementPdfHref(a.id)} download>
                      Statement (PDF)
                    </a>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <AddAccountCard />
      <InvoicesCard accountIds={new Map((accounts.data ?? []).map((a) => [a.name, a.id]))} />
      <BooksCard />
    </div>
  );
}

function AddAccountCard() {
  const create = useCreateAccount();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(formSchema),
    defaultValues: { name: '', email: '', accountCode: '', paymentTermsDays: 30, poRequired: false, deliveryNotePrices: true, callOutFee: '', percentOff: '' },
  });
  const onSubmit = handleSubmit(({ callOutFee, percentOff, ...account }) => {
    const rateCard = { ...(callOutFee === '' ? {} : { callOutFee }), ...(percentOff === '' ? {} : { percentOff }) };
    create.mutate(
      { ...account, rateCard: Object.keys(rateCard).length > 0 ? rateCard : null },
      {
        onSuccess: (a) => {
          toast({ title: `${a.name} added` });
          reset();
        },
        onError: (error) => {
          toast({ title: 'Error adding the account', description: errorText(error), variant: 'destructive' });
          const fields = error instanceof ApiRequestError ? error.fields : undefined;
          for (const [field, message] of Object.entries(fields ?? {})) {
            if ((FIELDS as readonly string[]).includes(field)) setError(field as (typeof FIELDS)[number], { message });
          }
        },
      },
    );
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Add an account</CardTitle>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" aria-label="Add an account">
          <Field label="Account name" error={errors.name?.message}>
            <Input autoComplete="organization" {...register('name')} />
          </Field>
          <Field label="Invoice email" error={errors.email?.message}>
            <Input type="email" autoComplete="email" {...register('email')} />
          </Field>
          <Field label="Billing address" error={errors.billingAddress?.message}>
            <Textarea rows={3} {...register('billingAddress')} />
          </Field>
          <Field label="VAT number" error={errors.vatNumber?.message}>
            <Input autoComplete="off" placeholder="GB123456789" {...register('vatNumber')} />
          </Field>
          <Field label="Payment terms (days)" error={errors.paymentTermsDays?.message}>
            <Input type="number" inputMode="numeric" {...register('paymentTermsDays', { valueAsNumber: true })} />
          </Field>
          <Field label="Credit limit (£)" hint="Leave blank for no limit." error={errors.creditLimit?.message}>
            <Input
              type="number"
              inputMode="decimal"
              step="0.01"
              {...register('creditLimit', { setValueAs: (v) => (v === '' || v == null ? null : Number(v)) })}
            />
          </Field>
          <Field label="Account code" hint="What its sales are coded to in Xero or QuickBooks." error={errors.accountCode?.message}>
            <Input autoComplete="off" {...register('accountCode')} />
          </Field>
          <Field label="Call-out fee on account (£)" hint="Leave blank for your usual call-out fee." error={errors.callOutFee?.message}>
            <Input type="number" inputMode="decimal" step="0.01" {...register('callOutFee')} />
          </Field>
          <Field label="Percentage off" error={errors.percentOff?.message}>
            <Input type="number" inputMode="decimal" step="0.01" {...register('percentOff')} />
          </Field>
          <div className="grid content-start gap-2 text-sm">
            <label className="flex items-center gap-2">
              <input type="checkbox" className="size-4 accent-brand-600" {...register('poRequired')} /> PO number required on every job
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" className="size-4 accent-brand-600" {...register('deliveryNotePrices')} /> Prices on delivery notes
            </label>
          </div>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={create.isPending}>
              Add account
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function InvoicesCard({ accountIds }: { accountIds: Map<string, number> }) {
  const invoices = useAccountInvoices();
  const run = useRunInvoices();
  const [month, setMonth] = useState(lastMonth);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account invoices</CardTitle>
        <CardDescription>Issued on the 1st of each month for the month before, mailed to each account with its PDF.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="flex flex-wrap items-end gap-3">
          <Field label="Month">
            <Input type="month" value={month} onChange={(e) => setMonth(e.target.value)} className="w-44" />
          </Field>
          <Button
            type="button"
            variant="outline"
            disabled={run.isPending || !/^\d{4}-\d{2}$/.test(month)}
            onClick={() =>
              run.mutate(month, {
                onSuccess: (issued) => toast({ title: `${issued.length} ${issued.length === 1 ? 'invoice' : 'invoices'} issued` }),
                onError: (error) => toast({ title: 'No invoices issued', description: errorText(error), variant: 'destructive' }),
              })
            }
          >
            Run invoices
          </Button>
        </div>
        {(invoices.data ?? []).length === 0 ? (
          <p className="text-sm text-slate-700">No account invoices yet.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Account invoices">
            {(invoices.data ?? []).map((i) => (
              <InvoiceRow key={i.number} invoice={i} accountId={accountIds.get(i.account) ?? i.accountId} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function InvoiceRow({ invoice, accountId }: { invoice: AccountInvoice; accountId: number }) {
  const pay = useMarkPaid();
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 rounded border border-slate-200 p-3 text-sm">
      <a className="font-medium text-brand-700 underline" href={invoicePdfHref(accountId, invoice.number)} download>
        {invoice.title} {invoice.number} · {invoice.account} ({formatPounds(invoice.total)}, PDF)
      </a>
      <span className="flex items-center gap-3">
        <span className={invoice.overdue ? 'font-medium text-red-700' : undefined}>
          {invoice.balance > 0 ? `${formatPounds(invoice.balance)} due ${invoice.dueDate}${invoice.overdue ? ' (overdue)' : ''}` : 'Paid'}
        </span>
        {invoice.balance > 0 && (
          <Button
            type="button"
            size="sm"
            variant="outline"
            disabled={pay.isPending}
            onClick={() =>
              pay.mutate(
                { id: accountId, number: invoice.number, amount: invoice.balance },
                {
                  onSuccess: () => toast({ title: `Invoice ${invoice.number} marked paid` }),
                  onError: (error) => toast({ title: 'Could not record the payment', description: errorText(error), variant: 'destructive' }),
                },
              )
            }
          >
            Mark paid
          </Button>
        )}
      </span>
    </li>
  );
}

function BooksCard() {
  const sync = useXeroSyncAndStatus();
  const xero = useXeroStatus();
  const connect = useXeroConnect();
  const disconnect = useXeroDisconnect();
  const status = xero.data;
  // Back from Xero's consent page (the callback sends the browser to ?tab=accounts&xero=…): say how it went, once.
  useEffect(() => {
    const url = new URL(window.location.href);
    const returned = url.searchParams.get('xero');
    if (!returned || !status) return;
    if (returned === 'connected' && status.organisation) toast({ title: `Xero connected: ${status.organisation}` });
    if (returned === 'cancelled') toast({ title: 'Xero was not connected.' });
    url.searchParams.delete('xero');
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  }, [status]);
  const failed = (title: string) => (error: Error) => toast({ title, description: errorText(error), variant: 'destructive' });
  return (
    <Card>
      <CardHeader>
        <CardTitle>The books</CardTitle>
        <CardDescription>Invoices, credit notes and payments for Xero or QuickBooks.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <div className="flex flex-wrap items-center gap-3">
          <a className="font-medium text-brand-700 underline" href={exportHref('xero', 'invoices')} download>
            Xero invoices (CSV)
          </a>
          <a className="font-medium text-brand-700 underline" href={exportHref('quickbooks', 'invoices')} download>
            QuickBooks invoices (CSV)
          </a>
          <a className="font-medium text-brand-700 underline" href={exportHref('xero', 'payments')} download>
            Payments (CSV)
          </a>
        </div>
        {status && !status.configured && <p className="text-slate-600">Xero is not set up on this server.</p>}
        {status?.configured && !status.connected && (
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-slate-600">Connect your own Xero organisation: invoices, card payments and refunds are sent to it every few minutes.</p>
            <Button
              type="button"
              size="sm"
              disabled={connect.isPending}
              onClick={() => connect.mutate(undefined, { onError: failed('Xero could not be connected') })}
            >
              Connect Xero
            </Button>
          </div>
        )}
        {status?.connected && (
          <div className="flex flex-wrap items-center gap-3">
            <p>
              Connected to Xero: <span className="font-medium">{status.organisation}</span>
            </p>
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={sync.isPending}
              onClick={() =>
                sync.mutate(undefined, {
                  onSuccess: (sent) =>
                    toast({
                      title: `Sent to Xero: ${sent.invoices + sent.cardJobs} invoices, ${sent.payments + sent.cardPayments} payments, ${sent.refunds} refunds`,
                    }),
                  onError: failed('Xero sync failed'),
                })
              }
            >
              Sync to Xero
            </Button>
            <Button
              type="button"
              variant="ghost"
              size="sm"
              disabled={disconnect.isPending}
              onClick={() => disconnect.mutate(undefined, { onError: failed('Xero could not be disconnected') })}
            >
              Disconnect
            </Button>
          </div>
        )}
        {status?.lastError && (
          <p role="alert" className="text-red-700">
            Last sync failed: {status.lastError}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
