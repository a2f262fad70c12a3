// Loads what the quote form needs before it can be used: the company (by slug, id, the signed-in
// operator's, or none in demo mode), its vehicle types and the problem types to offer.
import { useEffect, useState } from 'react';
import { api, ApiRequestError, call, mayPass } from '#shared/api-client';
import { DEFAULT_PROBLEM_TYPES } from '#shared/constants';
import { slugify } from '#shared/slug';
import type { PublicCompany, PublicCompanyWithCharges, Surcharge } from '#shared/types';

export interface Option {
  value: string;
  label: string;
}

/** docs/product.md §3 demo data: the landing page's demo quotes these without loading anything. */
export const DEMO_COMPANY_ID = 1;
// Option values are the lower-cased names the API is sent (docs/product.md §3), like the gearbox and
// rolling-status values; labels keep the operator's spelling.
const vehicleOption = (name: string): Option => ({ value: name.toLowerCase(), label: name });
const DEMO_VEHICLE_TYPES: readonly Option[] = ['Car', 'Van', 'Motorcycle'].map(vehicleOption);

export type Setup =
  | { status: 'loading' }
  | { status: 'not-found' }
  | { status: 'error' }
  // A company whose page does not quote (subscription lapsed, no number): its name and the server's words, no form.
  | { status: 'closed'; company: PublicCompany; message: string }
  | { status: 'ready'; company: PublicCompany | null; companyId: number; vehicleTypes: readonly Option[]; problemTypes: readonly Option[] };

export interface SetupSource {
  company?: PublicCompany | null;
  companySlug?: string;
  companyId?: number;
  demo?: boolean;
  apiBase: string;
}

const SLUG_RETRIES = 3;
const RETRY_DELAY_MS = 1000;

const isNotFound = (error: unknown) => error instanceof ApiRequestError && error.status === 404;

/** Retries failures that may pass (network, 5xx, 429); a 4xx answer is final. */
async function withRetries<T>(load: () => Promise<T>, retries: number, signal: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch (error) {
      if (!mayPass(error) || attempt >= retries || signal.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    }
  }
}

