// The caller's page of a quote the operator sent, /q/{token} (docs/product.md §25): the company's
// brand, the quote's lines and validity, and **Book this recovery** (with **Pay** where the
// operator takes payment at booking): the same booking and payment as a web quote, the same status
// page after. An expired link says so and offers a call and a new quote. Once the operator booked
// it for the caller, the same link is its payment link: **Pay** opens the checkout of what the
// company's rule asks now. Phone-first, no cookie.
import { useEffect, useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { ApiRequestError, api, call } from '#shared/api-client';
import { formatPounds } from '#shared/money';
import { BOOKING_EMAIL_LABEL, bookingEmailHint } from '#shared/bookings';
import { telUrl, ukNational } from '#shared/phone';
import { QUOTE_LINK_EXPIRED, type QuoteLinkView } from '#shared/phone-jobs';
import { ukDateTime } from './format';

const card = 'rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-900/5';
const input = 'min-h-12 w-full rounded-lg border border-slate-300 px-3 text-base aria-[invalid=true]:border-red-600';

type Load = { state: 'loading' } | { state: 'missing'; message: string } | { state: 'ready'; quote: QuoteLinkView };

/** A fresh random name for this booking form: a retry with it answers the booking it made. */
const newBookingKey = () => crypto.randomUUID().replaceAll('-', '');

export default function QuoteLinkPage() {
  const { token = '' } = useParams();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    call(api()['quote-links'][':token'].$get, { param: { token } }, { anonymous: true })
      .then((quote) => live && setLoad({ state: 'ready', quote }))
      .catch((error: unknown) => {
        if (!live) return;
        setLoad({ state: 'missing', message: error instanceof ApiRequestError ? error.serverMessage : 'No connection. Please reload the page.' });
      });
    return () => {
      live = false;
    };
  }, [token]);

  if (load.state === 'loading') {
    return (
      <main className="mx-auto max-w-md p-6">
        <title>Your recovery quote</title>
        <p role="status">Loading your quote…</p>
      </main>
    );
  }
  if (load.state === 'missing') {
    return (
      <main className="mx-auto max-w-md p-6">
        <title>Your recovery quote</title>
        <h1 className="text-2xl font-bold">Quote not found</h1>
        <p className="mt-2 text-slate-700">{load.message}</p>
      </main>
    );
  }
  return <Quote quote={load.quote} />;
}

function Quote({ quote }: { quote: QuoteLinkView }) {
  const { company } = quote;
  const [booking, setBooking] = useState(false);
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-4 p-4 pb-28">
      <title>{`Your recovery quote TQ-${quote.reference} from ${company.name}`}</title>
      <header className="flex items-center gap-3 rounded-xl p-4 text-white" style={{ backgroundColor: company.primaryColour }}>
        {company.logoUrl && <img src={company.logoUrl} alt="" className="size-12 rounded bg-white object-contain" />}
        <div>
          <p className="text-lg font-semibold">{company.name}</p>
          <p className="text-sm">Quote TQ-{quote.reference}</p>
        </div>
      </header>
      <section aria-labelledby="quote-heading" className={card}>
        <h1 id="quote-heading" className="text-2xl font-bold">
          Your recovery quote
        </h1>
        <p className="mt-1 text-slate-700">
          {quote.pickupPostcode} to {quote.destinationPostcode}
        </p>
        <ul aria-label="Price lines" className="mt-3 grid gap-1">
          {quote.lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines may repeat a label; their order is fixed
            <li key={i} className="flex justify-between gap-4">
              <span>{line.label}</span>
              <span>{formatPounds(line.amount)}</span>
            </li>
          ))}
        </ul>
        <p className="mt-2 flex justify-between border-t border-slate-200 pt-2 text-2xl font-bold">
          <span>Total</span>
          <span>{formatPounds(quote.totalPrice)}</span>
        </p>
        {quote.booked ? null : quote.expired ? (
          <p className="mt-3 text-lg font-semibold text-red-800">{QUOTE_LINK_EXPIRED}</p>
        ) : (
          <p className="mt-3 text-slate-700">Valid until {ukDateTime(quote.validUntil)}</p>
        )}
      </section>
      {quote.booked ? (
        <Booked quote={quote} />
      ) : quote.expired ? (
        <section className={card}>
          <p>Call {company.name} or get a new quote.</p>
          {company.pageUrl && (
            <a href={company.pageUrl} className="mt-3 flex min-h-12 items-center justify-center rounded-lg border border-slate-300 font-semibold">
              Get a new quote
            </a>
          )}
        </section>
      ) : quote.offerBooking ? (
        booking ? (
          <BookingForm quote={quote} />
        ) : (
          <button
            type="button"
            onClick={() => setBooking(true)}
            className="min-h-14 rounded-xl text-lg font-semibold text-white"
            style={{ backgroundColor: company.primaryColour }}
          >
            Book this recovery
          </button>
        )
      ) : null}
      {company.phone && (
        <div className="fixed inset-x-0 bottom-0 bg-white/95 p-4 shadow-[0_-1px_4px_rgba(0,0,0,0.1)]">
          <a
            href={telUrl(company.phone)}
            className="mx-auto flex min-h-14 max-w-md items-center justify-center rounded-xl bg-brand-700 text-lg font-semibold text-white"
          >
            Call {company.name} on {ukNational(company.phone)}
          </a>
        </div>
      )}
    </main>
  );
}

