// One Xero organisation per company (docs/product.md §26, decision 051): the owner connects their
// own through Xero's OAuth 2.0 authorisation code flow with the platform's app (XERO_CLIENT_ID,
// XERO_CLIENT_SECRET). The state in Xero's URL is 256 random bits, only its SHA-256 stored, for
// 10 minutes, for this company, used once. The code is exchanged at the token endpoint; the tenant
// is the organisation Xero's /connections lists for the new token (the one last authorised). The
// refresh token is kept sealed (api/platform/sealed-secret.ts) and replaced by the new one at every
// refresh, one refresh at a time per company; the access token lives in memory until a minute
// before it expires. Every call carries the client secret or a token, so none follows a redirect
// (xeroFetch). Disconnecting revokes the refresh token at Xero and forgets it here.
import { createHash, randomBytes } from 'node:crypto';
import {
  XERO_CALLBACK_INCOMPLETE,
  XERO_NO_ORGANISATION,
  XERO_NOT_CONFIGURED,
  XERO_NOT_CONNECTED,
  XERO_RECONNECT,
  XERO_REFUSED,
  XERO_STATE_INVALID,
  type XeroStatus,
} from '#shared/accounts';
import type { XeroConfig } from '../platform/config';
import type { Db } from '../platform/db/client';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { Conflict, ServiceUnavailable, ValidationFailed } from '../platform/errors';
import { secretBox } from '../platform/sealed-secret';
import { XeroUnavailable, xeroClient, xeroFetch, type XeroClient } from './xero';

/** How long the owner has to come back from Xero's consent page. */
export const XERO_STATE_TTL_MS = 10 * 60_000;
/** An access token is renewed this long before Xero's expiry, so it never expires between the check and the call. */
const EARLY_MS = 60_000;

export interface ConnectionRow {
  companyId: number;
  tenantId: string;
  tenantName: string;
  refreshTokenSealed: string | null;
  bankAccountCode: string;
  salesAccountCode: string;
  cardContactId: string | null;
  connectedAt: string;
  lastSyncAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
}

const SELECT = `select company_id as companyId, tenant_id as tenantId, tenant_name as tenantName, refresh_token_sealed as refreshTokenSealed,
  bank_account_code as bankAccountCode, sales_account_code as salesAccountCode, card_contact_id as cardContactId, connected_at as connectedAt,
  last_sync_at as lastSyncAt, last_error as lastError, last_error_at as lastErrorAt from xero_connections`;

export const connectionOf = (db: Db, companyId: number): ConnectionRow | undefined =>
  db.$client.prepare(`${SELECT} where company_id = ?`).get(companyId) as ConnectionRow | undefined;

/** The companies connected now. */
export const connectedCompanies = (db: Db): number[] =>
  db.$client.prepare('select company_id from xero_connections where refresh_token_sealed is not null order by company_id').pluck().all() as number[];

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

/** Another organisation than the one the company's Xero ids were made in: those ids mean nothing there, so everything is sent afresh. */
function forgetXeroIds(db: Db, companyId: number): void {
  const run = (sql: string) => db.$client.prepare(sql).run(companyId);
  run('update trade_accounts set xero_contact_id = null where company_id = ?');
  run('update account_invoices set xero_invoice_id = null where company_id = ?');
  run('update account_payments set xero_payment_id = null where company_id = ?');
  run('delete from xero_credit_notes where document_id in (select id from documents where company_id = ?)');
  run('delete from xero_card_refunds where company_id = ?');
  run('delete from xero_card_jobs where company_id = ?');
}

interface TokenAnswer {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  /** OAuth's error code when refused: `invalid_grant` for a code or refresh token no longer good. */
  error?: string;
}

