// The charge lists (SPEC.md §7): private list/create/update/delete scoped to the session's
// company, and public reads of enabled rows by company id. One definition per list.
import { Hono } from 'hono';
import type { z } from 'zod';
import { penceToPounds, poundsToPence } from '../../shared/money';
import {
  gearboxTypeSchema,
  passengerChargeSchema,
  problemTypeSchema,
  rollingStatusTypeSchema,
  surchargeSchema,
  vehicleTypeSchema,
} from '../../shared/schemas';
import type { PassengerCharge, PricedRow, Surcharge } from '../../shared/types';
import { currentUser, requireUser } from '../auth/session';
import {
  createCharge,
  deleteCharge,
  listCharges,
  updateCharge,
  type ChargeInsert,
  type ChargeKind,
  type ChargeRow,
} from '../db/charges';
import { findCompanyById } from '../db/companies';
import { write } from '../db/write';
import { NotFound } from '../errors';
import type { AppEnv } from '../http/context';
import { parseId, validate } from '../http/validate';
import { companyIsPublic } from './company';
import type { AppDeps } from '../deps';

interface ChargeResource<K extends ChargeKind, Body extends z.ZodObject, Json> {
  kind: K;
  schema: Body;
  /** What a row is called in messages: 'Vehicle type'. */
  label: string;
  toJson(row: ChargeRow<K>): Json;
  /** Request body (parsed) to columns; `creating` applies SPEC's new-row defaults. */
  toColumns(body: Partial<z.output<Body>>, creating: boolean): Partial<ChargeInsert<K>>;
}

const pricedRow = <K extends 'vehicleTypes' | 'gearboxTypes' | 'rollingStatusTypes' | 'problemTypes'>(
  kind: K,
  schema: typeof vehicleTypeSchema,
  label: string,
  defaultPence: number,
): ChargeResource<K, typeof vehicleTypeSchema, PricedRow> => ({
  kind,
  schema,
  label,
  toJson: (r) => ({ id: r.id, companyId: r.companyId, name: r.name, basePrice: penceToPounds(r.basePricePence), enabled: r.enabled }),
  toColumns: (b, creating) =>
    ({
      ...(b.name !== undefined ? { name: b.name } : {}),
      ...(b.basePrice !== undefined ? { basePricePence: poundsToPence(b.basePrice) } : creating ? { basePricePence: defaultPence } : {}),
      ...(b.enabled !== undefined ? { enabled: b.enabled } : {}),
    }) as Partial<ChargeInsert<K>>,
});

export const chargeResources = {
  'vehicle-types': pricedRow('vehicleTypes', vehicleTypeSchema, 'Vehicle type', 5000),
  'gearbox-types': pricedRow('gearboxTypes', gearboxTypeSchema, 'Gearbox type', 0),
  'rolling-status-types': pricedRow('rollingStatusTypes', rollingStatusTypeSchema, 'Rolling status type', 0),
  'problem-types': pricedRow('problemTypes', problemTypeSchema, 'Problem type', 0),
  surcharges: {
    kind: 'surcharges',
    schema: surchargeSchema,
    label: 'Custom charge',
    toJson: (r): Surcharge => ({
      id: r.id,
      companyId: r.companyId,
      problemType: r.problemType,
      amount: penceToPounds(r.amountPence),
      description: r.description,
      enabled: r.enabled,
    }),
    toColumns: (b, creating) => ({
      ...(b.problemType !== undefined ? { problemType: b.problemType } : {}),
      ...(b.amount !== undefined ? { amountPence: poundsToPence(b.amount) } : creating ? { amountPence: 0 } : {}),
      ...(b.description !== undefined ? { description: b.description || null } : {}),
      ...(b.enabled !== undefined ? { enabled: b.enabled } : {}),
    }),
  } satisfies ChargeResource<'surcharges', typeof surchargeSchema, Surcharge>,
  'passenger-charges': {
    kind: 'passengerCharges',
    schema: passengerChargeSchema,
    label: 'Passenger charge',
    toJson: (r): PassengerCharge => ({
      id: r.id,
      companyId: r.companyId,
      passengerCount: r.passengerCount,
      basePrice: penceToPounds(r.basePricePence),
      enabled: r.enabled,
    }),
    toColumns: (b, creating) => ({
      ...(b.passengerCount !== undefined ? { passengerCount: b.passengerCount } : creating ? { passengerCount: 1 } : {}),
      ...(b.basePrice !== undefined ? { basePricePence: poundsToPence(b.basePrice) } : creating ? { basePricePence: 500 } : {}),
      ...(b.enabled !== undefined ? { enabled: b.enabled } : {}),
    }),
  } satisfies ChargeResource<'passengerCharges', typeof passengerChargeSchema, PassengerCharge>,
} as const;

export type ChargePath = keyof typeof chargeResources;

export function chargeRoutes<K extends ChargeKind, Body extends z.ZodObject, Json>(
  deps: AppDeps,
  resource: ChargeResource<K, Body, Json>,
  options: { writable: boolean } = { writable: true },
) {
  const { db, companyCache } = deps;
  const { kind } = resource;
  const missing = () => new NotFound(`${resource.label} not found`);

  const routes = new Hono<AppEnv>()
    .get('/', requireUser, (c) => c.json(listCharges(db, kind, currentUser(c).companyId).map(resource.toJson)))
    // Public: enabled rows of a company whose page is live.
    .get('/:companyId', (c) => {
      const companyId = parseId(c.req.param('companyId'));
      const company = companyId === undefined ? undefined : findCompanyById(db, companyId);
      if (!company || !companyIsPublic(deps, company)) throw new NotFound('Company not found');
      return c.json(listCharges(db, kind, company.id, true).map(resource.toJson));
    });
  if (!options.writable) return routes;

  return routes
    .post('/', requireUser, validate('json', resource.schema), async (c) => {
      const companyId = currentUser(c).companyId;
      const values = resource.toColumns(c.req.valid('json') as z.output<Body>, true) as ChargeInsert<K>;
      const row = await write(db, () => createCharge(db, kind, companyId, values));
      companyCache.invalidate(companyId);
      return c.json(resource.toJson(row), 201);
    })
    .put('/:id', requireUser, validate('json', resource.schema.partial()), async (c) => {
      const companyId = currentUser(c).companyId;
      const id = parseId(c.req.param('id'));
      if (id === undefined) throw missing();
      const patch = resource.toColumns(c.req.valid('json') as Partial<z.output<Body>>, false);
      const row =
        Object.keys(patch).length > 0
          ? await write(db, () => updateCharge(db, kind, companyId, id, patch))
          : listCharges(db, kind, companyId).find((r) => r.id === id);
      if (!row) throw missing();
      companyCache.invalidate(companyId);
      return c.json(resource.toJson(row));
    })
    .delete('/:id', requireUser, async (c) => {
      const companyId = currentUser(c).companyId;
      const id = parseId(c.req.param('id'));
      if (id === undefined || !(await write(db, () => deleteCharge(db, kind, companyId, id)))) throw missing();
      companyCache.invalidate(companyId);
      return c.json({ success: true });
    });
}
