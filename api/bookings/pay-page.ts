// The balance's pay link page (docs/product.md §22): `/balance/{token}`, a small server-rendered
// page like local mode's card page, so the QR code on the driver's phone and the motorist's text
// open it with no app to load. It says what is left to pay and to whom; 'Pay £… by card' (a POST
// from this page only) opens a checkout of that amount on the operator's own payment account and
// goes there; back from it, the provider is asked (before its webhook) and the page says 'Paid'.
// The token is the credential (as the job's page): 192 bits, stored as a hash, never logged.
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import { formatPence } from '#shared/money';
import { checkoutMessagePage, layout, PAGE_CSP } from '../billing/local-pages';
import type { Config } from '../platform/config';
import { DomainError, PaymentProviderUnavailable } from '../platform/errors';
import type { AppEnv } from '../platform/http/context';
import { isOwnOriginPost } from '../platform/http/security';
import type { PaymentService } from '../payments/service';
import { PAYMENT_PROVIDER_DOWN } from '../payments/provider';
import { payUrl } from './job-link';
import type { BookingService } from './service';
import { balanceBeforePence, balanceDuePence } from './views';

export const PAY_PAGE = {
  heading: (company: string) => `Pay ${company}`,
  due: (reference: string) => `Balance for recovery TQ-${reference}`,
  button: (amount: string) => `Pay ${amount} by card`,
  paid: 'Paid. Thank you.',
  paidText: (reference: string) => `The balance for TQ-${reference} is paid.`,
  nothing: 'Nothing is left to pay on this job.',
  unavailable: 'Card payment is not available for this job. Please pay the driver or call the company.',
  missing: 'This pay link does not exist.',
  closed: 'This job was completed more than a day ago, and its pay link has closed. Please call the company.',
} as const;

export function payLinkPages(config: Config, bookings: BookingService, payments: PaymentService | undefined) {
  const noStore = (c: Context<AppEnv>) => {
    c.header('Cache-Control', 'no-store');
    c.header('Content-Security-Policy', PAGE_CSP);
    c.header('Referrer-Policy', 'no-referrer');
  };
  const message = (c: Context<AppEnv>, heading: string, text: string, status: 200 | 403 | 404 | 409 | 410 | 503 = 200) =>
    c.html(checkoutMessagePage({ heading, text, linkText: 'Go to RecoveryQuote', linkUrl: '/' }), status);

  /** The booking of the path's token, or the page that says why not. */
  function find(c: Context<AppEnv>) {
    try {
      return { booking: bookings.payLinkBooking(c.req.param('token') ?? '') };
    } catch (err) {
      if (err instanceof DomainError && err.status === 410) return { page: message(c, 'Pay link closed', PAY_PAGE.closed, 410) };
      if (err instanceof DomainError) return { page: message(c, 'Pay link not found', PAY_PAGE.missing, 404) };
      throw err;
    }
  }

  return new Hono<AppEnv>()
    .get('/balance/:token', async (c) => {
      noStore(c);
      let found = find(c);
      if (!found.booking) return found.page;
      // Back from the checkout before its webhook: the provider is asked, and a paid balance shows as paid.
      if (payments && balanceDuePence(found.booking) > 0) {
        await payments.confirmBalance(found.booking.id);
        found = find(c);
        if (!found.booking) return found.page;
      }
      const b = found.booking;
      const due = balanceDuePence(b);
      if (due === 0) {
        return message(c, PAY_PAGE.paid, balanceBeforePence(b) > 0 ? PAY_PAGE.paidText(b.reference) : PAY_PAGE.nothing);
      }
      if (b.status !== 'completed' || !payments?.payLinkReady(b.companyId)) return message(c, PAY_PAGE.heading(b.companyName), PAY_PAGE.unavailable, 409);
      return c.html(
        layout(
          'Pay',
          html`<div class="card">
            <h1>${PAY_PAGE.heading(b.companyName)}</h1>
            <h2>${PAY_PAGE.due(b.reference)}</h2>
            <p class="price">${formatPence(due)}</p>
            <form method="post"><button type="submit">${PAY_PAGE.button(formatPence(due))}</button></form>
          </div>`,
        ),
      );
    })
    .post('/balance/:token', async (c) => {
      noStore(c);
      if (!isOwnOriginPost(c, config.publicUrl)) return message(c, 'Request refused', 'This form can only be sent from its own page on this site.', 403);
      const found = find(c);
      if (!found.booking) return found.page;
      const b = found.booking;
      const due = balanceDuePence(b);
      const back = payUrl(config.publicUrl, c.req.param('token'));
      if (due === 0) return c.redirect(back, 303);
      if (b.status !== 'completed' || !payments) return message(c, PAY_PAGE.heading(b.companyName), PAY_PAGE.unavailable, 409);
      try {
        const url = await payments.balanceCheckout({
          bookingId: b.id,
          companyId: b.companyId,
          reference: b.reference,
          companyName: b.companyName,
          amountPence: due,
          returnUrl: back,
        });
        if (!url) return message(c, PAY_PAGE.heading(b.companyName), PAY_PAGE.unavailable, 409);
        return c.redirect(url, 303);
      } catch (err) {
        if (err instanceof PaymentProviderUnavailable) return message(c, PAY_PAGE.heading(b.companyName), PAYMENT_PROVIDER_DOWN, 503);
        throw err;
      }
    });
}
