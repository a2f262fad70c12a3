// The operator's alert and retention settings, and the alerts the outbox holds for them
// (decision 016). The worker that writes and sends the alerts is api/mail/worker.ts.
import type { z } from 'zod';
import type { leadSettingsUpdateSchema } from '../../shared/schemas';
import type { Alert, LeadSettings } from '../../shared/types';
import { findCompanyById, updateCompany, type CompanyPatch, type CompanyRow } from '../company/store';
import { alertAddresses, newestOutboxRows, type OutboxRow } from '../mail/store';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { NotFound } from '../platform/errors';
import { alertRecipient } from './recipient';

/** How many alerts the portal lists. */
const RECENT_ALERTS = 20;

const toAlert = (r: OutboxRow): Alert => ({
  id: r.id,
  kind: r.kind,
  channel: r.channel,
  to: r.to,
  subject: r.subject,
  status: r.status,
  attempts: r.attempts,
  createdAt: r.createdAt,
  sentAt: r.sentAt,
  lastError: r.lastError,
});

export function alertService(deps: Pick<AppDeps, 'db' | 'config'>) {
  const { db, config } = deps;
  const mailConfigured = config.mail.smtpUrl !== undefined;

  function toSettings(company: CompanyRow): LeadSettings {
    const addresses = alertAddresses(db, company.id);
    return {
      alertMode: company.alertMode,
      alertEmail: company.alertEmail,
      alertRecipient: addresses ? alertRecipient(addresses) : null,
      retentionMonths: company.retentionMonths,
      mailConfigured,
    };
  }

  const ownCompany = (companyId: number) => {
    const company = findCompanyById(db, companyId);
    if (!company) throw new NotFound('Company not found');
    return company;
  };

  return {
    settings: (companyId: number): LeadSettings => toSettings(ownCompany(companyId)),

    /** Changes the given settings; `alertEmail: null` (or blank) goes back to the company email. */
    async update(companyId: number, body: z.output<typeof leadSettingsUpdateSchema>): Promise<LeadSettings> {
      const patch: CompanyPatch = {};
      if (body.alertMode !== undefined) patch.alertMode = body.alertMode;
      if (body.alertEmail !== undefined) patch.alertEmail = body.alertEmail;
      if (body.retentionMonths !== undefined) patch.retentionMonths = body.retentionMonths;
      if (Object.keys(patch).length === 0) return toSettings(ownCompany(companyId));
      return toSettings(await write(db, () => updateCompany(db, companyId, patch)));
    },

    recent: (companyId: number): Alert[] => newestOutboxRows(db, companyId, RECENT_ALERTS).map(toAlert),
  };
}

export type AlertService = ReturnType<typeof alertService>;
