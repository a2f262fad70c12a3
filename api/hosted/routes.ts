// The hosted side of the widget (docs/product.md §13): `/widget.js` for any website to embed, and
// `/company/{slug}`, a small page per company with a correct title and Open Graph tags for link
// previews (WhatsApp shows them), the company's header and footer, and the widget itself.
// Budget (docs/budgets.md): the page and widget.js together stay within 110 KB gzip.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { Hono, type Context } from 'hono';
import path from 'node:path';
import { html, raw } from 'hono/html';
import { safeColour } from '#shared/patterns';
import { telUrl, whatsappNumber } from '#shared/phone';
import { formatPhoneNational } from '#shared/phone-number';
import type { PublicCompany } from '#shared/types';
import { quotesClosedMessage, type OnlineQuotes } from '#shared/share';
import { privacyPath } from '#shared/privacy';
import { featureIconSvg } from '../company/feature-icons';
import { featureBlocks, serviceAreaText, type HostedCompany, type PrivacyCompany } from '../company/view';
import { privacyCss, privacyPage } from './privacy-page';
import { hostedCsp, styleHash } from '../platform/http/security';

export interface HostedRoutesOptions {
  lookupBySlug: (slug: string) => (HostedCompany & { onlineQuotes: OnlineQuotes }) | undefined;
  /** Path of the built dist/widget/widget.js. */
  widgetFile: string;
  /** Absolute origin of this server, for og:url. */
  publicUrl: string;
  /** The privacy page's lookup (any company with this custom URL); without it, `/privacy/{slug}` is a 404. */
  lookupPrivacy?: (slug: string) => PrivacyCompany | undefined;
}

interface WidgetAsset {
  body: Buffer;
  gzipped: Buffer;
  etag: string;
  gzipEtag: string;
}

const WIDGET_CACHE = 'public, max-age=300';

/** Read once on first use (not at start, so tests that never ask for it never read it). */
function loadWidget(file: string): WidgetAsset | undefined {
  let body: Buffer;
  try {
    body = readFileSync(file);
  } catch {
    return undefined;
  }
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  // Compressed once here rather than per request; each encoding is its own representation, so
  // each gets its own strong ETag.
  return { body, gzipped: gzipSync(body, { level: 9 }), etag: `"${hash}"`, gzipEtag: `"${hash}-gz"` };
}

/** If-None-Match uses the weak comparison: `W/` prefixes are ignored, `*` matches anything. */
function matchesIfNoneMatch(header: string | undefined, tags: string[]): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tags.includes(tag.trim().replace(/^W\//, '')));
}

const accepts = (header: string | undefined, coding: string) =>
  (header ?? '').split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    return name.trim().toLowerCase() === coding && !params.some((p) => /^\s*q=0(\.0+)?\s*$/.test(p));
  });

/** A built script of the widget, for any website: read once, gzipped once, revalidated by ETag. */
function serveScript(file: string) {
  let widget: WidgetAsset | undefined;
  return (c: Context) => {
    widget ??= loadWidget(file);
    if (!widget) {
      return c.json({ message: 'The widget is not built. Run "npm run build".' }, 503);
    }
    const gzip = accepts(c.req.header('accept-encoding'), 'gzip');
    const etag = gzip ? widget.gzipEtag : widget.etag;
    c.header('ETag', etag);
    c.header('Cache-Control', WIDGET_CACHE);
    c.header('Vary', 'Accept-Encoding');
    c.header('Access-Control-Allow-Origin', '*');
    if (matchesIfNoneMatch(c.req.header('if-none-match'), [widget.etag, widget.gzipEtag])) {
      return c.body(null, 304);
    }
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    if (gzip) c.header('Content-Encoding', 'gzip');
    return c.body(new Uint8Array(gzip ? widget.gzipped : widget.body));
  };
}

