// "Book this recovery" (docs/product.md §20): the motorist's name, mobile number, registration,
// an optional note, an optional email (for the review request alone) and, if they used "Use my location", the offer to send that position, sent
// with the quote's reference. Loaded only when asked for (booking-chunk.ts): in the widget it is
// its own file, widget-booking.js, so widget.js stays within its budget
// (docs/decisions/005-widget-size-and-isolation.md). The server checks every field and its
// messages are shown under them, so this file carries no phone or plate rules of its own.
//
// No React of its own: the widget hands in its hooks, and the elements built here with the JSX
// runtime bundled beside them are rendered by the widget's React.
import type { ReactNode, RefObject, useEffect, useRef, useState } from 'react';
import { ApiRequestError, api, call } from '#shared/api-client';
import type { BookingCreated } from '#shared/booking-responses';
import {
  BOOKING_EMAIL_LABEL,
  BOOKING_EMAIL_MAX,
  BOOKING_NAME_MAX,
  BOOKING_NOTE_MAX,
  bookingEmailHint,
  bookingPrivacyLine,
  JOB_HEADLINES,
} from '#shared/bookings';
import { RETENTION_MONTHS } from '#shared/leads';
import { formatPounds } from '#shared/money';
import { dueWords, type PaymentDue } from '#shared/payments';
import { PRIVACY_LINK, privacyPath } from '#shared/privacy';
import type { PublicCompany } from '#shared/types';
import { controlClass, describedBy, FieldError } from './fields';
import { idempotencyKey } from './quote-request';
import { actionClass } from './QuoteResult';

/** The widget's own React hooks, in this order: the form's state lives in the widget's React. */
export type Hooks = [typeof useState, typeof useEffect, typeof useRef];

interface BookingFormProps {
  hooks: Hooks;
  apiBase: string;
  quoteId: string;
  company: PublicCompany;
  /** Where "Use my location" found the motorist: offered with the booking, sent only if ticked. */
  position: { lat: number; lng: number } | null;
  /** What the quote form's Registration field holds, to start from. */
  registration: string;
  /** The quote form, sent again for a fresh quote when the price has expired. */
  quoteForm: RefObject<HTMLFormElement | null>;
}

type Field = 'name' | 'phone' | 'registration' | 'note' | 'email';
const LABELS: Record<Field, string> = {
  name: 'Your name',
  phone: 'Mobile number',
  registration: 'Registration',
  note: 'Note (optional)',
  email: BOOKING_EMAIL_LABEL,
};

export const BOOKING_OFFLINE = 'No connection. Please try again, or call.';
export const FRESH_QUOTE = 'Get a fresh quote';
/** The link offered when this website may not book for the company (403 BOOKING_ORIGIN_REFUSED). */
export const bookOnHostedPage = (companyName: string) => `Book on ${companyName}’s page`;

/**
 * The form for one quote, as an element the widget renders below the quote. Positional, because
 * widget.js makes this call and its bytes are counted (property names are not minified).
 */
export const bookingForm = (
  hooks: Hooks,
  apiBase: string,
  quoteId: string,
  company: PublicCompany,
  position: BookingFormProps['position'],
  registration: string,
  quoteForm: BookingFormProps['quoteForm'],
): ReactNode => <BookingForm key={quoteId} {...{ hooks, apiBase, quoteId, company, position, registration, quoteForm }} />;

