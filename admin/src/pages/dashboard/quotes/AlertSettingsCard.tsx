// Alerts and retention (decision 016): how the operator hears of new quotes, where the
// mail goes, how long quotes are kept, and the recent alerts with what became of each.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { TriangleAlert } from 'lucide-react';
import { ApiRequestError, call, portalApi } from '#shared/api-client';
import { useMutation } from '@tanstack/react-query';
import { ALERT_MODE_LABELS, ALERT_MODES, RETENTION_MONTHS, TEXT_LIMIT_REACHED, type AlertMode } from '#shared/leads';
import { leadSettingsUpdateSchema } from '#shared/schemas';
import type { Alert, LeadSettings } from '#shared/types';
import { toast } from '../../../components/toast';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Input, Spinner } from '../../../components/ui';
import { errorText } from '../api';
import { useAlerts, useLeadSettings, useSaveLeadSettings } from './api';
import { formatDateTime } from './format';

export const NOT_SENT = 'not sent: no mail server configured';
export const WAITING_FOR_VERIFIED = 'waiting for a verified address';

interface SettingsForm {
  alertMode: AlertMode;
  alertEmail: string;
  retentionMonths: number;
}

const toForm = (settings: LeadSettings): SettingsForm => ({
  alertMode: settings.alertMode,
  alertEmail: settings.alertEmail ?? '',
  retentionMonths: settings.retentionMonths,
});

export function AlertSettingsCard() {
  const settings = useLeadSettings();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Alerts and retention</CardTitle>
        <CardDescription>Hear about new quotes by email, and choose how long quotes are kept.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {settings.isLoading ? (
          <Spinner label="Loading your alert settings" />
        ) : settings.data ? (
          <SettingsForm settings={settings.data} />
        ) : (
          <p role="alert" className="text-sm text-red-700">
            Unable to load your alert settings. Please reload the page.
          </p>
        )}
        <RecentAlerts />
      </CardContent>
    </Card>
  );
}

function SettingsForm({ settings }: { settings: LeadSettings }) {
  const save = useSaveLeadSettings();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
    // The shared schema reads the form: a blank address becomes null, the company email.
  } = useForm({ resolver: zodResolver(leadSettingsUpdateSchema), values: toForm(settings) });

  const onSubmit = handleSubmit((update) =>
    save.mutate(update, {
      onSuccess: () => toast({ title: 'Alert settings saved' }),
      onError: (error) => {
        toast({ title: 'Error saving alert settings', description: errorText(error), variant: 'destructive' });
        const fields = error instanceof ApiRequestError ? error.fields : undefined;
        for (const [field, message] of Object.entries(fields ?? {})) {
          if (field === 'alertMode' || field === 'alertEmail' || field === 'retentionMonths') setError(field, { message });
        }
      },
    }),
  );

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-5">
      {!settings.mailConfigured && (
        <p className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>Alerts are kept in the list below but {NOT_SENT}.</span>
        </p>
      )}
      <fieldset className="grid gap-2" aria-describedby={errors.alertMode ? 'alert-mode-error' : undefined}>
        <legend className="mb-1 text-sm font-medium">Email alerts</legend>
        {ALERT_MODES.map((mode) => (
          <label key={mode} className="flex items-center gap-2 text-sm">
            <input type="radio" value={mode} className="size-4 accent-brand-600" {...register('alertMode')} />
            {ALERT_MODE_LABELS[mode]}
          </label>
        ))}
        {errors.alertMode && (
          <p id="alert-mode-error" className="text-sm text-red-700">
            {errors.alertMode.message}
          </p>
        )}
      </fieldset>
      {settings.alertRecipient && (!settings.accountVerified || !settings.alertRecipientVerified) && <VerificationNote settings={settings} />}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Send alerts to"
          hint={`Leave blank to use your company email. Alerts now go to ${settings.alertRecipient ?? 'no address yet: add an email in Contact Info'}.`}
          error={errors.alertEmail?.message}
        >
          <Input type="email" autoComplete="email" placeholder="Your company email" {...register('alertEmail')} />
        </Field>
        <Field
          label="Keep quotes for (months)"
          hint={`${RETENTION_MONTHS.min} to ${RETENTION_MONTHS.max}. Older quotes and their notes are deleted each night.`}
          error={errors.retentionMonths?.message}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={RETENTION_MONTHS.min}
            max={RETENTION_MONTHS.max}
            step={1}
            {...register('retentionMonths', { valueAsNumber: true })}
          />
        </Field>
      </div>
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Alert Settings'}
        </Button>
      </div>
    </form>
  );
}

