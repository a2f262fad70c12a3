// The customer quote screen (docs/product.md §2 "Customer quote screen"), written once: the custom
// element <recovery-quote> wraps it (element.tsx) and the admin SPA renders it for the landing
// demo, the portal preview and the wrapper page.
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ApiRequestError } from '#shared/api-client';
import type { ErrorCode } from '#shared/error-codes';
import { GEARBOX_OPTIONS, PRODUCT_NAME, ROLLING_OPTIONS } from '#shared/constants';
import { formatPounds } from '#shared/money';
import { telUrl, ukNational } from '#shared/phone';
import { formatPostcode } from '#shared/postcode';
import type { PublicCompany, QuoteResponse } from '#shared/types';
import { markContact, type QuoteSummary } from './contact';
import { FieldError, NativeSelect, PassengerStepper, PostcodeField, SelectField, controlClass, describedBy, focusRing } from './fields';
import {
  HOURS,
  INITIAL_VALUES,
  MINUTES,
  QUOTE_MESSAGES,
  passengerMaximum,
  postcodeError,
  selectedTimeLabel,
  toQuoteRequest,
  todayIso,
  validateQuote,
  type FieldErrors,
  type Period,
  type QuoteField,
  type QuoteFormValues,
} from './quote-form-logic';
import { Icon } from './icons';
import { QuoteResult, actionClass, asButton, type ContactDetail } from './QuoteResult';
import { locatePostcode, sendQuote } from './quote-request';
import { isSameOrigin, useQuoteSetup, type Option } from './quote-setup';
import { themeVariables } from './theme';
import { ToastRegion, useToast } from './Toast';
import { loadVehicleLookup } from './vehicle-chunk';
import { loadBookingForm } from './booking-chunk';

export type { ContactDetail } from './QuoteResult';

export interface QuoteFormProps {
  /** The company to quote for, already loaded (admin preview and wrapper page). */
  company?: PublicCompany | null;
  /** Load the company by its custom URL slug (the public page and the custom element). */
  companySlug?: string;
  companyId?: number;
  /** The landing page demo: built-in sample data, company 1, no toasts. */
  demo?: boolean;
  /** The operator's preview of their own page: 'Loading preview...', and their session is sent. */
  preview?: boolean;
  /** Origin of the API, '' for the page's own. */
  apiBase?: string;
  onQuote?: (quote: QuoteResponse) => void;
  onContact?: (detail: ContactDetail) => void;
}

/**
 * The number plate look-up module, one load per API: every keystroke asks for it, and the
 * callbacks of one promise run in the order they were added, so the plate typed last is looked
 * up last. Separate dynamic imports of one module may settle in any order, and an earlier, partial
 * plate would then supersede the whole one. A failed load may be tried again.
 */
const vehicleLookups = new Map<string, ReturnType<typeof loadVehicleLookup>>();
function vehicleLookup(apiBase: string): ReturnType<typeof loadVehicleLookup> {
  let load = vehicleLookups.get(apiBase);
  if (!load) {
    vehicleLookups.set(apiBase, (load = loadVehicleLookup(apiBase)));
    load.catch(() => vehicleLookups.delete(apiBase));
  }
  return load;
}

/** Ofcom's numbers reserved for drama, so the demo's buttons work without reaching anyone. */
const DEMO_CONTACT = { phone: '0808 157 0123', whatsapp: '+447700900123' };

const FIELD_ORDER: readonly QuoteField[] = [
  'pickupPostcode',
  'destinationPostcode',
  'vehicleType',
  'gearboxType',
  'rollingStatus',
  'passengerCount',
  'problemType',
  'urgency',
  'preferredDate',
];

