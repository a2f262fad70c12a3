// The operator's alert and retention settings, and the alerts the outbox holds for them
// (decision 016). The worker that writes and sends the alerts is api/mail/worker.ts.
import type { z } from 'zod';
import type { leadSettingsUpdateSchema } from '#shared/schemas';
import type { Alert, LeadSettings } from '#shared/types';
import { findCompanyById, updateCompany, type CompanyPatch, type CompanyRow } from '../company/store';
import { alertAddresses, newestOutboxRows, type OutboxRow } from '../mail/store';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { Conflict, NotFound } from '../platform/errors';
import { findUserByCompanyId, type UserRow } from '../auth/store';
import type { RecoveryService } from '../auth/recovery';
import { alertRecipient } from './recipient';

/** How many alerts the portal lists. */
const RECENT_ALERTS = 20;

const toAlert = (r: OutboxRow): Alert => ({
  id: r.id,
  kind: r.kind as Alert['kind'],
  channel: r.channel,
  to: r.to,
  subject: r.subject,
  status: r.status,
  attempts: r.attempts,
  createdAt: r.createdAt,
  sentAt: r.sentAt,
  lastError: r.lastError,
});

export function alertService(
  deps: Pick<AppDeps, 'db' | 'config'>,
  recovery: Pick<RecoveryService, 'needsAlertVerification' | 'queueAlertVerification' | 'resendAlertVerification' | 'isVerifiedRecipient'>,
) {
  const { db, config } = deps;
  const mailConfigured = config.mail.smtpUrl !== undefined;

  function toSettings(company: CompanyRow): LeadSettings {
    const addresses = alertAddresses(db, company.id);
    const recipient = addresses ? alertRecipient(addresses) : null;
    return {
      alertMode: company.alertMode,
      alertEmail: company.alertEmail,
      alertRecipient: recipient,
      retentionMonths: company.retentionMonths,
      mailConfigured,
      accountVerified: findUserByCompanyId(db, company.id)?.emailVerifiedAt != null,
      alertRecipientVerified: recovery.isVerifiedRecipient(company.id, recipient),
    };
  }

  const ownCompany = (companyId: number) => {
    const company = findCompanyById(db, companyId);
    if (!company) throw new NotFound('Company not found');
    return company;
  };

  return {
    settings: (companyId: number): LeadSettings => toSettings(ownCompany(companyId)),

    /**
     * Changes the given settings; `alertEmail: null` (or blank) goes back to the company email.
     * A new alert address the owner has not verified is sent a link: its alerts wait until then.
     */
    async update(user: UserRow & { companyId: number }, body: z.output<typeof leadSettingsUpdateSchema>): Promise<LeadSettings> {
      const { companyId } = user;
      const patch: CompanyPatch = {};
      if (body.alertMode !== undefined) patch.alertMode = body.alertMode;
      if (body.alertEmail !== undefined) patch.alertEmail = body.alertEmail;
      if (body.retentionMonths !== undefined) patch.retentionMonths = body.retentionMonths;
      if (Object.keys(patch).length === 0) return toSettings(ownCompany(companyId));
      const before = ownCompany(companyId).alertEmail;
      // One transaction: the new address and its link, or (past the allowance, 429) neither.
      const company = await write(db, () => {
        const updated = updateCompany(db, companyId, patch);
        const to = updated.alertEmail;
        if (to && to.toLowerCase() !== before?.toLowerCase() && recovery.needsAlertVerification(user, to)) recovery.queueAlertVerification(user, to);
        return updated;
      });
      return toSettings(company);
    },

    /** "Send a verification link" beside an alert address that waits for one. */
    async verifyRecipient(user: UserRow & { companyId: number }): Promise<{ success: true; email: string }> {
      const addresses = alertAddresses(db, user.companyId);
      const recipient = addresses ? alertRecipient(addresses) : null;
      const sentTo = await recovery.resendAlertVerification(user, recipient);
      if (!sentTo) throw new Conflict('There is no alert address waiting to be verified.', 'ALREADY_VERIFIED');
      return { success: true, email: sentTo };
    },

    recent: (companyId: number): Alert[] => newestOutboxRows(db, companyId, RECENT_ALERTS).map(toAlert),
  };
}

export type AlertService = ReturnType<typeof alertService>;
