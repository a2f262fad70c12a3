// How bookings come in (docs/product.md, "Bookings"): which of the three ways on from a quote the
// quote page offers (Book, WhatsApp, Call), the mobile number that hears of each booking by text
// message, the response time after which an unanswered booking expires, and whether motorists
// may give an Irish mobile as well as a UK one (texts go to nothing else).
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { TriangleAlert } from 'lucide-react';
import { ApiRequestError } from '#shared/api-client';
import type { BookingSettings } from '#shared/booking-responses';
import { bookingSettingsUpdateSchema } from '#shared/booking-schemas';
import { BOOKING_RESPONSE_MINUTES, MOTORIST_TEXT_LABELS, MOTORIST_TEXT_STEPS, type MotoristTextStep, type ReviewMode } from '#shared/bookings';
import { formatPhoneNational } from '#shared/phone-number';
import { toast } from '../../../components/toast';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Input, Spinner } from '../../../components/ui';
import { errorText } from '../api';
import { useBookingSettings, useSaveBookingSettings } from './api';
import { SmsNumberConfirm } from './SmsNumberConfirm';

export const SMS_NOT_SENT = 'not sent: no SMS provider configured';

interface SettingsForm {
  offerBooking: boolean;
  offerWhatsapp: boolean;
  offerCall: boolean;
  textIrishMobiles: boolean;
  smsNumber: string;
  responseMinutes: number;
  /** The customer's texts turned off: each checkbox below is ticked while its text goes. */
  motoristTextsOff: MotoristTextStep[];
  reviewMode: ReviewMode;
  reviewUrl: string;
  /** Edited in Share & Embed (WebsitesCard), never sent from here. */
  bookingOrigins?: string[];
}

const FIELDS = ['offerBooking', 'offerWhatsapp', 'offerCall', 'textIrishMobiles', 'smsNumber', 'responseMinutes', 'reviewMode', 'reviewUrl'] as const;
export const IRISH_MOBILES_LABEL = 'Also take Republic of Ireland mobiles (+353 8…) for bookings';
export const IRISH_MOBILES_HINT = 'Booking texts go to UK mobiles only unless this is ticked; texts to Irish mobiles cost more.';

const BUTTONS: { name: 'offerBooking' | 'offerWhatsapp' | 'offerCall'; label: string }[] = [
  { name: 'offerBooking', label: 'Book this recovery: the motorist books on the page, and you answer in the Jobs card' },
  { name: 'offerWhatsapp', label: 'WhatsApp (when your WhatsApp number is set in Contact Info)' },
  { name: 'offerCall', label: 'Call (when your phone number is set in Contact Info)' },
];

const toForm = (settings: BookingSettings): SettingsForm => ({
  offerBooking: settings.offerBooking,
  offerWhatsapp: settings.offerWhatsapp,
  offerCall: settings.offerCall,
  textIrishMobiles: settings.textIrishMobiles,
  smsNumber: settings.smsNumber ? formatPhoneNational(settings.smsNumber) : '',
  responseMinutes: settings.responseMinutes,
  motoristTextsOff: settings.motoristTextsOff,
  reviewMode: settings.reviewMode,
  reviewUrl: settings.reviewUrl ?? '',
});

export const REVIEW_LABEL = 'Ask for a review';
export const REVIEW_HINT =
  'One text or email an hour after each completed job, with your review page, the same for every customer; one tap stops them. By email, only customers who gave their email when booking get one: no email given, nothing is sent. Sent once your subscription is active.';

export const MOTORIST_TEXTS_LEGEND = 'Texts to the customer';
export const MOTORIST_TEXTS_HINT = 'Each goes once, when the job reaches that step. The first text, with the link to their page, always goes.';