export function QuoteForm({
  company: suppliedCompany,
  companySlug,
  companyId,
  demo = false,
  preview = false,
  apiBase = '',
  onQuote,
  onContact,
}: QuoteFormProps) {
  const { setup, retry } = useQuoteSetup({ company: suppliedCompany, companySlug, companyId, demo, apiBase });
  // A supplied company wins over the loaded copy, so branding edits in the portal show at once.
  const company = suppliedCompany ?? ('company' in setup ? setup.company : null);
  const { toast, show, dismiss } = useToast();

  return (
    <div className="rq-root bg-page text-ink" style={themeVariables(company)}>
      {/* The query container holds everything but the toast: a container is the containing
          block of fixed descendants, which would pin the toast to the form, not the screen. */}
      <div className="@container">
        {'company' in setup && <Banner company={company} apiBase={apiBase} />}
        <div className="mx-auto max-w-2xl space-y-4 px-3 py-4 @md:px-6 @md:py-6">
          {setup.status === 'loading' && (
            <div role="status" className="flex flex-col items-center gap-3 py-16 text-slate-700">
              <Icon name="loader" className="size-8 animate-spin text-primary" />
              <p>{preview ? 'Loading preview...' : 'Loading quote form...'}</p>
            </div>
          )}
          {setup.status === 'not-found' && (
            <Notice title="Company not found">We couldn't find a recovery company at this address. Please check the link you were given.</Notice>
          )}
          {setup.status === 'closed' && (
            <Notice title={setup.message}>
              {company?.phone && (
                <a href={telUrl(company.phone)} {...asButton} className={`${actionClass} mt-4 bg-primary text-on-primary`}>
                  <Icon name="phone" className="size-5" />
                  Call Now
                </a>
              )}
            </Notice>
          )}
          {setup.status === 'error' && (
            <Notice title="Unable to load the quote form">
              Please check your connection and try again.
              <button type="button" onClick={retry} className={`mt-4 block h-11 rounded-lg bg-primary px-5 font-semibold text-on-primary ${focusRing}`}>
                Try Again
              </button>
            </Notice>
          )}
          {setup.status === 'ready' && (
            <QuoteWorkspace
              company={company}
              companyId={setup.companyId}
              vehicleTypes={setup.vehicleTypes}
              problemTypes={setup.problemTypes}
              demo={demo}
              apiBase={apiBase}
              sendSession={preview && isSameOrigin(apiBase)}
              showToast={show}
              onQuote={onQuote}
              onContact={onContact}
            />
          )}
        </div>
      </div>
      <ToastRegion toast={toast} onDismiss={dismiss} />
    </div>
  );
}

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-900/5">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <div className="mt-2 flex flex-col items-center text-slate-700">{children}</div>
    </section>
  );
}

/** Logos are served by the API, possibly as a path: resolve it against the API's origin. */
function logoUrl(logo: string, apiBase: string): string | null {
  try {
    return new URL(logo, apiBase || window.location.href).href;
  } catch {
    return null;
  }
}

function Banner({ company, apiBase }: { company: PublicCompany | null; apiBase: string }) {
  const name = company?.name || PRODUCT_NAME;
  const logo = company?.logo ? logoUrl(company.logo, apiBase) : null;
  return (
    <header className="bg-secondary text-on-secondary">
      <div className="mx-auto flex max-w-2xl items-center gap-4 px-4 py-5 @md:px-6 @md:py-7">
        {logo ? (
          <img src={logo} alt={`${name} logo`} className="size-14 shrink-0 rounded-lg bg-white object-contain p-1" />
        ) : (
          <span aria-hidden="true" className="grid size-14 shrink-0 place-items-center rounded-lg bg-white/90 text-slate-800">
            <Icon name="truck" className="size-7" />
          </span>
        )}
        <div className="min-w-0">
          <h2 className="text-xl font-bold break-words @md:text-2xl">{name}</h2>
          {company?.companyDescription && <p className="mt-1 text-sm break-words">{company.companyDescription}</p>}
        </div>
      </div>
    </header>
  );
}

interface QuoteWorkspaceProps {
  company: PublicCompany | null;
  companyId: number;
  vehicleTypes: readonly Option[];
  problemTypes: readonly Option[];
  demo: boolean;
  apiBase: string;
  sendSession: boolean;
  showToast: ReturnType<typeof useToast>['show'];
  onQuote?: (quote: QuoteResponse) => void;
  onContact?: (detail: ContactDetail) => void;
}

const labelOf = (options: readonly Option[], value: string) => options.find((o) => o.value === value)?.label ?? value;

