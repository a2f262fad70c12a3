// What an alert says: the email for one quote and the daily summary, each as a subject, a
// plain-text part and an HTML part. Pure functions of stored rows: every operator and motorist
// string (company name, postcodes, vehicle, problem) goes through escapeHtml in the HTML part.
import { dayWords, gearboxWords, moneyWords, neededWords, problemWords, rollingWords, vehicleWords } from '#shared/quote-words';
import type { QuoteRow } from './store';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);

const londonDateTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const londonTime = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
/** A calendar date (YYYY-MM-DD) as written in the UK: the quote words' own, so the email and the portal agree. */
const formatDay = dayWords;

/** The Quotes tab, and one quote opened in it: the portal opens `quote` from exactly this URL. */
export const quotesTabUrl = (publicUrl: string) => `${publicUrl}/dashboard?tab=quotes`;
export const quoteUrl = (publicUrl: string, reference: string) => `${quotesTabUrl(publicUrl)}&quote=${encodeURIComponent(reference)}`;

const route = (q: QuoteRow) => `${q.pickupPostcode} → ${q.destinationPostcode}`;
const needed = (q: QuoteRow) => neededWords(q);
const passengers = (n: number) => (n === 0 ? 'none' : String(n));

/** The labelled facts of one quote, in order, as plain strings (escaped later for HTML). */
function quoteFacts(q: QuoteRow): Array<[string, string]> {
  return [
    ['Reference', `TQ-${q.publicId}`],
    ['When', londonDateTime.format(new Date(q.createdAt))],
    ['Route', `${route(q)} (${q.distance} miles)`],
    ['Vehicle', vehicleWords(q.vehicleType, 'sentence')],
    ['Gearbox', q.gearboxType ? gearboxWords(q.gearboxType, 'sentence') : '–'],
    ['Rolling', q.rollingStatus ? rollingWords(q.rollingStatus, 'sentence') : '–'],
    ['Passengers', passengers(q.passengerCount)],
    ['Problem', problemWords(q.problemType, 'sentence')],
    ['Needed', needed(q)],
    ['Total', moneyWords(q.totalPricePence)],
  ];
}

const link = (href: string, label: string) => `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
const page = (body: string) => `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5">${body}</body></html>`;