/** True when the API is this page's own origin, so the operator's session cookie may be sent. */
export function isSameOrigin(apiBase: string): boolean {
  if (!apiBase) return true;
  try {
    return new URL(apiBase, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/** The company, and whether it is the signed-in operator's own (read privately, not as the public sees it). */
async function loadCompany(source: SetupSource, signal: AbortSignal): Promise<[PublicCompany, boolean?]> {
  const company = api(source.apiBase).company;
  const options = { anonymous: true, signal };
  const byId = async (id: number): Promise<[PublicCompany]> => [await call(company[':id'].$get, { param: { id: String(id) } }, options)];
  if (source.companySlug) {
    const slug = source.companySlug;
    return [await withRetries(() => call(company.slug[':slug'].$get, { param: { slug } }, options), SLUG_RETRIES, signal)];
  }
  if (source.companyId !== undefined) return byId(source.companyId);
  // No company named: the signed-in operator's own (the portal preview), else the demo company.
  if (isSameOrigin(source.apiBase)) {
    try {
      return [await call(company.$get, undefined, { signal }), true];
    } catch (error) {
      if (signal.aborted) throw error;
    }
  }
  return byId(DEMO_COMPANY_ID);
}

/**
 * docs/product.md §9: with a real company's data the form lists the company's own surcharged problems
 * plus 'other' (the product's preview mode, which is how its public company page runs; the ten default
 * problems are for the demo). docs/decisions/009-problem-types-on-public-pages.md.
 */
function problemOptions(surcharges: readonly Surcharge[]): Option[] {
  const options = new Map<string, Option>();
  // 'Other' comes last even when a company charges for it (every new company does: api/platform/db/seed.ts).
  let other: Option = { value: 'other', label: 'Other' };
  for (const surcharge of surcharges) {
    const value = slugify(surcharge.problemType);
    if (value === 'other') other = { value, label: surcharge.problemType };
    else if (surcharge.enabled && value && !options.has(value)) options.set(value, { value, label: surcharge.problemType });
  }
  return [...options.values(), other];
}

const demoSetup = (company: PublicCompany | null): Setup => ({
  status: 'ready',
  company,
  companyId: DEMO_COMPANY_ID,
  vehicleTypes: DEMO_VEHICLE_TYPES,
  problemTypes: DEFAULT_PROBLEM_TYPES,
});

async function loadSetup(source: SetupSource, signal: AbortSignal): Promise<Setup> {
  const [company, own] = source.company ? [source.company] : await loadCompany(source, signal);
  const client = api(source.apiBase);
  const ofCompany = { param: { id: String(company.id) } };
  const options = { anonymous: true, signal };
  // Public reads carry the enabled rows already; the operator's own read does not.
  const embedded = 'vehicleTypes' in company ? (company as PublicCompanyWithCharges) : undefined;
  if (embedded?.closedMessage) return { status: 'closed', company, message: embedded.closedMessage };
  // The signed-in operator's own company (the portal's preview) is priced from the portal's own
  // lists: the public ones answer only while the page quotes, and the preview quotes regardless.
  const [vehicleRows, surcharges] = await Promise.all([
    embedded?.vehicleTypes ?? (own ? call(client['vehicle-types'].$get, undefined, { signal }) : call(client['vehicle-types'][':id'].$get, ofCompany, options)),
    embedded?.surcharges ?? (own ? call(client.surcharges.$get, undefined, { signal }) : call(client.surcharges[':id'].$get, ofCompany, options)),
  ]);
  const problemTypes = problemOptions(surcharges);
  const vehicleTypes = vehicleRows.filter((row) => row.enabled).map((row) => vehicleOption(row.name));
  return { status: 'ready', company, companyId: company.id, vehicleTypes, problemTypes };
}

export function useQuoteSetup(source: SetupSource): { setup: Setup; retry: () => void } {
  const [loaded, setLoaded] = useState<Setup>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const { companySlug, companyId, demo, apiBase } = source;
  // Keyed on the company's id, not the object: a parent re-rendering with a fresh but equal
  // company must not reload, and branding edits show through `company` directly (QuoteForm).
  const suppliedId = source.company?.id;

  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the source's fields and the company's id, not the source object (see above); attempt retries
  useEffect(() => {
    if (demo) return;
    const controller = new AbortController();
    setLoaded({ status: 'loading' });
    loadSetup(source, controller.signal).then(
      (setup) => {
        if (!controller.signal.aborted) setLoaded(setup);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ status: isNotFound(error) ? 'not-found' : 'error' });
      },
    );
    return () => controller.abort();
  }, [companySlug, companyId, demo, apiBase, suppliedId, attempt]);

  // docs/product.md §7: the signed-in operator's own company (the portal's preview tab) is always stale
  // and read again when the window regains focus, so what was saved in the portal's tab shows
  // here. In place: the form keeps what the operator typed, with no loading state in between.
  const ownCompany = !demo && !companySlug && companyId === undefined && suppliedId === undefined;
  useEffect(() => {
    if (!ownCompany) return;
    let controller: AbortController | undefined;
    const refresh = () => {
      controller?.abort();
      const current = (controller = new AbortController());
      loadSetup({ apiBase }, current.signal).then(
        (setup) => {
          if (!current.signal.aborted) setLoaded(setup);
        },
        // A failed refresh keeps what is shown; the next focus tries again.
        () => undefined,
      );
    };
    window.addEventListener('focus', refresh);
    return () => {
      window.removeEventListener('focus', refresh);
      controller?.abort();
    };
  }, [ownCompany, apiBase]);

  // The demo needs nothing from the server, so it is ready on the first render.
  return { setup: demo ? demoSetup(source.company ?? null) : loaded, retry: () => setAttempt((n) => n + 1) };
}
