// The 'Quote Ready!' card (docs/product.md §2, §9, §20): total, quote id, the optional breakdown, the
// ways on that the operator offers (book, WhatsApp, call) and the optional disclaimer.
import { useId, type KeyboardEvent, type Ref } from 'react';
import { formatPounds } from '../../shared/money';
import type { QuoteResponse } from '../../shared/types';
import { telUrl, whatsappMessage, whatsappUrl, type QuoteSummary } from './contact';
import { focusRing } from './fields';
import { Icon } from './icons';

export type ContactChannel = 'whatsapp' | 'phone';
export interface ContactDetail {
  channel: ContactChannel;
  quoteId: string;
}

const DISCLAIMER =
  'The quoted price is an estimate and may vary depending on the actual distance, the condition of the vehicle and conditions at the time of recovery.';

/** "2 July 2026 at 14:30", UK time: when the quoted price stops holding. */
export const formatValidUntil = (iso: string): string =>
  new Date(iso).toLocaleString('en-GB', { timeZone: 'Europe/London', dateStyle: 'long', timeStyle: 'short' });

/**
 * The breakdown's lines: the server's own list when it sends one (the product's lines with each extra
 * where 'Service Fees' stood, then the operator's rules such as "Travel to you" and "VAT (20%)").
 * Otherwise the product's order, the last four only when they add something. The extras
 * (problem surcharge, after-hours fee, out-of-area fee...) each get their own line where the product's
 * 'Service Fees' sum stood (docs/product.md §10); any part of the sum the server did not itemise stays as
 * 'Service Fees'.
 */
function breakdownLines(quote: QuoteResponse): { label: string; amount: number }[] {
  if (quote.lines?.length) return quote.lines;
  const b = quote.breakdown;
  const extras = quote.extras ?? [];
  // In pence, so 0.1 + 0.2 leaves no phantom remainder.
  const unitemised = Math.round(b.extraFees * 100) - extras.reduce((sum, extra) => sum + Math.round(extra.amount * 100), 0);
  const optional = [
    ...extras,
    { label: 'Service Fees', amount: unitemised / 100 },
    { label: 'Gearbox Charge', amount: b.gearboxFee },
    { label: 'Rolling Status Charge', amount: b.rollingStatusFee },
    { label: 'Passenger Charge', amount: b.passengerFee },
  ].filter((line) => line.amount > 0);
  return [
    { label: 'Vehicle Base Price', amount: b.vehicleBasePrice },
    { label: 'Call-out Fee', amount: b.callOutFee },
    { label: `Distance (${quote.distance} miles)`, amount: b.distanceFee },
    { label: 'Labour Fee', amount: b.labourFee },
    ...optional,
  ];
}

interface QuoteResultProps {
  quote: QuoteResponse;
  summary: QuoteSummary;
  showBreakdown: boolean;
  showDisclaimer: boolean;
  whatsapp: string | null;
  phone: string | null;
  onContact: (detail: ContactDetail) => void;
  /** When the operator takes bookings: opens the booking form. */
  onBook?: () => void;
  /** Focused when the quote arrives, so keyboard and screen-reader users land on it. */
  headingRef: Ref<HTMLHeadingElement>;
}

/** docs/product.md §2 calls these two "buttons": links (they open WhatsApp or the dialler) with the
 * button role, so Space presses them as it would a button. */
export const asButton = {
  role: 'button',
  onKeyDown: (event: KeyboardEvent<HTMLAnchorElement>) => {
    if (event.key !== ' ') return;
    event.preventDefault();
    event.currentTarget.click();
  },
} as const;

export const actionClass = `flex min-h-12 items-center justify-center gap-2 rounded-lg px-4 font-semibold shadow-xs hover:brightness-95 ${focusRing}`;

export function QuoteResult({ quote, summary, showBreakdown, showDisclaimer, whatsapp, phone, onContact, onBook, headingRef }: QuoteResultProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-xl border-t-4 border-primary bg-white p-4 shadow-sm ring-1 ring-slate-900/5 @md:p-6">
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className="flex scroll-mt-8 items-center gap-2 text-lg font-semibold text-ink outline-none">
        <Icon name="circleCheck" className="size-6 text-green-700" />
        Quote Ready!
      </h3>
      <div className="mt-4 rounded-lg bg-slate-50 p-4 text-center">
        <p className="text-sm font-medium text-slate-700">Total Cost</p>
        <p className="text-4xl font-bold tracking-tight text-ink">{formatPounds(quote.totalPrice)}</p>
        <p className="mt-1 text-sm text-slate-700">Quote ID: TQ-{quote.quoteId}</p>
        {quote.validUntil && <p className="mt-1 text-sm text-slate-700">Price valid until {formatValidUntil(quote.validUntil)}</p>}
      </div>
      {showBreakdown && (
        <dl className="mt-4 divide-y divide-slate-200 text-sm">
          {breakdownLines(quote).map((line) => (
            <div key={line.label} className="flex justify-between gap-4 py-2">
              <dt className="text-slate-700">{line.label}</dt>
              <dd className="font-medium text-slate-900 tabular-nums">{formatPounds(line.amount)}</dd>
            </div>
          ))}
        </dl>
      )}
      <div className="mt-5 grid gap-3 @sm:grid-cols-2">
        {onBook && (
          <button type="button" onClick={onBook} className={`${actionClass} bg-primary text-on-primary`}>
            Book this recovery
          </button>
        )}
        {whatsapp && (
          <a
            href={whatsappUrl(whatsapp, whatsappMessage(summary))}
            target="_blank"
            rel="noopener noreferrer"
            {...asButton}
            onClick={() => onContact({ channel: 'whatsapp', quoteId: quote.quoteId })}
            className={`${actionClass} bg-green-700 text-white`}
          >
            <Icon name="message" className="size-5" />
            Contact via WhatsApp
          </a>
        )}
        {phone && (
          <a
            href={telUrl(phone)}
            {...asButton}
            onClick={() => onContact({ channel: 'phone', quoteId: quote.quoteId })}
            className={`${actionClass} bg-primary text-on-primary`}
          >
            <Icon name="phone" className="size-5" />
            Call Now
          </a>
        )}
      </div>
      {showDisclaimer && <p className="mt-4 text-xs leading-relaxed text-slate-600">{DISCLAIMER}</p>}
    </section>
  );
}
