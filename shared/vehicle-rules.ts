// The operator's number plate rules (Custom Charges): which of their vehicle types a looked-up
// vehicle is, by its type approval category, fuel and weight. Shared by the API (validation,
// the route contract) and the portal's editor; the matching itself is api/vehicles/rules.ts.
import { z } from 'zod';
import { REGISTRATION_INVALID, UK_REGISTRATION, normaliseRegistration } from './registration';

/** The DVLA's type approval categories a rule can name; `L` is every two- and three-wheeler (L1–L7). */
export const VEHICLE_CATEGORIES = ['any', 'M1', 'M2', 'M3', 'N1', 'N2', 'N3', 'L'] as const;
export type VehicleCategory = (typeof VEHICLE_CATEGORIES)[number];

export const CATEGORY_LABELS: Record<VehicleCategory, string> = {
  any: 'Any vehicle',
  M1: 'Car (M1)',
  M2: 'Minibus (M2)',
  M3: 'Bus or coach (M3)',
  N1: 'Van up to 3.5 t (N1)',
  N2: 'Goods 3.5–12 t (N2)',
  N3: 'Goods over 12 t (N3)',
  L: 'Motorcycle, moped or trike (L)',
};

export const VEHICLE_FUELS = ['any', 'electric', 'hybrid', 'petrol', 'diesel'] as const;
export type VehicleFuel = (typeof VEHICLE_FUELS)[number];

export const FUEL_LABELS: Record<VehicleFuel, string> = {
  any: 'Any fuel',
  electric: 'Electric',
  hybrid: 'Hybrid',
  petrol: 'Petrol',
  diesel: 'Diesel',
};

/** At most this many rules per company: an ordered list read whole on every look-up. */
export const MAX_VEHICLE_RULES = 30;

export const vehicleRuleSchema = z.object({
  category: z.enum(VEHICLE_CATEGORIES, { error: 'Choose a vehicle category' }),
  fuel: z.enum(VEHICLE_FUELS, { error: 'Choose a fuel' }),
  /** Matches only a revenue weight above this many kg; null for any weight. */
  overKg: z
    .number({ error: 'Weight must be a number of kg' })
    .int('Weight must be a whole number of kg')
    .min(0, 'Weight must not be negative')
    .max(60_000, 'Weight must be at most 60,000 kg')
    .nullable(),
  vehicleTypeId: z.number({ error: 'Choose a vehicle type' }).int().positive('Choose a vehicle type'),
});
export type VehicleRule = z.infer<typeof vehicleRuleSchema>;

/** PUT body: the whole ordered list, or null to go back to the defaults built from the vehicle type names. */
export const vehicleRulesUpdateSchema = z.object({
  rules: z.array(vehicleRuleSchema).max(MAX_VEHICLE_RULES, `At most ${MAX_VEHICLE_RULES} rules`).nullable(),
});
export type VehicleRulesUpdate = z.infer<typeof vehicleRulesUpdateSchema>;

export const vehicleRulesSchema = z.object({
  rules: z.array(vehicleRuleSchema),
  /** True while the company has not saved its own rules: `rules` are the defaults. */
  defaults: z.boolean(),
  /** False when the server has no DVLA key: the quote form then records the plate only. */
  lookupAvailable: z.boolean(),
});
export type VehicleRules = z.infer<typeof vehicleRulesSchema>;

export const vehicleLookupRequestSchema = z.object({
  registration: z
    .string({ error: 'Registration is required' })
    .max(20, REGISTRATION_INVALID)
    .transform(normaliseRegistration)
    .refine((v) => UK_REGISTRATION.test(v), REGISTRATION_INVALID),
  companyId: z
    .number({ error: 'Company id must be a number' })
    .int()
    .positive()
    .max(2 ** 31)
    .optional(),
  companySlug: z.string().trim().min(1).max(40).optional(),
});

export const vehicleLookupResponseSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('found'),
    registration: z.string(),
    /** "a white Ford" */
    vehicle: z.string(),
    /** The operator's vehicle type the rules chose, as the quote form's option value and wording; null when none matched. */
    vehicleType: z.object({ value: z.string(), name: z.string(), phrase: z.string() }).nullable(),
  }),
  z.object({ status: z.enum(['not-found', 'unavailable']), registration: z.string() }),
]);
export type VehicleLookupResponse = z.infer<typeof vehicleLookupResponseSchema>;
