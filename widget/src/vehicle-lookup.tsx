// The quote form's number plate look-up, loaded only when a motorist types in the Registration
// field (vehicle-chunk.ts): in the widget it is its own file, widget-vehicle.js, so widget.js
// stays within its budget (docs/decisions/005-widget-size-and-isolation.md). It asks the API
// once the typing pauses on a complete UK registration, and says what it found: "We think this
// is a white Ford, a van — change?". Anything but a found vehicle (not found, no DVLA key on the
// server, slow, rate-limited, offline) is null: the form stays as it is and says nothing.
//
// No hooks and no React of its own: it hands the form elements (plain objects, built with the
// JSX runtime bundled beside it) that the widget's React renders.
import type { ReactNode } from 'react';
import { api, call } from '#shared/api-client';
import { normaliseRegistration, UK_REGISTRATION } from '#shared/registration';

/** The API's answer for a found vehicle (shared/vehicle-rules.ts, vehicleLookupResponseSchema). */
export interface FoundVehicle {
  status: 'found';
  registration: string;
  /** "a white Ford" */
  vehicle: string;
  vehicleType: { value: string; name: string; phrase: string } | null;
}

/** Typing pauses this long before a plate is looked up, so "AB12" on the way to "AB12CDE" is not. */
export const TYPING_PAUSE_MS = 500;
/** The server gives the DVLA 1.5 s; this covers the network on top. */
export const LOOKUP_TIMEOUT_MS = 3000;

let latest = 0;
const answers = new Map<string, Promise<FoundVehicle | null>>();

async function ask(apiBase: string, companyId: number, registration: string): Promise<FoundVehicle | null> {
  try {
    const answer = await call(
      api(apiBase).vehicles.lookup.$post,
      { json: { registration, companyId } },
      { anonymous: true, signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) },
    );
    return answer.status === 'found' ? answer : null;
  } catch {
    return null;
  }
}

/**
 * The vehicle `typed` is, or null: when it is no UK registration, when the motorist typed on
 * (each call supersedes the one before), or when the look-up found nothing. A plate asked once
 * on this page is not asked again.
 */
export function lookUpVehicle(apiBase: string, companyId: number, typed: string): Promise<FoundVehicle | null> {
  const turn = ++latest;
  const registration = normaliseRegistration(typed);
  if (!UK_REGISTRATION.test(registration)) return Promise.resolve(null);
  return new Promise<void>((resolve) => setTimeout(resolve, TYPING_PAUSE_MS)).then(async () => {
    if (turn !== latest) return null;
    const key = `${apiBase} ${companyId} ${registration}`;
    let answer = answers.get(key);
    if (!answer) answers.set(key, (answer = ask(apiBase, companyId, registration)));
    const found = await answer;
    // A failed look-up may be tried again later in the visit.
    if (!found) answers.delete(key);
    return turn === latest ? found : null;
  });
}

/** What was found, for the Registration field's status line; "change?" moves to Vehicle Type. */
export function vehicleSuggestion(found: FoundVehicle, onChange: () => void): ReactNode {
  return (
    <span className="mt-1 block text-sm text-slate-700">
      {found.vehicleType ? (
        <>
          We think this is {found.vehicle}, {found.vehicleType.phrase} —{' '}
          <button type="button" onClick={onChange} className="font-semibold text-slate-900 underline">
            change?
          </button>
        </>
      ) : (
        <>We think this is {found.vehicle}.</>
      )}
    </span>
  );
}

/**
 * The form's whole use of this module, so widget.js carries none of it: looks `typed` up and,
 * when a vehicle is found, shows what it is and chooses its vehicle type.
 */
export function suggestVehicle(
  apiBase: string,
  companyId: number,
  typed: string,
  show: (suggestion: ReactNode) => void,
  set: (field: 'vehicleType', value: string) => void,
  focus: (field: 'vehicleType') => void,
): Promise<void> {
  return lookUpVehicle(apiBase, companyId, typed).then((found) => {
    if (!found) return;
    show(vehicleSuggestion(found, () => focus('vehicleType')));
    if (found.vehicleType) set('vehicleType', found.vehicleType.value);
  });
}
