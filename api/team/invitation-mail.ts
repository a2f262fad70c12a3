// The owner's invitation mail (docs/product.md, "The team"). As with the account's own mails
// (api/auth/account-mail.ts), the outbox row holds LINK_PLACEHOLDER, never a usable link: the
// token (256 random bits) is made as the mail is sent and only its SHA-256 is kept on the
// invitation, so a resend replaces the link. Without SMTP_URL the link is logged once instead.
import { randomBytes } from 'node:crypto';
import { PRODUCT_NAME } from '#shared/constants';
import { TEAM_INVITATION_KIND } from '#shared/leads';
import { isPlainName } from '#shared/names';
import { ROLE_WORDS, type Role } from '#shared/roles';
import { INVITATION_DAYS } from '#shared/team';
import { LINK_PLACEHOLDER } from '../auth/link-placeholder';
import { hashToken } from '../auth/tokens';
import { escapeHtml, type MailContent } from '../mail/message';
import { insertOutboxRows, type OutboxRow } from '../mail/store';
import type { Db } from '../platform/db/client';
import type { AppDeps } from '../platform/deps';
import { findInvitationById, setInvitationToken, type InvitationRow } from './store';

/** Where the link opens: the portal's invitation page, which sends the token to the API. */
export const JOIN_PATH = '/join/';
export const joinUrl = (publicUrl: string, token: string) => `${publicUrl}${JOIN_PATH}${token}`;

const dedupeKeyOf = (invitationId: number) => `${TEAM_INVITATION_KIND}:${invitationId}`;
const invitationIdOf = (dedupeKey: string): number | undefined => {
  const match = /^team-invitation:(\d+)$/.exec(dedupeKey);
  return match ? Number(match[1]) : undefined;
};

/** A claimed invitation mail whose invitation was accepted, withdrawn or has expired: not sent. */
export class InvitationClosed extends Error {
  constructor() {
    super('not sent: the invitation was withdrawn, used or has expired');
    this.name = 'InvitationClosed';
  }
}

export function invitationMailContent(input: { inviterName: string; companyName: string; role: Role }): MailContent {
  // A mail to an address the owner typed: names only when they carry no contact detail
  // (shared/names.ts), so nobody can write a lure into a stranger's inbox.
  const company = isPlainName(input.companyName) ? input.companyName : 'a recovery company';
  const inviter = isPlainName(input.inviterName) ? input.inviterName : 'The owner';
  const role = ROLE_WORDS[input.role];
  const what = `${inviter} has invited you to join ${company} on ${PRODUCT_NAME} as ${role}.`;
  const expiry = `The link works once, for ${INVITATION_DAYS} days. If you were not expecting this, ignore this email.`;
  return {
    subject: `You are invited to join ${company} on ${PRODUCT_NAME}`,
    text: ['Hello,', '', what, '', `Join: ${LINK_PLACEHOLDER}`, '', expiry, ''].join('\n'),
    html: `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5"><p>Hello,</p><p>${escapeHtml(what)}</p><p><a href="${LINK_PLACEHOLDER}" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:bold">Join ${escapeHtml(company)}</a></p><p style="color:#64748b;font-size:12px">${escapeHtml(expiry)}</p></body></html>`,
  };
}

/** A fresh token for the invitation: its hash replaces any earlier one. */
function issueInvitationToken(db: Db, invitationId: number): string {
  const token = randomBytes(32).toString('base64url');
  setInvitationToken(db, invitationId, hashToken(token));
  return token;
}

/** The invitation's outbox row (and, without a mail server, its link logged once). Run inside write(). */
export function queueInvitationMail(
  deps: Pick<AppDeps, 'db' | 'config' | 'logger'>,
  input: { invitation: InvitationRow; inviter: { id: number; name: string }; companyName: string },
  at: Date,
): void {
  const { db, config } = deps;
  const mailServer = config.mail.smtpUrl !== undefined;
  const { invitation } = input;
  insertOutboxRows(db, [
    {
      companyId: invitation.companyId,
      userId: input.inviter.id,
      kind: TEAM_INVITATION_KIND,
      dedupeKey: dedupeKeyOf(invitation.id),
      to: invitation.email,
      ...invitationMailContent({ inviterName: input.inviter.name, companyName: input.companyName, role: invitation.role }),
      status: mailServer ? 'pending' : 'unsent',
      attempts: 0,
      nextAttemptAt: mailServer ? at.toISOString() : null,
      createdAt: at.toISOString(),
    },
  ]);
  if (!mailServer) {
    deps.logger.info({
      msg: `mail not sent: no mail server configured; open this link to join as ${invitation.email}`,
      kind: TEAM_INVITATION_KIND,
      unsentLink: joinUrl(config.publicUrl, issueInvitationToken(db, invitation.id)),
    });
  }
}

/** Is this claimed outbox row an invitation? Then withInvitationLink makes its message. */
export const isInvitationRow = (row: Pick<OutboxRow, 'kind'>) => row.kind === TEAM_INVITATION_KIND;

/** The message of a claimed invitation row, with a fresh link; InvitationClosed if it no longer works. Run inside write(). */
export function withInvitationLink(db: Db, row: OutboxRow, publicUrl: string, now: Date): MailContent {
  const id = invitationIdOf(row.dedupeKey);
  const invitation = id === undefined ? undefined : findInvitationById(db, id);
  if (!invitation || invitation.acceptedAt || invitation.revokedAt || Date.parse(invitation.expiresAt) <= now.getTime()) throw new InvitationClosed();
  const link = joinUrl(publicUrl, issueInvitationToken(db, invitation.id));
  return { subject: row.subject, text: row.text.replaceAll(LINK_PLACEHOLDER, link), html: row.html.replaceAll(LINK_PLACEHOLDER, link) };
}
