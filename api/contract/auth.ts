// Sign up, sign in, sign out and the signed-in operator.
import { EVERYONE } from '#shared/roles';
import { loginSchema } from '#shared/schemas';
import {
  changePasswordSchema,
  forgotPasswordSchema,
  resetPasswordSchema,
  signInLinkRequestSchema,
  signInWithLinkSchema,
  signupSchema,
  verifyEmailSchema,
} from '#shared/account-schemas';
import {
  currentUserSchema,
  emailVerifiedSchema,
  loginResponseSchema,
  noticeSchema,
  passwordChangedSchema,
  signupResponseSchema,
  successSchema,
  verificationSentSchema,
} from '#shared/responses';
import { body, error, json, route } from './define';

export const auth = {
  signup: route({
    method: 'post',
    path: '/api/signup',
    'x-access': 'account',
    tags: ['Account'],
    summary: 'Creates an operator and their company, and signs them in',
    request: { body: body(signupSchema, { name: 'Sam Carter', email: 'sam@example.com', password: 'correct-horse', companyName: 'Carter Recovery' }) },
    responses: {
      201: json(signupResponseSchema, 'Signed up; `checkoutUrl` starts the trial'),
      409: error('An account with this email already exists'),
      429: error('Too many sign-ups from this address'),
    },
  }),
  login: route({
    method: 'post',
    path: '/api/login',
    'x-access': 'account',
    tags: ['Account'],
    summary: 'Signs in',
    request: { body: body(loginSchema, { email: 'sam@example.com', password: 'correct-horse' }) },
    responses: {
      200: json(loginResponseSchema, 'Signed in'),
      401: error('Invalid email or password'),
      429: error('Too many failed sign-ins'),
    },
  }),
  logout: route({
    method: 'post',
    path: '/api/logout',
    'x-access': 'account',
    tags: ['Account'],
    summary: 'Signs out everywhere: every session issued so far stops working',
    responses: { 200: json(successSchema, 'Signed out') },
  }),
  forgotPassword: route({
    method: 'post',
    path: '/api/forgot-password',
    'x-access': 'account',
    tags: ['Account'],
    summary: 'Mails a link to choose a new password (1 hour, single use), if an account uses the address',
    description:
      'Always the same 200 answer, whether or not an account uses the address: nobody learns who has an account. At most 3 mails per account an hour (more are dropped silently); 10 requests per client address an hour (429).',
    request: { body: body(forgotPasswordSchema, { email: 'sam@example.com' }) },
    responses: { 200: json(noticeSchema, 'The same answer whatever the address'), 429: error('Too many requests from this client address') },
  }),
  resetPassword: route({
    method: 'post',
    path: '/api/reset-password',
    'x-access': 'account',
    tags: ['Account'],
    summary: "Sets a new password with a reset link's token, ends every other session, and signs this browser in",
    description:
      'A password the rule refuses answers 400 with `fields.password`; a link that is unknown, expired or used answers 400 with `code` LINK_INVALID, LINK_EXPIRED or LINK_USED.',
    request: { body: body(resetPasswordSchema, { token: 'x'.repeat(43), password: 'fresh-paint-88' }) },
    responses: { 200: json(loginResponseSchema, 'Signed in with the new password') },
  }),
  requestSignInLink: route({
    method: 'post',
    path: '/api/sign-in-link',
    'x-access': 'account',
    tags: ['Account'],
    summary: 'Mails a link that signs in without the password (15 minutes, single use), if an account uses the address',
    description:
      'Always the same 200 answer, whether or not an account uses the address. At most 5 mails per account an hour (more are dropped silently); 10 requests per client address an hour (429). The link signs in whatever the sign-in slowing says.',
    request: { body: body(signInLinkRequestSchema, { email: 'sam@example.com' }) },
    responses: { 200: json(noticeSchema, 'The same answer whatever the address'), 429: error('Too many requests from this client address') },
  }),
  signInWithLink: route({
    method: 'post',
    path: '/api/sign-in-with-link',
    'x-access': 'account',
    tags: ['Account'],
    summary: "Signs this browser in with a sign-in link's token, once",
    description:
      'The link also verifies the address it was sent to, and the client address becomes one the account knows. A link that is unknown, expired or used answers 400 with `code` LINK_INVALID, LINK_EXPIRED or LINK_USED, and changes nothing.',
    request: { body: body(signInWithLinkSchema, { token: 'x'.repeat(43) }) },
    responses: { 200: json(loginResponseSchema, 'Signed in') },
  }),
  verifyEmail: route({
    method: 'post',
    path: '/api/verify-email',
    'x-access': 'account',
    tags: ['Account'],
    summary: "Verifies the address a verification link was sent to (the account's, or an alert address), once",
    description:
      'Alerts held "waiting for a verified address" are sent from then on. A link that is unknown, expired or used answers 400 with `code` LINK_INVALID, LINK_EXPIRED or LINK_USED.',
    request: { body: body(verifyEmailSchema, { token: 'x'.repeat(43) }) },
    responses: { 200: json(emailVerifiedSchema, 'Verified') },
  }),
  resendVerification: route({
    method: 'post',
    path: '/api/email-verification',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    tags: ['Account'],
    summary: "Mails a new verification link to the signed-in operator's address (the portal banner's Resend)",
    responses: {
      200: json(verificationSentSchema, 'Sent'),
      409: error('The address is already verified (`code` ALREADY_VERIFIED)'),
      429: error('Asked again too soon: once a minute, 5 an hour'),
    },
  }),
  changePassword: route({
    method: 'post',
    path: '/api/change-password',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    tags: ['Account'],
    summary: 'Changes the password (the current one required), ends every other session, and keeps this one signed in',
    description:
      'A password the rule refuses answers 400 with `fields.newPassword`; a wrong current password 400 with `fields.currentPassword` and `code` WRONG_PASSWORD.',
    request: { body: body(changePasswordSchema, { currentPassword: 'correct-horse', newPassword: 'fresh-paint-88' }) },
    responses: { 200: json(passwordChangedSchema, 'Changed; `authToken` is this browser’s new session'), 429: error('Too many wrong current passwords') },
  }),
  currentUser: route({
    method: 'get',
    path: '/api/auth/user',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    tags: ['Account'],
    summary: 'The signed-in operator',
    responses: { 200: json(currentUserSchema, 'The operator') },
  }),
};