function QuoteWorkspace({ company, companyId, vehicleTypes, problemTypes, demo, apiBase, sendSession, showToast, onQuote, onContact }: QuoteWorkspaceProps) {
  const id = useId();
  const [values, setValues] = useState<QuoteFormValues>(INITIAL_VALUES);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<{ quote: QuoteResponse; summary: QuoteSummary } | null>(null);
  /** The operator's answer to a pickup beyond its maximum radius (docs/product.md §10): call instead, as when unreachable. */
  const [outsideArea, setOutsideArea] = useState('');
  // At the roadside (docs/product.md §17): the network or the server failed, so the motorist is offered a call; it stays until the next attempt.
  const [unreachable, setUnreachable] = useState(false);
  const [locating, setLocating] = useState(false);
  const [locateNote, setLocateNote] = useState('');
  const [safetyShown, setSafetyShown] = useState(true);
  /** What the number plate look-up says it found (vehicle-lookup.tsx, loaded on first use). */
  const [plate, setPlate] = useState<ReactNode>(null);
  /** Where "Use my location" found the motorist: offered with a booking, sent nowhere else. */
  const [position, setPosition] = useState<{ lat: number; lng: number } | null>(null);
  /** The booking form (booking-form.tsx, loaded when "Book this recovery" is tapped). */
  const [booking, setBooking] = useState<ReactNode>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const submitButton = useRef<HTMLButtonElement>(null);
  // Where keyboard focus goes once a failed calculation re-enables the form: the disabled button
  // that had it drops it to the page.
  const refocusAfterFailure = useRef<QuoteField | 'submit' | null>(null);
  const today = todayIso();
  const maxPassengers = passengerMaximum(company?.passengerLimit);

  useEffect(() => {
    const heading = resultHeading.current;
    if (!result || !heading) return;
    // The whole card into view (on a phone it starts below the fold), then focus for keyboard
    // and screen-reader users. jsdom has no scrollIntoView.
    heading.scrollIntoView?.({ block: 'start' });
    heading.focus({ preventScroll: true });
  }, [result]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a request settles (pending) only; focusField reads refs
  useEffect(() => {
    const target = refocusAfterFailure.current;
    if (pending || !target) return;
    refocusAfterFailure.current = null;
    if (target === 'submit') submitButton.current?.focus();
    else focusField(target);
  }, [pending]);

  const update = <K extends keyof QuoteFormValues>(field: K, value: QuoteFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => (field in current ? { ...current, [field]: undefined } : current));
  };

  /** docs/product.md §2: postcodes are normalised when the field loses focus. */
  const normalisePostcode = (field: 'pickupPostcode' | 'destinationPostcode') => {
    const value = values[field];
    if (!value.trim()) return;
    const error = postcodeError(value, field === 'pickupPostcode' ? 'pickup' : 'destination');
    // Only a valid postcode is tidied: an incomplete one ('M16 0R') stays as typed, its message
    // under the field, rather than rewritten into another postcode ('M1 60R').
    if (!error) setValues((current) => ({ ...current, [field]: formatPostcode(value) }));
    setErrors((current) => ({ ...current, [field]: error }));
  };

  const focusField = (field: QuoteField) => {
    const control = formRef.current?.elements.namedItem(field);
    if (control instanceof HTMLElement) control.focus();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const formatted: QuoteFormValues = {
      ...values,
      pickupPostcode: formatPostcode(values.pickupPostcode),
      destinationPostcode: formatPostcode(values.destinationPostcode),
    };
    setValues(formatted);
    const found = validateQuote(formatted, today);
    const firstInvalid = FIELD_ORDER.find((field) => found[field]);
    if (firstInvalid) {
      // An invalid postcode is a toast (docs/product.md §9), so its text is not repeated under the
      // field as well; a missing one, like every other field, is a message under the field.
      if (found.pickupPostcode === QUOTE_MESSAGES.pickupInvalid) {
        showToast({ title: 'Invalid Pickup Postcode', description: QUOTE_MESSAGES.pickupInvalid, variant: 'destructive' });
        delete found.pickupPostcode;
      } else if (found.destinationPostcode === QUOTE_MESSAGES.destinationInvalid) {
        showToast({ title: 'Invalid Destination Postcode', description: QUOTE_MESSAGES.destinationInvalid, variant: 'destructive' });
        delete found.destinationPostcode;
      }
      setErrors(found);
      focusField(firstInvalid);
      return;
    }
    setErrors(found);

    setPending(true);
    setResult(null);
    setBooking(null);
    setOutsideArea('');
    setUnreachable(false);
    try {
      const quote = await sendQuote(toQuoteRequest(formatted, companyId), apiBase, { anonymous: !sendSession });
      setResult({ quote, summary: summarise(formatted, quote, vehicleTypes, problemTypes) });
      onQuote?.(quote);
      if (!demo) {
        showToast({ title: 'Quote Calculated', description: `Your recovery quote is ${formatPounds(quote.totalPrice)}`, variant: 'default' });
      }
    } catch (error) {
      const outside = outsideAreaAnswer(error);
      if (outside) {
        setOutsideArea(outside);
        refocusAfterFailure.current = 'submit';
        return;
      }
      // No answer, a timeout or a 5xx: the details were fine, so no toast says otherwise.
      if (!(error instanceof ApiRequestError) || error.status >= 500) {
        setUnreachable(true);
        refocusAfterFailure.current = 'submit';
        return;
      }
      const fields = error instanceof ApiRequestError ? error.fields : undefined;
      const fieldErrors = fields ? pickQuoteFields(fields) : {};
      if (fields) setErrors(fieldErrors);
      refocusAfterFailure.current = FIELD_ORDER.find((field) => fieldErrors[field]) ?? 'submit';
      if (!demo) {
        const message = error instanceof ApiRequestError && error.body ? error.serverMessage : '';
        showToast({ title: 'Quote Calculation Failed', description: message || 'Please check your details and try again', variant: 'destructive' });
      }
    } finally {
      setPending(false);
    }
  };

  const locate = async () => {
    if (locating) return;
    setLocating(true);
    setLocateNote('');
    const found = await locatePostcode(apiBase, navigator.geolocation);
    setLocating(false);
    if ('postcode' in found) {
      update('pickupPostcode', found.postcode);
      setPosition(found.position);
    } else setLocateNote(found.message);
  };

  const later = values.urgency === 'later';
  const contact = demo && !company ? DEMO_CONTACT : { phone: company?.phone ?? null, whatsapp: company?.whatsapp ?? null };
  const companyName = company?.name || PRODUCT_NAME;

  return (
    <>
      {safetyShown && (
        <div className="flex items-center gap-1 rounded-lg bg-amber-100 pl-3 text-sm text-amber-950 ring-1 ring-amber-400">
          <p className="flex-1 py-2">
            <strong>On a motorway or in a live lane?</strong> Get behind the barrier if it is safe, then call 999.
          </p>
          <button
            type="button"
            onClick={() => setSafetyShown(false)}
            aria-label="Dismiss safety advice"
            className={`grid size-11 shrink-0 place-items-center rounded-lg ${focusRing}`}
          >
            <Icon name="x" className="size-4" />
          </button>
        </div>
      )}
      <section aria-labelledby={`${id}-title`} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-900/5 @md:p-6">
        <h3 id={`${id}-title`} className="text-lg font-semibold text-ink @md:text-xl">
          Get Your Instant Recovery Quote
        </h3>
        <form ref={formRef} noValidate onSubmit={submit} className="mt-4 grid gap-4 @md:grid-cols-2">
          <div className="@md:col-span-2">
            <PostcodeField
              id={`${id}-registration`}
              name="registration"
              label="Registration (optional)"
              placeholder="e.g. AB12 CDE"
              autoComplete="off"
              value={values.registration}
              // Whatever is typed, the quote can carry it: the server keeps its letters and digits.
              onChange={(v) => {
                update('registration', v);
                setPlate(null);
                // A found vehicle chooses its vehicle type, which the motorist may change. The demo's
                // company is the demo company, whose look-ups work like any other's.
                vehicleLookup(apiBase).then(
                  (m) => m.suggestVehicle(apiBase, companyId, v, setPlate, update, focusField),
                  () => {},
                );
              }}
              note={
                // The look-up writes the words and their styling: widget.js carries only the place for them.
                <p role="status">{plate}</p>
              }
            />
          </div>
          <PostcodeField
            id={`${id}-pickup`}
            name="pickupPostcode"
            label="Pickup Location"
            placeholder="e.g. M1 1AA"
            value={values.pickupPostcode}
            error={errors.pickupPostcode}
            onChange={(v) => {
              update('pickupPostcode', v);
              setLocateNote('');
            }}
            onBlur={() => normalisePostcode('pickupPostcode')}
            action={
              <button
                type="button"
                onClick={locate}
                // Not `disabled`: that would drop keyboard focus while the position is found.
                aria-disabled={locating}
                className={`flex h-11 shrink-0 items-center gap-1.5 rounded-lg border border-slate-400 bg-white px-3 text-sm font-medium text-slate-900 hover:bg-slate-50 aria-disabled:cursor-wait ${focusRing}`}
              >
                <Icon name={locating ? 'loader' : 'navigation'} className={`size-4 ${locating ? 'animate-spin' : ''}`} />
                Use my location
              </button>
            }
            note={
              // Always mounted, so screen readers announce the message when it arrives.
              <p role="status" className={locateNote ? 'mt-1 text-sm text-slate-700' : undefined}>
                {locateNote}
              </p>
            }
          />
          <PostcodeField
            id={`${id}-destination`}
            name="destinationPostcode"
            label="Destination"
            placeholder="e.g. LS1 4AP"
            value={values.destinationPostcode}
            error={errors.destinationPostcode}
            onChange={(v) => update('destinationPostcode', v)}
            onBlur={() => normalisePostcode('destinationPostcode')}
          />
          <SelectField
            id={`${id}-vehicle`}
            name="vehicleType"
            label="Vehicle Type"
            placeholder="Select vehicle type"
            options={vehicleTypes}
            value={values.vehicleType}
            error={errors.vehicleType}
            onChange={(v) => update('vehicleType', v)}
          />
          <SelectField
            id={`${id}-gearbox`}
            name="gearboxType"
            label="Gearbox"
            placeholder="Select gearbox"
            options={GEARBOX_OPTIONS}
            value={values.gearboxType}
            error={errors.gearboxType}
            onChange={(v) => update('gearboxType', v)}
          />
          <SelectField
            id={`${id}-rolling`}
            name="rollingStatus"
            label="Rolling Status"
            placeholder="Select rolling status"
            options={ROLLING_OPTIONS}
            value={values.rollingStatus}
            error={errors.rollingStatus}
            onChange={(v) => update('rollingStatus', v)}
          />
          <PassengerStepper
            id={`${id}-passengers`}
            label="Number of Passengers"
            value={values.passengerCount}
            max={maxPassengers}
            error={errors.passengerCount}
            onChange={(v) => update('passengerCount', v)}
          />
          <div className="@md:col-span-2">
            <SelectField
              id={`${id}-problem`}
              name="problemType"
              label="Problem Description"
              placeholder="Select the problem"
              options={problemTypes}
              value={values.problemType}
              error={errors.problemType}
              onChange={(v) => update('problemType', v)}
            />
          </div>
          <fieldset className="@md:col-span-2" {...describedBy(`${id}-urgency`, errors.urgency)}>
            <legend className="mb-1.5 text-sm font-medium text-slate-800">When do you need recovery?</legend>
            <div className="grid gap-2 @sm:grid-cols-2">
              {(
                [
                  ['immediate', 'Now (Emergency)'],
                  ['later', 'Later (Schedule)'],
                ] as const
              ).map(([value, label]) => (
                // Selected is a ring in the operator's colour; keyboard focus a dashed outline around it.
                <label
                  key={value}
                  className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 has-checked:border-primary has-checked:ring-1 has-checked:ring-primary has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-dashed has-focus-visible:outline-slate-900"
                >
                  <input
                    type="radio"
                    name="urgency"
                    value={value}
                    checked={values.urgency === value}
                    onChange={() => update('urgency', value)}
                    className="size-5 accent-primary focus-visible:outline-none"
                  />
                  {label}
                </label>
              ))}
            </div>
            <FieldError id={`${id}-urgency-error`} message={errors.urgency} />
          </fieldset>
          {later && (
            <>
              <div>
                <label htmlFor={`${id}-date`} className="mb-1.5 block text-sm font-medium text-slate-800">
                  Preferred Date
                </label>
                <input
                  id={`${id}-date`}
                  name="preferredDate"
                  type="date"
                  min={today}
                  value={values.preferredDate}
                  onChange={(event) => update('preferredDate', event.target.value)}
                  className={controlClass}
                  {...describedBy(`${id}-date`, errors.preferredDate)}
                />
                <FieldError id={`${id}-date-error`} message={errors.preferredDate} />
              </div>
              <TimePicker id={`${id}-time`} values={values} onChange={update} />
            </>
          )}
          <button
            ref={submitButton}
            type="submit"
            disabled={pending}
            className={`flex h-12 items-center justify-center gap-2 rounded-lg bg-primary px-5 text-base font-semibold text-on-primary shadow-sm hover:brightness-95 disabled:cursor-wait disabled:opacity-80 @md:col-span-2 ${focusRing}`}
          >
            {pending && <Icon name="loader" className="size-5 animate-spin" />}
            {pending ? 'Calculating...' : 'Calculate Quote'}
          </button>
          {(unreachable || outsideArea) && (
            <div role="alert" className="space-y-3 rounded-lg border border-red-700 bg-red-50 p-4 text-red-900 @md:col-span-2">
              <p>
                {outsideArea ||
                  `We couldn't get a price just now. Please try again${contact.phone ? `, or call ${companyName} on ${ukNational(contact.phone)}` : ''}.`}
              </p>
              {contact.phone && (
                <a href={telUrl(contact.phone)} {...asButton} className={`${actionClass} bg-primary text-on-primary`}>
                  <Icon name="phone" className="size-5" />
                  Call Now
                </a>
              )}
            </div>
          )}
        </form>
      </section>
      {result && (
        <QuoteResult
          quote={result.quote}
          summary={result.summary}
          showBreakdown={demo || company?.showPriceBreakdown === true}
          showDisclaimer={demo || company?.showPriceDisclaimer !== false}
          whatsapp={company?.offerWhatsapp === false ? null : contact.whatsapp}
          phone={company?.offerCall === false ? null : contact.phone}
          onBook={
            company?.offerBooking && !demo
              ? () =>
                  loadBookingForm(apiBase).then((m) =>
                    setBooking(m.bookingForm([useState, useEffect, useRef], apiBase, result.quote.quoteId, company, position, values.registration, formRef)),
                  )
              : undefined
          }
          onContact={(detail) => {
            if (!demo) markContact(apiBase, detail);
            onContact?.(detail);
          }}
          headingRef={resultHeading}
        />
      )}
      {booking}
    </>
  );
}

