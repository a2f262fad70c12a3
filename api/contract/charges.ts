// The five charge lists: each has the operator's own rows (list, add, change, delete, scoped to
// the signed-in operator's company) and a live company's enabled rows for its quote page.
import { OFFICE, OWNER } from '#shared/roles';
import { z } from 'zod';
import { gearboxTypeSchema, passengerChargeSchema, rollingStatusTypeSchema, surchargeSchema, vehicleTypeSchema } from '#shared/schemas';
import { passengerChargeRowSchema, pricedRowSchema, successSchema, surchargeRowSchema } from '#shared/responses';
import { companyPathId } from './company';
import { body, companyMissing, error, json, parameter, route } from './define';

const idParams = [parameter('id', 'path', 'A row id', '1')];

// Names are unique within a list, trimmed and in any case (passenger charges have no name).
const nameTaken = error('Another row of the list has that name: "{name} already exists", `code` NAME_TAKEN');

/** One charge list's routes, from its path, its label, its body schema with examples, and its row. */
function chargeList<const P extends string, B extends z.ZodObject, R extends z.ZodType>(
  path: P,
  label: { list: string; row: string },
  schema: B,
  examples: { create: z.input<B>; update: Partial<z.input<B>> },
  row: R,
) {
  const missing = error(`No such ${label.row} row of this company`);
  return {
    list: route({
      method: 'get',
      path,
      'x-access': 'operator',
      'x-roles': OFFICE,
      tags: ['Charges'],
      summary: `The signed-in operator's ${label.list}, enabled or not`,
      responses: { 200: json(z.array(row), 'Every row') },
    }),
    // `{id}` as the writes name theirs: OpenAPI takes `/x/{companyId}` and `/x/{id}` for one path.
    publicList: route({
      method: 'get',
      path: `${path}/{id}` as const,
      'x-access': 'public',
      tags: ['Public'],
      summary: `A live company's enabled ${label.list}`,
      parameters: companyPathId,
      responses: { 200: json(z.array(row), 'Enabled rows'), 404: companyMissing },
    }),
    create: route({
      method: 'post',
      path,
      'x-access': 'operator',
      'x-roles': OWNER,
      tags: ['Charges'],
      summary: `Adds a ${label.row} row (the starting defaults for blank amounts)`,
      request: { body: body(schema, examples.create) },
      responses: { 201: json(row, 'The new row'), 409: nameTaken },
    }),
    update: route({
      method: 'put',
      path: `${path}/{id}` as const,
      'x-access': 'operator',
      'x-roles': OWNER,
      tags: ['Charges'],
      summary: `Changes the given fields of a ${label.row} row`,
      parameters: idParams,
      request: { body: body(schema.partial(), examples.update) },
      responses: { 200: json(row, 'The row'), 404: missing, 409: nameTaken },
    }),
    remove: route({
      method: 'delete',
      path: `${path}/{id}` as const,
      'x-access': 'operator',
      'x-roles': OWNER,
      tags: ['Charges'],
      summary: `Deletes a ${label.row} row`,
      parameters: idParams,
      responses: { 200: json(successSchema, 'Deleted'), 404: missing },
    }),
  };
}

export const vehicleTypes = chargeList(
  '/api/vehicle-types',
  { list: 'vehicle types', row: 'vehicle type' },
  vehicleTypeSchema,
  { create: { name: 'Flatbed', basePrice: 75 }, update: { basePrice: 80 } },
  pricedRowSchema,
);
export const gearboxTypes = chargeList(
  '/api/gearbox-types',
  { list: 'gearbox types (additional charges)', row: 'gearbox type' },
  gearboxTypeSchema,
  { create: { name: 'CVT', basePrice: 10 }, update: { basePrice: 12 } },
  pricedRowSchema,
);
export const rollingStatusTypes = chargeList(
  '/api/rolling-status-types',
  { list: 'rolling status types (additional charges)', row: 'rolling status type' },
  rollingStatusTypeSchema,
  { create: { name: 'Stuck', basePrice: 20 }, update: { basePrice: 25 } },
  pricedRowSchema,
);
export const surcharges = chargeList(
  '/api/surcharges',
  { list: 'problem surcharges', row: 'problem surcharge' },
  surchargeSchema,
  { create: { problemType: 'Ditch', amount: 10 }, update: { amount: 12 } },
  surchargeRowSchema,
);
export const passengerCharges = chargeList(
  '/api/passenger-charges',
  { list: 'passenger charges', row: 'passenger charge' },
  passengerChargeSchema,
  { create: { passengerCount: 2, basePrice: 4 }, update: { basePrice: 5 } },
  passengerChargeRowSchema,
);
