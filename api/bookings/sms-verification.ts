// The operator's booking text number is confirmed before any alert text goes to it
// (docs/product.md §20, docs/security.md): a 6-digit code is texted to it through the outbox and
// the SMS transport, and typed back in the portal. The code is made when the outbox sends the
// text (withCode, called from api/auth/account-mail.ts's withLink, as an account mail's link
// is), so the outbox only ever holds CODE_PLACEHOLDER; the database keeps its HMAC under a key
// derived from SESSION_SECRET, the number it went to, its expiry (15 minutes) and the wrong tries
// (5, then it is locked and a new code must be asked for). Sends are capped per company and per
// number (api/alerts/verification-allowance.ts). Changing the number un-confirms it.
import { createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { PRODUCT_NAME } from '#shared/constants';
import { SMS_CODE_KIND } from '#shared/leads';
import { takeVerificationSend } from '../alerts/verification-allowance';
import { findCompanyById } from '../company/store';
import type { MailContent } from '../mail/message';
import { insertOutboxRows, type OutboxRow } from '../mail/store';
import { countSmsCodeTry, markSmsNumberConfirmed, storeSmsCode } from './sms-code-store';
import type { Db } from '../platform/db/client';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { Conflict, NotFound, TooManyRequests, ValidationFailed } from '../platform/errors';

export const SMS_CODE_DIGITS = 6;
export const SMS_CODE_MINUTES = 15;
export const SMS_CODE_TRIES = 5;
/** Stands for the code in the stored text until the outbox sends it. */
export const CODE_PLACEHOLDER = '{{code}}';

export const SMS_CODE_TEXT = `${PRODUCT_NAME}: your code to confirm this number for booking texts is ${CODE_PLACEHOLDER}. It works for ${SMS_CODE_MINUTES} minutes. If you did not ask for it, ignore this text.`;
export const NO_SMS_NUMBER = 'There is no booking text number to confirm. Save one first.';
export const SMS_ALREADY_CONFIRMED = 'This number is already confirmed.';
export const SMS_NOT_CONFIGURED = 'Texts cannot be sent: no SMS provider is configured.';
export const SMS_CODE_WRONG = 'That code is not right. Please check the text and try again.';
export const SMS_CODE_EXPIRED = 'This code has expired or was not sent. Please ask for a new one.';
export const SMS_CODE_LOCKED = 'Too many wrong codes. Please ask for a new one.';

const STORE_KEY = 'sms-code:key';

/** The code's HMAC key, kept on the database's store object by the booking service (which has SESSION_SECRET) for the outbox to use. */
export function registerSmsCodeKey(db: Pick<Db, '$store'>, sessionSecret: string): void {
  db.$store.statements.set(STORE_KEY, Buffer.from(hkdfSync('sha256', sessionSecret, 'recovery-quote', 'sms codes', 32)));
}

function codeKey(db: Pick<Db, '$store'>): Buffer {
  const key = db.$store.statements.get(STORE_KEY);
  if (!(key instanceof Buffer)) throw new Error('The SMS code key is not registered on this database (bookingService registers it)');
  return key;
}

/** The stored form of `code` for the company and number: a keyed hash, so a copy of the database does not give the code. */
const codeHash = (db: Pick<Db, '$store'>, companyId: number, to: string, code: string) =>
  createHmac('sha256', codeKey(db)).update(`${companyId}:${to}:${code}`).digest('base64url');

/**
 * The text to send for a claimed code row: a fresh code, its hash stored on the company with its
 * expiry and no tries yet (any earlier code stops working). Run inside write().
 */
export function withCode(db: Db, row: OutboxRow, now: Date): MailContent {
  const code = String(randomInt(0, 10 ** SMS_CODE_DIGITS)).padStart(SMS_CODE_DIGITS, '0');
  storeSmsCode(db, row.companyId, {
    hash: codeHash(db, row.companyId, row.to, code),
    to: row.to,
    expiresAt: new Date(now.getTime() + SMS_CODE_MINUTES * 60_000).toISOString(),
  });
  const fill = (text: string) => text.replaceAll(CODE_PLACEHOLDER, code);
  return { subject: fill(row.subject), text: fill(row.text), html: '' };
}

/** Is `row` a code to send (its code made at sending)? */
export const isSmsCodeRow = (row: Pick<OutboxRow, 'kind'>) => row.kind === SMS_CODE_KIND;

export function smsVerification(deps: Pick<AppDeps, 'db' | 'config' | 'now' | 'events'>) {
  const { db, config } = deps;
  const smsReady = config.sms !== undefined;
  registerSmsCodeKey(db, config.sessionSecret);

  const ownCompany = (companyId: number) => {
    const company = findCompanyById(db, companyId);
    if (!company) throw new NotFound('Company not found');
    return company;
  };

  return {
    /** Texts a new code to the company's booking text number (429 past the allowance). */
    async sendCode(companyId: number): Promise<{ success: true; smsNumber: string }> {
      const at = deps.now();
      const number = await write(db, () => {
        const company = ownCompany(companyId);
        const to = company.bookingSmsNumber;
        if (!to) throw new Conflict(NO_SMS_NUMBER, 'NO_SMS_NUMBER');
        if (company.bookingSmsVerifiedAt) throw new Conflict(SMS_ALREADY_CONFIRMED, 'ALREADY_VERIFIED');
        if (!smsReady) throw new Conflict(SMS_NOT_CONFIGURED, 'SMS_NOT_CONFIGURED');
        takeVerificationSend(db, companyId, 'sms', to, at);
        // The code sent before stops working now; the new one is made as it is sent.
        storeSmsCode(db, companyId, null);
        insertOutboxRows(db, [
          {
            companyId,
            kind: SMS_CODE_KIND,
            channel: 'sms',
            dedupeKey: `${SMS_CODE_KIND}:${companyId}:${randomBytes(9).toString('base64url')}`,
            to,
            subject: SMS_CODE_TEXT.slice(0, 120),
            text: SMS_CODE_TEXT,
            html: '',
            status: 'pending',
            attempts: 0,
            nextAttemptAt: at.toISOString(),
            createdAt: at.toISOString(),
          },
        ]);
        return to;
      });
      // Sent now, not at the outbox's next tick.
      return { success: true, smsNumber: number };
    },

    /**
     * The code typed back: right, the number is confirmed; wrong, one try is counted (the fifth
     * locks the code); expired, locked or never sent, refused with nothing changed.
     */
    async confirmCode(companyId: number, code: string): Promise<{ success: true; smsNumber: string }> {
      const at = deps.now();
      const outcome = await write(db, () => {
        const company = ownCompany(companyId);
        const to = company.bookingSmsNumber;
        if (!to) throw new Conflict(NO_SMS_NUMBER, 'NO_SMS_NUMBER');
        if (company.bookingSmsVerifiedAt) throw new Conflict(SMS_ALREADY_CONFIRMED, 'ALREADY_VERIFIED');
        const live =
          company.bookingSmsCodeHash &&
          company.bookingSmsCodeTo === to &&
          company.bookingSmsCodeExpiresAt &&
          Date.parse(company.bookingSmsCodeExpiresAt) > at.getTime();
        if (!live || !company.bookingSmsCodeHash) throw new ValidationFailed(SMS_CODE_EXPIRED, { code: SMS_CODE_EXPIRED }, 'SMS_CODE_EXPIRED');
        if (company.bookingSmsCodeTries >= SMS_CODE_TRIES) throw new TooManyRequests(SMS_CODE_LOCKED, undefined, 'SMS_CODE_LOCKED');
        const expected = Buffer.from(company.bookingSmsCodeHash);
        const given = Buffer.from(codeHash(db, companyId, to, code));
        if (expected.length === given.length && timingSafeEqual(expected, given)) {
          markSmsNumberConfirmed(db, companyId, at.toISOString());
          return { ok: true as const, to };
        }
        // Counted in this transaction, and answered after it commits.
        countSmsCodeTry(db, companyId, company.bookingSmsCodeTries + 1);
        return { ok: false as const };
      });
      if (!outcome.ok) throw new ValidationFailed(SMS_CODE_WRONG, { code: SMS_CODE_WRONG }, 'SMS_CODE_WRONG');
      return { success: true, smsNumber: outcome.to };
    },
  };
}
