// The team (docs/product.md, "The team"): the owner's people, invitations and the dispatchers'
// refund limit; the invitee's page (no session: the link's token is the proof); the audit log.
import { OWNER } from '#shared/roles';
import { loginResponseSchema, successSchema } from '#shared/responses';
import {
  acceptInvitationSchema,
  auditFilterSchema,
  auditPageSchema,
  changeRoleSchema,
  invitationLookupSchema,
  invitationPreviewSchema,
  invitationSchema,
  inviteSchema,
  personSchema,
  refundLimitSchema,
  teamSchema,
} from '#shared/team';
import { z } from 'zod';
import { body, error, json, parameter, route } from './define';

const personParameter = parameter('personId', 'path', 'A person of the company (their id in the team list)', '2');
const personMissing = error('No such person in this company');
const lastOwner = error('The change would leave the company without an owner (`code` LAST_OWNER)');
const linkGone = error('The invitation has expired, was withdrawn or was used already (`code` INVITATION_EXPIRED or INVITATION_USED); nothing changed');
const linkUnknown = error('No invitation has this link (`code` NOT_FOUND); nothing changed');
const TOKEN_EXAMPLE = 'x'.repeat(43);

export const team = {
  overview: route({
    method: 'get',
    path: '/api/team',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Team'],
    summary: 'The people of the company, the invitations still open, and the dispatchers’ refund limit',
    responses: { 200: json(teamSchema, 'The team') },
  }),
  people: route({
    method: 'get',
    path: '/api/team/people',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Team'],
    summary: 'The people of the company, owners first, with when each last signed in',
    responses: { 200: json(z.array(personSchema), 'The people') },
  }),
  changeRole: route({
    method: 'put',
    path: '/api/team/people/{personId}',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Team'],
    summary: 'Gives a person another role; their sessions end at once (their next request answers 401)',
    parameters: [personParameter],
    request: { body: body(changeRoleSchema, { role: 'dispatcher' }) },
    responses: { 200: json(personSchema, 'The person with the new role'), 404: personMissing, 409: lastOwner },
  }),
  remove: route({
    method: 'delete',
    path: '/api/team/people/{personId}',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Team'],
    summary: 'Removes a person from the company; their sessions end at once and their address is free for another company',
    parameters: [personParameter],
    responses: { 200: json(successSchema, 'Removed'), 404: personMissing, 409: lastOwner },
  }),
  invitations: route({
    method: 'get',
    path: '/api/team/invitations',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Team'],
    summary: 'The invitations not yet accepted, withdrawn or expired, newest first',
    responses: { 200: json(z.array(invitationSchema), 'The open invitations') },
  }),
  invite: route({
    method: 'post',
    path: '/api/team/invitations',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Team'],
    summary: 'Invites an address with a role: a one-time link is mailed (7 days, single use); an earlier open invitation to the address is withdrawn',
    request: { body: body(inviteSchema, { email: 'alex@example.com', role: 'dispatcher' }) },
    responses: {
      201: json(invitationSchema, 'Invited'),
      409: error('The address already belongs to a person of this company (`code` ALREADY_IN_TEAM) or of another company (`code` EMAIL_IN_OTHER_COMPANY)'),
      429: error('The company has sent its invitations for today'),
    },
  }),
  withdraw: route({
    method: 'delete',
    path: '/api/team/invitations/{id}',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Team'],
    summary: 'Withdraws an open invitation: its link stops working',
    parameters: [parameter('id', 'path', 'An invitation id', '1')],
    responses: { 200: json(successSchema, 'Withdrawn'), 404: error('No such open invitation in this company') },
  }),
  refundLimit: route({
    method: 'put',
    path: '/api/team/refund-limit',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Team'],
    summary: 'Sets the largest refund (£) a dispatcher may give; the owner has no limit',
    request: { body: body(refundLimitSchema, { dispatcherRefundLimit: 50 }) },
    responses: { 200: json(teamSchema, 'The team with the new limit') },
  }),
  lookupInvitation: route({
    method: 'post',
    path: '/api/invitations/lookup',
    'x-access': 'account',
    tags: ['Team'],
    summary: 'What an invitation link is for (company, address, role), before the invitee chooses a name and password; changes nothing',
    request: { body: body(invitationLookupSchema, { token: TOKEN_EXAMPLE }) },
    responses: { 200: json(invitationPreviewSchema, 'The invitation'), 404: linkUnknown, 410: linkGone },
  }),
  acceptInvitation: route({
    method: 'post',
    path: '/api/invitations/accept',
    'x-access': 'account',
    tags: ['Team'],
    summary:
      'Joins the company with an invitation link: the invitee’s name and password (the account rules), the address verified by the link, and this browser signed in',
    request: { body: body(acceptInvitationSchema, { token: TOKEN_EXAMPLE, name: 'Alex Morgan', password: 'fresh-paint-88' }) },
    responses: {
      200: json(loginResponseSchema, 'Joined and signed in'),
      404: linkUnknown,
      409: error('The address now belongs to a person of a company (`code` EMAIL_IN_OTHER_COMPANY); nothing changed'),
      410: linkGone,
    },
  }),
};

export const audit = {
  list: route({
    method: 'get',
    path: '/api/audit',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Audit'],
    summary: 'Who did what, newest first, a page at a time, filtered by person and kind',
    request: { query: auditFilterSchema },
    responses: { 200: json(auditPageSchema, 'A page of events; `nextCursor` is the `before` of the next page'), 400: error('A filter is not valid') },
  }),
  export: route({
    method: 'get',
    path: '/api/audit/export.csv',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Audit'],
    summary: 'The filtered audit log as CSV (UTF-8 with a byte-order mark, UK time), streamed',
    description: 'The list’s filters (`before` and `limit` are ignored): every matching event, newest first.',
    request: { query: auditFilterSchema },
    responses: {
      200: {
        description: 'CSV, RFC 4180; a cell beginning = + - or @ is prefixed with an apostrophe',
        content: { 'text/csv': { schema: { type: 'string' } } },
      },
      400: error('A filter is not valid'),
    },
  }),
};
