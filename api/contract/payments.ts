// Payment at booking (docs/product.md §21): the operator's payment account (connected through the
// provider's onboarding) and rule, and the provider's connected-account events.
import { OWNER } from '#shared/roles';
import { paymentRuleSchema, paymentSettingsSchema, redirectSchema } from '#shared/payment-schemas';
import { webhookResultSchema } from '#shared/responses';
import { body, BODY_LIMITS, error, json, route } from './define';

export const payments = {
  settings: route({
    method: 'get',
    path: '/api/payments',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Payments'],
    summary:
      'The payment account’s state (not connected, details needed, ready, restricted, disconnected) and the payment rule; `offReason` says why a rule set takes no payment now',
    responses: { 200: json(paymentSettingsSchema, 'The settings') },
  }),
  updateRule: route({
    method: 'put',
    path: '/api/payments/rule',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Payments'],
    summary:
      'Sets what a motorist pays at booking: nothing, a deposit (fixed in pounds, or a whole percentage rounded to the penny) or the full price; `hold` holds the full price on the card for jobs within the hold window',
    request: { body: body(paymentRuleSchema, { rule: 'deposit', depositType: 'percent', depositPercent: 20, hold: false }) },
    responses: { 200: json(paymentSettingsSchema, 'The settings') },
  }),
  connect: route({
    method: 'post',
    path: '/api/payments/connect',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Payments'],
    summary:
      'Where the operator goes to connect their own payment account: Stripe’s onboarding (an Account Link, single use, minutes long), or the local connect page',
    responses: {
      200: json(redirectSchema, 'Where the browser goes'),
      503: error('The payment provider could not be reached: `code` PAYMENT_PROVIDER_UNAVAILABLE'),
    },
  }),
  sync: route({
    method: 'post',
    path: '/api/payments/sync',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Payments'],
    summary:
      'Reads the payment account’s state from the provider now and answers the settings: the portal asks on the return from onboarding, which may come before the account’s webhook',
    responses: {
      200: json(paymentSettingsSchema, 'The settings, with the account as the provider has it now'),
      503: error('The payment provider could not be reached: `code` PAYMENT_PROVIDER_UNAVAILABLE (the state last known stands)'),
    },
  }),
  webhook: route({
    method: 'post',
    path: '/api/payments/webhook',
    'x-access': 'webhook',
    'x-body-limit': BODY_LIMITS.webhook,
    tags: ['Payments'],
    summary: 'Stripe Connect events of the operators’ own accounts (the event’s `account`), verified by their signature and applied once each',
    // The raw text is what the signature covers: described here, never parsed by a validator.
    request: { body: { required: true, content: { 'application/json': { schema: { type: 'object' } } } } },
    responses: {
      200: json(webhookResultSchema, 'Received: applied, a replay, or nothing of ours'),
      400: error('Missing or wrong signature (WEBHOOK_SIGNATURE_INVALID), or an account this platform does not know (WEBHOOK_UNKNOWN_ACCOUNT)'),
      404: error('Webhooks are only accepted when BILLING_MODE=stripe'),
      409: error('Older than the account state already applied: `code` WEBHOOK_STALE'),
    },
  }),
};
