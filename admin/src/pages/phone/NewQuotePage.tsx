// New quote, /dashboard/new-quote (docs/product.md §25): the operator's phone script. The public
// form's fields, priced by the server's engine with the company's prices; an optional one-off
// adjustment with its reason; then the quote is sent to the caller by text, WhatsApp or a copied
// link, or booked for them there and then. Phone-first: one column, the actions within a few taps.
// A quote may be put on one of the company's trade accounts (§26): the account's rate card prices
// it, and booking it puts the job on the account, with its PO and credit limit (no card).
import { useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiRequestError, call, pathOf, portalApi } from '#shared/api-client';
import { telUrl } from '#shared/phone';
import { formatPhoneNational } from '#shared/phone-number';
import { ukDateTime } from './format';
import type { Booking } from '#shared/booking-responses';
import { clockTime } from '#shared/bookings';
import { GEARBOX_OPTIONS, ROLLING_OPTIONS } from '#shared/constants';
import { formatPounds } from '#shared/money';
import type { PhoneQuote, PhoneQuotePrice, PhoneQuoteRequest } from '#shared/phone-jobs';
import type { Account } from '#shared/accounts';
import { useQuoteSetup } from '../../../../widget/src/quote-setup';
import { PortalShell } from '../../components/PortalShell';
import { Button, Field, FullPageSpinner, Input, Select } from '../../components/ui';
import { useAuth } from '../../lib/auth';

type Errors = Record<string, string>;
type Status = { tone: 'ok' | 'error'; text: string } | null;

/** The server's per-field messages, its message and its code, from a refused request. */
function problemOf(error: unknown): { message: string; fields: Errors; code?: string } {
  if (!(error instanceof ApiRequestError)) return { message: 'No connection. Please try again.', fields: {} };
  try {
    const body = JSON.parse(error.body) as { message?: string; fields?: Errors; code?: string };
    return { message: body.message ?? error.serverMessage, fields: body.fields ?? {}, code: body.code };
  } catch {
    return { message: error.serverMessage, fields: {} };
  }
}

const card = 'grid gap-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-900/5 sm:p-6';
/** The caller's email, asked only for the review request by email (docs/product.md §20). */
export const CALLER_EMAIL_LABEL = 'Caller’s email (optional)';
export const CALLER_EMAIL_HINT = 'Used only to ask for their review after the job, if you ask by email.';

export default function NewQuotePage() {
  const { user, isLoading } = useAuth();
  if (isLoading || !user) return <FullPageSpinner text="Loading…" />;
  return (
    <PortalShell>
      <NewQuote />
    </PortalShell>
  );
}

