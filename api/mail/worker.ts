// The durable mail outbox's worker (decision 016), for texts too (a booking's alert and the
// motorist's service messages, through api/mail/sms-transport.ts, with the same guarantees): three
// jobs of the job runner (api/platform/jobs/runner.ts), each run every 2 s and told when the
// server is busy:
//  - the writer (MAIL_OUTBOX_JOB) turns quotes past its marker into outbox rows for companies
//    alerted for each quote, once past their grace and unless booked (QUOTE_ALERT_GRACE_MS), and, after 08:00 UK time, writes yesterday's summary for companies on
//    the daily summary;
//  - one lane per channel (OUTBOX_LANE_JOB, decision 034), mail over SMTP and texts through the
//    SMS provider, each with its own claim loop, number of sends at once and deadline per send
//    (LANES), so a mail server or provider that hangs never holds up the other channel. A lane
//    claims a booking's own messages and the account's mails first, then quote alerts, then
//    digests and summaries (OUTBOX_PRIORITY), and retries refusals with a doubling backoff for 24 hours.
// The quote path never waits for any of it: quotes are read here after they are committed.
// Every step is one write() transaction, so a crash between steps loses nothing and repeats
// nothing: the unique dedupe key refuses a second row for the same quote or day.
import { DAILY_SUMMARY_HOUR } from '#shared/leads';
import { alertRecipient } from '../alerts/recipient';
import type { Db } from '../platform/db/client';
import {
  claimDueRow,
  companiesWithAlertMode,
  firstQuoteMadeAfter,
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
import { dueDay, type IntervalJob, type Job, type JobContext } from '../platform/jobs/runner';
import { ALERT_MAILS_PER_HOUR, dailySummary, quoteAlert, quoteDigest, SUMMARY_LIST_LIMIT, type MailContent } from './message';
import { findUserByCompanyId } from '../auth/store';
import { statusGivesAccess } from '../billing/status';
import { ALERT_KINDS, isMotoristMessage } from '#shared/leads';
import { smtpTransport, type MailTransport } from './transport';
import { withLink } from '../auth/account-mail';
import { InvitationClosed } from '../team/invitation-mail';
import { SmsRefused, twilioTransport, type SmsTransport } from './sms-transport';
import { smsBudget } from './sms-budget';
import type { AlertChannel } from '#shared/leads';
import { JobLinkUnavailable, withJobLink } from '../bookings/job-link';
import { withQuoteLink } from '../phone/link-fill';
import { quoteLinkTokens } from '../phone/link-token';
import { bookingTokens, jobTokenBox } from '../bookings/tokens';
import { documentAttachment } from '../documents/attachment';

/** The outbox writer's job name (quote alerts, digests, daily summaries). */
export const MAIL_OUTBOX_JOB = 'mail-outbox';
/** Each channel's lane, a job of its own: api/boot.ts nudges both when a booking's messages are written. */
export const OUTBOX_LANE_JOB: Record<AlertChannel, string> = { email: 'outbox-lane-email', sms: 'outbox-lane-sms' };

export const NO_MAIL_SERVER = 'mail not sent: no mail server configured';
/** An alert of a company whose subscription gives no access (its page is not live) is never sent. */
export const COMPANY_NOT_LIVE = 'not sent: the company is not live';

export { ALERT_MAILS_PER_HOUR };

/**
 * How long a quote's own alert waits (on the server's clock) before it is written: a motorist who
 * books within it gets their operator one email, 'New booking', which carries what the quote's
 * would have (decision 054). A quote not booked by then is alerted as before. The default of
 * QUOTE_ALERT_GRACE_SECONDS; the alerts bench sets 0, so its minute measures what the steady
 * state costs (the same rows, written 5 minutes later).
 */
export const QUOTE_ALERT_GRACE_MS = 5 * 60_000;
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
 * writes at most so many: 50 a second while the server is busy with requests (its event loop ran
 * more than half of the last tick), 250 otherwise. A longer burst waits past the marker and is
 * written once the load eases.
 */
const QUOTES_PER_TRANSACTION = 25;
export const WORK_PER_TICK = { idle: { alerts: 500 }, busy: { alerts: 100 } } as const;

export interface LaneSettings {
  /** Rows of the lane being sent at once. */
  concurrency: number;
  /** A send not answered by then is given up (its connection closed, its request aborted) and retried later. */
  sendTimeoutMs: number;
  /** Rows claimed per tick, while the server is idle or busy with requests. */
  perTick: { idle: number; busy: number };
}

/**
 * The lanes (decision 034). Mail: one at a time over the one pooled SMTP connection; nodemailer
 * spends 1–2 ms of CPU on a message (and on a shared machine the mail server as much again), so
 * while the server is busy it sends 1 a second, against 20 otherwise: sending 4 a second under a
 * saturating quote load cost 6–9 % of quote throughput in `npm run bench -- alerts`, 1 a second
 * was within its noise. Its deadline is past the transport's own timeouts (10 s to connect, 10 s
 * for the greeting, 30 s of silence), for a server that answers just often enough to trip none.
 * Texts: an HTTPS request each, mostly waiting on the provider: 1.1 ms of CPU a text against
 * 2.7 ms a mail, each with its fake server in the same process (load average 18). So 4 at a time,
 * and 4 a second while busy (a booking writes at most two texts, and they are the motorist's
 * service messages), about the CPU of 1.5 mails a second; the deadline is past the transport's
 * 15 s. The lease (5 minutes) is far beyond both deadlines.
 */
export const LANES: Record<AlertChannel, LaneSettings> = {
  email: { concurrency: 1, sendTimeoutMs: 60 * SECOND, perTick: { idle: 40, busy: 2 } },
  sms: { concurrency: 4, sendTimeoutMs: 20 * SECOND, perTick: { idle: 40, busy: 8 } },
};

export interface MailWorkerOptions {
  db: Db;
  config: Pick<Config, 'mail' | 'publicUrl' | 'sessionSecret'> & Partial<Pick<Config, 'sms' | 'billing' | 'smsDailyLimit' | 'quoteAlertGraceMs'>>;
  logger: Logger;
  now: () => Date;
  /** Default: nodemailer over SMTP_URL; none without SMTP_URL (rows are then kept as unsent). */
  transport?: MailTransport;
  /** Default: the Twilio-compatible provider of SMS_*; none without it (text rows are then kept as unsent). */
  smsTransport?: SmsTransport;
  intervalMs?: number;
  /** How long a quote's alert waits for a booking (QUOTE_ALERT_GRACE_MS): 0 in tests of what follows it (the cap, retries). */
  quoteAlertGraceMs?: number;
  /** Changes to a lane's settings (LANES): a test's short deadline. */
  lanes?: Partial<Record<AlertChannel, Partial<LaneSettings>>>;
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

/** A lane's deadline passed before its mail server or provider answered. */
class LaneTimeout extends Error {
  constructor(channel: AlertChannel, ms: number) {
    super(`no answer from the ${channel === 'sms' ? 'SMS provider' : 'mail server'} within ${ms / SECOND} s`);
    this.name = 'LaneTimeout';
  }
}

/**
 * The mail outbox as jobs: the writer (alerts and summaries) and one lane per channel, each sending
 * what is due of its own channel (decision 034). Added to the runner side by side (api/boot.ts).
 */
export function mailOutboxJobs(options: MailWorkerOptions): Job[] {
  const { db, config, logger, now } = options;
  const transport = options.transport ?? (config.mail.smtpUrl ? smtpTransport(config.mail.smtpUrl) : undefined);
  const sms = options.smsTransport ?? (config.sms ? twilioTransport(config.sms) : undefined);
  const box = jobTokenBox(config.sessionSecret);
  const tokens = bookingTokens(config.sessionSecret);
  const quoteLinks = quoteLinkTokens(config.sessionSecret);
  const everyMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const graceMs = options.quoteAlertGraceMs ?? config.quoteAlertGraceMs ?? QUOTE_ALERT_GRACE_MS;
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
      // A quote's alert waits out its grace, then goes unless the quote was booked meanwhile (decision 054).
      const inGrace = firstQuoteMadeAfter(db, after, new Date(now().getTime() - graceMs).toISOString());
      const last = inGrace === undefined ? lastQuoteId(db) : inGrace - 1;
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
          const digest = row(
            quote.companyId,
            'quote',
            `quote-digest:${key}`,
            to,
            quoteDigest(place - ALERT_MAILS_PER_HOUR, hourStart, companyName, config.publicUrl),
            at,
          );
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

  /**
   * The last word before a claimed row is sent, in the claim's transaction: an outcome to record
   * instead of sending it, or undefined to send it. This is where an SMS row is about to be sent.
   * An operator's alert of a company that is not live is not sent; account mails (verification,
   * reset) and a booked motorist's service texts go whatever the subscription.
   */
  function holdBack(r: OutboxRow, at: Date): OutboxOutcome | undefined {
    if (ALERT_KIND_SET.has(r.kind) && !isMotoristMessage(r.dedupeKey) && !companyLive(r.companyId, at)) {
      return { status: 'failed', attempts: r.attempts, lastError: COMPANY_NOT_LIVE };
    }
    return undefined;
  }

  type Claimed = { r: OutboxRow; mail: MailContent };

  /**
   * Claims (leases) the lane's next due row in its own transaction, and makes its message: an
   * account mail's link (a fresh token, api/auth/account-mail.ts) and a job's status page link
   * (from the booking's sealed token, api/bookings/job-link.ts) are put in only now, so the outbox
   * never stores a token. A second worker, or this one after a restart, does not take a row in
   * flight until its lease has passed. 'held' when the row was settled without sending.
   */
  function claimNext(channel: AlertChannel, at: Date): Promise<Claimed | 'held' | undefined> {
    return write(db, () => {
      const due = claimDueRow(db, at.toISOString(), new Date(at.getTime() + LEASE_MS).toISOString(), channel);
      if (!due) return undefined;
      const held = holdBack(due, at);
      if (held) {
        recordOutcome(db, due.id, held);
        return 'held' as const;
      }
      try {
        const mail = withJobLink(db, due, withLink(db, due, config.publicUrl, at), box, config.publicUrl, tokens);
        return { r: due, mail: withQuoteLink(db, due, mail, quoteLinks, config.publicUrl) };
      } catch (error) {
        if (!(error instanceof JobLinkUnavailable || error instanceof InvitationClosed)) throw error;
        recordOutcome(db, due.id, { status: 'failed', attempts: due.attempts, lastError: error.message });
        return 'held' as const;
      }
    });
  }

  /** Sends one claimed row through its channel's transport; `abort` gives the send up. */
  function deliver(r: OutboxRow, mail: MailContent, abort: AbortSignal): Promise<void> {
    if (r.channel === 'sms') return sms ? sms.send({ to: r.to, body: mail.text }, abort) : Promise.reject(new Error('no SMS provider'));
    if (!transport) return Promise.reject(new Error('no mail server'));
    const message = { from: config.mail.from, to: r.to, subject: mail.subject, text: mail.text, html: mail.html };
    if (r.documentId == null) return transport.send(message, abort);
    // An account's document goes as its PDF, drawn now from the frozen copy (api/documents/attachment.ts).
    return documentAttachment(db, r.documentId).then((file) => transport.send({ ...message, attachments: file ? [file] : [] }, abort));
  }

  /** One channel's lane: its own claim loop, sends at once and deadline (LANES), a job of its own. */
  function laneJob(channel: AlertChannel): IntervalJob {
    const lane: LaneSettings = { ...LANES[channel], ...options.lanes?.[channel] };
    const provider = channel === 'sms' ? 'the SMS provider' : 'the mail server';
    /** Failed sends since the last one that went through: logged once as an episode starts and once as it ends. */
    let failuresInARow = 0;

    /** Sends a claimed row within the lane's deadline and records what came of it; 'stopped' when the server stopped first. */
    async function send({ r, mail }: Claimed, signal: AbortSignal): Promise<'stopped' | undefined> {
      const abort = new AbortController();
      let deadline: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        deadline = setTimeout(() => {
          const error = new LaneTimeout(channel, lane.sendTimeoutMs);
          abort.abort(error);
          reject(error);
        }, lane.sendTimeoutMs);
      });
      const sending = Promise.race([deliver(r, mail, abort.signal), timedOut]);
      sending.catch(() => {});
      let outcome: OutboxOutcome;
      try {
        if (
          (await unlessStopped(
            sending.then(() => 'sent' as const),
            signal,
            STOP_GRACE_MS,
          )) === 'stopped'
        ) {
          // The server is stopping and the send has not finished: give it up (the connection
          // closed, the request aborted) and hand the row back, due at once and with no try
          // counted (the server may or may not have taken it). Not left to its own timeout: an
          // answer arriving after the row was handed back would count for nothing, and it go twice.
          abort.abort();
          await write(db, () =>
            recordOutcome(db, r.id, {
              status: 'pending',
              attempts: r.attempts,
              nextAttemptAt: now().toISOString(),
              lastError: `stopped before ${provider} answered`,
            }),
          );
          logger.warn({
            msg:
              channel === 'sms'
                ? 'Text send still going at shutdown: request aborted, text kept to send at the next start'
                : 'Mail send still going at shutdown: connection closed, message kept to send at the next start',
            outboxId: r.id,
          });
          return 'stopped';
        }
        outcome = { status: 'sent', sentAt: now().toISOString() };
        if (failuresInARow > 0)
          logger.info({ msg: channel === 'sms' ? 'Text delivery works again' : 'Mail delivery works again', failedBefore: failuresInARow });
        failuresInARow = 0;
      } catch (error) {
        outcome = afterFailure(r, error, now());
        failuresInARow += 1;
        // Once per episode, with the mail server's or provider's own answer (never the message or its recipient).
        if (failuresInARow === 1) {
          const answer = outcome.status === 'sent' ? undefined : outcome.lastError;
          logger.warn(
            channel === 'sms'
              ? {
                  msg: 'Text delivery failing; retrying',
                  outboxId: r.id,
                  status: error instanceof SmsRefused ? error.status : undefined,
                  answer,
                  willRetry: outcome.status === 'pending',
                }
              : { msg: 'Mail delivery failing; retrying', outboxId: r.id, replyCode: replyCode(error), answer, willRetry: outcome.status === 'pending' },
          );
        }
      } finally {
        clearTimeout(deadline);
      }
      await write(db, () => recordOutcome(db, r.id, outcome));
      return undefined;
    }

    return {
      name: OUTBOX_LANE_JOB[channel],
      everyMs,
      async run({ busy, stopping, signal }: JobContext) {
        if (channel === 'email' ? !transport : !sms) return;
        const limit = lane.perTick[busy ? 'busy' : 'idle'];
        let claims = 0;
        let stopped = false;
        // `concurrency` senders share the tick's claims; each claims its next row as its last send ends.
        const sender = async () => {
          while (claims < limit && !stopping() && !stopped) {
            claims += 1;
            const at = now();
            const next = await claimNext(channel, at);
            if (next === undefined) return;
            if (next === 'held') continue;
            // Texts cost money: the daily budgets and the number's allowance may hold or refuse this one (api/mail/sms-budget.ts).
            if (next.r.channel === 'sms' && (await textBudget.admit(next.r, at)) !== 'send') continue;
            if ((await send(next, signal)) === 'stopped') stopped = true;
          }
        };
        await Promise.all(Array.from({ length: Math.max(1, Math.min(lane.concurrency, limit)) }, sender));
      },
      close: channel === 'email' ? () => transport?.close() : undefined,
    };
  }

  const writer: IntervalJob = {
    name: MAIL_OUTBOX_JOB,
    everyMs,
    async run({ busy, stopping }: JobContext) {
      await alertNewQuotes(WORK_PER_TICK[busy ? 'busy' : 'idle'].alerts, stopping);
      await writeDailySummaries();
    },
  };
  return [writer, laneJob('email'), laneJob('sms')];
}
