// The operator's pricing rates, and a live company's rates for its quote page.
import { OFFICE, OWNER } from '#shared/roles';
import { pricingSampleSchema, pricingUpdateSchema } from '#shared/schemas';
import { pricingRatesSchema, pricingSampleResponseSchema } from '#shared/responses';
import { body, companyMissing, error, json, parameter, route } from './define';

export const pricing = {
  own: route({
    method: 'get',
    path: '/api/pricing',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Pricing'],
    summary: "The signed-in operator's pricing rates",
    responses: { 200: json(pricingRatesSchema, 'The rates') },
  }),
  update: route({
    method: 'put',
    path: '/api/pricing',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Pricing'],
    summary: "Saves the operator's pricing rates; blank fields take the starting defaults (docs/product.md)",
    request: { body: body(pricingUpdateSchema, { callOutFee: 60, labourRate: 50, mileRate: 3, labourTime: 1 }) },
    responses: { 200: json(pricingRatesSchema, 'The rates') },
  }),
  sample: route({
    method: 'post',
    path: '/api/pricing/sample',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Pricing'],
    summary: 'Prices a sample trip (the first vehicle type, 10 miles, in working hours) with these rates over the saved ones; stores nothing',
    request: { body: body(pricingSampleSchema, { callOutFee: 60, mileRate: 3, labourRate: 50 }) },
    responses: { 200: json(pricingSampleResponseSchema, 'The sample quote'), 409: error('The company offers no vehicle type to price') },
  }),
  public: route({
    method: 'get',
    path: '/api/pricing/{companyId}',
    'x-access': 'public',
    tags: ['Public'],
    summary: "A live company's pricing rates",
    parameters: [parameter('companyId', 'path', 'A company id', '1')],
    responses: { 200: json(pricingRatesSchema, 'The rates'), 404: companyMissing },
  }),
};