/** Alerts wait "waiting for a verified address" until the account and the recipient are verified. */
function VerificationNote({ settings }: { settings: LeadSettings }) {
  const send = useMutation({ mutationFn: () => call(portalApi['lead-settings'].verification.$post) });
  // The account's own address is verified from the banner at the top; another recipient from here.
  const recipientWaits = settings.accountVerified && !settings.alertRecipientVerified;
  return (
    <div className="grid gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="flex items-start gap-2">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          {recipientWaits
            ? `Alerts to ${settings.alertRecipient} are ${WAITING_FOR_VERIFIED}: open the link we sent to it.`
            : `Alerts are ${WAITING_FOR_VERIFIED}: verify your account's email address with the link we sent you.`}
        </span>
      </p>
      {recipientWaits && (
        <div className="flex flex-wrap items-center gap-3">
          <Button type="button" variant="outline" size="sm" disabled={send.isPending} onClick={() => send.mutate()}>
            {send.isPending ? 'Sending...' : 'Send verification link'}
          </Button>
          <span role="status">
            {send.isSuccess
              ? `Sent to ${send.data.email}.`
              : send.isError
                ? send.error instanceof ApiRequestError
                  ? send.error.serverMessage
                  : send.error.message
                : ''}
          </span>
        </div>
      )}
    </div>
  );
}

function alertStatusText(alert: Alert): { text: string; tone: 'success' | 'warning' | 'danger' | 'neutral' } {
  switch (alert.status) {
    case 'sent':
      return { text: alert.sentAt ? `Sent ${formatDateTime(alert.sentAt)}` : 'Sent', tone: 'success' };
    case 'pending':
      // A text held past the day's text budget goes after midnight (docs/product.md, "Bookings").
      if (alert.lastError === TEXT_LIMIT_REACHED) return { text: TEXT_LIMIT_REACHED, tone: 'warning' };
      return { text: alert.attempts > 0 ? `Retrying (attempt ${alert.attempts})` : 'Waiting to send', tone: 'warning' };
    case 'failed':
      return { text: 'Failed', tone: 'danger' };
    case 'unsent':
      return { text: NOT_SENT, tone: 'neutral' };
    case 'unverified':
      return { text: WAITING_FOR_VERIFIED, tone: 'warning' };
    default:
      return alert.status satisfies never;
  }
}

function RecentAlerts() {
  const alerts = useAlerts();
  return (
    <section aria-labelledby="recent-alerts" className="grid gap-2 border-t border-slate-200 pt-5">
      <h3 id="recent-alerts" className="text-sm font-semibold">
        Recent alerts
      </h3>
      {alerts.isLoading ? (
        <Spinner label="Loading recent alerts" />
      ) : alerts.isError ? (
        <p role="alert" className="text-sm text-red-700">
          Unable to load your recent alerts.
        </p>
      ) : alerts.data?.length ? (
        <ul className="grid gap-2">
          {alerts.data.map((alert) => {
            const status = alertStatusText(alert);
            return (
              <li key={alert.id} className="grid gap-1 rounded-lg border border-slate-200 p-3 text-sm">
                <span className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium break-words">{alert.subject}</span>
                  <Badge tone={status.tone}>{status.text}</Badge>
                </span>
                <span className="text-slate-700">
                  To {alert.to} · <time dateTime={alert.createdAt}>{formatDateTime(alert.createdAt)}</time>
                </span>
                {alert.status === 'failed' && alert.lastError && <span className="text-red-800">{alert.lastError}</span>}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-sm text-slate-700">No alerts yet.</p>
      )}
    </section>
  );
}