interface TimePickerProps {
  id: string;
  values: QuoteFormValues;
  onChange: <K extends keyof QuoteFormValues>(field: K, value: QuoteFormValues[K]) => void;
}

/** docs/product.md §2: Hour 01–12, Min in 5-minute steps, AM/PM, and a 'Selected Time' readout. */
function TimePicker({ id, values, onChange }: TimePickerProps) {
  const part = (key: 'hour' | 'minute' | 'period', label: string, options: readonly string[]) => (
    <div>
      <label htmlFor={`${id}-${key}`} className="mb-1 block text-xs font-medium text-slate-700">
        {label}
      </label>
      <NativeSelect id={`${id}-${key}`} name={key} value={values[key]} onChange={(v) => onChange(key, v as QuoteFormValues[typeof key])}>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium text-slate-800">Preferred Time</legend>
      <div className="grid grid-cols-3 gap-2">
        {part('hour', 'Hour', HOURS)}
        {part('minute', 'Min', MINUTES)}
        {part('period', 'Period', ['AM', 'PM'] satisfies Period[])}
      </div>
      <p className="mt-2 text-sm text-slate-700" aria-live="polite">
        Selected Time: <span className="font-semibold text-slate-900">{selectedTimeLabel(values.hour, values.minute, values.period)}</span>
      </p>
    </fieldset>
  );
}

