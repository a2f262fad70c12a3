// The durable mail outbox's worker (decision 016), for texts too (a booking's alert and the
// motorist's service messages, through api/mail/sms-transport.ts, with the same guarantees): a job of the job runner
// (api/platform/jobs/runner.ts), which runs it every 2 s and says when the server is busy. Each tick it
//  1. turns quotes past its marker into outbox rows for companies alerted for each quote,
//  2. after 08:00 UK time, writes yesterday's summary for companies on the daily summary,
//  3. sends the rows that are due over SMTP, retrying refusals with a doubling backoff for 24 hours.
// The quote path never waits for any of it: quotes are read here after they are committed.
// Every step is one write() transaction, so a crash between steps loses nothing and repeats
// nothing: the unique dedupe key refuses a second row for the same quote or day.
import { DAILY_SUMMARY_HOUR } from '#shared/leads';
import { alertRecipient } from '../alerts/recipient';
import type { Db } from '../platform/db/client';
import {
  claimDueRow,
  companiesWithAlertMode,
  insertOutboxRows,
  lastQuoteId,
  mayMail,
  quotesCreatedBetween,
  quotesEarlierInHour,
  quotesOfModeBetween,
  recordOutcome,
  upsertDigestRow,
  type NewOutboxRow,
  type OutboxOutcome,
  type OutboxRow,
} from './store';
import { readJobMarker, writeJobMarker } from '../platform/jobs/job-state';
import { write } from '../platform/db/write';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/http/observability';
import { addDays, londonMidnight } from '../engine/calendar/uk-calendar';
import { dueDay, type IntervalJob, type JobContext } from '../platform/jobs/runner';
import { ALERT_MAILS_PER_HOUR, dailySummary, quoteAlert, quoteDigest, SUMMARY_LIST_LIMIT, type MailContent } from './message';
import { findUserByCompanyId } from '../auth/store';
import { statusGivesAccess } from '../billing/status';
import { ALERT_KINDS, isMotoristMessage } from '#shared/leads';
import { smtpTransport, type MailTransport } from './transport';
import { withLink } from '../auth/account-mail';
import { SmsRefused, twilioTransport, type SmsTransport } from './sms-transport';
import { smsBudget } from './sms-budget';
import type { AlertChannel } from '#shared/leads';

/** The mail outbox job's name: api/boot.ts nudges it when a booking's alert is written. */
export const MAIL_OUTBOX_JOB = 'mail-outbox';

export const NO_MAIL_SERVER = 'mail not sent: no mail server configured';
/** An alert of a company whose subscription gives no access (its page is not live) is never sent. */
export const COMPANY_NOT_LIVE = 'not sent: the company is not live';

export { ALERT_MAILS_PER_HOUR };
const ALERT_KIND_SET: ReadonlySet<string> = new Set(ALERT_KINDS);

/** Job markers: the last quote id turned into alerts, and the UK day whose 08:00 summaries are written. */
const QUOTE_MARKER = 'mail.lastQuoteId';
const DAILY_MARKER = 'mail.dailySummaryDay';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DEFAULT_INTERVAL_MS = 2 * SECOND;
/** A refused message is tried again after 30 s, 1 min, 2 min … up to an hour apart, for this long. */
const FIRST_RETRY_MS = 30 * SECOND;
const LONGEST_RETRY_MS = HOUR;
export const GIVE_UP_AFTER_MS = 24 * HOUR;
/** A claimed row is not due again for this long: far beyond the transport's timeouts, so only a crash leaves it to expire. */
const LEASE_MS = 5 * MINUTE;
/**
 * Work per tick, so the worker never holds the event loop (or the write lock) long enough to
 * show in the quote path's p99, nor takes much of the cores from quotes: quotes are turned into
 * alerts 25 to a transaction (about 2 ms of composing, inserting and committing), and a tick
 * writes and sends at most so many. nodemailer spends 1–2 ms of CPU on a message (and on a
 * shared machine the mail server as much again), so while the server is busy with requests (its
 * event loop ran more than half of the last tick) the worker writes 50 alerts and sends 1 a
 * second, against 250 and 20 otherwise: sending 4 a second under a saturating quote load cost
 * 6–9 % of quote throughput in `npm run bench -- alerts`, 1 a second was within its noise. A
 * longer burst waits past the marker or in the outbox and goes out once the load eases.
 */
const QUOTES_PER_TRANSACTION = 25;
export const WORK_PER_TICK = { idle: { alerts: 500, sends: 40 }, busy: { alerts: 100, sends: 2 } } as const;

export interface MailWorkerOptions {
  db: Db;
  config: Pick<Config, 'mail' | 'publicUrl'> & Partial<Pick<Config, 'sms' | 'billing' | 'smsDailyLimit'>>;
  logger: Logger;
  now: () => Date;
  /** Default: nodemailer over SMTP_URL; none without SMTP_URL (rows are then kept as unsent). */
  transport?: MailTransport;
  /** Default: the Twilio-compatible provider of SMS_*; none without it (text rows are then kept as unsent). */
  smsTransport?: SmsTransport;
  intervalMs?: number;
}

