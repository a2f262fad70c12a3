// The contract: every API route, one file per resource, composed into one table. From it come
// the server's validation and middleware (api/routes.ts), CORS and CSRF
// (api/platform/http/security.ts), the OpenAPI document at /api/openapi.json, the typed client the
// admin and the widget call the API through (shared/api-client.ts), and the generated security
// and input tests beside this file. Adding a route means writing it here once and once as a
// handler in its feature folder (docs/architecture.md).
import { accounts } from './accounts';
import { alerts } from './alerts';
import { auth } from './auth';
import { billing } from './billing';
import { bookings } from './bookings';
import { gearboxTypes, passengerCharges, rollingStatusTypes, surcharges, vehicleTypes } from './charges';
import { company } from './company';
import type { Access, ContractRoute } from './define';
import { docs } from './docs';
import { dispatch, myJobs, trucks } from './dispatch';
import { documents } from './documents';
import { leads } from './leads';
import { postcodes } from './postcodes';
import { payments } from './payments';
import { phone } from './phone';
import { pricing } from './pricing';
import { proof } from './proof';
import { quotes } from './quotes';
import { share } from './share';
import { audit, team } from './team';
import { vehicles } from './vehicles';

export type { Access, ContractRoute } from './define';

/** Every route gets an `operationId` from its place in the table: `leads.detail` is `leadsDetail`. */
function named<G extends Record<string, Record<string, ContractRoute>>>(groups: G): G {
  return Object.fromEntries(
    Object.entries(groups).map(([group, routes]) => [
      group,
      Object.fromEntries(Object.entries(routes).map(([key, r]) => [key, { ...r, operationId: `${group}${key[0].toUpperCase()}${key.slice(1)}` }])),
    ]),
  ) as G;
}

export const contract = named({
  auth,
  company,
  pricing,
  vehicleTypes,
  gearboxTypes,
  rollingStatusTypes,
  surcharges,
  passengerCharges,
  quotes,
  // Static paths before `/api/quotes/{reference}`: api/leads/routes.ts registers them first too.
  leads,
  postcodes,
  vehicles,
  share,
  billing,
  alerts,
  // Static paths under /api/bookings and /api/my-jobs before their `{reference}` routes.
  myJobs,
  dispatch,
  bookings,
  trucks,
  documents,
  proof,
  payments,
  phone,
  team,
  audit,
  accounts,
  docs,
});

export type Contract = typeof contract;

/** Every route of the contract, flat: what the middleware, the document test and the generated tests walk. */
export const allRoutes: ContractRoute[] = Object.values(contract).flatMap((group) => Object.values(group) as ContractRoute[]);

export const accessOf = (r: ContractRoute): Access => r['x-access'];
