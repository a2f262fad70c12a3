// The team's dispatch (docs/product.md §23): trucks, what vehicle types need of a truck, assigning
// a job to a person and a truck, the dispatch board, the driver's own jobs, and jobs for later.
// Request schemas (the server validates with them, the portal's forms use them) and the answers.
import { z } from 'zod';
import { BOOKING_STATUSES } from './bookings';
import { TRUCK_KINDS } from './trucks';
import { ROLES } from './roles';
import { forbiddenCharacterMessage, isCleanText } from './schemas';
import { driverStatusSchema, MOBILE_INVALID, mobileE164 } from './booking-schemas';

export const TRUCK_NAME_MAX = 60;
export const TRUCK_WEIGHT_KG = { min: 500, max: 60_000 } as const;
export const LATER_WINDOW_MINUTES = { min: 15, max: 240 } as const;
export const LATER_DAYS_AHEAD = { min: 1, max: 90 } as const;
export const LATER_JOBS_PER_HOUR = { min: 1, max: 50 } as const;

const whole = (label: string, range: { min: number; max: number }) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(range.min, `${label} must be between ${range.min.toLocaleString('en-GB')} and ${range.max.toLocaleString('en-GB')}`)
    .max(range.max, `${label} must be between ${range.min.toLocaleString('en-GB')} and ${range.max.toLocaleString('en-GB')}`);
const personId = (label: string) =>
  z
    .number({ error: `${label} must be a person of the company` })
    .int(`${label} must be a person of the company`)
    .positive(`${label} must be a person of the company`);

const truckKind = z.enum(TRUCK_KINDS, { error: 'Kind must be flatbed, wheel_lift, spec_lift or hgv' });

export const truckSchema = z.object({
  name: z
    .string({ error: 'Name or registration must be text' })
    .trim()
    .min(1, 'Name or registration is required')
    .max(TRUCK_NAME_MAX, `Name or registration must be at most ${TRUCK_NAME_MAX} characters`)
    .refine((v) => isCleanText(v, false), forbiddenCharacterMessage('Name or registration')),
  kind: truckKind,
  maxWeightKg: whole('Maximum vehicle weight', TRUCK_WEIGHT_KG),
  evAllowed: z.boolean({ error: 'Electric vehicles allowed must be true or false' }).default(true),
  defaultDriverId: personId('Default driver').nullable().default(null),
});
export const truckUpdateSchema = truckSchema.partial().refine((v) => Object.keys(v).length > 0, 'Nothing to change');
export type TruckBody = z.input<typeof truckSchema>;

export const carriageSchema = z.object({
  truckKinds: z
    .array(truckKind, { error: 'Truck kinds must be a list' })
    .max(TRUCK_KINDS.length, 'Truck kinds must be a list of the four kinds')
    .refine((kinds) => new Set(kinds).size === kinds.length, 'Each truck kind once'),
  weightKg: whole('Vehicle weight', TRUCK_WEIGHT_KG).nullable().default(null),
  electric: z.boolean({ error: 'Electric must be true or false' }).default(false),
});
export type CarriageBody = z.input<typeof carriageSchema>;

export const assignSchema = z.object({
  driverId: personId('Driver').nullable(),
  truckId: z
    .number({ error: 'Truck must be one of the company’s trucks' })
    .int('Truck must be one of the company’s trucks')
    .positive('Truck must be one of the company’s trucks')
    .nullable(),
  /** The truck cannot carry the vehicle (409 TRUCK_CANNOT_CARRY): send again with true to assign it anyway, recorded. */
  confirm: z.boolean({ error: 'Confirm must be true or false' }).optional(),
});
export type AssignBody = z.input<typeof assignSchema>;

export const acceptLaterSchema = z.object({
  windowMinutes: whole('Time window', LATER_WINDOW_MINUTES),
  driverId: personId('Driver').nullable().optional(),
  truckId: assignSchema.shape.truckId.optional(),
  confirm: z.boolean({ error: 'Confirm must be true or false' }).optional(),
});
export type AcceptLaterBody = z.input<typeof acceptLaterSchema>;

export const laterSettingsSchema = z
  .object({
    daysAhead: whole('Days ahead', LATER_DAYS_AHEAD),
    jobsPerHour: whole('Jobs per hour', LATER_JOBS_PER_HOUR),
  })
  .partial();