export function quoteAlert(q: QuoteRow, companyName: string, publicUrl: string): MailContent {
  const reference = `TQ-${q.publicId}`;
  const facts = quoteFacts(q);
  const open = quoteUrl(publicUrl, q.publicId);
  const width = Math.max(...facts.map(([label]) => label.length)) + 2;
  const footer = `You get an email for every quote to ${companyName}. Change this in the Driver Portal: ${publicUrl}/dashboard`;
  return {
    subject: `New quote ${reference}: ${moneyWords(q.totalPricePence)}, ${route(q)}`,
    text: [
      `New quote ${reference} for ${companyName}`,
      '',
      ...facts.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`),
      '',
      `Open the quote: ${open}`,
      '',
      footer,
      '',
    ].join('\n'),
    html: page(
      `<h1 style="font-size:20px">New quote ${escapeHtml(reference)} for ${escapeHtml(companyName)}</h1>` +
        `<table cellpadding="4">${facts.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>` +
        `<p>${link(open, 'Open the quote in the Driver Portal')}</p>` +
        `<p style="color:#64748b;font-size:12px">You get an email for every quote to ${escapeHtml(companyName)}. Change this in the ${link(`${publicUrl}/dashboard`, 'Driver Portal')}.</p>`,
    ),
  };
}

/**
 * The quotes of one hour past the alert cap, counted in one mail at the hour's end: "…and N more".
 * `hourStart` is the hour's first instant.
 */
export function quoteDigest(more: number, hourStart: Date, companyName: string, publicUrl: string): MailContent {
  const hours = `between ${londonTime.format(hourStart)} and ${londonTime.format(new Date(hourStart.getTime() + 3_600_000))}`;
  const quotesWord = more === 1 ? 'quote' : 'quotes';
  const tab = quotesTabUrl(publicUrl);
  const footer = `You get an email for every quote to ${companyName}, up to ${ALERT_MAILS_PER_HOUR} an hour; the rest are counted here. Change this in the Driver Portal: ${publicUrl}/dashboard`;
  return {
    subject: `And ${more} more ${quotesWord} for ${companyName} ${hours}`,
    text: [`…and ${more} more ${quotesWord} ${hours} for ${companyName}.`, '', `See them in the Quotes tab: ${tab}`, '', footer, ''].join('\n'),
    html: page(
      `<h1 style="font-size:20px">…and ${more} more ${quotesWord} ${escapeHtml(hours)} for ${escapeHtml(companyName)}</h1>` +
        `<p>${link(tab, 'See them in the Quotes tab of the Driver Portal')}</p>` +
        `<p style="color:#64748b;font-size:12px">${escapeHtml(footer.replace(/ Change this.*$/, ''))} Change this in the ${link(`${publicUrl}/dashboard`, 'Driver Portal')}.</p>`,
    ),
  };
}

/** Quote alerts a company gets in one clock hour at most; past it, one digest at the hour's end (quoteDigest). */
export const ALERT_MAILS_PER_HOUR = 20;

/** At most this many quotes are listed in a summary; the rest are counted and left to the Quotes tab. */
export const SUMMARY_LIST_LIMIT = 100;

/** The summary of `day` (YYYY-MM-DD, UK): `quotes` are its first ones, `total` how many it had. */
export function dailySummary(day: string, quotes: QuoteRow[], total: number, companyName: string, publicUrl: string): MailContent {
  const heading = `${total} ${total === 1 ? 'quote' : 'quotes'} on ${formatDay(day)}`;
  const line = (q: QuoteRow) => [
    `TQ-${q.publicId}`,
    londonTime.format(new Date(q.createdAt)),
    `${route(q)} (${q.distance} mi)`,
    vehicleWords(q.vehicleType, 'sentence'),
    problemWords(q.problemType, 'sentence'),
    needed(q),
    moneyWords(q.totalPricePence),
  ];
  const more = total - quotes.length;
  const tab = quotesTabUrl(publicUrl);
  const footer = `You get this summary every morning at 08:00 for ${companyName}. Change this in the Driver Portal: ${publicUrl}/dashboard`;
  return {
    subject: `Your quotes for ${formatDay(day)}: ${total} ${total === 1 ? 'quote' : 'quotes'}`,
    text: [
      `${heading} for ${companyName}`,
      '',
      ...quotes.map((q) => `${line(q).join('  ')}\n  ${quoteUrl(publicUrl, q.publicId)}`),
      ...(more > 0 ? [`…and ${more} more.`] : []),
      '',
      `All quotes: ${tab}`,
      '',
      footer,
      '',
    ].join('\n'),
    html: page(
      `<h1 style="font-size:20px">${escapeHtml(heading)} for ${escapeHtml(companyName)}</h1>` +
        `<table cellpadding="4"><tr>${['Reference', 'Time', 'Route', 'Vehicle', 'Problem', 'Needed', 'Total'].map((h) => `<th align="left">${h}</th>`).join('')}</tr>` +
        quotes
          .map((q) => {
            const [reference, ...cells] = line(q);
            return `<tr><td>${link(quoteUrl(publicUrl, q.publicId), reference)}</td>${cells.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`;
          })
          .join('') +
        '</table>' +
        (more > 0 ? `<p>…and ${more} more.</p>` : '') +
        `<p>${link(tab, 'All quotes in the Driver Portal')}</p>` +
        `<p style="color:#64748b;font-size:12px">You get this summary every morning at 08:00 for ${escapeHtml(companyName)}. Change this in the ${link(`${publicUrl}/dashboard`, 'Driver Portal')}.</p>`,
    ),
  };
}
