// Whether a company's public reads, page, widget and quotes work now (docs/architecture.md §4): the rule
// itself is isLive (api/quotes/company-config.ts), read from the cached configuration.
import { findCompanyById, type CompanyRow } from './store';
import type { AppDeps } from '../platform/deps';
import { NotFound } from '../platform/errors';
import { onlineQuotes } from '../quotes/company-config';
import type { OnlineQuotes } from '#shared/share';
import { parseId } from '../platform/http/validate';

type AccessDeps = Pick<AppDeps, 'companyCache' | 'now' | 'config'>;

/** Whether the company's page quotes now: open, paused (no access) or not set up (no number to reach it by). */
export function companyOnlineQuotes(deps: AccessDeps, company: CompanyRow): OnlineQuotes {
  const config = deps.companyCache.byId(company.id);
  return config === undefined ? 'paused' : onlineQuotes(config, deps.now(), deps.config.billing.mode);
}

/** Prices and charge lists are public only while the company's page quotes. */
export function companyIsPublic(deps: AccessDeps, company: CompanyRow): boolean {
  return companyOnlineQuotes(deps, company) === 'open';
}

/** The live company a public path's id names; any other id is the same 404 as a missing company. */
export function livePublicCompany(deps: AccessDeps & Pick<AppDeps, 'db'>, rawId: string): CompanyRow {
  const company = knownCompany(deps.db, rawId);
  if (!companyIsPublic(deps, company)) throw new NotFound('Company not found');
  return company;
}

/** The company a public path's id names, whatever its state; a malformed id is the same 404 as a missing one. */
export function knownCompany(db: AppDeps['db'], rawId: string): CompanyRow {
  const id = parseId(rawId);
  const company = id === undefined ? undefined : findCompanyById(db, id);
  if (!company) throw new NotFound('Company not found');
  return company;
}
