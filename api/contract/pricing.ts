// The operator's pricing rates, and a live company's rates for its quote page.
import { pricingUpdateSchema } from '#shared/schemas';
import { pricingRatesSchema } from '#shared/responses';
import { body, companyMissing, json, parameter, route } from './define';

export const pricing = {
  own: route({
    method: 'get',
    path: '/api/pricing',
    'x-access': 'operator',
    tags: ['Pricing'],
    summary: "The signed-in operator's pricing rates",
    responses: { 200: json(pricingRatesSchema, 'The rates') },
  }),
  update: route({
    method: 'put',
    path: '/api/pricing',
    'x-access': 'operator',
    tags: ['Pricing'],
    summary: "Saves the operator's pricing rates; blank fields take the starting defaults (docs/product.md)",
    request: { body: body(pricingUpdateSchema, { callOutFee: 60, labourRate: 50, mileRate: 3, labourTime: 1 }) },
    responses: { 200: json(pricingRatesSchema, 'The rates') },
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