/**
 * A send still going when the server stops gets this long, then its connection is closed and its
 * row released for an immediate retry at the next start: a stalled mail server must not hold the
 * shutdown past its drain deadline (and so keep the database from closing).
 */
export const STOP_GRACE_MS = 1500;
/**
 * A mail server that refuses a message outright (a 5xx answer), or an SMS provider that refuses a
 * text for good (a 4xx other than 408 and 429), is asked this many times, not for 24 hours.
 */
export const PERMANENT_REFUSAL_ATTEMPTS = 3;

/** The SMTP reply code of a refusal, when the server gave one (nodemailer's `responseCode`). */
function replyCode(error: unknown): number | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { responseCode?: unknown }).responseCode : undefined;
  return typeof code === 'number' ? code : undefined;
}

/**
 * `work`, or 'stopped' once `signal` has been aborted for `graceMs` while it was still going. The
 * abort listener is removed when `work` settles: one listener per send on the runner's signal,
 * never one left behind for each message ever sent.
 */
async function unlessStopped<T>(work: Promise<T>, signal: AbortSignal, graceMs: number): Promise<T | 'stopped'> {
  let timer: NodeJS.Timeout | undefined;
  let fire = () => {};
  const stopped = new Promise<'stopped'>((resolve) => {
    fire = () => (timer = setTimeout(() => resolve('stopped'), graceMs));
  });
  if (signal.aborted) fire();
  else signal.addEventListener('abort', fire, { once: true });
  try {
    return await Promise.race([work, stopped]);
  } finally {
    signal.removeEventListener('abort', fire);
    clearTimeout(timer);
  }
}

/** The wait after `failures` failed tries in a row: 30 s, doubling, capped. */
export const retryDelayMs = (failures: number) => Math.min(FIRST_RETRY_MS * 2 ** (failures - 1), LONGEST_RETRY_MS);

