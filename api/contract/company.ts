// The signed-in operator's company, and a live company's public profile and logo.
import { EVERYONE, OWNER } from '#shared/roles';
import { companyUpdateSchema } from '#shared/schemas';
import { companySchema, publicCompanyWithChargesSchema } from '#shared/responses';
import { body, BODY_LIMITS, companyMissing, error, json, parameter, route } from './define';

export const companyPathId = [parameter('id', 'path', 'A company id', '1')];

export const company = {
  own: route({
    method: 'get',
    path: '/api/company',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    tags: ['Company'],
    summary: "The signed-in operator's company, with its private settings",
    responses: { 200: json(companySchema, 'The company') },
  }),
  update: route({
    method: 'put',
    path: '/api/company',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Company'],
    summary: "Changes the given settings of the signed-in operator's company",
    request: { body: body(companyUpdateSchema, { name: 'Carter Recovery', primaryColour: '#1E40AF' }) },
    'x-body-limit': BODY_LIMITS.logo,
    responses: {
      200: json(companySchema, 'The company'),
      402: error('A custom URL needs a started subscription'),
      409: error('The custom URL is locked, or taken'),
    },
  }),
  bySlug: route({
    method: 'get',
    path: '/api/company/slug/{slug}',
    'x-access': 'public',
    tags: ['Public'],
    summary: "A company's public profile by its custom URL, with its enabled vehicle types and surcharges",
    parameters: [parameter('slug', 'path', 'The custom URL', 'demo')],
    responses: { 200: json(publicCompanyWithChargesSchema, 'The company'), 404: companyMissing },
  }),
  logo: route({
    method: 'get',
    path: '/api/company/{id}/logo',
    'x-access': 'public',
    tags: ['Public'],
    summary: "A live company's logo image (cacheable; `?v=` makes it immutable)",
    parameters: [...companyPathId, parameter('v', 'query', 'The logo version: makes the answer immutable', 'a1b2c3d4e5f6a7b8')],
    responses: {
      200: { description: 'The image', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } },
      304: { description: 'Not modified (If-None-Match)' },
      404: error('No such company, not live, or no logo'),
    },
  }),
  byId: route({
    method: 'get',
    path: '/api/company/{id}',
    'x-access': 'public',
    tags: ['Public'],
    summary: "A company's public profile and branding, with its enabled vehicle types and surcharges (the problem types to offer)",
    parameters: companyPathId,
    responses: { 200: json(publicCompanyWithChargesSchema, 'The company'), 404: companyMissing },
  }),
};
