// The API reference: this document and a readable page of it.
import { z } from 'zod';
import { json, route } from './define';

export const docs = {
  openapi: route({
    method: 'get',
    path: '/api/openapi.json',
    'x-access': 'public',
    tags: ['Reference'],
    summary: 'This document',
    responses: { 200: json(z.record(z.string(), z.unknown()), 'OpenAPI 3.1') },
  }),
  page: route({
    method: 'get',
    path: '/api/docs',
    'x-access': 'public',
    tags: ['Reference'],
    summary: 'A readable page of this document',
    responses: { 200: { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } } },
  }),
};