/** A booked quote: paid, or what its payment link may pay now (the checkout on the company's account), or only where to follow it. */
function Booked({ quote }: { quote: QuoteLinkView }) {
  const { token = '' } = useParams();
  const [problem, setProblem] = useState('');
  const [sending, setSending] = useState(false);
  async function pay() {
    setSending(true);
    setProblem('');
    try {
      const { checkoutUrl } = await call(api()['quote-links'][':token'].pay.$post, { param: { token } }, { anonymous: true });
      window.location.assign(checkoutUrl);
    } catch (error) {
      setProblem(error instanceof ApiRequestError ? error.serverMessage : 'No connection. Please try again, or call.');
      setSending(false);
    }
  }
  if (!quote.payNow) {
    return (
      <section className={card}>
        <p className="text-lg">
          {quote.paid
            ? 'This quote is booked and paid. Follow it from the link in your text message.'
            : 'This quote is booked. Follow it from the link in your text message.'}
        </p>
      </section>
    );
  }
  return (
    <section className={`${card} grid gap-3`}>
      <p className="text-lg">This quote is booked. Pay {formatPounds(quote.payNow.amount)} for it here, or follow it from the link in your text message.</p>
      {problem && (
        <p role="alert" className="text-red-800">
          {problem}
        </p>
      )}
      <button
        type="button"
        onClick={() => void pay()}
        disabled={sending}
        className="min-h-14 rounded-xl text-lg font-semibold text-white disabled:opacity-60"
        style={{ backgroundColor: quote.company.primaryColour }}
      >
        Pay {formatPounds(quote.payNow.amount)}
      </button>
    </section>
  );
}

function BookingForm({ quote }: { quote: QuoteLinkView }) {
  const [key] = useState(newBookingKey);
  const [fields, setFields] = useState({ name: '', phone: '', registration: '', note: '', email: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState('');
  const [sending, setSending] = useState(false);
  const set = (name: keyof typeof fields) => (event: { target: { value: string } }) => setFields((current) => ({ ...current, [name]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSending(true);
    setProblem('');
    try {
      const booked = await call(
        api().bookings.$post,
        {
          json: {
            quoteId: quote.reference,
            bookingKey: key,
            name: fields.name,
            phone: fields.phone,
            registration: fields.registration,
            note: fields.note || undefined,
            email: fields.email.trim() || undefined,
          },
        },
        { anonymous: true },
      );
      // Paying at booking: the checkout first (it comes back to the status page); else the status page.
      window.location.assign(booked.checkoutUrl ?? new URL(booked.jobUrl).pathname);
    } catch (error) {
      if (error instanceof ApiRequestError) {
        try {
          setErrors((JSON.parse(error.body) as { fields?: Record<string, string> }).fields ?? {});
        } catch {
          setErrors({});
        }
        setProblem(error.serverMessage);
      } else setProblem('No connection. Please try again, or call.');
      setSending(false);
    }
  }

  // The hint and the message sit beside the label, not in it: the field is named by its label alone.
  const field = (name: keyof typeof fields, label: string, props: Record<string, string> = {}, hint?: string) => (
    <div className="grid gap-1">
      <label className="grid gap-1">
        <span className="font-medium">{label}</span>
        <input
          className={input}
          value={fields[name]}
          onChange={set(name)}
          aria-invalid={errors[name] ? true : undefined}
          aria-describedby={[hint ? `${name}-hint` : '', errors[name] ? `${name}-error` : ''].filter(Boolean).join(' ') || undefined}
          {...props}
        />
      </label>
      {hint && (
        <span id={`${name}-hint`} className="text-sm text-slate-700">
          {hint}
        </span>
      )}
      {errors[name] && (
        <span id={`${name}-error`} className="text-sm text-red-700">
          {errors[name]}
        </span>
      )}
    </div>
  );

  return (
    <form className={`${card} grid gap-3`} onSubmit={(event) => void submit(event)} noValidate>
      <h2 className="text-lg font-semibold">Book this recovery</h2>
      {field('name', 'Your name', { autoComplete: 'name' })}
      {field('phone', 'Your mobile', { type: 'tel', inputMode: 'tel', autoComplete: 'tel' })}
      {field('registration', 'Registration', { autoCapitalize: 'characters' })}
      {field('note', 'Where are you? (optional)')}
      {field('email', BOOKING_EMAIL_LABEL, { type: 'email', inputMode: 'email', autoComplete: 'email' }, bookingEmailHint(quote.company.name))}
      {problem && (
        <p role="alert" className="text-red-800">
          {problem}
        </p>
      )}
      <button
        type="submit"
        disabled={sending}
        className="min-h-14 rounded-xl text-lg font-semibold text-white disabled:opacity-60"
        style={{ backgroundColor: quote.company.primaryColour }}
      >
        {quote.payAtBooking ? `Pay ${formatPounds(quote.payAtBooking.amount)}` : 'Confirm booking'}
      </button>
    </form>
  );
}
