// The quote path's view of a company: pricing, enabled rows and owner's billing state, built
// once from the database and kept until the company's settings change. This keeps a quote at
// two in-memory lookups and one insert.
import type { Db } from '../platform/db/client';
import { listCharges } from '../charges/store';
import { findCompanyById, findCompanyBySlug, type CompanyRow } from '../company/store';
import { onCompanyWrite } from '../company/changes';
import { getPricing } from '../company/pricing-store';
import { findUserByCompanyId } from '../auth/store';
import { statusGivesAccess, type BillingState } from '../billing/status';
import type { PricingConfig } from '../engine/pricing/calculate';
import { DEFAULT_PROBLEM_TYPES, GEARBOX_OPTIONS, NATIONS, ROLLING_OPTIONS, type Nation } from '#shared/constants';
import { slugify } from '#shared/slug';
import type { OnlineQuotes } from '#shared/share';

const isNation = (value: string): value is Nation => (NATIONS as readonly string[]).includes(value);

export interface CompanyQuoteConfig {
  companyId: number;
  /** For the answer to a pickup outside the maximum radius: who to call, and on what number. */
  name: string;
  phone: string | null;
  pricing: Omit<PricingConfig, 'pickupMilesFromBase'>;
  basePostcode: string | null;
  /** null for a company with no owner (the demo company): always accessible. */
  owner: BillingState | null;
  /** The slugs a quote may name for each choice (offeredValues): anything else is refused with 400. */
  offered: { gearboxType: ReadonlySet<string>; rollingStatus: ReadonlySet<string>; problemType: ReadonlySet<string> };
}

/**
 * What a company offers for a choice: its enabled rows, and the form's own values (those the quote
 * form always lists) unless the company has a row of that name turned off. By slug, as the engine
 * matches rows ("Not Rolling" → not-rolling).
 */
function offeredValues(rows: { name: string; enabled: boolean }[], standard: readonly string[]): ReadonlySet<string> {
  const offered = new Set(standard);
  for (const row of rows) {
    if (row.enabled) offered.add(slugify(row.name));
    else offered.delete(slugify(row.name));
  }
  // A row turned off, then another of the same slug enabled, is offered.
  for (const row of rows) if (row.enabled) offered.add(slugify(row.name));
  return offered;
}

/**
 * The problems offered: the enabled rows, and each starter problem's form value whose row is
 * offered under its label ('flat-tire' for a row named 'Flat Tyre'), as the engine finds its charge.
 */
function offeredProblems(rows: { name: string; enabled: boolean }[]): ReadonlySet<string> {
  const offered = new Set(offeredValues(rows, []));
  for (const problem of DEFAULT_PROBLEM_TYPES) if (offered.has(slugify(problem.label))) offered.add(problem.value);
  // 'Other' is on every company's form (decision 009), whatever its rows say.
  offered.add('other');
  return offered;
}

/**
 * Whether a company's public page, widget and quotes work now (docs/architecture.md §4): its owner's
 * subscription gives access, derived from the cached dates; a company with no owner (the demo)
 * always does. The one place this rule lives.
 */
export function isLive(config: CompanyQuoteConfig, now: Date, mode: 'local' | 'stripe'): boolean {
  return config.owner === null || statusGivesAccess(config.owner, now, mode);
}

/**
 * Whether a company's public page quotes now (docs/product.md §13): paused while its subscription
 * gives no access, not set up while a motorist given a price would have no number to reach it by.
 */
export function onlineQuotes(config: CompanyQuoteConfig, now: Date, mode: 'local' | 'stripe'): OnlineQuotes {
  if (!isLive(config, now, mode)) return 'paused';
  return config.phone ? 'open' : 'not-set-up';
}

