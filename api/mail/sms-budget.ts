// Texts cost money, so every text has a budget (docs/decisions/030-text-budgets.md). The outbox
// worker asks `admit` once for each text it is about to hand to the SMS provider
// (api/mail/worker.ts); in one write() transaction it answers:
//  - 'refused': a motorist's text to a number we never text (api/mail/textable.ts: one stored
//    before bookings checked it), marked failed, 'not sent: not a number we text';
//  - 'refused': a motorist's text about a booking not yet accepted ("we have your booking",
//    expired, declined), to a number that has had NUMBER_ALLOWANCE such texts today from the
//    whole platform: marked failed, 'not sent: too many texts to this number today';
//  - 'held': the platform (SMS_DAILY_LIMIT) or the company (COMPANY_DAILY_TEXTS) has used its
//    texts for today: kept pending until the next UK midnight, 'not sent: daily text limit
//    reached', and the company's owner is emailed once that day; a held text that could not go
//    by the next midnight within 24 hours of being written is given up then (failed, same words);
//  - 'send': counted (budget_at) against today's budgets and the number's allowance.
// Days are UK days. The counts are the outbox rows counted since the UK midnight, through partial
// indexes on budget_at, so they are durable, right across restarts and across processes sharing
// the file (the count and the mark are one transaction), and cost a few index steps each.
import { NOT_TEXTABLE, NOTICE_KINDS, NUMBER_ALLOWANCE_USED, TEXT_LIMIT_REACHED } from '#shared/leads';
import { PRODUCT_NAME } from '#shared/constants';
import { findUserByCompanyId } from '../auth/store';
import { effectiveStatus } from '../billing/status';
import { findCompanyById } from '../company/store';
import { addDays, londonDate, londonMidnight } from '../engine/calendar/uk-calendar';
import type { Db } from '../platform/db/client';
import { write } from '../platform/db/write';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/http/observability';
import { escapeHtml, type MailContent } from './message';
import { isTextable } from './textable';
import {
  companyTextsCountedSince,
  insertOutboxRows,
  markTextCounted,
  mayMail,
  recordOutcome,
  textKeysToNumberSince,
  textsCountedSince,
  type OutboxRow,
} from './store';

export { NOT_TEXTABLE, NUMBER_ALLOWANCE_USED, TEXT_LIMIT_REACHED };

/** Texts about bookings not yet accepted that one number may get per UK day, from every company together. */
export const NUMBER_ALLOWANCE = 3;
/** A company's texts per UK day (operator's and motorists' together): fewer while the owner is on a trial. */
export const COMPANY_DAILY_TEXTS = { standard: 50, trial: 10 } as const;
/** As the outbox gives up a message (api/mail/worker.ts): a held text is not sent more than a day after it was written. */
const HELD_TEXT_LIFETIME_MS = 24 * 3_600_000;

/** The steps of a job after the operator accepted it: the motorist's texts about them are not counted against the number. */
// A later job's reminder is written only once the job is accepted (api/dispatch/reminders.ts).
const AFTER_ACCEPTANCE: ReadonlySet<string> = new Set(['accepted', 'on_the_way', 'arrived', 'loaded', 'completed', 'reminder']);
const MOTORIST_TEXT = /^booking:\d+:motorist:(.+)$/;
/** The widest choice an operator can make (api/mail/textable.ts): a motorist's number outside it is never texted. */
const ANY_OPERATOR_CHOICE = { irishMobiles: true };

/**
 * Does this text count against its number's daily allowance? A motorist's text about a booking
 * not yet accepted does: anybody can cause one by booking with any number. The operator's own
 * texts (to the number the company chose) and texts about an accepted job do not.
 */
export function countsAgainstNumber(dedupeKey: string): boolean {
  const step = MOTORIST_TEXT.exec(dedupeKey)?.[1];
  return step !== undefined && !AFTER_ACCEPTANCE.has(step);
}

/** The owner's email: the company's texts for today are used up (docs/product.md, "Bookings"). */
export function textLimitNotice(companyName: string, limit: number, publicUrl: string): MailContent {
  const subject = `Texts paused for today: ${companyName} has sent its ${limit} texts`;
  const lines = [
    `${companyName} has sent the ${limit} text messages it may send today on ${PRODUCT_NAME}.`,
    'Further booking texts (to you and to motorists) are held and sent after midnight, UK time; a text still held a day after it was written is not sent.',
    'Bookings still come in, and their emails are sent as usual.',
  ];
  const open = `${publicUrl}/dashboard`;
  return {
    subject,
    text: [...lines, '', `Your jobs: ${open}`, ''].join('\n'),
    html: `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5">${lines
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('')}<p><a href="${escapeHtml(open)}">Your jobs in the Driver Portal</a></p></body></html>`,
  };
}

