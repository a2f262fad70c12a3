// The link to a job's status page in the messages the outbox sends (decision 034). A message is
// stored with JOB_LINK_PLACEHOLDER where the link goes, beside its booking's id; the outbox puts
// the link in as it sends, from the booking's encrypted job token (api/bookings/tokens.ts), so no
// stored text, subject or HTML ever holds a token, and the operator's alert list shows none. The
// balance's pay link is put in the same way (PAY_LINK_PLACEHOLDER), made again from its salt.
import type { MailContent } from '../mail/message';
import type { OutboxRow } from '../mail/store';
import type { Db } from '../platform/db/client';
import { paySaltOf, sealedJobToken } from './store';
import type { BookingTokens, JobTokenBox } from './tokens';

/** Stands for the job's status page link in a stored message until it is sent. */
export const JOB_LINK_PLACEHOLDER = '{{job-link}}';
/** What a stored message's subject shows in the link's place (the operator's alert list shows subjects). */
export const JOB_LINK_SHOWN = '[status page link]';
/** Stands for the balance's pay link (docs/product.md §22), made as the message is sent from the booking's salt. */
export const PAY_LINK_PLACEHOLDER = '{{pay-link}}';
export const PAY_LINK_SHOWN = '[pay link]';

export const jobUrl = (publicUrl: string, token: string) => `${publicUrl}/job/${token}`;
/** The balance's pay link (a page of its own, outside the SPA: api/bookings/pay-page.ts). */
export const payUrl = (publicUrl: string, token: string) => `${publicUrl}/balance/${token}`;

/** The booking's link could not be made (its token sealed under another SESSION_SECRET, or not kept): the message is not sent. */
export class JobLinkUnavailable extends Error {
  constructor() {
    super('not sent: the link to the job cannot be made (SESSION_SECRET changed since the booking?)');
    this.name = 'JobLinkUnavailable';
  }
}

/**
 * The message to send for a claimed row: its job link put in, when it has one to fill. Throws
 * JobLinkUnavailable when the link cannot be made: a text without its link is not sent.
 */
export function withJobLink(db: Db, row: OutboxRow, content: MailContent, box: JobTokenBox, publicUrl: string, tokens?: BookingTokens): MailContent {
  if (row.bookingId !== null && tokens && content.text.includes(PAY_LINK_PLACEHOLDER)) {
    const salt = paySaltOf(db, row.bookingId);
    if (!salt) throw new JobLinkUnavailable();
    const link = payUrl(publicUrl, tokens.payToken(row.bookingId, salt));
    content = {
      subject: content.subject,
      text: content.text.replaceAll(PAY_LINK_PLACEHOLDER, link),
      html: content.html.replaceAll(PAY_LINK_PLACEHOLDER, link),
    };
  }
  if (row.bookingId === null || !(content.text.includes(JOB_LINK_PLACEHOLDER) || content.html.includes(JOB_LINK_PLACEHOLDER))) return content;
  const sealed = sealedJobToken(db, row.bookingId);
  const token = sealed ? box.open(sealed) : undefined;
  if (!token) throw new JobLinkUnavailable();
  const link = jobUrl(publicUrl, token);
  return { subject: content.subject, text: content.text.replaceAll(JOB_LINK_PLACEHOLDER, link), html: content.html.replaceAll(JOB_LINK_PLACEHOLDER, link) };
}