export function createHostedRoutes(opts: HostedRoutesOptions) {
  const publicUrl = opts.publicUrl.replace(/\/+$/, '');

  return (
    new Hono()
      .get('/widget.js', serveScript(opts.widgetFile))
      // The number plate look-up, which widget.js loads (as a module, so with CORS) the first time a
      // motorist types a registration.
      .get('/widget-vehicle.js', serveScript(path.join(path.dirname(opts.widgetFile), 'widget-vehicle.js')))
      // The booking form, which widget.js loads the same way when "Book this recovery" is tapped.
      .get('/widget-booking.js', serveScript(path.join(path.dirname(opts.widgetFile), 'widget-booking.js')))
      .get('/company/:slug', (c) => {
        const slug = c.req.param('slug');
        const company = opts.lookupBySlug(slug);
        // Revalidated on every visit: branding just saved in the portal, a new slug, or a lapsed
        // subscription shows at once. An unchanged page costs a 304.
        c.header('Cache-Control', 'no-cache');
        if (!company) {
          c.header('Content-Security-Policy', NOT_FOUND_CSP);
          return c.html(notFoundPage(), 404);
        }
        const css = companyCss(company);
        c.header('Content-Security-Policy', hostedCsp([styleHash(css)]));
        const page = String(companyPage(company, css, slug, `${publicUrl}/company/${encodeURIComponent(slug)}`));
        const etag = `"${createHash('sha1').update(page).digest('base64url')}"`;
        c.header('ETag', etag);
        if (matchesIfNoneMatch(c.req.header('if-none-match'), [etag])) return c.body(null, 304);
        return c.html(page);
      })
      // The operator's privacy notice (api/hosted/privacy-page.ts), linked from the booking form and the footer.
      .get('/privacy/:slug', (c) => {
        const slug = c.req.param('slug');
        const company = opts.lookupPrivacy?.(slug);
        c.header('Cache-Control', 'no-cache');
        if (!company) {
          c.header('Content-Security-Policy', NOT_FOUND_CSP);
          return c.html(notFoundPage(), 404);
        }
        const css = privacyCss(company);
        c.header('Content-Security-Policy', hostedCsp([styleHash(css)]));
        return c.html(privacyPage(company, css, `/company/${encodeURIComponent(slug)}`));
      })
  );
}

