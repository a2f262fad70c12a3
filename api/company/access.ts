// Whether a company's public reads, page, widget and quotes work now (docs/architecture.md §4): the rule
// itself is isLive (api/quotes/company-config.ts), read from the cached configuration.
import { findCompanyById, type CompanyRow } from './store';
import type { AppDeps } from '../platform/deps';
import { NotFound } from '../platform/errors';
import { isLive } from '../quotes/company-config';
import { parseId } from '../platform/http/validate';

type AccessDeps = Pick<AppDeps, 'companyCache' | 'now' | 'config'>;

export function companyIsPublic(deps: AccessDeps, company: CompanyRow): boolean {
  const config = deps.companyCache.byId(company.id);
  return config !== undefined && isLive(config, deps.now(), deps.config.billing.mode);
}

/** The live company a public path's id names; any other id is the same 404 as a missing company. */
export function livePublicCompany(deps: AccessDeps & Pick<AppDeps, 'db'>, rawId: string): CompanyRow {
  const id = parseId(rawId);
  const company = id === undefined ? undefined : findCompanyById(deps.db, id);
  if (!company || !companyIsPublic(deps, company)) throw new NotFound('Company not found');
  return company;
}
