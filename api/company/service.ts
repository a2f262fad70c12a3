// The operator's company and the public company reads (docs/product.md §7): the update rules (the
// custom URL is set once and then locked, and unique; the logo is kept, removed or replaced) and
// what the public may see of a live company.
import { isCustomSlug } from '#shared/patterns';
import { formatPostcode } from '#shared/postcode';
import { poundsToPence } from '#shared/money';
import type { CompanyUpdateParsed } from '#shared/schemas';
import type { Company, PublicCompanyWithCharges } from '#shared/types';
import { chargeResources } from '../charges/resources';
import { listCharges } from '../charges/store';
import { findCompanyById, findCompanyBySlug, findCompanyLogo, updateCompany, updateCompanyWithLogo, type CompanyPatch, type CompanyRow } from './store';
import { findUserByCompanyId, type UserRow } from '../auth/store';
import { getPricing } from './pricing-store';
import { write } from '../platform/db/write';
import { statusGivesAccess } from '../billing/status';
import type { AppDeps } from '../platform/deps';
import { Conflict, NotFound, PaymentRequired, ValidationFailed } from '../platform/errors';
import { companyOnlineQuotes, knownCompany } from './access';
import { hasContactNumber, NO_CONTACT_NUMBER, quotesClosedMessage, type OnlineQuotes } from '#shared/share';
import { parseLogoDataUrl } from './logo';
import { toCompany, toHostedCompany, toPrivacyCompany, toPublicCompany, type HostedCompany, type PrivacyCompany } from './view';

const SLUG_TAKEN = 'That custom URL is already taken. Please choose another.';
const LOGO_INVALID = 'Logo must be a PNG, JPG, GIF or WebP image';

/** Why an account without a subscription cannot claim a custom URL (other settings stay editable). */
export const CLAIM_NEEDS_SUBSCRIPTION = 'Start your free trial to claim a custom URL.';

function toPatch(body: CompanyUpdateParsed): CompanyPatch {
  const { serviceRadius, extraRadiusFee, pricePerPassenger, basePostcode, logo: _logo, customSlug: _slug, ...rest } = body;
  // A key sent blank ("" for an optional number) parses to undefined: it changes nothing.
  const patch = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)) as CompanyPatch;
  if (serviceRadius !== undefined) patch.serviceRadiusHundredths = Math.round(serviceRadius * 100);
  if (extraRadiusFee !== undefined) patch.extraRadiusFeePence = poundsToPence(extraRadiusFee);
  if (pricePerPassenger !== undefined) patch.pricePerPassengerPence = poundsToPence(pricePerPassenger);
  if (basePostcode !== undefined) patch.basePostcode = basePostcode === null ? null : formatPostcode(basePostcode);
  for (const colour of ['primaryColour', 'secondaryColour', 'accentColour', 'backgroundColour', 'textColour'] as const) {
    if (patch[colour]) patch[colour] = patch[colour].toUpperCase();
  }
  return patch;
}

/** The portal sends back the logo URL it was given when the logo did not change. */
function isOurLogoUrl(value: string, companyId: number): boolean {
  return new RegExp(`/api/company/${companyId}/logo(\\?|$)`).test(value);
}