// Shared by the company page and the 404 page; kept small, it is part of the 110 KB budget.
// On a phone the form's banner, just below the bar, names the company: the bar's name stays as the
// page's heading for screen readers but is not shown, so the name shows once.
const BASE_CSS = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#0f172a;background:var(--bg,#fafafa)}
a{color:inherit}a:focus-visible{outline:2px solid currentColor;outline-offset:2px}
.bar{background:#fff;border-bottom:1px solid #e2e8f0}.wrap{max-width:720px;margin:0 auto;padding:12px 16px}
.bar .wrap{display:flex;align-items:center;justify-content:space-between;gap:12px;min-height:64px}
h1{font-size:18px;margin:0;line-height:1.3}@media (max-width:479px){.num{display:none}.bar h1{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}}.call{display:inline-flex;align-items:center;min-height:44px;padding:0 16px;border-radius:8px;background:#0f172a;color:#fff;font-weight:600;text-decoration:none;white-space:nowrap}
main{max-width:720px;margin:0 auto;padding:0}recovery-quote{display:block;min-height:480px}
.loading{display:flex;flex-direction:column;align-items:center;gap:12px;padding:96px 16px;color:#334155}
.spin{width:32px;height:32px;border:3px solid #cbd5e1;border-top-color:#334155;border-radius:50%;animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}@media (prefers-reduced-motion:reduce){.spin{animation-duration:3s}}
footer{background:#0f172a;color:#e2e8f0;margin-top:32px;font-size:14px}footer .wrap{padding:32px 16px}footer p{margin:0 0 8px}
footer ul{list-style:none;padding:0;margin:16px 0}footer li{margin:4px 0}footer li a{display:inline-block;padding:10px 0}
.fine{color:#cbd5e1;border-top:1px solid #334155;padding-top:16px;margin-top:16px}.fine span+span:before{content:" · "}`;

const NOT_FOUND_CSS = `${BASE_CSS}\n.nf{padding:96px 16px;text-align:center}.nf h1{font-size:28px}`;
const NOT_FOUND_CSP = hostedCsp([styleHash(NOT_FOUND_CSS)]);

/**
 * The page's one stylesheet, inline (no extra request) and allowed by its hash in the page's CSP.
 * The company's background joins it here rather than in a style attribute, which CSP would refuse.
 */
const companyCss = (company: PublicCompany) =>
  `${BASE_CSS}\n${PROMISES_CSS}\n${CLOSED_CSS}\nbody{--bg:${safeColour(company.backgroundColour, '#FAFAFA')}}\n.feats{--pri:${safeColour(company.primaryColour, '#1976D2')}}`;

// The portal's promises (Branding tab): the service area under the name, the feature blocks under the form.
const PROMISES_CSS = `.area{margin:2px 0 0;font-size:14px;color:#334155}
.feats{max-width:720px;margin:24px auto 0;padding:0 16px;display:grid;gap:12px}@media (min-width:640px){.feats{grid-template-columns:repeat(3,1fr)}}
.feat{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:16px}.feat h2{font-size:16px;margin:8px 0 4px}.feat p{margin:0;font-size:14px;color:#334155}.ico{color:var(--pri)}`;

// A page that does not quote (paused, not set up) says so in place of the form, with whatever way to reach the company it has.
const CLOSED_CSS = `.closed{margin:32px 16px;padding:24px;background:#fff;border:1px solid #e2e8f0;border-radius:12px;text-align:center}.closed h2{font-size:20px;margin:0 0 8px}.closed p{margin:0 0 16px;color:#334155}.closed .call{margin:4px}`;

function closedNotice(company: HostedCompany, state: Exclude<OnlineQuotes, 'open'>) {
  return html`<section class="closed" aria-labelledby="closed-title"><h2 id="closed-title">${quotesClosedMessage(company.name, state)}</h2>
${company.phone || company.whatsapp ? html`<p>Please contact us directly:</p>` : company.email ? html`<p>Please contact us by email: <a href="mailto:${company.email}">${company.email}</a></p>` : ''}
${company.phone ? html`<a class="call" href="${telUrl(company.phone)}">Call ${formatPhoneNational(company.phone)}</a>` : ''}
${company.whatsapp ? html`<a class="call" href="https://wa.me/${whatsappNumber(company.whatsapp)}" rel="noopener">WhatsApp ${formatPhoneNational(company.whatsapp)}</a>` : ''}
</section>`;
}

function companyPage(company: HostedCompany & { onlineQuotes: OnlineQuotes }, css: string, slug: string, pageUrl: string) {
  // A page that does not quote promises no instant price: not in its title, its description or its links' previews.
  const quoting = company.onlineQuotes === 'open';
  const title = quoting ? `${company.name} – Instant Recovery Quote` : `${company.name} – Vehicle recovery`;
  const description =
    company.companyDescription?.trim() ||
    (quoting
      ? `Get an instant vehicle recovery quote from ${company.name}. Enter your pickup and destination postcodes for a price in seconds.`
      : `Vehicle recovery by ${company.name}.`);
  const year = new Date().getFullYear();
  const area = serviceAreaText(company);
  const features = featureBlocks(company);
  // Every company value goes through hono/html's escaping; only the stylesheet (fixed but for a
  // checked #RRGGBB colour) is raw. No inline script: the widget is our own file.
  return html`<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${description}">
<link rel="canonical" href="${pageUrl}">
<link rel="icon" href="data:,">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:type" content="website">
<meta property="og:url" content="${pageUrl}">
${company.logo ? html`<meta property="og:image" content="${company.logo}">\n` : ''}<meta name="theme-color" content="${safeColour(company.secondaryColour, '#FFA726')}">
<style>${raw(css)}</style>
</head>
<body>
<header class="bar"><div class="wrap">
<div><h1>${company.name}</h1>${area ? html`<p class="area">${area}</p>` : ''}</div>
${company.phone ? html`<a class="call" href="${telUrl(company.phone)}">Call<span class="num">&nbsp;${formatPhoneNational(company.phone)}</span></a>` : ''}
</div></header>
<main>
${
  company.onlineQuotes === 'open'
    ? html`<recovery-quote company="${slug}"><div class="loading" role="status"><div class="spin"></div>Loading quote form…</div></recovery-quote>
<noscript><p class="wrap">Please turn on JavaScript to get an instant quote${company.phone ? html`, or call us on <a href="${telUrl(company.phone)}">${formatPhoneNational(company.phone)}</a>` : ''}.</p></noscript>`
    : closedNotice(company, company.onlineQuotes)
}
</main>
${features.length > 0 ? html`<section class="feats" aria-label="Why choose us">${features.map((f) => html`<div class="feat">${raw(featureIconSvg(f.icon))}<h2>${f.title}</h2><p>${f.description}</p></div>`)}</section>` : ''}
<footer><div class="wrap">
<p><strong>${company.name}</strong></p>
${company.companyDescription ? html`<p>${company.companyDescription}</p>` : ''}
<ul>
${company.phone ? html`<li>Phone: <a href="${telUrl(company.phone)}">${formatPhoneNational(company.phone)}</a></li>` : ''}
${company.whatsapp ? html`<li>WhatsApp: <a href="https://wa.me/${whatsappNumber(company.whatsapp)}" rel="noopener">${formatPhoneNational(company.whatsapp)}</a></li>` : ''}
${company.email ? html`<li>E-mail: <a href="mailto:${company.email}">${company.email}</a></li>` : ''}
</ul>
<p class="fine"><span>© ${year} ${company.name}</span><span><a href="${privacyPath(slug)}">Privacy Policy</a></span><span>Terms of Service</span></p>
</div></footer>
${company.onlineQuotes === 'open' ? html`<script src="/widget.js" defer></script>` : ''}
</body>
</html>`;
}

function notFoundPage() {
  return html`<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>404 Page Not Found</title>
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<style>${raw(NOT_FOUND_CSS)}</style>
</head>
<body>
<main class="wrap nf">
<h1>404 Page Not Found</h1>
<p>We couldn't find a recovery company at this address. Please check the link you were given.</p>
</main>
</body>
</html>`;
}
