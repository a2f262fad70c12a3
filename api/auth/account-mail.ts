// The account's own mails (docs/product.md, Accounts): verify an address, reset a password, sign in
// without the password, and "someone tried to sign up with your address". They go through the mail outbox like alerts
// (retries, one row per mail), each as its own kind. A link's token is made when the mail is
// sent (api/mail/worker.ts calls withLink), so the outbox never holds a usable link: the row
// keeps LINK_PLACEHOLDER and the database keeps only the token's hash. Without SMTP_URL the link
// is logged once at info level instead, so a local install still works.
import { LINK_PLACEHOLDER } from './link-placeholder';
import { randomBytes } from 'node:crypto';
import type { AccountMailKind } from '#shared/leads';
import { PRODUCT_NAME } from '#shared/constants';
import { isPlainName } from '#shared/names';
import { escapeHtml, type MailContent } from '../mail/message';
import { insertOutboxRows, type NewOutboxRow, type OutboxRow } from '../mail/store';
import type { Db } from '../platform/db/client';
import type { AppDeps } from '../platform/deps';
import { issueToken, LINK_PATH, type TokenPurpose } from './tokens';
import { isSmsCodeRow, withCode } from '../bookings/sms-verification';
import { isInvitationRow, withInvitationLink } from '../team/invitation-mail';

/** What the logged link of an unsent mail does, for the line that shows it. */
const UNSENT_LINK_DOES: Record<TokenPurpose, string> = { 'verify-email': 'verify', 'reset-password': 'reset the password of', 'sign-in': 'sign in as' };

export { LINK_PLACEHOLDER };

const PURPOSE: Partial<Record<AccountMailKind, TokenPurpose>> = {
  'verify-email': 'verify-email',
  'reset-password': 'reset-password',
  'sign-in-link': 'sign-in',
};

const page = (body: string) => `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5">${body}</body></html>`;
const button = (label: string) =>
  `<p><a href="${LINK_PLACEHOLDER}" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(label)}</a></p>`;
const small = (text: string) => `<p style="color:#64748b;font-size:12px">${escapeHtml(text)}</p>`;

export interface AccountMailInput {
  kind: AccountMailKind;
  /** The account the mail is about; its company owns the outbox row. */
  user: { id: number; name: string; companyId: number | null };
  to: string;
  companyName: string;
  /** For verify-email: the address is an alert address, not the account's own. */
  alertAddress?: boolean;
}

/** What each account mail says; a link is LINK_PLACEHOLDER until it is sent. */
export function accountMailContent(input: AccountMailInput, publicUrl: string): MailContent {
  // A mail to an alert address goes to someone the account may not be: it greets nobody by the
  // sign-up's own name, and names the company only when its name carries no contact detail
  // (shared/names.ts), so a sign-up cannot write a lure into a stranger's inbox.
  const hello = input.alertAddress ? 'Hello,' : `Hello ${input.user.name},`;
  switch (input.kind) {
    case 'verify-email': {
      const what = input.alertAddress
        ? isPlainName(input.companyName)
          ? `Please confirm that quote alerts for ${input.companyName} may be sent to ${input.to}.`
          : `Please confirm that quote alerts from ${PRODUCT_NAME} may be sent to ${input.to}.`
        : `Please confirm your email address for ${input.companyName} on ${PRODUCT_NAME}. Until you do, no quote alerts or summaries are sent.`;
      const expiry = 'The link works once, for 24 hours. If you did not ask for this, ignore this email.';
      return {
        subject: input.alertAddress ? `Confirm ${input.to} for quote alerts` : `Confirm your email address for ${PRODUCT_NAME}`,
        text: [hello, '', what, '', `Confirm: ${LINK_PLACEHOLDER}`, '', expiry, ''].join('\n'),
        html: page(`<p>${escapeHtml(hello)}</p><p>${escapeHtml(what)}</p>${button('Confirm email address')}${small(expiry)}`),
      };
    }
    case 'reset-password': {
      const what = `Someone (we hope you) asked to reset the password of ${input.companyName}'s account on ${PRODUCT_NAME}.`;
      const expiry = 'The link works once, for 1 hour. If you did not ask for this, ignore this email: your password stays as it is.';
      return {
        subject: `Reset your ${PRODUCT_NAME} password`,
        text: [hello, '', what, '', `Choose a new password: ${LINK_PLACEHOLDER}`, '', expiry, ''].join('\n'),
        html: page(`<p>${escapeHtml(hello)}</p><p>${escapeHtml(what)}</p>${button('Choose a new password')}${small(expiry)}`),
      };
    }
    case 'sign-in-link': {
      const what = `Someone (we hope you) asked for a link to sign in to ${input.companyName}'s account on ${PRODUCT_NAME} without a password.`;
      const expiry =
        'The link works once, for 15 minutes. If you did not ask for this, ignore this email: nobody can sign in without it, and your password stays as it is.';
      return {
        subject: `Your ${PRODUCT_NAME} sign-in link`,
        text: [hello, '', what, '', `Sign in: ${LINK_PLACEHOLDER}`, '', expiry, ''].join('\n'),
        html: page(`<p>${escapeHtml(hello)}</p><p>${escapeHtml(what)}</p>${button('Sign in')}${small(expiry)}`),
      };
    }
    case 'signup-attempt': {
      const signIn = `${publicUrl}/auth-page?mode=signin`;
      const what = `Someone tried to sign up to ${PRODUCT_NAME} with your address. Your account is safe and nothing was changed.`;
      const next = 'If it was you, sign in, or reset your password from the sign-in page if you have forgotten it. If not, you can ignore this email.';
      return {
        subject: `Someone tried to sign up with your address`,
        text: [hello, '', what, '', next, '', `Sign in: ${signIn}`, ''].join('\n'),
        html: page(`<p>${escapeHtml(hello)}</p><p>${escapeHtml(what)}</p><p>${escapeHtml(next)}</p><p><a href="${escapeHtml(signIn)}">Sign in</a></p>`),
      };
    }
    default:
      return input.kind satisfies never;
  }
}

