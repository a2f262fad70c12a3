// Confirming the booking text number (docs/product.md §20): booking alerts are texted to it only
// once the owner has typed the 6-digit code texted to it. Shown under the number in the Bookings
// card: a saved, unconfirmed number offers 'Text me a code', then the code's field.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CircleCheck, TriangleAlert } from 'lucide-react';
import { ApiRequestError, call, pathOf, portalApi } from '#shared/api-client';
import type { BookingSettings } from '#shared/booking-responses';
import { smsCodeSchema } from '#shared/booking-schemas';
import { formatPhoneNational } from '#shared/phone-number';
import { toast } from '../../../components/toast';
import { Button, Field, Input } from '../../../components/ui';

export const SMS_NUMBER_CONFIRMED = 'Confirmed: booking texts go to this number.';
export const SMS_NUMBER_UNCONFIRMED = 'Not confirmed yet: no booking text goes to this number until you type the code we text to it.';

const messageOf = (error: Error) => (error instanceof ApiRequestError ? (error.fields?.code ?? error.serverMessage) : error.message);

export function SmsNumberConfirm({ settings }: { settings: BookingSettings }) {
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: [pathOf(portalApi['booking-settings'])] });
  const send = useMutation({
    mutationFn: () => call(portalApi['booking-settings']['sms-code'].$post),
    onSuccess: (sent) => {
      setError(undefined);
      toast({ title: `Code sent to ${formatPhoneNational(sent.smsNumber)}` });
    },
    onError: (e) => setError(messageOf(e)),
  });
  const confirm = useMutation({
    mutationFn: (typed: string) => call(portalApi['booking-settings']['sms-code'].confirm.$post, { json: { code: typed } }),
    onSuccess: () => {
      setError(undefined);
      setCode('');
      toast({ title: 'Number confirmed' });
      return refresh();
    },
    onError: (e) => setError(messageOf(e)),
  });

  if (!settings.smsNumber) return null;
  if (settings.smsNumberConfirmed) {
    return (
      <p className="flex items-start gap-2 text-sm text-emerald-800">
        <CircleCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>{SMS_NUMBER_CONFIRMED}</span>
      </p>
    );
  }
  const onConfirm = () => {
    const parsed = smsCodeSchema.safeParse({ code });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    confirm.mutate(parsed.data.code);
  };
  return (
    <section aria-label="Confirm the booking text number" className="grid gap-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="flex items-start gap-2">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>{SMS_NUMBER_UNCONFIRMED}</span>
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <Button type="button" variant="outline" size="sm" disabled={send.isPending || !settings.smsConfigured} onClick={() => send.mutate()}>
          {send.isPending ? 'Sending...' : 'Text me a code'}
        </Button>
        <Field label="Code from the text" hint="6 digits; the code works for 15 minutes." error={error}>
          <Input
            className="w-32"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                onConfirm();
              }
            }}
          />
        </Field>
        <Button type="button" size="sm" disabled={confirm.isPending} onClick={onConfirm}>
          {confirm.isPending ? 'Confirming...' : 'Confirm number'}
        </Button>
      </div>
    </section>
  );
}
