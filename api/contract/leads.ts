// The operator's quotes (leads): the inbox, its numbers and CSV export, one quote by reference
// and its status; and the widget's public marker of a tap on WhatsApp or Call.
// Static paths come before `/api/quotes/{reference}`, as api/leads/routes.ts registers them.
import { OFFICE } from '#shared/roles';
import { leadContactSchema, leadFilterSchema, leadStatusUpdateSchema } from '#shared/schemas';
import { leadDetailSchema, leadNumbersSchema, leadPageSchema, successSchema } from '#shared/responses';
import { body, error, json, parameter, route } from './define';

const referenceParameter = parameter('reference', 'path', 'A quote reference as shown (TQ-…), as typed', 'TQ-KJAECF76R');
/** One answer for a malformed, unknown or another company's reference: nobody learns another company's quotes. */
const quoteMissing = error('No quote of this company has this reference');

export const leads = {
  list: route({
    method: 'get',
    path: '/api/quotes',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Leads'],
    summary: "The signed-in operator's quotes, newest first, a page at a time",
    description:
      '`from` and `to` are UK calendar days (YYYY-MM-DD, inclusive). Pages are keyset ranges: pass the answer’s `nextCursor` as `cursor` for the next page.',
    request: { query: leadFilterSchema },
    responses: { 200: json(leadPageSchema, 'A page of quotes'), 400: error('A filter, the cursor or the limit is not valid (per-field messages)') },
  }),
  export: route({
    method: 'get',
    path: '/api/quotes/export.csv',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Leads'],
    summary: 'The filtered quotes as CSV (UTF-8 with a byte-order mark, pounds, en-GB dates and times in UK time), streamed',
    description: 'The list’s filters (`cursor` and `limit` are ignored): every matching quote, newest first.',
    request: { query: leadFilterSchema },
    responses: {
      200: {
        description: 'CSV, RFC 4180; a cell beginning = + - or @ is prefixed with an apostrophe',
        content: { 'text/csv': { schema: { type: 'string' } } },
      },
      400: error('A filter is not valid (per-field messages)'),
    },
  }),
  numbers: route({
    method: 'get',
    path: '/api/quotes/numbers',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Leads'],
    summary: 'Quotes today, in 7 and 30 UK days; contacted and won shares, the median total, quotes per day and the top pickup districts of the last 30',
    responses: { 200: json(leadNumbersSchema, 'The numbers') },
  }),
  detail: route({
    method: 'get',
    path: '/api/quotes/{reference}',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Leads'],
    summary: 'One quote by its reference (any case, with or without TQ-, spaces ignored), with its lines and history',
    parameters: [referenceParameter],
    responses: { 200: json(leadDetailSchema, 'The quote'), 404: quoteMissing },
  }),
  status: route({
    method: 'put',
    path: '/api/quotes/{reference}/status',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Leads'],
    summary: 'Sets the quote’s status (new, contacted, won, lost) with an optional note, kept in its history',
    parameters: [referenceParameter],
    request: { body: body(leadStatusUpdateSchema, { status: 'won', note: 'Taken' }) },
    responses: { 200: json(leadDetailSchema, 'The quote'), 404: quoteMissing },
  }),
  contact: route({
    method: 'post',
    path: '/api/quotes/{reference}/contact',
    'x-access': 'public',
    'x-rate-limit': ['contact'],
    tags: ['Public'],
    summary: 'Records that the motorist tapped WhatsApp or Call on this quote (the widget’s contact event)',
    description: 'Sets only the quote’s contact marker. Rate-limited per client (CONTACT_RATE_LIMIT a minute).',
    parameters: [referenceParameter],
    request: { body: body(leadContactSchema, { channel: 'phone' }) },
    responses: { 200: json(successSchema, 'Recorded'), 404: error('No quote has this reference') },
  }),
};
