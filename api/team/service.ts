// The team's rules (docs/product.md, "The team"; decision 041): the owner invites people by
// email with a role, changes roles and removes people (either ends that person's sessions at
// once), a company keeps at least one owner, and the company's subscription stays with an owner.
// Every change is written to the audit log in the same transaction.
import { penceToPounds, poundsToPence } from '#shared/money';
import type { Role } from '#shared/roles';
import {
  INVITATION_DAYS,
  INVITATIONS_PER_DAY,
  type AcceptInvitationRequest,
  type Invitation,
  type InvitationPreview,
  type Person,
  type Team,
} from '#shared/team';
import { hashPassword } from '../auth/password';
import { assertStrongPassword } from '../auth/password-strength';
import { findUserByCompanyId, type UserRow } from '../auth/store';
import { hashToken } from '../auth/tokens';
import { findCompanyById } from '../company/store';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { Conflict, Gone, NotFound, TooManyRequests } from '../platform/errors';
import type { Actor } from './audit';
import { queueInvitationMail } from './invitation-mail';
import {
  acceptInvitation,
  accountsWithAddress,
  countOwners,
  detachPerson,
  findInvitation,
  findInvitationByTokenHash,
  findPerson,
  insertInvitation,
  insertPerson,
  invitationsSince,
  listPeople,
  markSignedIn,
  moveBilling,
  nextOwner,
  openInvitations,
  refundLimitPence,
  revokeInvitation,
  revokeInvitationsTo,
  setRefundLimitPence,
  setRole,
  type InvitationRow,
} from './store';

