// Who a motorist's booking text is from (docs/product.md §20): the company's name leads it only
// once the name has been checked, that is when the company pays (a running, paid subscription:
// statusRules' namesMotoristTexts) and its stored name carries no web address, email address or
// phone number (shared/names.ts; a name saved before that rule may). Otherwise the text is the
// platform's fixed wording (api/bookings/messages.ts), with nothing the company typed: a trial
// sign-up cannot put its own words in front of a stranger's phone by booking its own quote.
import { isPlainName } from '#shared/names';
import { statusRules } from '#shared/subscription';
import { findUserByCompanyId } from '../auth/store';
import { effectiveStatus } from '../billing/status';
import type { Db } from '../platform/db/client';
import type { MotoristSender } from './messages';

export function motoristSender(db: Db, company: { id: number; name: string }, now: Date, mode: 'local' | 'stripe'): MotoristSender {
  const owner = findUserByCompanyId(db, company.id);
  // The demo company has no owner: it is the platform's own.
  const paid = !owner || statusRules(effectiveStatus(owner, now, mode)).namesMotoristTexts;
  return paid && isPlainName(company.name) ? company.name : null;
}