/** The mail outbox as a job definition: one tick writes alerts and summaries and sends what is due. */
export function mailOutboxJob(options: MailWorkerOptions): IntervalJob {
  const { db, config, logger, now } = options;
  const transport = options.transport ?? (config.mail.smtpUrl ? smtpTransport(config.mail.smtpUrl) : undefined);
  const sms = options.smsTransport ?? (config.sms ? twilioTransport(config.sms) : undefined);
  // A first start alerts from here on, not for every quote stored before alerts existed.
  if (readJobMarker(db, QUOTE_MARKER) === undefined) writeJobMarker(db, QUOTE_MARKER, String(lastQuoteId(db)));

  let loggedUnsent = false;
  const textBudget = smsBudget({ db, config, logger });

  /**
   * Is the company's page live now (its owner's subscription gives access; a company without an
   * owner, the demo, always is)? Alerts of one that is not are never sent: nobody pays for them,
   * and a sign-up that never paid must not be able to drive mail (docs/product.md, Alerts).
   */
  function companyLive(companyId: number, at: Date): boolean {
    const owner = findUserByCompanyId(db, companyId);
    return !owner || statusGivesAccess(owner, at, config.billing?.mode ?? 'local');
  }
  /** Failed sends since the last one that went through: logged once as an episode starts and once as it ends. */
  // Per channel: a failing SMS provider and a working mail server are two episodes, each logged once.
  const failuresInARow: Record<AlertChannel, number> = { email: 0, sms: 0 };

  /**
   * An outbox row for `content`, due at once (or kept unsent without a mail server), or held
   * "waiting for a verified address" until the owner has verified the account and `to`.
   */
  function row(companyId: number, kind: NewOutboxRow['kind'], dedupeKey: string, to: string, content: MailContent, at: string): NewOutboxRow {
    const verified = mayMail(db, companyId, to);
    return {
      companyId,
      kind,
      dedupeKey,
      to,
      ...content,
      status: verified ? (transport ? 'pending' : 'unsent') : 'unverified',
      attempts: 0,
      nextAttemptAt: verified && transport ? at : null,
      createdAt: at,
    };
  }

  async function store(rows: NewOutboxRow[], marker: string, value: string, expected: string | undefined, digests: NewOutboxRow[] = []) {
    const written = await write(db, () => {
      // Another worker on the same file moved the marker meanwhile: its rows stand.
      if (readJobMarker(db, marker) !== expected) return false;
      insertOutboxRows(db, rows);
      for (const digest of digests) upsertDigestRow(db, digest);
      writeJobMarker(db, marker, value);
      return true;
    });
    if (written && rows.some((r) => r.status === 'unsent') && !transport && !loggedUnsent) {
      loggedUnsent = true;
      logger.warn({ msg: NO_MAIL_SERVER, alerts: rows.length });
    }
  }

  async function alertNewQuotes(limit: number, stopping: () => boolean) {
    for (let handled = 0; handled < limit && !stopping(); ) {
      const marker = readJobMarker(db, QUOTE_MARKER);
      const after = Number(marker ?? 0);
      const last = lastQuoteId(db);
      if (last <= after) return;
      const found = quotesOfModeBetween(db, 'each', after, last, QUOTES_PER_TRANSACTION);
      // A full batch may have more behind it; a short one has seen every quote up to `last`, so
      // quotes of companies without alerts are passed over in one step however many there are.
      const caughtUp = found.length < QUOTES_PER_TRANSACTION;
      const upTo = caughtUp ? last : found[found.length - 1].quote.id;
      const at = now().toISOString();
      // Each quote's place among its company's quotes of its clock hour: past the cap, it is
      // counted in the hour's digest instead of mailed on its own.
      const placeInHour = new Map<string, number>();
      const rows: NewOutboxRow[] = [];
      const digests: NewOutboxRow[] = [];
      for (const { quote, companyName, addresses } of found) {
        const to = alertRecipient(addresses);
        if (!to) continue;
        const hourStart = new Date(Math.floor(Date.parse(quote.createdAt) / HOUR) * HOUR);
        const key = `${quote.companyId}:${hourStart.toISOString()}`;
        const place = (placeInHour.get(key) ?? quotesEarlierInHour(db, quote.companyId, hourStart.toISOString(), quote.id)) + 1;
        placeInHour.set(key, place);
        if (place <= ALERT_MAILS_PER_HOUR) {
          rows.push(row(quote.companyId, 'quote', `quote:${quote.id}`, to, quoteAlert(quote, companyName, config.publicUrl), at));
        } else {
          const digest = row(quote.companyId, 'quote', `quote-digest:${key}`, to, quoteDigest(place - ALERT_MAILS_PER_HOUR, hourStart, companyName, config.publicUrl), at);
          // Sent once the hour is over, with the hour's final count.
          const hourEnd = new Date(Math.max(hourStart.getTime() + HOUR, Date.parse(at))).toISOString();
          digests.push(digest.status === 'pending' ? { ...digest, nextAttemptAt: hourEnd } : digest);
        }
      }
      await store(rows, QUOTE_MARKER, String(upTo), marker, digests);
      if (caughtUp) return;
      handled += found.length;
      // Let requests in between transactions.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** From 08:00 UK time, once a day: each daily company's summary of yesterday (UK), if it had quotes. */
  async function writeDailySummaries() {
    const instant = now();
    const marker = readJobMarker(db, DAILY_MARKER);
    const today = dueDay(instant, { hour: DAILY_SUMMARY_HOUR }, marker);
    if (today === undefined) return;
    const day = addDays(today, -1);
    const from = londonMidnight(day).toISOString();
    const to = londonMidnight(today).toISOString();
    const at = instant.toISOString();
    const rows = companiesWithAlertMode(db, 'daily').flatMap((company) => {
      const recipient = alertRecipient(company.addresses);
      if (!recipient) return [];
      const { count, quotes } = quotesCreatedBetween(db, company.id, from, to, SUMMARY_LIST_LIMIT);
      // A day without quotes sends nothing: an empty summary every morning would teach people to ignore them.
      if (count === 0) return [];
      return [row(company.id, 'daily', `daily:${company.id}:${day}`, recipient, dailySummary(day, quotes, count, company.name, config.publicUrl), at)];
    });
    await store(rows, DAILY_MARKER, today, marker);
  }

  /** What happens to a row after a failed try: tried again later, or given up 24 hours after it was written. */
  function afterFailure(r: OutboxRow, error: unknown, at: Date): OutboxOutcome {
    const attempts = r.attempts + 1;
    const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const giveUpAt = Date.parse(r.createdAt) + GIVE_UP_AFTER_MS;
    if (at.getTime() >= giveUpAt) return { status: 'failed', attempts, lastError };
    // A permanent refusal (SMTP 5xx, the SMS provider's 4xx) will not change by waiting a day: a few tries, then given up.
    const code = replyCode(error);
    const permanent = (code !== undefined && code >= 500) || (error instanceof SmsRefused && error.permanent);
    if (permanent && attempts >= PERMANENT_REFUSAL_ATTEMPTS) return { status: 'failed', attempts, lastError };
    const next = Math.min(at.getTime() + retryDelayMs(attempts), giveUpAt);
    return { status: 'pending', attempts, nextAttemptAt: new Date(next).toISOString(), lastError };
  }

  /** Sends one claimed row (its account link made) through its channel's transport; `abort` ends a text's request. */
  function deliver(r: OutboxRow, mail: MailContent, abort: AbortSignal): Promise<void> {
    if (r.channel === 'sms') return sms ? sms.send({ to: r.to, body: mail.text }, abort) : Promise.reject(new Error('no SMS provider'));
    if (!transport) return Promise.reject(new Error('no mail server'));
    return transport.send({ from: config.mail.from, to: r.to, subject: mail.subject, text: mail.text, html: mail.html });
  }

  async function sendDue(limit: number, channel: AlertChannel, stopping: () => boolean, signal: AbortSignal) {
    if (channel === 'email' ? !transport : !sms) return;
    for (let sent = 0; sent < limit && !stopping(); sent++) {
      const at = now();
      // Claimed (leased) in its own transaction before it is sent, one at a time: a second worker,
      // or this one after a restart, does not take a row in flight until its lease has passed,
      // and a stop between two messages leaves none claimed and unsent.
      // An account mail's link is made here, in the claim's transaction (api/auth/account-mail.ts).
      const claimed = await write(db, () => {
        const due = claimDueRow(db, at.toISOString(), new Date(at.getTime() + LEASE_MS).toISOString(), channel);
        if (due && ALERT_KIND_SET.has(due.kind) && !isMotoristMessage(due.dedupeKey) && !companyLive(due.companyId, at)) {
          // Account mails (verification, reset) and a booked motorist's service texts go whatever
          // the subscription; the operator's alerts do not.
          recordOutcome(db, due.id, { status: 'failed', attempts: due.attempts, lastError: COMPANY_NOT_LIVE });
          return 'skipped' as const;
        }
        return due && { r: due, mail: withLink(db, due, config.publicUrl, at) };
      });
      if (claimed === 'skipped') continue;
      if (!claimed) return;
      const { r, mail } = claimed;
      // Texts cost money: the daily budgets and the number's allowance may hold or refuse this one (api/mail/sms-budget.ts).
      if (r.channel === 'sms' && (await textBudget.admit(r, at)) !== 'send') continue;
      let outcome: OutboxOutcome;
      const abort = new AbortController();
      const sending = deliver(r, mail, abort.signal);
      try {
        if ((await unlessStopped(sending.then(() => 'sent' as const), signal, STOP_GRACE_MS)) === 'stopped') {
          // The server is stopping and the send has not finished: drop the connection and hand the
          // row back, due at once and with no try counted (the server may or may not have taken it).
          // The text's request is aborted, not left to its own timeout: an answer arriving after
          // the row was handed back would otherwise count for nothing, and the text go twice.
          sending.catch(() => {});
          if (r.channel === 'sms') abort.abort();
          else transport?.close();
          const provider = r.channel === 'sms' ? 'the SMS provider' : 'the mail server';
          await write(db, () => recordOutcome(db, r.id, { status: 'pending', attempts: r.attempts, nextAttemptAt: now().toISOString(), lastError: `stopped before ${provider} answered` }));
          logger.warn({
            msg: r.channel === 'sms'
              ? 'Text send still going at shutdown: request aborted, text kept to send at the next start'
              : 'Mail send still going at shutdown: connection closed, message kept to send at the next start',
            outboxId: r.id,
          });
          return;
        }
        outcome = { status: 'sent', sentAt: now().toISOString() };
        if (failuresInARow[channel] > 0) {
          logger.info({ msg: channel === 'sms' ? 'Text delivery works again' : 'Mail delivery works again', failedBefore: failuresInARow[channel] });
        }
        failuresInARow[channel] = 0;
      } catch (error) {
        outcome = afterFailure(r, error, now());
        failuresInARow[channel] += 1;
        // Once per episode, with the mail server's or provider's own answer (never the message or its recipient).
        if (failuresInARow[channel] === 1) {
          const answer = outcome.status === 'sent' ? undefined : outcome.lastError;
          logger.warn(
            channel === 'sms'
              ? { msg: 'Text delivery failing; retrying', outboxId: r.id, status: error instanceof SmsRefused ? error.status : undefined, answer, willRetry: outcome.status === 'pending' }
              : { msg: 'Mail delivery failing; retrying', outboxId: r.id, replyCode: replyCode(error), answer, willRetry: outcome.status === 'pending' },
          );
        }
      }
      await write(db, () => recordOutcome(db, r.id, outcome));
    }
  }

  return {
    name: MAIL_OUTBOX_JOB,
    everyMs: options.intervalMs ?? DEFAULT_INTERVAL_MS,
    async run({ busy, stopping, signal }: JobContext) {
      const work = WORK_PER_TICK[busy ? 'busy' : 'idle'];
      await alertNewQuotes(work.alerts, stopping);
      await writeDailySummaries();
      await sendDue(work.sends, 'email', stopping, signal);
      await sendDue(work.sends, 'sms', stopping, signal);
    },
    close() {
      transport?.close();
    },
  };
}
