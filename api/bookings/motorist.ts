// The motorist's side of a job (docs/product.md §20): the status page, the cancel, and the
// review request an hour after completion with its one-tap opt-out.
import { JOB_PAGE_CLOSES_AFTER_MS, REVIEW_AFTER_MS } from '#shared/bookings';
import type { JobView } from '#shared/booking-responses';
import { findCompanyById } from '../company/store';
import { insertOutboxRows } from '../mail/store';
import { write } from '../platform/db/write';
import { motoristMessages } from './messages';
import { bookingById, bookingByJobToken, dueReviewRequests, markReviewRequested, addReviewOptOut } from './store';
import type { BookingContext } from './context';

export function motoristPart(ctx: BookingContext) {
  const { deps, db, alerts, jobView, byToken, move, motoristText, senderOf } = ctx;

  return {
    /** The motorist's page. */
    job(token: string): { id: number; view: JobView } {
      const b = byToken(token, (hash) => bookingByJobToken(db, hash));
      return { id: b.id, view: jobView(b) };
    },

    /** The motorist's page of a booking already found (after its payment was confirmed). */
    jobById(id: number): JobView | undefined {
      const b = bookingById(db, id);
      return b && jobView(b);
    },

    async cancel(token: string): Promise<JobView> {
      const b = byToken(token, (hash) => bookingByJobToken(db, hash));
      const messages = [...motoristText(b, 'cancelled', motoristMessages.cancelled(senderOf(b), b.reference, b.companyPhone)), ...alerts.cancelled(b)];
      return jobView(await move(b, 'cancelled', 'motorist', {}, null, messages));
    },

    /**
     * Writes the review request of each job completed an hour ago or more (and less than the
     * status page's day, so its one-tap opt-out still opens), once, by text or by email as the
     * company asks: only from a checked company (the link is the company's own), never to a number
     * or address that opted out. Answers how many were written.
     */
    async requestReviews(limit = 50): Promise<number> {
      const now = deps.now();
      const at = now.toISOString();
      let written = 0;
      const due = dueReviewRequests(
        db,
        new Date(now.getTime() - JOB_PAGE_CLOSES_AFTER_MS + REVIEW_AFTER_MS).toISOString(),
        new Date(now.getTime() - REVIEW_AFTER_MS).toISOString(),
        limit,
      );
      for (const { id, mode } of due) {
        const b = bookingById(db, id);
        const url = b && findCompanyById(db, b.companyId)?.reviewUrl;
        if (!b || !url) continue;
        const sender = senderOf(b);
        const wrote = await write(db, () => {
          if (!markReviewRequested(db, b.id, at)) return false;
          // A company whose name is not checked gets none: the platform never sends a company's own link.
          if (sender === null) return false;
          // By email only to the address the motorist gave (the due list holds no email job without one), never a text instead.
          if (mode === 'email') {
            if (b.customerEmail === null) return false;
            insertOutboxRows(db, [alerts.reviewEmail(b, b.customerEmail, sender, url, at)]);
          } else insertOutboxRows(db, [alerts.review(b, sender, url, at)]);
          return true;
        });
        if (wrote) written += 1;
      }
      return written;
    },

    /** The motorist's one tap: no more review requests from this company to this number, nor to this email address. */
    async reviewOptOut(token: string): Promise<JobView> {
      const b = byToken(token, (hash) => bookingByJobToken(db, hash));
      await write(db, () => addReviewOptOut(db, b.companyId, { phone: b.customerPhone, email: b.customerEmail }, deps.now().toISOString()));
      return jobView(b);
    },
  };
}
