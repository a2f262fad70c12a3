// Number plates: the quote form's look-up of a registration (public, under its own rate limit)
// and the operator's number plate rules in Custom Charges. The plate travels in the body, never
// the URL, so no request log line holds it (docs/architecture.md).
import { OFFICE, OWNER } from '#shared/roles';
import { vehicleLookupRequestSchema, vehicleLookupResponseSchema, vehicleRulesSchema, vehicleRulesUpdateSchema } from '#shared/vehicle-rules';
import { body, companyMissing, json, route } from './define';

export const vehicles = {
  lookup: route({
    method: 'post',
    path: '/api/vehicles/lookup',
    'x-access': 'public',
    'x-rate-limit': ['vehicleLookup'],
    tags: ['Public'],
    summary: 'What the DVLA says a number plate is, and which of the company’s vehicle types that makes it (the quote form’s Registration field)',
    description:
      'Give `companyId` or `companySlug`. `found` carries the vehicle in words ("a white Ford") and the vehicle type the operator’s number plate rules choose (null when none matches); `not-found` is a plate the DVLA does not know; `unavailable` is no look-up now (no DVLA key on this server, the DVLA slower than 1.5 s, rate-limited or failing): the form carries on without. Answers are cached per plate for 24 hours. The plate is sent in the body so that no log holds it. Rate-limited per client (VEHICLE_LOOKUP_RATE_LIMIT a minute), apart from the quote calculation’s limit.',
    request: { body: body(vehicleLookupRequestSchema, { registration: 'AB12 CDE', companySlug: 'demo' }) },
    responses: {
      200: json(vehicleLookupResponseSchema, 'Found, not found or unavailable'),
      404: companyMissing,
    },
  }),
  rules: route({
    method: 'get',
    path: '/api/vehicle-rules',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Charges'],
    summary: "The signed-in operator's number plate rules: which vehicle type a looked-up vehicle is, first match wins",
    responses: { 200: json(vehicleRulesSchema, 'The rules (the defaults until the operator saves their own)') },
  }),
  saveRules: route({
    method: 'put',
    path: '/api/vehicle-rules',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Charges'],
    summary: 'Replaces the number plate rules with this ordered list; `rules: null` goes back to the defaults',
    request: { body: body(vehicleRulesUpdateSchema, { rules: null }) },
    responses: { 200: json(vehicleRulesSchema, 'The rules') },
  }),
};
