// The operator's privacy page, `/privacy/{slug}` (docs/product.md §13, "The privacy page"): server
// rendered with no script, in the operator's colours, linked from the booking form's privacy line
// and the hosted page's footer. It shows the operator's own notice when they wrote one (plain text:
// a blank line starts a paragraph, a line break stays one), else the default notice, which names
// the operator as the controller with the contact details they keep with us, what is collected and
// why, who else handles it, how long it is kept (their retention setting) and the motorist's
// rights. Every operator value goes through hono/html's escaping.
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { formatPhoneNational } from '#shared/phone-number';
import { telUrl } from '#shared/phone';
import { safeColour } from '#shared/patterns';
import { RETENTION_MONTHS } from '#shared/leads';
import type { PrivacyCompany } from '../company/view';

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** The default notice's words (docs/product.md §13 holds the same). */
export const PRIVACY_PAGE = {
  title: (company: string) => `Privacy notice – ${company}`,
  heading: (company: string) => `How ${company} uses your details`,
  controllerHeading: 'Who we are',
  controller: (company: string) =>
    `${company} is the data controller for the details you give when you ask for a quote or book a recovery on our page. You can reach us at:`,
  collectHeading: 'What we collect',
  collect:
    'Your name and mobile number; your vehicle (its registration, type and condition); the pickup and destination locations, and your position if you choose to send it; the note you write; and photos of the vehicle taken at pickup and drop-off.',
  whyHeading: 'Why',
  why: 'To give you a quote, to book and carry out your recovery, to keep you told about it by text, and to issue your receipt.',
  sharedHeading: 'Who else handles them',
  shared:
    'RecoveryQuote, the platform that runs this page, processes your details for us and only on our instructions. If you pay by card, the payment provider (Stripe) takes your card details; we never see them.',
  keptHeading: 'How long we keep them',
  kept: (months: number) => `Your quote and booking details are kept for ${months} months, then deleted.`,
  rightsHeading: 'Your rights',
  rights:
    'You may ask us for a copy of your details, and ask us to correct or delete them: contact us as above. If you are unhappy with how we handle your details, you can complain to the Information Commissioner’s Office (ICO):',
  ico: 'ico.org.uk/make-a-complaint',
  back: (company: string) => `Back to ${company}`,
} as const;

const ICO_URL = 'https://ico.org.uk/make-a-complaint/';

/** The page's stylesheet: fixed but for the operator's checked #RRGGBB colours. */
export const privacyCss = (company: PrivacyCompany) =>
  `*{box-sizing:border-box}body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#0f172a;background:${safeColour(company.backgroundColour, '#FAFAFA')}}
header{background:${safeColour(company.primaryColour, '#1976D2')};color:#fff}header p{margin:0;font-weight:600}
.wrap{max-width:720px;margin:0 auto;padding:16px}main{background:#fff;border:1px solid #e2e8f0;border-radius:12px;margin:16px auto;max-width:720px;padding:8px 20px 20px}
h1{font-size:22px;line-height:1.3}h2{font-size:17px;margin:20px 0 4px}p{margin:0 0 12px;overflow-wrap:anywhere}address{font-style:normal;margin:0 0 12px}
a{color:#0f172a}a:focus-visible{outline:2px solid currentColor;outline-offset:2px}.back{display:inline-block;padding:10px 0}`;

/** Plain text as paragraphs: a blank line starts one, a single line break stays a break. */
function paragraphs(text: string): Html[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const lines = part.split('\n');
      return html`<p>${lines.map((line, i) => (i === 0 ? html`${line}` : html`<br>${line}`))}</p>`;
    });
}

function contactLines(company: PrivacyCompany): Html {
  const address = (company.businessAddress ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return html`<address>
<strong>${company.name}</strong>${address.map((line) => html`<br>${line}`)}
${company.phone ? html`<br>Phone: <a href="${telUrl(company.phone)}">${formatPhoneNational(company.phone)}</a>` : ''}
${company.email ? html`<br>E-mail: <a href="mailto:${company.email}">${company.email}</a>` : ''}
</address>`;
}

function defaultNotice(company: PrivacyCompany): Html {
  const months = company.retentionMonths ?? RETENTION_MONTHS.default;
  return html`<h2>${PRIVACY_PAGE.controllerHeading}</h2>
<p>${PRIVACY_PAGE.controller(company.name)}</p>
${contactLines(company)}
<h2>${PRIVACY_PAGE.collectHeading}</h2>
<p>${PRIVACY_PAGE.collect}</p>
<h2>${PRIVACY_PAGE.whyHeading}</h2>
<p>${PRIVACY_PAGE.why}</p>
<h2>${PRIVACY_PAGE.sharedHeading}</h2>
<p>${PRIVACY_PAGE.shared}</p>
<h2>${PRIVACY_PAGE.keptHeading}</h2>
<p>${PRIVACY_PAGE.kept(months)}</p>
<h2>${PRIVACY_PAGE.rightsHeading}</h2>
<p>${PRIVACY_PAGE.rights} <a href="${ICO_URL}" rel="noopener">${PRIVACY_PAGE.ico}</a>.</p>`;
}

export function privacyPage(company: PrivacyCompany, css: string, companyUrl: string): Html {
  const own = company.privacyText?.trim() ? paragraphs(company.privacyText) : null;
  return html`<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${PRIVACY_PAGE.title(company.name)}</title>
<link rel="icon" href="data:,">
<style>${raw(css)}</style>
</head>
<body>
<header><div class="wrap"><p>${company.name}</p></div></header>
<main>
<h1>${PRIVACY_PAGE.heading(company.name)}</h1>
${own ?? defaultNotice(company)}
${own ? contactLines(company) : ''}
<a class="back" href="${companyUrl}">${PRIVACY_PAGE.back(company.name)}</a>
</main>
</body>
</html>`;
}
