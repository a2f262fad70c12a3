// The quote link in a text the outbox sends (as the job's link, decision 034): the row is stored
// with QUOTE_LINK_PLACEHOLDER where the link goes and the quote's id at the end of its key; the
// outbox makes the link from the quote's salt as it sends, so no stored message holds a token.
import { JobLinkUnavailable } from '../bookings/job-link';
import type { MailContent } from '../mail/message';
import type { OutboxRow } from '../mail/store';
import type { Db } from '../platform/db/client';
import type { QuoteLinkTokens } from './link-token';
import { quoteLinkUrl } from './link-token';
import { linkSaltOf } from './store';

export const QUOTE_LINK_PLACEHOLDER = '{{quote-link}}';
/** What a stored text's subject shows in the link's place. */
export const QUOTE_LINK_SHOWN = '[quote link]';
const QUOTE_OF_KEY = /:q(\d+)$/;

/** The quote is gone (retention deleted it) or its link cannot be made: the text is not sent. */
export class QuoteLinkUnavailable extends JobLinkUnavailable {
  constructor() {
    super();
    this.message = 'not sent: the quote of this link is gone';
  }
}

export function withQuoteLink(db: Db, row: OutboxRow, content: MailContent, tokens: QuoteLinkTokens, publicUrl: string): MailContent {
  if (row.kind !== 'quote-link' || !content.text.includes(QUOTE_LINK_PLACEHOLDER)) return content;
  const quoteId = QUOTE_OF_KEY.exec(row.dedupeKey)?.[1];
  const salt = quoteId === undefined ? undefined : linkSaltOf(db, Number(quoteId));
  if (!salt) throw new QuoteLinkUnavailable();
  const link = quoteLinkUrl(publicUrl, tokens.token(salt));
  return { subject: content.subject, text: content.text.replaceAll(QUOTE_LINK_PLACEHOLDER, link), html: content.html };
}
