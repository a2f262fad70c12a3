// Number plates for the quote form and the portal: the look-up a motorist's plate gets (what the
// DVLA says, in words, and which of the operator's vehicle types the operator's rules make it),
// and the rules themselves (Custom Charges). Nothing here is on the quote path: the quote only
// carries the plate the motorist typed (api/quotes/quote-service.ts).
import type { VehicleLookupResponse, VehicleRule, VehicleRules } from '#shared/vehicle-rules';
import { listCharges } from '../charges/store';
import type { AppDeps } from '../platform/deps';
import { NotFound, ValidationFailed } from '../platform/errors';
import { isLive } from '../quotes/company-config';
import type { VehicleLookup } from './lookup';
import { chooseVehicleType, defaultRules, typePhrase, vehiclePhrase, type VehicleTypeRow } from './rules';
import { savedRules, saveRules } from './store';

export const VEHICLE_LOOKUP_RATE_LIMITED = 'Too many number plate look-ups. Please wait a minute and try again.';
export const UNKNOWN_VEHICLE_TYPE = 'Choose one of your vehicle types';

export function vehicleService(deps: Pick<AppDeps, 'db' | 'companyCache' | 'config' | 'now'>, lookup: VehicleLookup) {
  const { db, companyCache, config } = deps;

  const rulesOf = (companyId: number, rows: VehicleTypeRow[]) => savedRules(db, companyId) ?? defaultRules(rows);

  function rules(companyId: number): VehicleRules {
    const saved = savedRules(db, companyId);
    return {
      rules: saved ?? defaultRules(listCharges(db, 'vehicleTypes', companyId)),
      defaults: saved === null,
      lookupAvailable: lookup.available,
    };
  }

  return {
    rules,

    /** Saves the operator's ordered rules (null: back to the defaults); each must name one of their own vehicle types. */
    save(companyId: number, update: VehicleRule[] | null): VehicleRules {
      if (update) {
        const ids = new Set(listCharges(db, 'vehicleTypes', companyId).map((r) => r.id));
        const fields: Record<string, string> = {};
        update.forEach((rule, i) => {
          if (!ids.has(rule.vehicleTypeId)) fields[`rules.${i}.vehicleTypeId`] = UNKNOWN_VEHICLE_TYPE;
        });
        if (Object.keys(fields).length > 0) throw new ValidationFailed(UNKNOWN_VEHICLE_TYPE, fields);
      }
      saveRules(db, companyId, update, deps.now());
      return rules(companyId);
    },

    /** A live company's motorist's plate (normalised): what it is, and which of the company's vehicle types it suggests. */
    async lookup(body: { registration: string; companyId?: number; companySlug?: string }): Promise<VehicleLookupResponse> {
      const company = body.companyId !== undefined ? companyCache.byId(body.companyId) : body.companySlug ? companyCache.bySlug(body.companySlug) : undefined;
      if (!company) {
        if (body.companyId === undefined && !body.companySlug) throw new ValidationFailed('Company is required', { companyId: 'Company is required' });
        throw new NotFound('Company not found');
      }
      if (!isLive(company, deps.now(), config.billing.mode)) throw new NotFound('Company not found');
      const { registration } = body;
      const answer = await lookup.lookup(registration);
      if (answer.status !== 'found') return { status: answer.status, registration };
      const rows = listCharges(db, 'vehicleTypes', company.companyId, true);
      const row = chooseVehicleType(rulesOf(company.companyId, rows), answer.vehicle, rows);
      return {
        status: 'found',
        registration,
        vehicle: vehiclePhrase(answer.vehicle.colour, answer.vehicle.make),
        vehicleType: row ? { value: row.name.toLowerCase(), name: row.name, phrase: typePhrase(row.name) } : null,
      };
    },
  };
}

export type VehicleService = ReturnType<typeof vehicleService>;