function BookingForm({ hooks, apiBase, quoteId, company, position, registration, quoteForm }: BookingFormProps) {
  const [useState, useEffect, useRef] = hooks;
  const id = `rq-book-${quoteId}`;
  // One key per form: a repeat (a retry after no answer, a second tap) answers the booking it made.
  const [bookingKey] = useState(idempotencyKey);
  const [values, setValues] = useState<Record<Field, string>>({ name: '', phone: '', registration, note: '', email: '' });
  const [sendPosition, setSendPosition] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [problem, setProblem] = useState<{ message: string; expired?: boolean; hosted?: boolean } | null>(null);
  const [pending, setPending] = useState(false);
  const [booked, setBooked] = useState<BookingCreated | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // What is paid now and what later, said before sending (docs/product.md §21); without an answer the form still books.
  const [due, setDue] = useState<PaymentDue | null>(null);
  useEffect(() => {
    call(api(apiBase).bookings.due[':quoteId'].$get, { param: { quoteId } }, { anonymous: true }).then(setDue, () => undefined);
  }, [apiBase, quoteId]);

  // The form, then its answer, into view and focus: on a phone they open below the fold.
  useEffect(() => {
    heading.current?.scrollIntoView?.({ block: 'start' });
    heading.current?.focus({ preventScroll: true });
  }, [booked]);

  async function submit(event: { preventDefault(): void }) {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setProblem(null);
    try {
      const json = {
        quoteId,
        bookingKey,
        name: values.name,
        phone: values.phone,
        registration: values.registration,
        ...(values.note.trim() ? { note: values.note } : {}),
        ...(values.email.trim() ? { email: values.email } : {}),
        ...(position && sendPosition ? { position } : {}),
      };
      setBooked(await call(api(apiBase).bookings.$post, { json }, { anonymous: true }));
    } catch (error) {
      if (!(error instanceof ApiRequestError)) return setProblem({ message: BOOKING_OFFLINE });
      const fields = error.fields;
      setErrors(fields ?? {});
      const code = (JSON.parse(error.body || '{}') as { code?: string }).code;
      // A website the company has not listed (decision 033): the booking is finished on its own page.
      if (!fields)
        setProblem({
          message: error.status >= 500 ? BOOKING_OFFLINE : error.serverMessage,
          expired: code === 'QUOTE_EXPIRED',
          hosted: code === 'BOOKING_ORIGIN_REFUSED',
        });
    } finally {
      setPending(false);
    }
  }

  const card = 'rounded-xl border-t-4 border-primary bg-white p-4 shadow-sm ring-1 ring-slate-900/5 @md:p-6';
  const title = (text: string) => (
    <h3 id={`${id}-title`} ref={heading} tabIndex={-1} className="scroll-mt-8 text-lg font-semibold text-ink outline-none">
      {text}
    </h3>
  );

  if (booked) {
    const { job } = booked;
    // Paid at booking, the operator hears of it only once it is paid: the motorist is asked to pay,
    // as their status page asks, with the same headline for each status.
    const checkoutUrl = job.status === 'awaiting_payment' ? job.payment?.checkoutUrl : null;
    return (
      <section aria-labelledby={`${id}-title`} className={card}>
        {title(JOB_HEADLINES[job.status])}
        <p className="mt-1 text-slate-700">
          {checkoutUrl
            ? `${company.name} gets your booking TQ-${job.reference} once it is paid.`
            : `${company.name} has your booking TQ-${job.reference} and will answer soon.`}{' '}
          Follow it on your page; keep its link, it is shown once.
        </p>
        {checkoutUrl && (
          <a href={checkoutUrl} className={`${actionClass} mt-4 bg-primary text-on-primary`}>
            Pay {formatPounds(job.payment!.amount)}
          </a>
        )}
        <a
          href={booked.jobUrl}
          target="_blank"
          rel="noopener"
          className={`${actionClass} mt-4 ${checkoutUrl ? 'border border-slate-300 bg-white text-ink' : 'bg-primary text-on-primary'}`}
        >
          Follow your recovery
        </a>
      </section>
    );
  }

  const field = (name: Field, input: Record<string, unknown>, hint?: string) => {
    const described = describedBy(`${id}-${name}`, errors[name]);
    return (
      <div>
        <label htmlFor={`${id}-${name}`} className="mb-1.5 block text-sm font-medium text-slate-800">
          {LABELS[name]}
        </label>
        <input
          id={`${id}-${name}`}
          name={name}
          className={controlClass}
          value={values[name]}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setValues((v) => ({ ...v, [name]: value }));
          }}
          {...described}
          {...(hint ? { 'aria-describedby': [`${id}-${name}-hint`, described['aria-describedby']].filter(Boolean).join(' ') } : {})}
          {...input}
        />
        {hint && (
          <p id={`${id}-${name}-hint`} className="mt-1 text-sm text-slate-700">
            {hint}
          </p>
        )}
        <FieldError id={`${id}-${name}-error`} message={errors[name]} />
      </div>
    );
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`} className={`${card} grid gap-4`}>
      {title('Book this recovery')}
      {field('name', { autoComplete: 'name', maxLength: BOOKING_NAME_MAX })}
      {field('phone', { type: 'tel', autoComplete: 'tel', inputMode: 'tel', placeholder: '07700 900123' })}
      {field('registration', { autoCapitalize: 'characters', autoComplete: 'off', spellCheck: false, placeholder: 'AB12 CDE' })}
      {field('note', { maxLength: BOOKING_NOTE_MAX, placeholder: 'Hard shoulder, northbound, after junction 18' })}
      {field('email', { type: 'email', autoComplete: 'email', inputMode: 'email', maxLength: BOOKING_EMAIL_MAX }, bookingEmailHint(company.name))}
      {position && (
        <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
          <input type="checkbox" className="size-5" checked={sendPosition} onChange={(e) => setSendPosition(e.currentTarget.checked)} />
          Send my location with the booking
        </label>
      )}
      {due && <p className="font-semibold text-ink">{dueWords(due)}</p>}
      <p className="text-sm text-slate-700">
        {bookingPrivacyLine(company.name, company.retentionMonths ?? RETENTION_MONTHS.default)}
        {company.customSlug && (
          <>
            {' '}
            <a href={apiBase + privacyPath(company.customSlug)} target="_blank" rel="noopener" className="underline">
              {PRIVACY_LINK}
            </a>
          </>
        )}
      </p>
      {problem && (
        <div role="alert" className="grid gap-3 text-sm text-red-700">
          {problem.message}
          {problem.expired && (
            <button type="button" onClick={() => quoteForm.current?.requestSubmit()} className={`${actionClass} bg-primary text-on-primary`}>
              {FRESH_QUOTE}
            </button>
          )}
          {problem.hosted && company.customSlug && (
            <a
              href={`${apiBase}/company/${encodeURIComponent(company.customSlug)}`}
              target="_blank"
              rel="noopener"
              className={`${actionClass} bg-primary text-on-primary`}
            >
              {bookOnHostedPage(company.name)}
            </a>
          )}
        </div>
      )}
      <button type="submit" disabled={pending} className={`${actionClass} bg-primary text-on-primary disabled:opacity-60`}>
        {pending ? 'Sending…' : 'Send booking'}
      </button>
    </form>
  );
}
