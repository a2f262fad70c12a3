// The charge lists (docs/product.md §7), one definition per list: its row as JSON and its request body
// as columns, with the product's defaults for a new row.
import type { z } from 'zod';
import { penceToPounds, poundsToPence } from '#shared/money';
import { gearboxTypeSchema, passengerChargeSchema, rollingStatusTypeSchema, surchargeSchema, vehicleTypeSchema } from '#shared/schemas';
import type { PassengerCharge, PricedRow, Surcharge } from '#shared/types';
import type { ChargeInsert, ChargeKind, ChargeRow } from './store';

export interface ChargeResource<K extends ChargeKind, Body extends z.ZodObject, Json> {
  kind: K;
  schema: Body;
  /** What a row is called in messages: 'Vehicle type'. */
  label: string;
  /** The column naming a row, unique within the company's list; passenger charges have none. */
  nameColumn?: 'name' | 'problemType';
  toJson(row: ChargeRow<K>): Json;
  /** Request body (parsed) to columns; `creating` applies the product's new-row defaults. */
  toColumns(body: Partial<z.output<Body>>, creating: boolean): Partial<ChargeInsert<K>>;
}

const pricedRow = <K extends 'vehicleTypes' | 'gearboxTypes' | 'rollingStatusTypes'>(
  kind: K,
  schema: typeof vehicleTypeSchema,
  label: string,
  defaultPence: number,
): ChargeResource<K, typeof vehicleTypeSchema, PricedRow> => ({
  kind,
  schema,
  label,
  nameColumn: 'name',
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
  surcharges: {
    kind: 'surcharges',
    schema: surchargeSchema,
    label: 'Custom charge',
    nameColumn: 'problemType',
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
