// The public API described as OpenAPI 3.1 (DESIGN.md §4, beyond SPEC): request bodies come from
// the same zod schemas the server validates with, so the document cannot drift from the code.
import { Hono } from 'hono';
import { z } from 'zod';
import { quoteRequestSchema } from '../../shared/schemas';
import type { AppEnv } from '../http/context';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH } from '../db/quote-reference';
import { MAX_FREE_MILES, NATIONS, QUOTE_VALIDITY_HOURS } from '../../shared/constants';

const money = { type: 'number', description: 'Pounds sterling, at most 2 decimals' } as const;
const errorSchema = {
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string' },
    code: { type: 'string', description: 'A stable machine-readable reason (shared/error-codes.ts), e.g. NO_POSTCODE_NEAR' },
    fields: { type: 'object', additionalProperties: { type: 'string' }, description: 'Per-field messages (validation only)' },
    requestId: { type: 'string' },
  },
} as const;

const pricedRow = {
  type: 'object',
  properties: { id: { type: 'integer' }, companyId: { type: 'integer' }, name: { type: 'string' }, basePrice: money, enabled: { type: 'boolean' } },
};

/** Issue 17's rules, as PUT /api/pricing takes them (blank or missing: off). */
const pricingRules = {
  bankHolidayNation: { type: 'string', enum: [...NATIONS], description: 'Whose bank holidays the bank-holiday fee follows' },
  bankHolidayFee: { ...money, description: 'Added on a bank holiday of that nation (UK date of the job); 0 is off' },
  enRouteRate: { ...money, description: 'Per mile from the base postcode to the pickup, after the free miles; 0 is off' },
  freeMiles: { type: 'number', minimum: 0, maximum: MAX_FREE_MILES },
  minimumCharge: { ...money, description: 'A lower total is brought up to it before rounding and VAT; 0 is off' },
  maximumRadius: { type: ['number', 'null'], description: 'Miles from base; a pickup farther away is not priced (422). At least the service radius; null is off' },
  vatRegistered: { type: 'boolean' },
  pricesIncludeVat: { type: 'boolean', description: 'When false (and VAT-registered), a "VAT (20%)" line is added' },
  quoteValidityHours: { type: 'integer', minimum: QUOTE_VALIDITY_HOURS.min, maximum: QUOTE_VALIDITY_HOURS.max },
} as const;

const priceLines = { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, amount: money } } } as const;

const listPath = (summary: string, item: object) => ({
  get: {
    summary,
    parameters: [{ name: 'companyId', in: 'path', required: true, schema: { type: 'integer' } }],
    responses: {
      '200': { description: 'Enabled rows', content: { 'application/json': { schema: { type: 'array', items: item } } } },
      '404': { description: 'No such company, or its page is not live', content: { 'application/json': { schema: errorSchema } } },
    },
  },
});