export interface SmsBudgetOptions {
  db: Db;
  config: Pick<Config, 'mail' | 'publicUrl'> & Partial<Pick<Config, 'smsDailyLimit' | 'billing'>>;
  logger: Pick<Logger, 'warn'>;
}

export type SmsVerdict = 'send' | 'held' | 'refused';

export function smsBudget({ db, config, logger }: SmsBudgetOptions) {
  const platformLimit = config.smsDailyLimit ?? 1000;
  const mailServer = config.mail.smtpUrl !== undefined;
  /** The UK day the platform's limit was last logged as reached: once a day, not once a text. */
  let platformLoggedDay: string | undefined;

  /** The company's texts per day: fewer while its owner is on a trial (a company without an owner, the demo, has the standard). */
  function companyLimit(companyId: number, at: Date): number {
    const owner = findUserByCompanyId(db, companyId);
    return owner && effectiveStatus(owner, at, config.billing?.mode ?? 'local') === 'trialing' ? COMPANY_DAILY_TEXTS.trial : COMPANY_DAILY_TEXTS.standard;
  }

  /** The owner's one email of the day about it (the dedupe key makes a second one impossible). */
  function tellOwner(companyId: number, day: string, limit: number, at: string) {
    const owner = findUserByCompanyId(db, companyId);
    const company = findCompanyById(db, companyId);
    if (!owner || !company) return;
    const verified = mayMail(db, companyId, owner.email);
    insertOutboxRows(db, [
      {
        companyId,
        kind: NOTICE_KINDS[0],
        dedupeKey: `sms-limit:${companyId}:${day}`,
        to: owner.email,
        ...textLimitNotice(company.name, limit, config.publicUrl),
        status: !verified ? 'unverified' : mailServer ? 'pending' : 'unsent',
        attempts: 0,
        nextAttemptAt: verified && mailServer ? at : null,
        createdAt: at,
      },
    ]);
  }

  return {
    /** May the claimed text `r` go to the provider now? Records a hold or a refusal itself. */
    async admit(r: OutboxRow, at: Date): Promise<SmsVerdict> {
      const day = londonDate(at);
      const since = londonMidnight(day).toISOString();
      const atIso = at.toISOString();
      const verdict = await write(db, (): SmsVerdict | 'platform' => {
        // Counted today already: a retry after the provider failed, or a send cut short by a stop.
        if (r.budgetAt !== null && r.budgetAt >= since) return 'send';
        if (MOTORIST_TEXT.test(r.dedupeKey) && !isTextable(r.to, ANY_OPERATOR_CHOICE)) {
          recordOutcome(db, r.id, { status: 'failed', attempts: r.attempts, lastError: NOT_TEXTABLE });
          return 'refused';
        }
        if (countsAgainstNumber(r.dedupeKey) && textKeysToNumberSince(db, r.to, since).filter(countsAgainstNumber).length >= NUMBER_ALLOWANCE) {
          recordOutcome(db, r.id, { status: 'failed', attempts: r.attempts, lastError: NUMBER_ALLOWANCE_USED });
          return 'refused';
        }
        const platformFull = textsCountedSince(db, since) >= platformLimit;
        const limit = platformFull ? 0 : companyLimit(r.companyId, at);
        if (platformFull || companyTextsCountedSince(db, r.companyId, since) >= limit) {
          const tomorrow = londonMidnight(addDays(day, 1));
          if (tomorrow.getTime() >= Date.parse(r.createdAt) + HELD_TEXT_LIFETIME_MS) {
            recordOutcome(db, r.id, { status: 'failed', attempts: r.attempts, lastError: TEXT_LIMIT_REACHED });
          } else {
            recordOutcome(db, r.id, { status: 'pending', attempts: r.attempts, nextAttemptAt: tomorrow.toISOString(), lastError: TEXT_LIMIT_REACHED });
          }
          if (!platformFull) tellOwner(r.companyId, day, limit, atIso);
          return platformFull ? 'platform' : 'held';
        }
        markTextCounted(db, r.id, atIso);
        return 'send';
      });
      if (verdict !== 'platform') return verdict;
      if (platformLoggedDay !== day) {
        platformLoggedDay = day;
        logger.warn({ msg: `SMS_DAILY_LIMIT reached: texts are held until midnight (UK time)`, limit: platformLimit, day });
      }
      return 'held';
    },
  };
}
