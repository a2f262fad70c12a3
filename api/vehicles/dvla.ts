// The DVLA's Vehicle Enquiry Service: POST {DVLA_API_URL} with `{ registrationNumber }` and the
// `x-api-key` header answers the vehicle's make, colour, fuel type, type approval, revenue
// weight and wheelplan (and more we do not read). 404 is "not found"; 400 is a registration it
// cannot read, which for us is the same; 429 is its rate limit; 5xx (503 during maintenance) a
// failure. The key goes in that one header and nowhere else: not in an error, not in a log line,
// not to another server (a redirect is refused, not followed).
import { DVLA_PRODUCTION_URL } from '../platform/config';
import type { VehicleFacts } from './rules';

/** What a provider knows about a registration. */
export interface VehicleRecord extends VehicleFacts {
  make?: string;
  colour?: string;
}

export type ProviderAnswer = { found: true; vehicle: VehicleRecord } | { found: false };

/** The provider could not answer now: nothing is cached, the form stays as it is. */
export class LookupUnavailable extends Error {
  constructor(
    readonly reason: 'rate-limited' | 'failed' | 'timeout',
    /** The provider's HTTP status, when it answered. */
    readonly status?: number,
    /** Seconds the provider asked us to wait (429 Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(`Vehicle lookup ${reason}${status ? ` (HTTP ${status})` : ''}`);
    this.name = 'LookupUnavailable';
  }
}

export interface VehicleProvider {
  /** Looks one registration up (normalised: AB12CDE); throws LookupUnavailable when it cannot answer. */
  lookup(registration: string, signal: AbortSignal): Promise<ProviderAnswer>;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The fields we read from the DVLA's answer, each only when it has the type the DVLA documents. */
export function readVehicle(body: unknown): VehicleRecord {
  const v = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  return {
    make: text(v.make),
    colour: text(v.colour),
    fuelType: text(v.fuelType),
    typeApproval: text(v.typeApproval),
    revenueWeight: number(v.revenueWeight),
    wheelplan: text(v.wheelplan),
  };
}

export function createDvlaProvider(options: { apiKey: string; url?: string; fetch?: typeof fetch }): VehicleProvider {
  const url = options.url ?? DVLA_PRODUCTION_URL;
  const request = options.fetch ?? fetch;
  return {
    async lookup(registration, signal) {
      let res: Response;
      try {
        res = await request(url, {
          method: 'POST',
          headers: { 'x-api-key': options.apiKey, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ registrationNumber: registration }),
          // The key is for the DVLA alone: a redirect (to wherever) fails the look-up instead of
          // being followed with the header.
          redirect: 'error',
          signal,
        });
      } catch {
        // The cause (a timeout, a refused connection) is all we keep: fetch's own error could
        // carry the request in future versions, and nothing of the request leaves this function.
        throw new LookupUnavailable(signal.aborted ? 'timeout' : 'failed');
      }
      if (res.status === 200) {
        try {
          return { found: true, vehicle: readVehicle(await res.json()) };
        } catch {
          throw new LookupUnavailable(signal.aborted ? 'timeout' : 'failed', 200);
        }
      }
      // The body is not needed to tell these apart; it is read off so the connection is reused.
      await res.body?.cancel().catch(() => {});
      if (res.status === 404 || res.status === 400) return { found: false };
      if (res.status === 429) {
        const retryAfter = Number(res.headers.get('retry-after'));
        throw new LookupUnavailable('rate-limited', 429, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined);
      }
      throw new LookupUnavailable('failed', res.status);
    },
  };
}
