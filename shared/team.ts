// The team (docs/product.md, "The team"): the owner's invitations, the people of a company and
// their roles, the dispatchers' refund limit, and the audit log. Requests and answers, written
// once for the server's validation and the portal's forms.
import { z } from 'zod';
import { newPasswordField } from './account-schemas';
import { ROLES } from './roles';
import { emailField, moneyInput, nameText } from './schemas';

const roleField = z.enum(ROLES, { error: 'Role must be owner, dispatcher or driver' });

export const inviteSchema = z.object({ email: emailField, role: roleField });
export type InviteRequest = z.infer<typeof inviteSchema>;

export const changeRoleSchema = z.object({ role: roleField });
export type ChangeRoleRequest = z.infer<typeof changeRoleSchema>;

const invitationToken = z.string({ error: 'The link is not valid' }).min(1, 'The link is not valid').max(200, 'The link is not valid');

/** The invitation page asks what it is for before the invitee types anything. */
export const invitationLookupSchema = z.object({ token: invitationToken });

/** The invitee's own name and password: the account rules of a sign-up. */
export const acceptInvitationSchema = z.object({ token: invitationToken, name: nameText('Name is required', 100), password: newPasswordField });
export type AcceptInvitationRequest = z.infer<typeof acceptInvitationSchema>;

export const refundLimitSchema = z.object({
  dispatcherRefundLimit: moneyInput.refine((v) => v !== undefined, 'Refund limit is required'),
});
export type RefundLimitRequest = z.infer<typeof refundLimitSchema>;

const id = z.number().int();

export const personSchema = z
  .object({
    id,
    name: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
    lastSignInAt: z.string().nullable(),
    you: z.boolean().meta({ description: 'This is the signed-in person' }),
  })
  .meta({ id: 'Person' });
export type Person = z.infer<typeof personSchema>;

export const invitationSchema = z
  .object({ id, email: z.string(), role: z.enum(ROLES), createdAt: z.string(), expiresAt: z.string() })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof invitationSchema>;

export const teamSchema = z
  .object({
    people: z.array(personSchema),
    invitations: z.array(invitationSchema).meta({ description: 'Invitations not yet accepted, withdrawn or expired' }),
    dispatcherRefundLimit: z.number().meta({ description: 'Pounds: the largest refund a dispatcher may give' }),
  })
  .meta({ id: 'Team' });
export type Team = z.infer<typeof teamSchema>;

export const invitationPreviewSchema = z.object({ companyName: z.string(), email: z.string(), role: z.enum(ROLES) }).meta({ id: 'InvitationPreview' });
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** The days an invitation's link works. */
export const INVITATION_DAYS = 7;
/** Invitations a company may send in a day: each is a mail (docs/budgets.md). */
export const INVITATIONS_PER_DAY = 20;

// ---------------------------------------------------------------- the audit log

/** What the audit log records; the other features call api/team/audit.ts with one of these. */
export const AUDIT_KINDS = [
  'sign-in',
  'invitation-sent',
  'invitation-withdrawn',
  'invitation-accepted',
  'role-changed',
  'person-removed',
  'refund-limit-changed',
  'prices-changed',
  'charges-changed',
  'booking-accepted',
  'booking-declined',
  'booking-status',
  'booking-assigned',
  'refund',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export const AUDIT_KIND_WORDS: Record<AuditKind, string> = {
  'sign-in': 'Signed in',
  'invitation-sent': 'Invitation sent',
  'invitation-withdrawn': 'Invitation withdrawn',
  'invitation-accepted': 'Invitation accepted',
  'role-changed': 'Role changed',
  'person-removed': 'Person removed',
  'refund-limit-changed': 'Refund limit changed',
  'prices-changed': 'Prices changed',
  'charges-changed': 'Charges changed',
  'booking-accepted': 'Job accepted',
  'booking-declined': 'Job declined',
  'booking-status': 'Job status changed',
  'booking-assigned': 'Job assigned',
  refund: 'Refund',
};

/** The audit log's filters: one person, one kind, a page before a cursor. */
export const auditFilterSchema = z.object({
  person: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number({ error: 'Person must be a person id' }).int('Person must be a person id').positive('Person must be a person id').optional(),
  ),
  kind: z.preprocess((v) => (v === '' ? undefined : v), z.enum(AUDIT_KINDS, { error: 'Kind is not one the audit log records' }).optional()),
  before: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number({ error: 'Cursor is not valid' }).int('Cursor is not valid').positive('Cursor is not valid').optional(),
  ),
  limit: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ error: 'Limit must be 1 to 200' })
      .int('Limit must be 1 to 200')
      .min(1, 'Limit must be 1 to 200')
      .max(200, 'Limit must be 1 to 200')
      .optional(),
  ),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditEventSchema = z
  .object({
    id,
    at: z.string(),
    personId: id.nullable(),
    personName: z.string(),
    kind: z.enum(AUDIT_KINDS),
    subject: z.string().nullable(),
    before: z.unknown().meta({ description: 'The values before, when something changed' }),
    after: z.unknown().meta({ description: 'The values after' }),
    requestId: z.string().nullable(),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEventView = z.infer<typeof auditEventSchema>;

export const auditPageSchema = z.object({ events: z.array(auditEventSchema), nextCursor: id.nullable() }).meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof auditPageSchema>;