/** The signed-in driver's next step on their own job: the link's body (with how the balance was paid, at completion). */
export const myStepSchema = driverStatusSchema;

// ---------------------------------------------------------------- answers

const person = z.object({ id: z.number().int(), name: z.string() });

export const truckRowSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    kind: z.enum(TRUCK_KINDS),
    maxWeightKg: z.number().int(),
    evAllowed: z.boolean(),
    defaultDriver: person.nullable(),
  })
  .meta({ id: 'Truck' });
export type TruckRow = z.infer<typeof truckRowSchema>;

export const carriageRowSchema = z
  .object({
    vehicleTypeId: z.number().int(),
    vehicleType: z.string(),
    truckKinds: z.array(z.enum(TRUCK_KINDS)).meta({ description: 'The kinds that may carry it; empty: any kind' }),
    weightKg: z.number().int().nullable(),
    electric: z.boolean(),
  })
  .meta({ id: 'VehicleTypeCarriage' });
export type CarriageRow = z.infer<typeof carriageRowSchema>;

export const teamPersonSchema = person.extend({ role: z.enum(ROLES) }).meta({ id: 'TeamPerson' });

export const boardJobSchema = z
  .object({
    reference: z.string(),
    status: z.enum(BOOKING_STATUSES),
    pickupPostcode: z.string(),
    destinationPostcode: z.string(),
    vehicleType: z.string(),
    registration: z.string(),
    createdAt: z.string().meta({ description: 'Booked at: the card shows how long it has waited' }),
    statusChangedAt: z.string(),
    scheduledFor: z.string().nullable().meta({ description: 'A job for later: its slot (ISO); null for now' }),
    windowMinutes: z.number().int().nullable(),
    driver: person.nullable(),
    truck: z.object({ id: z.number().int(), name: z.string(), kind: z.enum(TRUCK_KINDS) }).nullable(),
    truckOverride: z.boolean().meta({ description: 'A truck that cannot carry the vehicle was confirmed anyway' }),
    capableTruckIds: z.array(z.number().int()).meta({ description: 'The trucks that can carry the vehicle, offered first' }),
  })
  .meta({ id: 'BoardJob' });
export type BoardJob = z.infer<typeof boardJobSchema>;

export const boardSchema = z
  .object({
    jobs: z.array(boardJobSchema).meta({ description: 'Open jobs, later jobs not yet finished, and those finished today (UK)' }),
    drivers: z.array(teamPersonSchema).meta({ description: 'The people a job may be assigned to' }),
    trucks: z.array(truckRowSchema),
    requested: z.number().int().meta({ description: 'Bookings still waiting for an answer: the title’s count and the banner' }),
  })
  .meta({ id: 'Board' });
export type Board = z.infer<typeof boardSchema>;

export const myJobSchema = z
  .object({
    reference: z.string(),
    status: z.enum(BOOKING_STATUSES),
    pickupPostcode: z.string(),
    destinationPostcode: z.string(),
    vehicleType: z.string(),
    registration: z.string(),
    scheduledFor: z.string().nullable(),
    windowMinutes: z.number().int().nullable(),
    truck: z.string().nullable(),
  })
  .meta({ id: 'MyJob' });
export type MyJob = z.infer<typeof myJobSchema>;

export const laterSettingsRowSchema = z.object({ daysAhead: z.number().int(), jobsPerHour: z.number().int() }).meta({ id: 'LaterSettings' });
export type LaterSettings = z.infer<typeof laterSettingsRowSchema>;

/** A person's own mobile number for their job texts; null or blank: none. */
export const myPhoneSchema = z.object({
  phone: z
    .string({ error: 'Mobile number must be text' })
    .trim()
    .max(40, MOBILE_INVALID)
    .nullable()
    .transform((v, ctx) => {
      if (v === null || v === '') return null;
      const e164 = mobileE164(v);
      if (!e164) {
        ctx.addIssue({ code: 'custom', message: MOBILE_INVALID });
        return z.NEVER;
      }
      return e164;
    }),
});
export const myPhoneRowSchema = z.object({ phone: z.string().nullable().meta({ description: 'E.164, or null' }) }).meta({ id: 'MyPhone' });
