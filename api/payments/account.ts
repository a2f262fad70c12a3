// The operator's payment settings (docs/product.md §21): the rule (deposit, full price, hold),
// and the payment account: connected through the provider's onboarding, its state synced, or
// local mode's stand-in account.
import { randomBytes } from 'node:crypto';
import { poundsToPence } from '#shared/money';
import type { PaymentRuleUpdate, PaymentSettings } from '#shared/payment-schemas';
import { findCompanyById } from '../company/store';
import { findUserById } from '../auth/store';
import { write } from '../platform/db/write';
import { NotFound } from '../platform/errors';
import { applyAccountState, saveSettings, settingsOf } from './store';
import type { PaymentContext } from './context';

export function accountPart(ctx: PaymentContext) {
  const { db, now, provider, view } = ctx;

  return {
    mode: provider.mode,
    provider,

    settings: view,

    async setRule(companyId: number, body: PaymentRuleUpdate): Promise<PaymentSettings> {
      const fixed = body.rule === 'deposit' && body.depositType === 'fixed';
      const percent = body.rule === 'deposit' && body.depositType === 'percent';
      await write(db, () =>
        saveSettings(
          db,
          companyId,
          {
            rule: body.rule,
            depositPence: fixed && body.depositAmount !== undefined ? poundsToPence(body.depositAmount) : null,
            depositPercent: percent ? (body.depositPercent ?? null) : null,
            hold: body.rule !== 'none' && (body.hold ?? false),
          },
          now().toISOString(),
        ),
      );
      return view(companyId);
    },

    /** Where the operator goes to connect (or finish connecting) their payment account. */
    async connect(companyId: number, userId: number): Promise<string> {
      const row = settingsOf(db, companyId);
      let accountId = row?.accountId && !row.disconnected ? row.accountId : null;
      if (!accountId) {
        const company = findCompanyById(db, companyId);
        if (!company) throw new NotFound('Company not found');
        accountId = await provider.createAccount({ id: companyId, name: company.name, email: company.email ?? findUserById(db, userId)?.email ?? null });
        const created = accountId;
        await write(db, () =>
          saveSettings(
            db,
            companyId,
            {
              provider: provider.mode,
              accountId: created,
              chargesEnabled: false,
              detailsSubmitted: false,
              disabledReason: null,
              disconnected: false,
              accountSyncedAt: null,
            },
            now().toISOString(),
          ),
        );
      }
      return provider.onboardingUrl(accountId);
    },

    /**
     * The account's state as the provider has it now (the operator is back from onboarding, maybe
     * before its `account.updated`), applied as the newest state; 503 when the provider is down.
     * Local mode's account is whatever its connect page set.
     */
    async syncAccount(companyId: number): Promise<PaymentSettings> {
      const row = settingsOf(db, companyId);
      const accountId = row?.accountId;
      if (accountId && !row.disconnected && row.provider === 'stripe' && provider.mode === 'stripe') {
        const snapshot = await provider.account(accountId);
        await write(db, () => applyAccountState(db, accountId, snapshot, Math.floor(now().getTime() / 1000), now().toISOString()));
      }
      return view(companyId);
    },

    /** Local mode's connect page: the stand-in account is ready at once, or disconnected. */
    async localAccount(companyId: number, action: 'connect' | 'disconnect') {
      // Only local mode's stand-in: in Stripe mode an account is ready only when Stripe says so.
      if (provider.mode !== 'local') throw new NotFound('Not found');
      const row = settingsOf(db, companyId);
      const accountId = row?.accountId ?? `acct_local_${randomBytes(12).toString('hex')}`;
      const state =
        action === 'connect'
          ? { provider: 'local' as const, accountId, chargesEnabled: true, detailsSubmitted: true, disabledReason: null, disconnected: false }
          : { provider: 'local' as const, accountId, disconnected: true };
      await write(db, () => saveSettings(db, companyId, { ...state, accountSyncedAt: Math.floor(now().getTime() / 1000) }, now().toISOString()));
    },
  };
}