function summarise(values: QuoteFormValues, quote: QuoteResponse, vehicleTypes: readonly Option[], problemTypes: readonly Option[]): QuoteSummary {
  return {
    pickupPostcode: values.pickupPostcode,
    destinationPostcode: values.destinationPostcode,
    distance: quote.distance,
    vehicle: labelOf(vehicleTypes, values.vehicleType),
    gearbox: values.gearboxType ? labelOf(GEARBOX_OPTIONS, values.gearboxType) : undefined,
    rollingStatus: values.rollingStatus ? labelOf(ROLLING_OPTIONS, values.rollingStatus) : undefined,
    passengerCount: values.passengerCount,
    problem: labelOf(problemTypes, values.problemType),
    scheduled: values.urgency === 'later' ? { date: values.preferredDate, time: selectedTimeLabel(values.hour, values.minute, values.period) } : undefined,
    totalPrice: quote.totalPrice,
    quoteId: quote.quoteId,
  };
}

/** The server's per-field messages (400 `fields`) for the fields this form shows. */
function pickQuoteFields(fields: Record<string, string>): FieldErrors {
  const picked: FieldErrors = {};
  for (const field of FIELD_ORDER) if (fields[field]) picked[field] = fields[field];
  return picked;
}

/** The message of the quote route's refusal of a pickup beyond the operator's maximum radius, or ''. */
function outsideAreaAnswer(error: unknown): string {
  if (!(error instanceof ApiRequestError) || error.status !== 422) return '';
  // Not errorCodeOf: its list of every code would cost widget.js bytes it cannot spare.
  try {
    return (JSON.parse(error.body) as { code?: ErrorCode }).code === 'OUTSIDE_SERVICE_AREA' ? error.serverMessage : '';
  } catch {
    return '';
  }
}