export function companyService(deps: AppDeps) {
  const { db, config } = deps;

  // The enabled rows the quote form offers travel with the company, so the form is usable after
  // this one read (docs/budgets.md: the hosted page within 3 requests).
  // A company whose page does not quote (paused, not set up) is still named, so the motorist
  // learns whose page it is and how to reach them, but with no rows to price from.
  const withCharges = (company: CompanyRow): PublicCompanyWithCharges => {
    const onlineQuotes = companyOnlineQuotes(deps, company);
    const open = onlineQuotes === 'open';
    return {
      ...toPublicCompany(company, config.publicUrl),
      vehicleTypes: open ? listCharges(db, 'vehicleTypes', company.id, true).map(chargeResources['vehicle-types'].toJson) : [],
      surcharges: open ? listCharges(db, 'surcharges', company.id, true).map(chargeResources.surcharges.toJson) : [],
      onlineQuotes,
      // The words the hosted page shows, for the embed to show the same (widget/src/quote-setup.ts).
      ...(onlineQuotes === 'open' ? {} : { closedMessage: quotesClosedMessage(company.name, onlineQuotes) }),
    };
  };

  const bySlug = (slug: string): CompanyRow | undefined => (isCustomSlug(slug) ? findCompanyBySlug(db, slug) : undefined);

  return {
    own(companyId: number): Company {
      const company = findCompanyById(db, companyId);
      if (!company) throw new NotFound('Company not found');
      return toCompany(company, config.publicUrl, companyOnlineQuotes(deps, company));
    },

    /** `owner` is the signed-in operator whose company this is. */
    async update(owner: UserRow & { companyId: number }, body: CompanyUpdateParsed): Promise<Company> {
      const companyId = owner.companyId;
      const company = findCompanyById(db, companyId);
      if (!company) throw new NotFound('Company not found');
      const patch = toPatch(body);
      // The maximum radius (docs/product.md §10) may not fall below the service radius from either side.
      const maximumRadius = getPricing(db, companyId).maximumRadiusHundredths;
      if (patch.serviceRadiusHundredths !== undefined && maximumRadius !== null && patch.serviceRadiusHundredths > maximumRadius) {
        const message = `Service radius cannot be more than the maximum radius (${maximumRadius / 100} miles)`;
        throw new ValidationFailed(message, { serviceRadius: message });
      }

      if (body.customSlug !== undefined && body.customSlug !== company.customSlug) {
        if (company.customSlug) throw new Conflict('The custom URL is locked and cannot be changed', 'SLUG_LOCKED');
        // A locked URL is for good: only an account that has started its subscription may take
        // one, so unpaid sign-ups cannot squat names. Checked before "taken" so it tells them nothing.
        // The company's subscription is its owner's (decision 041), whoever of its owners saves.
        if (!statusGivesAccess(findUserByCompanyId(db, companyId) ?? owner, deps.now(), config.billing.mode))
          throw new PaymentRequired(CLAIM_NEEDS_SUBSCRIPTION);
        // A locked URL is a live page: one whose prices nobody could act on is not made (the numbers this save sets count).
        const contact = {
          phone: patch.phone !== undefined ? patch.phone : company.phone,
          whatsapp: patch.whatsapp !== undefined ? patch.whatsapp : company.whatsapp,
        };
        if (!hasContactNumber(contact)) throw new Conflict(NO_CONTACT_NUMBER, 'NO_CONTACT_NUMBER');
        const holder = findCompanyBySlug(db, body.customSlug);
        if (holder && holder.id !== companyId) throw new Conflict(SLUG_TAKEN, 'SLUG_TAKEN');
        patch.customSlug = body.customSlug;
      }

      let saved: CompanyRow;
      try {
        if (body.logo === undefined || (body.logo !== null && !body.logo.startsWith('data:') && isOurLogoUrl(body.logo, company.id))) {
          saved = Object.keys(patch).length > 0 ? await write(db, () => updateCompany(db, companyId, patch)) : company;
        } else if (body.logo === null) {
          saved = await write(db, () => updateCompanyWithLogo(db, companyId, patch, null));
        } else if (body.logo.startsWith('data:')) {
          const logo = parseLogoDataUrl(body.logo);
          saved = await write(db, () => updateCompanyWithLogo(db, companyId, patch, logo));
        } else {
          throw new ValidationFailed(LOGO_INVALID, { logo: LOGO_INVALID });
        }
      } catch (err) {
        // Two companies racing for one custom URL: the unique index decides.
        if (err instanceof Error && /UNIQUE/.test(err.message)) throw new Conflict(SLUG_TAKEN, 'SLUG_TAKEN');
        throw err;
      }
      return toCompany(saved, config.publicUrl, companyOnlineQuotes(deps, saved));
    },

    publicById: (rawId: string): PublicCompanyWithCharges => withCharges(knownCompany(db, rawId)),

    publicBySlug(slug: string): PublicCompanyWithCharges {
      const company = bySlug(slug);
      if (!company) throw new NotFound('Company not found');
      return withCharges(company);
    },

    /** The hosted page's lookup: undefined when missing; a lapsed company's page says its quotes are paused. */
    pageBySlug(slug: string): (HostedCompany & { onlineQuotes: OnlineQuotes }) | undefined {
      const company = bySlug(slug);
      return company ? { ...toHostedCompany(company, config.publicUrl), onlineQuotes: companyOnlineQuotes(deps, company) } : undefined;
    },

    /** The privacy page's lookup: any company with this custom URL, paused or not (it still holds motorists' details). */
    privacyBySlug(slug: string): PrivacyCompany | undefined {
      const company = bySlug(slug);
      return company ? toPrivacyCompany(company, config.publicUrl) : undefined;
    },

    /** Any company's logo: a paused page still shows whose page it is. */
    logo(rawId: string) {
      const company = knownCompany(db, rawId);
      const logo = findCompanyLogo(db, company.id);
      if (!logo) throw new NotFound('Logo not found');
      return logo;
    },
  };
}

export type CompanyService = ReturnType<typeof companyService>;