export function xeroConnections(deps: Pick<AppDeps, 'db' | 'config' | 'now' | 'logger'>) {
  const { db, config, now, logger } = deps;
  const box = secretBox(config.sessionSecret, 'xero refresh token at rest');
  const access = new Map<number, { value: string; until: number }>();
  const refreshing = new Map<number, Promise<string>>();

  function app(): XeroConfig {
    if (!config.xero) throw new Conflict(XERO_NOT_CONFIGURED, 'XERO_NOT_CONFIGURED');
    return config.xero;
  }

  /** The token endpoint, with the app's credentials: a code or a refresh token for a new pair of tokens. */
  async function tokens(xero: XeroConfig, form: Record<string, string>, signal?: AbortSignal): Promise<{ status: number; body: TokenAnswer }> {
    const basic = Buffer.from(`${xero.clientId}:${xero.clientSecret}`).toString('base64');
    const res = await xeroFetch(
      xero.tokenUrl,
      {
        method: 'POST',
        headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: new URLSearchParams(form).toString(),
      },
      signal,
    );
    const body = (await res.json().catch(() => ({}))) as TokenAnswer;
    return { status: res.status, body };
  }

  /** Revokes a refresh token at Xero (ending its connection there); a failure is logged, never kept. */
  async function revoke(xero: XeroConfig, companyId: number, refreshToken: string): Promise<void> {
    const basic = Buffer.from(`${xero.clientId}:${xero.clientSecret}`).toString('base64');
    try {
      const res = await xeroFetch(xero.revokeUrl, {
        method: 'POST',
        headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: refreshToken }).toString(),
      });
      if (!res.ok) logger.warn({ msg: 'Xero did not revoke a company’s refresh token', companyId, status: res.status });
    } catch (err) {
      logger.warn({ msg: 'Xero did not revoke a company’s refresh token', companyId, error: err instanceof Error ? err.message : String(err) });
    }
  }

  const keep = (companyId: number, body: TokenAnswer) => {
    const value = body.access_token ?? '';
    access.set(companyId, { value, until: now().getTime() + Math.max((body.expires_in ?? 1800) * 1000 - EARLY_MS, 0) });
    return value;
  };

  async function refresh(companyId: number, signal?: AbortSignal): Promise<string> {
    const xero = app();
    const row = connectionOf(db, companyId);
    const refreshToken = row?.refreshTokenSealed ? box.open(row.refreshTokenSealed) : undefined;
    if (!row?.refreshTokenSealed) throw new XeroUnavailable(XERO_NOT_CONNECTED);
    if (!refreshToken) return dropConnection(companyId);
    const answer = await tokens(xero, { grant_type: 'refresh_token', refresh_token: refreshToken }, signal);
    // Xero refuses a refresh token revoked, expired (60 days unused) or already used: only connecting
    // again mends it. Any other refusal (the app's own credentials wrong) is the platform's to mend.
    if (answer.status === 400 && answer.body.error === 'invalid_grant') return dropConnection(companyId);
    if (answer.status !== 200 || !answer.body.access_token || !answer.body.refresh_token)
      throw new XeroUnavailable(`Xero could not refresh the connection (${answer.status})`);
    const sealed = box.seal(answer.body.refresh_token);
    // The old refresh token is spent: the new one is stored before the access token is used.
    await write(db, () =>
      db.$client
        .prepare('update xero_connections set refresh_token_sealed = ?, updated_at = ? where company_id = ?')
        .run(sealed, now().toISOString(), companyId),
    );
    return keep(companyId, answer.body);
  }

  async function dropConnection(companyId: number): Promise<never> {
    access.delete(companyId);
    const at = now().toISOString();
    await write(db, () =>
      db.$client
        .prepare('update xero_connections set refresh_token_sealed = null, last_error = ?, last_error_at = ?, updated_at = ? where company_id = ?')
        .run(XERO_RECONNECT, at, at, companyId),
    );
    logger.warn({ msg: 'Xero refused a company’s connection; the owner connects again', companyId });
    throw new XeroUnavailable(XERO_RECONNECT);
  }

  /** The access token, refreshed when due; concurrent callers share one refresh, since each refresh spends the refresh token. */
  function accessToken(companyId: number, signal?: AbortSignal): Promise<string> {
    const held = access.get(companyId);
    if (held && held.until > now().getTime()) return Promise.resolve(held.value);
    let pending = refreshing.get(companyId);
    if (!pending) {
      pending = refresh(companyId, signal).finally(() => refreshing.delete(companyId));
      refreshing.set(companyId, pending);
    }
    return pending;
  }

  function status(companyId: number): XeroStatus {
    const row = connectionOf(db, companyId);
    const connected = Boolean(row?.refreshTokenSealed);
    return {
      configured: Boolean(config.xero),
      connected,
      organisation: connected && row ? row.tenantName : null,
      connectedAt: connected && row ? row.connectedAt : null,
      bankAccountCode: row?.bankAccountCode ?? config.xero?.bankAccountCode ?? null,
      salesAccountCode: row?.salesAccountCode ?? null,
      lastSyncAt: row?.lastSyncAt ?? null,
      lastError: row?.lastError ?? null,
      lastErrorAt: row?.lastErrorAt ?? null,
    };
  }

  return {
    status,

    /** Where the owner's browser goes to consent: Xero's authorisation page with a fresh single-use state. */
    async start(companyId: number, userId: number, input: { bankAccountCode?: string }): Promise<{ url: string }> {
      const xero = app();
      const state = randomBytes(32).toString('base64url');
      const at = now();
      await write(db, () => {
        db.$client.prepare('delete from xero_auth_states where expires_at <= ?').run(at.toISOString());
        db.$client
          .prepare('insert into xero_auth_states (state_hash, company_id, user_id, bank_account_code, expires_at) values (?, ?, ?, ?, ?)')
          .run(hashState(state), companyId, userId, input.bankAccountCode ?? xero.bankAccountCode, new Date(at.getTime() + XERO_STATE_TTL_MS).toISOString());
      });
      const url = new URL(xero.authorizeUrl);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: xero.clientId,
        redirect_uri: xero.redirectUri,
        scope: xero.scopes,
        state,
      }).toString();
      return { url: url.toString() };
    },

    /**
     * Xero sends the owner back here. The state must be one this company started, unexpired and
     * unused (it is used up either way); Xero's refusal (the owner cancelled) changes nothing else.
     */
    async callback(companyId: number, userId: number, query: { code?: string; state?: string; error?: string }): Promise<'connected' | 'cancelled'> {
      const xero = app();
      if (!query.state) throw new ValidationFailed(XERO_CALLBACK_INCOMPLETE, { state: XERO_CALLBACK_INCOMPLETE });
      const stateHash = hashState(query.state);
      const at = now();
      const pending = await write(
        db,
        () =>
          db.$client
            .prepare(
              'delete from xero_auth_states where state_hash = ? and company_id = ? returning bank_account_code as bankAccountCode, expires_at as expiresAt',
            )
            .get(stateHash, companyId) as { bankAccountCode: string; expiresAt: string } | undefined,
      );
      if (!pending || pending.expiresAt <= at.toISOString())
        throw new ValidationFailed(XERO_STATE_INVALID, { state: XERO_STATE_INVALID }, 'XERO_STATE_INVALID');
      if (query.error) return 'cancelled';
      if (!query.code) throw new ValidationFailed(XERO_CALLBACK_INCOMPLETE, { code: XERO_CALLBACK_INCOMPLETE });
      let answer: { status: number; body: TokenAnswer };
      let tenant: { tenantId: string; tenantName: string } | undefined;
      try {
        answer = await tokens(xero, { grant_type: 'authorization_code', code: query.code, redirect_uri: xero.redirectUri });
        if (answer.status >= 500) throw new XeroUnavailable(`Xero answered ${answer.status}`);
        if (answer.status !== 200 || !answer.body.access_token || !answer.body.refresh_token) throw new Conflict(XERO_REFUSED, 'XERO_REFUSED');
        const res = await xeroFetch(xero.connectionsUrl, {
          headers: { Authorization: `Bearer ${answer.body.access_token}`, Accept: 'application/json' },
        });
        if (!res.ok) throw new XeroUnavailable(`Xero answered ${res.status} to its connections`);
        const listed = (await res.json()) as { tenantId?: string; tenantType?: string; tenantName?: string; updatedDateUtc?: string }[];
        // The organisation just authorised is the one whose connection was last updated.
        tenant = listed
          .filter((c) => c.tenantType === 'ORGANISATION' && c.tenantId)
          .sort((a, b) => (b.updatedDateUtc ?? '').localeCompare(a.updatedDateUtc ?? ''))
          .map((c) => ({ tenantId: c.tenantId as string, tenantName: c.tenantName ?? 'Xero organisation' }))[0];
      } catch (err) {
        if (err instanceof XeroUnavailable) throw new ServiceUnavailable(err.message, 'XERO_UNAVAILABLE');
        throw err;
      }
      if (!tenant) throw new Conflict(XERO_NO_ORGANISATION, 'XERO_REFUSED');
      const chosen = tenant;
      const sealed = box.seal(answer.body.refresh_token as string);
      const iso = at.toISOString();
      const replaced = connectionOf(db, companyId)?.refreshTokenSealed;
      await write(db, () => {
        const before = connectionOf(db, companyId);
        const sameOrganisation = before?.tenantId === chosen.tenantId;
        if (before && !sameOrganisation) forgetXeroIds(db, companyId);
        db.$client
          .prepare(
            `insert into xero_connections (company_id, tenant_id, tenant_name, refresh_token_sealed, bank_account_code, connected_at, connected_by, updated_at)
             values (@companyId, @tenantId, @tenantName, @sealed, @bank, @at, @userId, @at)
             on conflict (company_id) do update set tenant_id = @tenantId, tenant_name = @tenantName, refresh_token_sealed = @sealed,
               bank_account_code = @bank, connected_by = @userId, last_error = null, last_error_at = null, updated_at = @at,
               connected_at = case when @same then connected_at else @at end,
               card_contact_id = case when @same then card_contact_id else null end`,
          )
          .run({ companyId, ...chosen, sealed, bank: pending.bankAccountCode, at: iso, userId, same: sameOrganisation ? 1 : 0 });
      });
      keep(companyId, answer.body);
      // Connected again over a live connection: the replaced refresh token is revoked, not left working.
      const old = replaced ? box.open(replaced) : undefined;
      if (old) await revoke(xero, companyId, old);
      return 'connected';
    },

    /** Revokes the refresh token at Xero (which ends the connection there) and forgets it here; Xero unreachable is logged, never kept. */
    async disconnect(companyId: number): Promise<XeroStatus> {
      const xero = app();
      const row = connectionOf(db, companyId);
      const refreshToken = row?.refreshTokenSealed ? box.open(row.refreshTokenSealed) : undefined;
      if (refreshToken) await revoke(xero, companyId, refreshToken);
      access.delete(companyId);
      if (row) {
        await write(db, () =>
          db.$client
            .prepare('update xero_connections set refresh_token_sealed = null, updated_at = ? where company_id = ?')
            .run(now().toISOString(), companyId),
        );
      }
      return status(companyId);
    },

    /** The company's organisation for the sync, or undefined when it is not connected. */
    client(companyId: number): { client: XeroClient; connection: ConnectionRow } | undefined {
      const xero = config.xero;
      const connection = connectionOf(db, companyId);
      if (!xero || !connection?.refreshTokenSealed) return undefined;
      return {
        connection,
        client: xeroClient({
          apiUrl: xero.apiUrl,
          tenantId: connection.tenantId,
          bankAccountCode: connection.bankAccountCode,
          accessToken: (signal) => accessToken(companyId, signal),
          tokenRefused: () => access.delete(companyId),
        }),
      };
    },
  };
}

export type XeroConnections = ReturnType<typeof xeroConnections>;