/** The link of a token, as the mail shows it: a page of the portal (the token in its path, redacted from logs). */
export const linkFor = (publicUrl: string, purpose: TokenPurpose, token: string) => `${publicUrl}${LINK_PATH[purpose]}${token}`;

const fill = (content: Pick<MailContent, 'subject' | 'text' | 'html'>, link: string): MailContent => ({
  subject: content.subject,
  text: content.text.replaceAll(LINK_PLACEHOLDER, link),
  html: content.html.replaceAll(LINK_PLACEHOLDER, link),
});

/**
 * The outbox row of an account mail, and, without a mail server, the line to log with its link
 * (the token is made now, since no worker will send it). Run inside write().
 */
export function queueAccountMail(
  deps: Pick<AppDeps, 'db' | 'config' | 'logger'>,
  input: AccountMailInput,
  at: Date,
  /** One mail per key: a repeat with the same key writes nothing. Default: a fresh key. */
  dedupeKey = `${input.kind}:${input.user.id}:${randomBytes(9).toString('base64url')}`,
): void {
  const { db, config } = deps;
  if (input.user.companyId == null) return;
  const content = accountMailContent(input, config.publicUrl);
  const mailServer = config.mail.smtpUrl !== undefined;
  const row: NewOutboxRow = {
    companyId: input.user.companyId,
    userId: input.user.id,
    kind: input.kind,
    dedupeKey,
    to: input.to,
    ...content,
    status: mailServer ? 'pending' : 'unsent',
    attempts: 0,
    nextAttemptAt: mailServer ? at.toISOString() : null,
    createdAt: at.toISOString(),
  };
  insertOutboxRows(db, [row]);
  const purpose = PURPOSE[input.kind];
  if (!mailServer && purpose) {
    // A local install without SMTP_URL: the owner reads the link from the log, once.
    const link = linkFor(config.publicUrl, purpose, issueToken(db, { purpose, userId: input.user.id, email: input.to, now: at }));
    deps.logger.info({
      msg: `mail not sent: no mail server configured; open this link to ${UNSENT_LINK_DOES[purpose]} ${input.to}`,
      kind: input.kind,
      unsentLink: link,
    });
  }
}

/**
 * The message to send for a claimed outbox row: an account mail gets a fresh link now (its token
 * valid from this moment); other rows are sent as stored. Run inside write().
 */
export function withLink(db: Db, row: OutboxRow, publicUrl: string, now: Date): MailContent {
  // The booking text number's code is made the same way, as it is sent.
  if (isSmsCodeRow(row)) return withCode(db, row, now);
  // The owner's invitations are made the same way (api/team/invitation-mail.ts).
  if (isInvitationRow(row)) return withInvitationLink(db, row, publicUrl, now);
  const purpose = PURPOSE[row.kind as AccountMailKind];
  if (!purpose || row.userId == null || !row.text.includes(LINK_PLACEHOLDER)) return row;
  const token = issueToken(db, { purpose, userId: row.userId, email: row.to, now });
  return fill(row, linkFor(publicUrl, purpose, token));
}