function NewQuote() {
  const { setup } = useQuoteSetup({ apiBase: '' });
  // The company's trade accounts (docs/product.md §26); none listed, no choice shown.
  const accounts = useQuery({ queryKey: [pathOf(portalApi.accounts)], queryFn: () => call(portalApi.accounts.$get) });
  const [form, setForm] = useState({
    pickupPostcode: '',
    destinationPostcode: '',
    vehicleType: '',
    gearboxType: 'manual',
    rollingStatus: 'rolling',
    passengerCount: '0',
    problemType: '',
    urgency: 'immediate' as 'immediate' | 'later',
    preferredDate: '',
    preferredTime: '',
    registration: '',
    adjustmentAmount: '',
    adjustmentReason: '',
    accountId: '',
  });
  const [position, setPosition] = useState('');
  const [plate, setPlate] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [status, setStatus] = useState<Status>(null);
  const [price, setPrice] = useState<PhoneQuotePrice | null>(null);
  const [stored, setStored] = useState<PhoneQuote | null>(null);
  const [busy, setBusy] = useState(false);

  if (setup.status === 'loading') return <FullPageSpinner text="Loading your prices…" />;
  if (setup.status !== 'ready') return <p className="p-6 text-red-700">Unable to load your prices. Please reload the page.</p>;
  const vehicleType = form.vehicleType || setup.vehicleTypes[0]?.value || '';
  const problemType = form.problemType || setup.problemTypes[0]?.value || '';
  const account = accounts.data?.find((a) => String(a.id) === form.accountId);

  /** Any change prices again from scratch: what was priced or stored belongs to the old answers. */
  const change = (name: keyof typeof form) => (event: { target: { value: string } }) => {
    setForm((current) => ({ ...current, [name]: event.target.value }));
    if (name === 'registration') setPlate(null);
    setPrice(null);
    setStored(null);
  };

  function request(): PhoneQuoteRequest {
    const amount = form.adjustmentAmount.trim();
    return {
      pickupPostcode: form.pickupPostcode,
      destinationPostcode: form.destinationPostcode,
      vehicleType,
      gearboxType: form.gearboxType,
      rollingStatus: form.rollingStatus,
      passengerCount: Number(form.passengerCount) || 0,
      problemType,
      urgency: form.urgency,
      ...(form.urgency === 'later' ? { preferredDate: form.preferredDate || undefined, preferredTime: form.preferredTime || undefined } : {}),
      ...(form.registration.trim() ? { registration: form.registration } : {}),
      ...(amount || form.adjustmentReason.trim() ? { adjustment: { amount: Number(amount), reason: form.adjustmentReason } } : {}),
      ...(account ? { accountId: account.id } : {}),
    };
  }

  async function attempt<T>(work: () => Promise<T>, onRefused?: (code: string | undefined) => void): Promise<T | undefined> {
    setBusy(true);
    setStatus(null);
    try {
      const result = await work();
      setErrors({});
      return result;
    } catch (error) {
      const { message, fields, code } = problemOf(error);
      setErrors(fields);
      setStatus({ tone: 'error', text: message });
      onRefused?.(code);
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  async function findPostcode() {
    const [lat, lng] = position.split(',').map((part) => Number(part.trim()));
    const found = await attempt(() => call(portalApi.postcodes.nearest.$get, { query: { lat: String(lat), lng: String(lng) } }, { anonymous: true }));
    if (found) change('pickupPostcode')({ target: { value: found.postcode } });
  }

  /** The number-plate look-up (the quote form's): the vehicle in words, and the vehicle type the operator's rules choose. */
  async function lookUp() {
    if (setup.status !== 'ready') return;
    const { companyId } = setup;
    const found = await attempt(() => call(portalApi.vehicles.lookup.$post, { json: { registration: form.registration, companyId } }, { anonymous: true }));
    if (!found) return;
    if (found.status !== 'found') {
      setPlate(found.status === 'not-found' ? 'The DVLA does not know this registration.' : 'The look-up is not available now.');
      return;
    }
    setPlate(found.vehicleType ? `${found.vehicle}: ${found.vehicleType.name}` : found.vehicle);
    const chosen = found.vehicleType?.value;
    if (chosen && setup.vehicleTypes.some((option) => option.value === chosen)) change('vehicleType')({ target: { value: chosen } });
  }

  async function priceIt(event: FormEvent) {
    event.preventDefault();
    const priced = await attempt(() => call(portalApi['phone-quotes'].price.$post, { json: request() }));
    if (priced) setPrice(priced);
  }

  /** The quote stored once (the first action that needs its reference or link), then reused. */
  async function storedQuote(): Promise<PhoneQuote> {
    if (stored) return stored;
    const quote = await call(portalApi['phone-quotes'].$post, { json: request() });
    setStored(quote);
    return quote;
  }

  return (
    <main className="mx-auto grid max-w-2xl gap-6 px-4 py-6 sm:px-6">
      <title>New quote</title>
      <h1 className="text-2xl font-bold tracking-tight">New quote</h1>
      <form className={card} onSubmit={(event) => void priceIt(event)} noValidate>
        <h2 className="text-lg font-semibold">The caller’s job</h2>
        {accounts.data && accounts.data.length > 0 && (
          <Field label="Trade account" error={errors.accountId} hint={account ? 'Priced on the account’s rates; booked on the account, no card.' : undefined}>
            <Select value={form.accountId} onChange={change('accountId')}>
              <option value="">None (a private caller)</option>
              {accounts.data.map((a) => (
                <option key={a.id} value={String(a.id)}>
                  {a.name}
                </option>
              ))}
            </Select>
          </Field>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Pickup postcode" error={errors.pickupPostcode}>
            <Input value={form.pickupPostcode} onChange={change('pickupPostcode')} autoComplete="off" autoCapitalize="characters" />
          </Field>
          <Field label="Destination postcode" error={errors.destinationPostcode}>
            <Input value={form.destinationPostcode} onChange={change('destinationPostcode')} autoComplete="off" autoCapitalize="characters" />
          </Field>
        </div>
        <div className="flex items-end gap-2">
          <Field label="Or the caller’s position (latitude, longitude)" className="flex-1">
            <Input value={position} onChange={(event) => setPosition(event.target.value)} inputMode="decimal" placeholder="52.4862, -1.8904" />
          </Field>
          <Button type="button" variant="outline" onClick={() => void findPostcode()} disabled={busy || !position.includes(',')}>
            Find postcode
          </Button>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Vehicle" error={errors.vehicleType}>
            <Select value={vehicleType} onChange={change('vehicleType')}>
              {setup.vehicleTypes.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Problem" error={errors.problemType}>
            <Select value={problemType} onChange={change('problemType')}>
              {setup.problemTypes.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Gearbox" error={errors.gearboxType}>
            <Select value={form.gearboxType} onChange={change('gearboxType')}>
              {GEARBOX_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Rolling" error={errors.rollingStatus}>
            <Select value={form.rollingStatus} onChange={change('rollingStatus')}>
              {ROLLING_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Passengers" error={errors.passengerCount}>
            <Input type="number" min={0} inputMode="numeric" value={form.passengerCount} onChange={change('passengerCount')} />
          </Field>
          <Field label="When" error={errors.urgency}>
            <Select value={form.urgency} onChange={change('urgency')}>
              <option value="immediate">Now</option>
              <option value="later">Later</option>
            </Select>
          </Field>
          {form.urgency === 'later' && (
            <>
              <Field label="Date" error={errors.preferredDate}>
                <Input type="date" value={form.preferredDate} onChange={change('preferredDate')} />
              </Field>
              <Field label="Time" error={errors.preferredTime}>
                <Input type="time" value={form.preferredTime} onChange={change('preferredTime')} />
              </Field>
            </>
          )}
          <div className="flex items-end gap-2">
            <Field label="Registration (optional)" error={errors.registration} hint={plate ?? undefined} className="flex-1">
              <Input value={form.registration} onChange={change('registration')} autoCapitalize="characters" />
            </Field>
            <Button type="button" variant="outline" onClick={() => void lookUp()} disabled={busy || !form.registration.trim()}>
              Look up
            </Button>
          </div>
        </div>
        <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
          <Field label="Adjustment (£, optional)" error={errors['adjustment.amount']} hint="Plus or minus, e.g. 40 or -10">
            <Input inputMode="decimal" value={form.adjustmentAmount} onChange={change('adjustmentAmount')} />
          </Field>
          <Field label="Reason for the adjustment" error={errors['adjustment.reason']}>
            <Input value={form.adjustmentReason} onChange={change('adjustmentReason')} placeholder="Second vehicle" />
          </Field>
        </div>
        <Button type="submit" disabled={busy}>
          Price it
        </Button>
      </form>
      {status && (
        <p role={status.tone === 'error' ? 'alert' : 'status'} className={status.tone === 'error' ? 'text-red-800' : 'font-semibold text-green-800'}>
          {status.text}
        </p>
      )}
      {price && <PriceCard price={price} />}
      {price && (
        <SendCard
          key={account?.id ?? 'caller'}
          account={account}
          busy={busy}
          attempt={attempt}
          storedQuote={storedQuote}
          onDone={(text) => setStatus({ tone: 'ok', text })}
          errors={errors}
        />
      )}
      <MissedCalls />
    </main>
  );
}

/** The calls nobody answered (the voice webhook, docs/product.md §25): ring them back and quote. */
function MissedCalls() {
  const calls = useQuery({ queryKey: [pathOf(portalApi['missed-calls'])], queryFn: () => call(portalApi['missed-calls'].$get), refetchInterval: 30_000 });
  if (!calls.data || calls.data.length === 0) return null;
  return (
    <section aria-labelledby="missed-heading" className={card}>
      <h2 id="missed-heading" className="text-lg font-semibold">
        Missed calls
      </h2>
      <ul className="grid gap-2">
        {calls.data.map((missed) => (
          <li key={`${missed.caller}-${missed.createdAt}`} className="flex flex-wrap justify-between gap-2 text-sm">
            <a className="font-medium text-brand-700 underline" href={telUrl(missed.caller)}>
              {formatPhoneNational(missed.caller)}
            </a>
            <span className="text-slate-700">
              {ukDateTime(missed.createdAt)}
              {missed.texted ? ' · texted your quote page' : ''}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PriceCard({ price }: { price: PhoneQuotePrice }) {
  return (
    <section aria-labelledby="price-heading" className={card}>
      <h2 id="price-heading" className="text-lg font-semibold">
        The price
      </h2>
      <ul aria-label="Price lines" className="grid gap-1">
        {price.lines.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines may repeat a label; their order is fixed
          <li key={i} className="flex justify-between gap-4">
            <span>{line.label}</span>
            <span>{formatPounds(line.amount)}</span>
          </li>
        ))}
      </ul>
      <p className="flex justify-between border-t border-slate-200 pt-2 text-xl font-bold">
        <span>Total</span>
        <span data-testid="phone-quote-total">{formatPounds(price.totalPrice)}</span>
      </p>
      <p className="text-sm text-slate-700">
        {price.distance} miles · valid until {clockTime(price.validUntil)}
      </p>
    </section>
  );
}

interface SendCardProps {
  /** The trade account the quote is on, if any: booked on it with its PO, never sent as a link to book and pay. */
  account: Account | undefined;
  busy: boolean;
  errors: Errors;
  attempt: <T>(work: () => Promise<T>, onRefused?: (code: string | undefined) => void) => Promise<T | undefined>;
  storedQuote: () => Promise<PhoneQuote>;
  onDone: (text: string) => void;
}

function SendCard({ account, busy, errors, attempt, storedQuote, onDone }: SendCardProps) {
  const [mobile, setMobile] = useState('');
  const [booking, setBooking] = useState({ name: '', registration: '', email: '', etaMinutes: '30', driverName: '', poNumber: '' });
  const [booked, setBooked] = useState<Booking | null>(null);
  // The account's credit limit would be passed: the operator confirms before it is booked anyway.
  const [overLimit, setOverLimit] = useState(false);

  async function text() {
    const sent = await attempt(async () => {
      const quote = await storedQuote();
      return call(portalApi['phone-quotes'][':reference'].text.$post, { param: { reference: quote.reference }, json: { phone: mobile } });
    });
    if (sent) onDone(`Link sent to ${formatPhoneNational(sent.sentTo)}.`);
  }

  async function whatsapp() {
    // Opened during the tap itself (browsers allow pop-ups only then), pointed at the chat once the link is made.
    const tab = window.open('', '_blank');
    if (tab) tab.opener = null;
    const quote = await attempt(storedQuote);
    if (!quote) return tab?.close();
    const url = `https://wa.me/?text=${encodeURIComponent(quote.message)}`;
    if (tab) tab.location.href = url;
    else window.location.href = url;
    onDone('WhatsApp opened with the quote.');
  }

  async function copy() {
    const quote = await attempt(storedQuote);
    if (!quote) return;
    try {
      await navigator.clipboard.writeText(quote.linkUrl);
      onDone('Link copied.');
    } catch {
      onDone(`Copy this link: ${quote.linkUrl}`);
    }
  }

  async function book(event: FormEvent | null, confirmOverLimit = false) {
    event?.preventDefault();
    setOverLimit(false);
    const job = await attempt(
      async () => {
        const quote = await storedQuote();
        return call(portalApi['phone-quotes'][':reference'].book.$post, {
          param: { reference: quote.reference },
          json: {
            name: booking.name,
            phone: mobile,
            registration: booking.registration,
            etaMinutes: Number(booking.etaMinutes),
            ...(booking.driverName.trim() ? { driverName: booking.driverName } : {}),
            ...(!account && booking.email.trim() ? { email: booking.email } : {}),
            ...(account && booking.poNumber.trim() ? { poNumber: booking.poNumber } : {}),
            ...(confirmOverLimit ? { confirmOverLimit: true } : {}),
          },
        });
      },
      (code) => setOverLimit(code === 'CREDIT_LIMIT_EXCEEDED'),
    );
    if (job) {
      setBooked(job);
      onDone(`Booked: TQ-${job.reference}, expected at ${job.eta ? clockTime(job.eta.at) : '–'}. The caller is texted the status page.`);
    }
  }

  const set = (name: keyof typeof booking) => (event: { target: { value: string } }) => setBooking((current) => ({ ...current, [name]: event.target.value }));

  return (
    <section aria-labelledby="send-heading" className={card}>
      <h2 id="send-heading" className="text-lg font-semibold">
        Send it or book it
      </h2>
      <Field label="Caller’s mobile" error={errors.phone}>
        <Input type="tel" inputMode="tel" autoComplete="off" value={mobile} onChange={(event) => setMobile(event.target.value)} placeholder="07700 900123" />
      </Field>
      {account ? (
        <p className="text-sm text-slate-700">On account with {account.name}: no card is taken, and the job is invoiced with the account’s monthly invoice.</p>
      ) : (
        <div className="grid gap-2 sm:grid-cols-3">
          <Button type="button" onClick={() => void text()} disabled={busy || !mobile.trim()}>
            Text the link
          </Button>
          <Button type="button" variant="outline" onClick={() => void whatsapp()} disabled={busy}>
            WhatsApp
          </Button>
          <Button type="button" variant="outline" onClick={() => void copy()} disabled={busy}>
            Copy link
          </Button>
        </div>
      )}
      {booked ? (
        <>
          <p className="text-sm text-slate-700">This quote is booked: it is in your Jobs list.</p>
          {!account && <PaymentLinkCard reference={booked.reference} mobile={mobile} busy={busy} attempt={attempt} onDone={onDone} />}
        </>
      ) : (
        <form className="grid gap-3 border-t border-slate-200 pt-4" onSubmit={(event) => void book(event)} noValidate>
          <h3 className="font-semibold">Book it for the caller</h3>
          <Row>
            <Field label="Caller’s name" error={errors.name}>
              <Input value={booking.name} onChange={set('name')} autoComplete="off" />
            </Field>
            <Field label="Registration" error={errors.registration}>
              <Input value={booking.registration} onChange={set('registration')} autoCapitalize="characters" />
            </Field>
            <Field label="ETA (minutes)" error={errors.etaMinutes}>
              <Input type="number" inputMode="numeric" min={1} value={booking.etaMinutes} onChange={set('etaMinutes')} />
            </Field>
            <Field label="Driver (optional)" error={errors.driverName}>
              <Input value={booking.driverName} onChange={set('driverName')} autoComplete="off" />
            </Field>
            {!account && (
              <Field label={CALLER_EMAIL_LABEL} error={errors.email} hint={CALLER_EMAIL_HINT}>
                <Input type="email" inputMode="email" value={booking.email} onChange={set('email')} autoComplete="off" />
              </Field>
            )}
            {account && (
              <Field
                label={account.poRequired ? 'PO number' : 'PO number (optional)'}
                error={errors.poNumber}
                hint={account.poRequired ? 'This account needs one on every job.' : undefined}
              >
                <Input value={booking.poNumber} onChange={set('poNumber')} autoComplete="off" aria-required={account.poRequired} />
              </Field>
            )}
          </Row>
          <Button type="submit" disabled={busy}>
            Book it now
          </Button>
          {overLimit && (
            <Button type="button" variant="outline" onClick={() => void book(null, true)} disabled={busy}>
              Book it anyway
            </Button>
          )}
        </form>
      )}
    </section>
  );
}

/**
 * 'Send a payment link' for a job just booked for the caller (docs/product.md §25): the quote's own
 * link, whose page then offers to pay what the company's rule asks now, sent by text (within the
 * quote links' limits and the text budget), WhatsApp or copied.
 */
function PaymentLinkCard({
  reference,
  mobile,
  busy,
  attempt,
  onDone,
}: { reference: string; mobile: string } & Pick<SendCardProps, 'busy' | 'attempt' | 'onDone'>) {
  const endpoint = portalApi['phone-quotes'][':reference']['payment-link'];
  const link = useQuery({
    queryKey: [pathOf(endpoint, { param: { reference } })],
    queryFn: () => call(endpoint.$get, { param: { reference } }),
    retry: false,
  });
  if (link.isPending) return null;
  if (!link.data) {
    return <p className="text-sm text-slate-700">{link.error ? problemOf(link.error).message : ''}</p>;
  }
  const { linkUrl, message, amount } = link.data;

  async function text() {
    const sent = await attempt(() => call(endpoint.text.$post, { param: { reference }, json: { phone: mobile } }));
    if (sent) onDone(`Payment link sent to ${formatPhoneNational(sent.sentTo)}.`);
  }

  function whatsapp() {
    window.open(`https://wa.me/?text=${encodeURIComponent(message)}`, '_blank', 'noopener');
    onDone('WhatsApp opened with the payment link.');
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(linkUrl);
      onDone('Payment link copied.');
    } catch {
      onDone(`Copy this link: ${linkUrl}`);
    }
  }

  return (
    <section aria-labelledby="payment-link-heading" className="grid gap-3 border-t border-slate-200 pt-4">
      <h3 id="payment-link-heading" className="font-semibold">
        Send a payment link
      </h3>
      <p className="text-sm text-slate-700">The caller pays {formatPounds(amount)} now, by card, from the link.</p>
      <div className="grid gap-2 sm:grid-cols-3">
        <Button type="button" onClick={() => void text()} disabled={busy || !mobile.trim()}>
          Text the payment link
        </Button>
        <Button type="button" variant="outline" onClick={whatsapp} disabled={busy}>
          WhatsApp
        </Button>
        <Button type="button" variant="outline" onClick={() => void copy()} disabled={busy}>
          Copy link
        </Button>
      </div>
    </section>
  );
}

const Row = ({ children }: { children: ReactNode }) => <div className="grid gap-3 sm:grid-cols-2">{children}</div>;