export function BookingSettingsCard() {
  const settings = useBookingSettings();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Bookings</CardTitle>
        <CardDescription>What your quote page offers after the price, and how you hear of a booking.</CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isLoading ? (
          <Spinner label="Loading your booking settings" />
        ) : settings.data ? (
          <SettingsForm settings={settings.data} />
        ) : (
          <p role="alert" className="text-sm text-red-700">
            Unable to load your booking settings. Please reload the page.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function SettingsForm({ settings }: { settings: BookingSettings }) {
  const save = useSaveBookingSettings();
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors },
    // The shared schema reads the form: a blank number becomes null (email only), a typed one E.164.
  } = useForm({ resolver: zodResolver(bookingSettingsUpdateSchema), values: toForm(settings) });

  const onSubmit = handleSubmit((update) =>
    save.mutate(update, {
      onSuccess: () => toast({ title: 'Booking settings saved' }),
      onError: (error) => {
        toast({ title: 'Error saving booking settings', description: errorText(error), variant: 'destructive' });
        const fields = error instanceof ApiRequestError ? error.fields : undefined;
        for (const [field, message] of Object.entries(fields ?? {})) {
          if ((FIELDS as readonly string[]).includes(field)) setError(field as (typeof FIELDS)[number], { message });
        }
      },
    }),
  );

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-label="Booking settings">
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Buttons under the quote</legend>
        {BUTTONS.map((button) => (
          <label key={button.name} className="flex items-start gap-2 text-sm">
            <input type="checkbox" className="mt-0.5 size-4 accent-brand-600" {...register(button.name)} />
            {button.label}
          </label>
        ))}
      </fieldset>
      <div className="grid gap-1">
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" className="mt-0.5 size-4 accent-brand-600" aria-describedby="text-irish-mobiles-hint" {...register('textIrishMobiles')} />
          {IRISH_MOBILES_LABEL}
        </label>
        <p id="text-irish-mobiles-hint" className="ml-6 text-xs text-slate-600">
          {IRISH_MOBILES_HINT}
        </p>
      </div>
      {!settings.smsConfigured && (
        <p className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>Booking texts are kept in the outbox but {SMS_NOT_SENT}; booking emails are sent.</span>
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Text bookings to (mobile)"
          hint="Each booking is emailed, and texted to this mobile too once you confirm it with the code we text to it. Leave blank for email only."
          error={errors.smsNumber?.message}
        >
          <Input type="tel" inputMode="tel" autoComplete="tel" placeholder="07700 900123" {...register('smsNumber')} />
        </Field>
        <Field
          label="Response time (minutes)"
          hint={`${BOOKING_RESPONSE_MINUTES.min} to ${BOOKING_RESPONSE_MINUTES.max}. A booking not answered in time expires, and the motorist is told to call you.`}
          error={errors.responseMinutes?.message}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={BOOKING_RESPONSE_MINUTES.min}
            max={BOOKING_RESPONSE_MINUTES.max}
            step={1}
            {...register('responseMinutes', { valueAsNumber: true })}
          />
        </Field>
      </div>
      <Controller
        control={control}
        name="motoristTextsOff"
        render={({ field }) => (
          <fieldset className="grid gap-2" aria-describedby="motorist-texts-hint">
            <legend className="mb-1 text-sm font-medium">{MOTORIST_TEXTS_LEGEND}</legend>
            <p id="motorist-texts-hint" className="text-xs text-slate-600">
              {MOTORIST_TEXTS_HINT}
            </p>
            {MOTORIST_TEXT_STEPS.map((step) => (
              <label key={step} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 accent-brand-600"
                  checked={!(field.value ?? []).includes(step)}
                  onChange={(event) => {
                    const off = (field.value ?? []).filter((s) => s !== step);
                    field.onChange(event.currentTarget.checked ? off : [...off, step]);
                  }}
                />
                {MOTORIST_TEXT_LABELS[step]}
              </label>
            ))}
          </fieldset>
        )}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={REVIEW_LABEL} hint={REVIEW_HINT} error={errors.reviewMode?.message}>
          <select className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm" {...register('reviewMode')}>
            <option value="off">Off</option>
            <option value="sms">By text</option>
            <option value="email">By email</option>
          </select>
        </Field>
        <Field label="Your review page" hint="Your Google Business profile’s review link, or any https page." error={errors.reviewUrl?.message}>
          <Input type="url" inputMode="url" placeholder="https://g.page/r/…/review" {...register('reviewUrl')} />
        </Field>
      </div>
      <SmsNumberConfirm settings={settings} />
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Booking Settings'}
        </Button>
      </div>
    </form>
  );
}