export function buildOpenApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Recovery Quote public API',
      version: '1.0.0',
      description:
        'Everything a customer-facing quote page needs: company branding, the enabled charge lists and instant quote calculation. No authentication; CORS is open to any origin (no credentials).',
    },
    paths: {
      '/api/company/{companyId}': {
        get: {
          summary: 'A company’s public profile and branding, with its enabled vehicle types and surcharges (the problem types to offer)',
          parameters: [{ name: 'companyId', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { '200': { description: 'The company' }, '404': { description: 'Not found', content: { 'application/json': { schema: errorSchema } } } },
        },
      },
      '/api/company/slug/{slug}': {
        get: {
          summary: 'A company’s public profile by its custom URL, with its enabled vehicle types and surcharges',
          parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9-]{3,40}$' } }],
          responses: { '200': { description: 'The company' }, '404': { description: 'Not found', content: { 'application/json': { schema: errorSchema } } } },
        },
      },
      '/api/vehicle-types/{companyId}': listPath('Vehicle types', pricedRow),
      '/api/gearbox-types/{companyId}': listPath('Gearbox types (additional charges)', pricedRow),
      '/api/rolling-status-types/{companyId}': listPath('Rolling status types (additional charges)', pricedRow),
      '/api/problem-types/{companyId}': listPath('Problem types', pricedRow),
      '/api/surcharges/{companyId}': listPath('Problem surcharges', {
        type: 'object',
        properties: { id: { type: 'integer' }, problemType: { type: 'string' }, amount: money, description: { type: ['string', 'null'] }, enabled: { type: 'boolean' } },
      }),
      '/api/passenger-charges/{companyId}': listPath('Passenger charges', {
        type: 'object',
        properties: { id: { type: 'integer' }, passengerCount: { type: 'integer' }, basePrice: money, enabled: { type: 'boolean' } },
      }),
      '/api/pricing/{companyId}': listPath('Pricing rates and rules', {
        type: 'object',
        properties: {
          callOutFee: money,
          labourRate: money,
          mileRate: money,
          labourTime: { type: 'number', description: 'Hours' },
          afterHoursEnabled: { type: 'boolean' },
          afterHoursFee: money,
          afterHoursStart: { type: 'string' },
          afterHoursEnd: { type: 'string' },
          ...pricingRules,
        },
      }),
      '/api/postcodes/nearest': {
        get: {
          summary: 'The unit postcode nearest to a position (the quote form’s “Use my location”)',
          description:
            'Within 1 km of a unit’s centroid only: at sea, abroad or further from every unit the answer is 404 with `code` NO_POSTCODE_NEAR. The position is neither stored nor logged. Shares the quote calculation’s rate limit.',
          parameters: [
            { name: 'lat', in: 'query', required: true, schema: { type: 'string', pattern: '^-?\\d{1,3}(\\.\\d{1,20})?(e-\\d{1,3})?$' }, description: 'Latitude, decimal degrees (WGS84), -90 to 90' },
            { name: 'lng', in: 'query', required: true, schema: { type: 'string', pattern: '^-?\\d{1,3}(\\.\\d{1,20})?(e-\\d{1,3})?$' }, description: 'Longitude, decimal degrees (WGS84), -180 to 180' },
          ],
          responses: {
            '200': {
              description: 'The nearest unit',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['postcode', 'distanceMetres'],
                    properties: {
                      postcode: { type: 'string', description: 'Formatted, e.g. "LS1 4AP"' },
                      distanceMetres: { type: 'integer', description: 'From the position to the unit’s centroid, at most 1000' },
                    },
                  },
                },
              },
            },
            '400': { description: 'lat or lng missing or not a number in range (per-field messages)', content: { 'application/json': { schema: errorSchema } } },
            '404': { description: 'No unit within 1 km: `code` is NO_POSTCODE_NEAR', content: { 'application/json': { schema: errorSchema } } },
            '429': { description: 'Rate limited', content: { 'application/json': { schema: errorSchema } } },
          },
        },
      },
      '/api/quotes/calculate': {
        post: {
          summary: 'Calculate and record an instant quote',
          description:
            'Give `companyId` or `companySlug`. Values are matched to the company’s enabled rows by slug of their name ("Not Rolling" → `not-rolling`). Rate-limited per client.',
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
          requestBody: { required: true, content: { 'application/json': { schema: z.toJSONSchema(quoteRequestSchema, { io: 'input' }) } } },
          responses: {
            '200': {
              description: 'The quote',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      totalPrice: money,
                      quoteId: { type: 'string', description: `Shown to customers as TQ-{quoteId}: ${REFERENCE_LENGTH} characters of ${REFERENCE_ALPHABET}` },
                      distance: { type: 'number', description: 'Estimated road miles, one decimal' },
                      breakdown: {
                        type: 'object',
                        properties: Object.fromEntries(
                          ['vehicleBasePrice', 'callOutFee', 'distanceFee', 'labourFee', 'extraFees', 'gearboxFee', 'rollingStatusFee', 'passengerFee'].map((k) => [k, money]),
                        ),
                      },
                      extras: { ...priceLines, description: 'Itemises extraFees: surcharge, after-hours, bank holiday, out-of-area, travel to you, minimum charge adjustment, VAT' },
                      lines: { ...priceLines, description: 'Every line shown to the customer, in order, adding up to totalPrice' },
                      vat: {
                        type: ['object', 'null'],
                        description: 'The VAT inside totalPrice; null when the company is not VAT-registered',
                        properties: { rate: { type: 'number', description: 'Percent' }, amount: money, includedInPrices: { type: 'boolean' } },
                      },
                      validUntil: { type: 'string', format: 'date-time', description: 'The price holds until then' },
                      currency: { const: 'GBP' },
                    },
                  },
                },
              },
            },
            '400': { description: 'Invalid request (per-field messages)', content: { 'application/json': { schema: errorSchema } } },
            '404': { description: 'No such company, or its page is not live', content: { 'application/json': { schema: errorSchema } } },
            '415': { description: 'The body is not application/json', content: { 'application/json': { schema: errorSchema } } },
            '422': {
              description: 'A valid postcode that our data does not know, or a pickup beyond the company’s maximum radius (code `OUTSIDE_SERVICE_AREA`, with the `phone` to call)',
              content: { 'application/json': { schema: errorSchema } },
            },
            '429': { description: 'Rate limited', content: { 'application/json': { schema: errorSchema } } },
          },
        },
      },
    },
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function docsPage(doc: ReturnType<typeof buildOpenApiDocument>): string {
  const rows = Object.entries(doc.paths)
    .flatMap(([p, ops]) =>
      Object.entries(ops as Record<string, { summary: string; description?: string }>).map(
        ([method, op]) =>
          `<section><h2><span class="m">${method.toUpperCase()}</span> <code>${escapeHtml(p)}</code></h2><p>${escapeHtml(op.summary)}</p>${
            op.description ? `<p>${escapeHtml(op.description)}</p>` : ''
          }</section>`,
      ),
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>API reference – Recovery Quote</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#0f172a}h1{font-size:1.6rem}h2{font-size:1.05rem;margin:0}section{border:1px solid #cbd5e1;border-radius:.5rem;padding:.75rem 1rem;margin:.75rem 0}.m{display:inline-block;min-width:3.5rem;font-weight:700;color:#1e40af}code{font-size:.95rem}</style></head>
<body><main><h1>Recovery Quote public API</h1><p>${escapeHtml(doc.info.description)}</p><p>Machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a>. Errors are JSON <code>{ "message", "fields"?, "requestId" }</code>.</p>
${rows}</main></body></html>`;
}

export function openApiRoutes() {
  const doc = buildOpenApiDocument();
  const html = docsPage(doc);
  return new Hono<AppEnv>().get('/openapi.json', (c) => c.json(doc)).get('/docs', (c) => c.html(html));
}