function build(db: Db, company: CompanyRow): CompanyQuoteConfig {
  const rates = getPricing(db, company.id);
  const priced = (rows: { name: string; basePricePence: number }[]) => rows.map((r) => ({ name: r.name, pricePence: r.basePricePence }));
  const owner = findUserByCompanyId(db, company.id);
  const gearboxRows = listCharges(db, 'gearboxTypes', company.id);
  const rollingRows = listCharges(db, 'rollingStatusTypes', company.id);
  const problemRows = listCharges(db, 'surcharges', company.id).map((r) => ({ name: r.problemType, enabled: r.enabled }));
  return {
    offered: {
      gearboxType: offeredValues(
        gearboxRows,
        GEARBOX_OPTIONS.map((o) => o.value),
      ),
      rollingStatus: offeredValues(
        rollingRows,
        ROLLING_OPTIONS.map((o) => o.value),
      ),
      problemType: offeredProblems(problemRows),
    },
    companyId: company.id,
    name: company.name,
    // Blank is no number: the quote path refuses a company nobody could call (onlineQuotes).
    phone: company.phone?.trim() || company.whatsapp?.trim() || null,
    basePostcode: company.basePostcode,
    owner: owner ? { subscriptionStatus: owner.subscriptionStatus, trialEndsAt: owner.trialEndsAt, currentPeriodEnd: owner.currentPeriodEnd } : null,
    pricing: {
      callOutFeePence: rates.callOutFeePence,
      labourRatePence: rates.labourRatePence,
      mileRatePence: rates.mileRatePence,
      labourTimeHours: rates.labourTimeHundredths / 100,
      afterHoursEnabled: rates.afterHoursEnabled,
      afterHoursFeePence: rates.afterHoursFeePence,
      afterHoursStart: rates.afterHoursStart,
      afterHoursEnd: rates.afterHoursEnd,
      vehicleTypes: priced(listCharges(db, 'vehicleTypes', company.id, true)),
      gearboxTypes: priced(listCharges(db, 'gearboxTypes', company.id, true)),
      rollingStatusTypes: priced(listCharges(db, 'rollingStatusTypes', company.id, true)),
      surcharges: listCharges(db, 'surcharges', company.id, true).map((r) => ({ name: r.problemType, pricePence: r.amountPence })),
      passengerCharges: listCharges(db, 'passengerCharges', company.id, true).map((r) => ({
        passengerCount: r.passengerCount,
        pricePence: r.basePricePence,
      })),
      pricePerPassengerPence: company.pricePerPassengerPence,
      passengerLimit: company.passengerLimit,
      serviceRadiusMiles: company.serviceRadiusHundredths / 100,
      extraRadiusFeePence: company.extraRadiusFeePence,
      showPriceBreakdown: company.showPriceBreakdown,
      enablePriceRounding: company.enablePriceRounding,
      priceRoundingMultiple: company.priceRoundingMultiple === 10 ? 10 : 5,
      bankHolidayNation: isNation(rates.bankHolidayNation) ? rates.bankHolidayNation : 'england-and-wales',
      bankHolidayFeePence: rates.bankHolidayFeePence,
      enRouteRatePence: rates.enRouteRatePence,
      freeMiles: rates.freeMilesHundredths / 100,
      minimumChargePence: rates.minimumChargePence,
      maximumRadiusMiles: rates.maximumRadiusHundredths === null ? null : rates.maximumRadiusHundredths / 100,
      vatRegistered: rates.vatRegistered,
      pricesIncludeVat: rates.pricesIncludeVat,
      quoteValidityHours: rates.quoteValidityHours,
    },
  };
}

export function createCompanyConfigCache(db: Db, maxEntries = 10_000) {
  const byId = new Map<number, CompanyQuoteConfig>();
  const slugToId = new Map<string, number>();
  // Every store writer reports its company: the next quote rebuilds from the database.
  onCompanyWrite(db, (companyId) => byId.delete(companyId));

  return {
    byId(companyId: number): CompanyQuoteConfig | undefined {
      const cached = byId.get(companyId);
      if (cached) return cached;
      const company = findCompanyById(db, companyId);
      if (!company) return undefined;
      if (byId.size >= maxEntries) byId.clear();
      const config = build(db, company);
      byId.set(companyId, config);
      return config;
    },
    bySlug(slug: string): CompanyQuoteConfig | undefined {
      const id = slugToId.get(slug) ?? findCompanyBySlug(db, slug)?.id;
      if (id === undefined) return undefined;
      if (slugToId.size >= maxEntries) slugToId.clear();
      slugToId.set(slug, id);
      return this.byId(id);
    },
  };
}

export type CompanyConfigCache = ReturnType<typeof createCompanyConfigCache>;
