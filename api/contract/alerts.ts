// Quote alerts and retention: the operator's settings, and the alerts sent or waiting.
import { OFFICE, OWNER } from '#shared/roles';
import { z } from 'zod';
import { leadSettingsUpdateSchema } from '#shared/schemas';
import { alertSchema, leadSettingsSchema, verificationSentSchema } from '#shared/responses';
import { body, error, json, route } from './define';

export const alerts = {
  settings: route({
    method: 'get',
    path: '/api/lead-settings',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Leads'],
    summary: "The signed-in operator's quote alerts (each quote, a daily summary at 08:00 UK time, or none), where they go, and how long quotes are kept",
    responses: { 200: json(leadSettingsSchema, 'The settings') },
  }),
  updateSettings: route({
    method: 'put',
    path: '/api/lead-settings',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Leads'],
    summary:
      'Changes the given alert and retention settings; `alertEmail` null or blank goes back to the company email; a new alert address is mailed a link to confirm it',
    request: { body: body(leadSettingsUpdateSchema, { alertMode: 'daily' }) },
    responses: {
      200: json(leadSettingsSchema, 'The settings'),
      429: error('A new alert address past the allowance of verification links (3 an hour per company, 3 a day per address): nothing was saved (RATE_LIMITED)'),
    },
  }),
  verifyRecipient: route({
    method: 'post',
    path: '/api/lead-settings/verification',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Leads'],
    summary: 'Mails a verification link to where alerts go now, when the owner has not verified it yet',
    responses: {
      200: json(verificationSentSchema, 'Sent'),
      409: error('There is no alert address, or it is already verified (`code` ALREADY_VERIFIED)'),
      429: error('Asked again too soon (once a minute, 5 an hour), or past the allowance of verification links (3 an hour per company, 3 a day per address)'),
    },
  }),
  recent: route({
    method: 'get',
    path: '/api/alerts',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Leads'],
    summary:
      "The signed-in operator's newest 20 alerts in the mail outbox, newest first: sent, waiting to be retried, given up, or not sent for want of a mail server",
    responses: { 200: json(z.array(alertSchema), 'Newest first') },
  }),
};
