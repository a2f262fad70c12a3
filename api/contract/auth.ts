// Sign up, sign in, sign out and the signed-in operator.
import { loginSchema, signupSchema } from '../../shared/schemas';
import { currentUserSchema, loginResponseSchema, signupResponseSchema, successSchema } from '../../shared/responses';
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
  currentUser: route({
    method: 'get',
    path: '/api/auth/user',
    'x-access': 'operator',
    tags: ['Account'],
    summary: 'The signed-in operator',
    responses: { 200: json(currentUserSchema, 'The operator') },
  }),
};
