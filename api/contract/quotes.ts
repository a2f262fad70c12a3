// The instant quote: public, rate-limited per client, retry-safe with an Idempotency-Key.
import { quoteRequestSchema } from '#shared/schemas';
import { quoteResponseSchema } from '#shared/responses';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH } from '#shared/reference';
import { body, companyMissing, error, json, rateLimited, route } from './define';

export const quotes = {
  calculate: route({
    method: 'post',
    path: '/api/quotes/calculate',
    'x-access': 'public',
    tags: ['Public'],
    summary: 'Calculate and record an instant quote',
    parameters: [
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: { type: 'string', minLength: 1, maxLength: 100 },
        description:
          'Names this calculation (1–100 printable ASCII characters, e.g. a UUID per tap). The same key for the same company within 10 minutes answers with the first quote and stores no second one, so a retry after a dropped connection is safe.',
      },
    ],
    description: `Give \`companyId\` or \`companySlug\`. Values are matched to the company’s enabled rows by slug of their name ("Not Rolling" → \`not-rolling\`). Rate-limited per client. The \`quoteId\` is shown to customers as TQ-{quoteId}: ${REFERENCE_LENGTH} characters of ${REFERENCE_ALPHABET}.`,
    request: {
      body: body(quoteRequestSchema, {
        companySlug: 'demo',
        pickupPostcode: 'M1 1AE',
        destinationPostcode: 'M4 4BF',
        vehicleType: 'car',
        gearboxType: 'manual',
        rollingStatus: 'rolling',
        passengerCount: 0,
        problemType: 'other',
        urgency: 'immediate',
      }),
    },
    responses: {
      200: json(quoteResponseSchema, 'The quote'),
      404: companyMissing,
      409: error(
        'The company’s online quotes are paused (code QUOTES_PAUSED: its subscription lapsed) or not set up (code QUOTES_NOT_SET_UP: no phone or WhatsApp number); the message names the company',
      ),
      422: error(
        'A valid postcode that our data does not know, or a pickup beyond the company’s maximum radius (code OUTSIDE_SERVICE_AREA, with the `phone` to call)',
      ),
      429: rateLimited,
    },
  }),
};
