// The operator's own company (private) and the public company reads (SPEC.md §7).
import { Hono } from 'hono';
import { poundsToPence } from '../../shared/money';
import { isCustomSlug } from '../../shared/patterns';
import type { PublicCompanyWithCharges } from '../../shared/types';
import { listCharges } from '../db/charges';
import { formatPostcode } from '../../shared/postcode';
import { companyUpdateSchema, type CompanyUpdateParsed } from '../../shared/schemas';
import { currentUser, requireUser } from '../auth/session';
import { findCompanyById, findCompanyBySlug, findCompanyLogo, updateCompany, updateCompanyWithLogo, type CompanyPatch, type CompanyRow } from '../db/companies';
import { statusGivesAccess } from '../billing/status';
import { write } from '../db/write';
import { Conflict, NotFound, PaymentRequired, ValidationFailed } from '../errors';
import type { AppEnv } from '../http/context';
import { parseId, validate } from '../http/validate';
import { parseLogoDataUrl } from '../company/logo';
import { toCompany, toPublicCompany } from '../company/view';
import { isLive } from '../quotes/company-config';
import type { AppDeps } from '../deps';
import { chargeResources } from './charges';

/** Whether a company's public page, widget and quotes work now (DESIGN.md §4). */
export function companyIsPublic(deps: AppDeps, company: CompanyRow): boolean {
  const config = deps.companyCache.byId(company.id);
  return config !== undefined && isLive(config, deps.now(), deps.config.billing.mode);
}

/** Looks up a company for the public by slug; undefined when missing or without access. */
export function publicCompanyBySlug(deps: AppDeps, slug: string) {
  const company = isCustomSlug(slug) ? findCompanyBySlug(deps.db, slug) : undefined;
  return company && companyIsPublic(deps, company) ? toPublicCompany(company, deps.config.publicUrl) : undefined;
}

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

/** Why an account without a subscription cannot claim a custom URL (other settings stay editable). */
export const CLAIM_NEEDS_SUBSCRIPTION = 'Start your free trial to claim a custom URL.';

export function companyRoutes(deps: AppDeps) {
  const { db, config, companyCache } = deps;
  // The enabled rows the quote form offers travel with the company, so the form is usable after
  // this one read (DESIGN.md §9: the hosted page within 3 requests).
  const publicRead = (company: CompanyRow | undefined): PublicCompanyWithCharges => {
    if (!company || !companyIsPublic(deps, company)) throw new NotFound('Company not found');
    return {
      ...toPublicCompany(company, config.publicUrl),
      vehicleTypes: listCharges(db, 'vehicleTypes', company.id, true).map(chargeResources['vehicle-types'].toJson),
      surcharges: listCharges(db, 'surcharges', company.id, true).map(chargeResources.surcharges.toJson),
    };
  };

  return new Hono<AppEnv>()
    .get('/', requireUser, (c) => {
      const company = findCompanyById(db, currentUser(c).companyId);
      if (!company) throw new NotFound('Company not found');
      return c.json(toCompany(company, config.publicUrl));
    })
    .put('/', requireUser, validate('json', companyUpdateSchema), async (c) => {
      const user = currentUser(c);
      const companyId = user.companyId;
      const body = c.req.valid('json');
      const company = findCompanyById(db, companyId);
      if (!company) throw new NotFound('Company not found');
      const patch = toPatch(body);

      if (body.customSlug !== undefined && body.customSlug !== company.customSlug) {
        if (company.customSlug) throw new Conflict('The custom URL is locked and cannot be changed', 'SLUG_LOCKED');
        // A locked URL is for good: only an account that has started its subscription may take
        // one, so unpaid sign-ups cannot squat names. Checked before "taken" so it tells them nothing.
        if (!statusGivesAccess(user, deps.now(), config.billing.mode)) throw new PaymentRequired(CLAIM_NEEDS_SUBSCRIPTION);
        const owner = findCompanyBySlug(db, body.customSlug);
        if (owner && owner.id !== companyId) throw new Conflict('That custom URL is already taken. Please choose another.', 'SLUG_TAKEN');
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
          throw new ValidationFailed('Logo must be a PNG, JPG, GIF or WebP image', { logo: 'Logo must be a PNG, JPG, GIF or WebP image' });
        }
      } catch (err) {
        if (err instanceof Error && /UNIQUE/.test(err.message)) throw new Conflict('That custom URL is already taken. Please choose another.', 'SLUG_TAKEN');
        throw err;
      }
      companyCache.invalidate(companyId);
      return c.json(toCompany(saved, config.publicUrl));
    })
    .get('/slug/:slug', (c) => {
      const slug = c.req.param('slug');
      return c.json(publicRead(isCustomSlug(slug) ? findCompanyBySlug(db, slug) : undefined));
    })
    .get('/:id/logo', (c) => {
      const id = parseId(c.req.param('id'));
      const company = id === undefined ? undefined : findCompanyById(db, id);
      if (!company || !companyIsPublic(deps, company)) throw new NotFound('Company not found');
      const logo = findCompanyLogo(db, id!);
      if (!logo) throw new NotFound('Logo not found');
      const etag = `"${logo.hash.slice(0, 32)}"`;
      const headers = {
        ETag: etag,
        'Cache-Control': c.req.query('v') ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        'Content-Security-Policy': "default-src 'none'",
      };
      if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
      return c.body(new Uint8Array(logo.bytes), 200, { ...headers, 'Content-Type': logo.contentType });
    })
    .get('/:id', (c) => {
      const id = parseId(c.req.param('id'));
      return c.json(publicRead(id === undefined ? undefined : findCompanyById(db, id)));
    });
}

/** The portal sends back the logo URL it was given when the logo did not change. */
function isOurLogoUrl(value: string, companyId: number): boolean {
  return new RegExp(`/api/company/${companyId}/logo(\\?|$)`).test(value);
}
