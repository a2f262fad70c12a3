// The subscription: the plan, checkout and its return, the operator's subscription, reactivation,
// the billing provider's portal, and the provider's webhook.
import { OWNER } from '#shared/roles';
import { checkoutSessionSchema, processCheckoutSchema } from '#shared/schemas';
import {
  billingConfigSchema,
  checkoutFailedSchema,
  checkoutSuccessSchema,
  reactivatedSchema,
  redirectUrlSchema,
  subscriptionDetailsSchema,
  webhookResultSchema,
} from '#shared/responses';
import { body, BODY_LIMITS, error, json, route } from './define';

/** The 401 of a checkout started signed out: it says what to do. */
export const CHECKOUT_NEEDS_SIGN_IN = 'Please sign in to start your free trial.';

export const billing = {
  config: route({
    method: 'get',
    path: '/api/billing/config',
    'x-access': 'account',
    tags: ['Billing'],
    summary: 'The plan: price, currency, interval and trial length',
    responses: { 200: json(billingConfigSchema, 'The plan') },
  }),
  checkout: route({
    method: 'post',
    path: '/api/create-checkout-session',
    'x-access': 'operator',
    'x-roles': OWNER,
    signInMessage: CHECKOUT_NEEDS_SIGN_IN,
    tags: ['Billing'],
    summary: 'Opens a checkout for the signed-in operator, bound to this browser (the body is ignored)',
    request: { body: body(checkoutSessionSchema, {}) },
    responses: {
      200: json(redirectUrlSchema, 'Where the browser goes'),
      409: error('The account already has a subscription'),
    },
  }),
  checkoutReturn: route({
    method: 'post',
    path: '/api/process-checkout-success',
    'x-access': 'account',
    tags: ['Billing'],
    summary: 'Applies a completed checkout once, and signs its owner in when the checkout was started signed in',
    request: { body: body(processCheckoutSchema, { sessionId: 'cs_test_a1b2c3d4' }) },
    responses: {
      200: json(checkoutSuccessSchema, 'Applied, or already applied; signs in only the browser that opened the checkout'),
      400: json(checkoutFailedSchema, 'Invalid, expired or unpaid'),
      403: error('The checkout belongs to another account than the one signed in, or a write from another origin'),
    },
  }),
  details: route({
    method: 'get',
    path: '/api/subscription-details',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Billing'],
    summary: "The signed-in operator's subscription",
    responses: { 200: json(subscriptionDetailsSchema, 'The subscription') },
  }),
  reactivate: route({
    method: 'post',
    path: '/api/reactivate-subscription',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Billing'],
    summary: 'Undoes a cancellation before the access ends',
    responses: {
      200: json(reactivatedSchema, 'The subscription'),
      409: error('Only a cancelled subscription can be reactivated'),
    },
  }),
  portal: route({
    method: 'post',
    path: '/api/customer-portal',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Billing'],
    summary: "The billing provider's portal for the signed-in operator",
    responses: { 200: json(redirectUrlSchema, 'Where the browser goes') },
  }),
  webhook: route({
    method: 'post',
    path: '/api/webhook',
    'x-access': 'webhook',
    'x-body-limit': BODY_LIMITS.webhook,
    tags: ['Billing'],
    summary: 'Stripe events, verified by their signature and applied once each',
    // The raw text is what the signature covers: described here, never parsed by a validator.
    request: { body: { required: true, content: { 'application/json': { schema: { type: 'object' } } } } },
    responses: {
      200: json(webhookResultSchema, 'Received'),
      400: error('Missing or wrong signature'),
      404: error('Webhooks are only accepted when BILLING_MODE=stripe'),
    },
  }),
};