const DAY_MS = 24 * 60 * 60 * 1000;
/** base64url of 32 random bytes: nothing else is looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const ALREADY_IN_TEAM = 'This person is already in your team.';
export const EMAIL_IN_OTHER_COMPANY = 'This email address already belongs to a person of another company. They must use a different address.';
export const LAST_OWNER = 'A company needs at least one owner. Make someone else an owner first.';
export const TOO_MANY_INVITATIONS = `Your company has sent ${INVITATIONS_PER_DAY} invitations today. Please try again tomorrow.`;
export const INVITATION_UNKNOWN = 'This invitation link is not valid. Ask the owner to invite you again.';
export const INVITATION_EXPIRED = 'This invitation has expired or was withdrawn. Ask the owner to invite you again.';
export const INVITATION_USED = 'This invitation has already been used. Sign in instead.';
export const PERSON_MISSING = 'No such person in your team.';
export const INVITATION_MISSING = 'No such invitation.';

const personView = (user: UserRow, you: number): Person => ({
  id: user.id,
  name: user.name,
  email: user.email,
  role: user.role,
  lastSignInAt: user.lastSignInAt,
  you: user.id === you,
});

const invitationView = (row: InvitationRow): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
});

export function teamService(deps: Pick<AppDeps, 'db' | 'config' | 'logger' | 'now' | 'audit'>) {
  const { db } = deps;

  /** The invitation of a link, or the reason it does not work: unknown 404, expired, withdrawn or used 410. Changes nothing. */
  function openInvitationOf(token: string, at: Date): InvitationRow {
    const row = TOKEN_SHAPE.test(token) ? findInvitationByTokenHash(db, hashToken(token)) : undefined;
    if (!row) throw new NotFound(INVITATION_UNKNOWN);
    if (row.acceptedAt) throw new Gone(INVITATION_USED, 'INVITATION_USED');
    if (row.revokedAt || Date.parse(row.expiresAt) <= at.getTime()) throw new Gone(INVITATION_EXPIRED, 'INVITATION_EXPIRED');
    return row;
  }

  /** Refuses an address that is already a person of this company (409) or of another (409). */
  function assertAddressFree(companyId: number, email: string): void {
    const holders = accountsWithAddress(db, email);
    if (holders.some((u) => u.companyId === companyId)) throw new Conflict(ALREADY_IN_TEAM, 'ALREADY_IN_TEAM');
    if (holders.length > 0) throw new Conflict(EMAIL_IN_OTHER_COMPANY, 'EMAIL_IN_OTHER_COMPANY');
  }

  /**
   * `person` stops being an owner (a new role, or removed): refused if the company would have
   * none; the company's subscription moves to the next owner if `person` held it.
   */
  function handOver(person: UserRow & { companyId: number }): void {
    if (person.role !== 'owner') return;
    if (countOwners(db, person.companyId) <= 1) throw new Conflict(LAST_OWNER, 'LAST_OWNER');
    const holder = findUserByCompanyId(db, person.companyId);
    const next = nextOwner(db, person.companyId, person.id);
    if (holder?.id === person.id && next) moveBilling(db, person, next.id);
  }

  const team = (companyId: number, you: number): Team => ({
    people: listPeople(db, companyId).map((u) => personView(u, you)),
    invitations: openInvitations(db, companyId, deps.now().toISOString()).map(invitationView),
    dispatcherRefundLimit: penceToPounds(refundLimitPence(db, companyId)),
  });

  return {
    team,
    people: (companyId: number, you: number): Person[] => listPeople(db, companyId).map((u) => personView(u, you)),
    invitations: (companyId: number): Invitation[] => openInvitations(db, companyId, deps.now().toISOString()).map(invitationView),

    async invite(owner: UserRow & { companyId: number }, input: { email: string; role: Role }, actor: Actor): Promise<Invitation> {
      const email = input.email.toLowerCase();
      const at = deps.now();
      const row = await write(db, () => {
        assertAddressFree(owner.companyId, email);
        // Each invitation is a mail: a company sends at most so many a day.
        if (invitationsSince(db, owner.companyId, new Date(at.getTime() - DAY_MS).toISOString()) >= INVITATIONS_PER_DAY) {
          throw new TooManyRequests(TOO_MANY_INVITATIONS);
        }
        revokeInvitationsTo(db, owner.companyId, email, at.toISOString());
        const invitation = insertInvitation(db, {
          companyId: owner.companyId,
          email,
          role: input.role,
          invitedBy: owner.id,
          createdAt: at.toISOString(),
          expiresAt: new Date(at.getTime() + INVITATION_DAYS * DAY_MS).toISOString(),
        });
        const companyName = findCompanyById(db, owner.companyId)?.name ?? '';
        queueInvitationMail(deps, { invitation, inviter: owner, companyName }, at);
        deps.audit(actor, { companyId: owner.companyId, kind: 'invitation-sent', subject: email, after: { role: input.role } }, at);
        return invitation;
      });
      return invitationView(row);
    },

    async withdraw(companyId: number, id: number, actor: Actor): Promise<void> {
      const at = deps.now();
      await write(db, () => {
        const row = findInvitation(db, companyId, id);
        if (!row || !revokeInvitation(db, row.id, at.toISOString())) throw new NotFound(INVITATION_MISSING);
        deps.audit(actor, { companyId, kind: 'invitation-withdrawn', subject: row.email, before: { role: row.role } }, at);
      });
    },

    async changeRole(owner: UserRow & { companyId: number }, personId: number, role: Role, actor: Actor): Promise<Person> {
      const at = deps.now();
      const updated = await write(db, () => {
        const person = findPerson(db, owner.companyId, personId);
        if (!person) throw new NotFound(PERSON_MISSING);
        if (person.role === role) return person;
        if (role !== 'owner') handOver({ ...person, companyId: owner.companyId });
        const changed = setRole(db, person.id, role);
        deps.audit(actor, { companyId: owner.companyId, kind: 'role-changed', subject: person.email, before: { role: person.role }, after: { role } }, at);
        return changed;
      });
      return personView(updated, owner.id);
    },

    async remove(owner: UserRow & { companyId: number }, personId: number, actor: Actor): Promise<void> {
      const at = deps.now();
      await write(db, () => {
        const person = findPerson(db, owner.companyId, personId);
        if (!person) throw new NotFound(PERSON_MISSING);
        handOver({ ...person, companyId: owner.companyId });
        detachPerson(db, person.id);
        deps.audit(actor, { companyId: owner.companyId, kind: 'person-removed', subject: person.email, before: { name: person.name, role: person.role } }, at);
      });
    },

    async setRefundLimit(owner: UserRow & { companyId: number }, pounds: number, actor: Actor): Promise<Team> {
      const at = deps.now();
      await write(db, () => {
        const before = refundLimitPence(db, owner.companyId);
        const pence = poundsToPence(pounds);
        if (before === pence) return;
        setRefundLimitPence(db, owner.companyId, pence);
        deps.audit(
          actor,
          {
            companyId: owner.companyId,
            kind: 'refund-limit-changed',
            before: { dispatcherRefundLimit: penceToPounds(before) },
            after: { dispatcherRefundLimit: pounds },
          },
          at,
        );
      });
      return team(owner.companyId, owner.id);
    },

    /** What a link is for, before the invitee types anything. Changes nothing. */
    lookup(token: string): InvitationPreview {
      const row = openInvitationOf(token, deps.now());
      return { companyName: findCompanyById(db, row.companyId)?.name ?? '', email: row.email, role: row.role };
    },

    /**
     * The invitee joins: their name and password (the account rules), the address verified by the
     * link, the link used once. Answers the new person to sign in.
     */
    async accept(input: AcceptInvitationRequest, actorRequestId: string | null): Promise<UserRow> {
      const first = openInvitationOf(input.token, deps.now());
      const companyName = findCompanyById(db, first.companyId)?.name;
      await assertStrongPassword(input.password, { name: input.name, email: first.email, companyName }, 'password');
      const passwordHash = await hashPassword(input.password);
      return write(db, () => {
        const at = deps.now();
        // Checked again in the transaction: two clicks at once join once.
        const row = openInvitationOf(input.token, at);
        assertAddressFree(row.companyId, row.email);
        if (!acceptInvitation(db, row.id, at.toISOString())) throw new Gone(INVITATION_USED, 'INVITATION_USED');
        const person = insertPerson(db, {
          companyId: row.companyId,
          email: row.email,
          name: input.name,
          passwordHash,
          role: row.role,
          atIso: at.toISOString(),
        });
        // Any other open invitation of the company to the address dies with it.
        revokeInvitationsTo(db, row.companyId, row.email, at.toISOString());
        deps.audit(
          { person: { id: person.id, name: person.name }, requestId: actorRequestId },
          { companyId: row.companyId, kind: 'invitation-accepted', subject: row.email, after: { role: row.role } },
          at,
        );
        return person;
      });
    },

    /** A sign-in (password, emailed link, reset, invitation): the Team page's "last signed in" and the audit log, in one write. */
    async signedIn(user: UserRow, requestId: string | null): Promise<void> {
      if (user.companyId == null) return;
      const companyId = user.companyId;
      const at = deps.now();
      await write(db, () => {
        markSignedIn(db, user.id, at.toISOString());
        deps.audit({ person: { id: user.id, name: user.name }, requestId }, { companyId, kind: 'sign-in', subject: user.email }, at);
      });
    },
  };
}

export type TeamService = ReturnType<typeof teamService>;
