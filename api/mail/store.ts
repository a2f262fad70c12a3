// The mail outbox and the reads the alert jobs make (decision 016); the jobs' markers are api/platform/jobs/job-state.ts's.
// The writers here run inside api/platform/db/write.ts's write(): each job step is one transaction. What the
// worker runs for every batch of quotes is prepared once (api/platform/db/prepared.ts): built by drizzle on
// each call, those statements cost the worker more than composing the messages.
import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, lt, lte, max, sql } from 'drizzle-orm';
import type { AlertChannel, AlertMode } from '#shared/leads';
import type { Db } from '../platform/db/client';
import { prepared } from '../platform/db/prepared';
import { companies, mailOutbox, quotes, users, verifiedAddresses } from '../platform/db/schema';
import { ALERT_KINDS } from '#shared/leads';

export type OutboxRow = typeof mailOutbox.$inferSelect;
export type NewOutboxRow = Omit<typeof mailOutbox.$inferInsert, 'id'>;
export type QuoteRow = typeof quotes.$inferSelect;

/** Who a company's alerts go to, as stored: the rule that picks one is api/alerts/recipient.ts's. */
export interface AlertAddresses {
  alertEmail: string | null;
  companyEmail: string | null;
  /** The company owner's sign-in address (the first account of the company). */
  accountEmail: string | null;
}

// Written out in full: drizzle leaves columns unqualified in a single-table select, and inside the
// subquery an unqualified "id" would be the user's.
const accountEmail = sql<string | null>`(select "u"."email" from "users" "u" where "u"."company_id" = "companies"."id" order by "u"."id" limit 1)`;
const addressColumns = { alertEmail: companies.alertEmail, companyEmail: companies.email, accountEmail };

const p = sql.placeholder;

/** The newest quote's id (0 without any). */
export function lastQuoteId(db: Db): number {
  return (
    prepared(db, 'lastQuoteId', () =>
      db
        .select({ id: max(quotes.id) })
        .from(quotes)
        .prepare(),
    ).get()?.id ?? 0
  );
}

export interface QuoteToAlert {
  quote: QuoteRow;
  companyName: string;
  addresses: AlertAddresses;
}

/**
 * The first quote past `afterId` made after `madeAfter` (still in its alert's grace, decision 054),
 * or undefined when none is: ids grow with time, so every quote before it is past its grace. Read
 * by the rowid from the marker on, so it reads only the quotes the writer is about to turn into alerts.
 */
export function firstQuoteMadeAfter(db: Db, afterId: number, madeAfter: string): number | undefined {
  return prepared(db, 'firstQuoteMadeAfter', () =>
    db
      .select({ id: quotes.id })
      .from(quotes)
      .where(and(gt(quotes.id, p('afterId')), gt(quotes.createdAt, p('madeAfter'))))
      .orderBy(asc(quotes.id))
      .limit(1)
      .prepare(),
  ).get({ afterId, madeAfter })?.id;
}

/** The quote has a booking its operator was told of ('New booking'): any status but awaiting payment. */
const booked = sql`exists (select 1 from "bookings" "b" where "b"."quote_id" = "quotes"."id" and "b"."status" != 'awaiting_payment')`;

/**
 * The first `limit` quotes with `afterId < id <= upToId` of companies whose alert mode is `mode`,
 * oldest first, leaving out the quotes already booked: the booking's own email tells the operator
 * of them (decision 054).
 */
export function quotesOfModeBetween(db: Db, mode: AlertMode, afterId: number, upToId: number, limit: number): QuoteToAlert[] {
  return prepared(db, 'quotesOfModeBetween', () =>
    db
      .select({ quote: quotes, companyName: companies.name, ...addressColumns })
      .from(quotes)
      .innerJoin(companies, eq(companies.id, quotes.companyId))
      .where(and(gt(quotes.id, p('afterId')), lte(quotes.id, p('upToId')), eq(companies.alertMode, p('mode')), sql`not ${booked}`))
      .orderBy(asc(quotes.id))
      .limit(p('limit'))
      .prepare(),
  )
    .all({ mode, afterId, upToId, limit })
    .map(({ quote, companyName, ...addresses }) => ({ quote, companyName, addresses }));
}

export interface CompanyToAlert {
  id: number;
  name: string;
  addresses: AlertAddresses;
}

export function companiesWithAlertMode(db: Db, mode: AlertMode): CompanyToAlert[] {
  return db
    .select({ id: companies.id, name: companies.name, ...addressColumns })
    .from(companies)
    .where(eq(companies.alertMode, mode))
    .all()
    .map(({ id, name, ...addresses }) => ({ id, name, addresses }));
}

/** Read by every booking for its operator's alert: prepared once. */
export function alertAddresses(db: Db, companyId: number): AlertAddresses | undefined {
  return prepared(db, 'alertAddresses', () =>
    db
      .select(addressColumns)
      .from(companies)
      .where(eq(companies.id, p('companyId')))
      .prepare(),
  ).get({ companyId });
}

/** A company's quotes created in [fromIso, toIso), oldest first, at most `limit`, and how many there are. */
export function quotesCreatedBetween(db: Db, companyId: number, fromIso: string, toIso: string, limit: number): { count: number; quotes: QuoteRow[] } {
  const within = and(eq(quotes.companyId, companyId), gte(quotes.createdAt, fromIso), lt(quotes.createdAt, toIso));
  const total = db.select({ n: count() }).from(quotes).where(within).get()?.n ?? 0;
  if (total === 0) return { count: 0, quotes: [] };
  return { count: total, quotes: db.select().from(quotes).where(within).orderBy(asc(quotes.createdAt), asc(quotes.id)).limit(limit).all() };
}

/** An outbox row's every column as a placeholder, for the prepared inserts below. */
const outboxValues = () => ({
  companyId: p('companyId'),
  kind: p('kind'),
  channel: p('channel'),
  bookingId: p('bookingId'),
  dedupeKey: p('dedupeKey'),
  to: p('to'),
  subject: p('subject'),
  text: p('text'),
  html: p('html'),
  status: p('status'),
  attempts: p('attempts'),
  nextAttemptAt: p('nextAttemptAt'),
  lastError: p('lastError'),
  createdAt: p('createdAt'),
  userId: p('userId'),
  priority: p('priority'),
  documentId: p('documentId'),
});

/**
 * Which due row of a lane goes first (decision 034): a booking's own messages and the account's
 * mails (someone is waiting on each), then a quote's alert, then digests and daily summaries.
 */
export const OUTBOX_PRIORITY = { service: 0, alert: 1, bulk: 2 } as const;
const PRIORITIES = [OUTBOX_PRIORITY.service, OUTBOX_PRIORITY.alert, OUTBOX_PRIORITY.bulk] as const;

/** A row's priority, from what it is: every writer of the outbox gets it the same way. */
export function priorityOf(row: Pick<NewOutboxRow, 'kind' | 'dedupeKey'>): number {
  if (row.kind === 'daily' || row.dedupeKey.startsWith('quote-digest:')) return OUTBOX_PRIORITY.bulk;
  if (row.kind === 'quote') return OUTBOX_PRIORITY.alert;
  return OUTBOX_PRIORITY.service;
}

const outboxParams = (row: NewOutboxRow) => ({
  channel: 'email',
  bookingId: null,
  lastError: null,
  ...row,
  userId: row.userId ?? null,
  documentId: row.documentId ?? null,
  priority: priorityOf(row),
});

/** Who is told, per database, that rows were added to its outbox (the running server's lanes). */
const outboxWriteListeners = new WeakMap<Db, () => void>();

/**
 * Tells `listener` each time rows are added to `db`'s outbox, so the lanes send them now rather
 * than at their next tick, whichever feature wrote them (a sign-in link, an invitation, a text).
 * The listener is called inside the writer's transaction: it must only schedule work.
 */
export function onOutboxWritten(db: Db, listener: () => void): void {
  outboxWriteListeners.set(db, listener);
}

/** Adds the rows whose dedupe key is new; a row already written for the same key stays as it is. */
export function insertOutboxRows(db: Db, rows: NewOutboxRow[]): void {
  const insert = prepared(db, 'insertOutboxRow', () =>
    db.insert(mailOutbox).values(outboxValues()).onConflictDoNothing({ target: mailOutbox.dedupeKey }).prepare(),
  );
  for (const row of rows) insert.run(outboxParams(row));
  if (rows.length > 0) outboxWriteListeners.get(db)?.();
}

/** How many of the company's quotes were stored from `fromIso` on with an id below `beforeId`: a quote's place in its hour. */
export function quotesEarlierInHour(db: Db, companyId: number, fromIso: string, beforeId: number): number {
  return (
    prepared(db, 'quotesEarlierInHour', () =>
      db
        .select({ n: count() })
        .from(quotes)
        .where(and(eq(quotes.companyId, p('companyId')), gte(quotes.createdAt, p('fromIso')), lt(quotes.id, p('beforeId'))))
        .prepare(),
    ).get({ companyId, fromIso, beforeId })?.n ?? 0
  );
}

/**
 * Writes a digest row, or, while it is still to be sent, replaces its message with this newer
 * count: one digest per company and hour, however many quotes it ends up counting.
 */
export function upsertDigestRow(db: Db, row: NewOutboxRow): void {
  prepared(db, 'upsertDigestRow', () =>
    db
      .insert(mailOutbox)
      .values(outboxValues())
      .onConflictDoUpdate({
        target: mailOutbox.dedupeKey,
        set: { subject: sql`excluded.subject`, text: sql`excluded.text`, html: sql`excluded.html` },
        where: and(inArray(mailOutbox.status, ['pending', 'unsent', 'unverified']), eq(mailOutbox.attempts, 0)),
      })
      .prepare(),
  ).run(outboxParams(row));
}

/**
 * Takes the channel's pending row due at `nowIso` that goes first (its priority, then the one due
 * soonest) and leases it until `leaseUntilIso` (its next_attempt_at), so no other worker takes it
 * while it is being sent. One indexed look-up per priority (mail_outbox_claim), so rows waiting
 * for a retry are never scanned (the status is written out, not bound, so the partial index
 * applies). Run in write().
 */
export function claimDueRow(db: Db, nowIso: string, leaseUntilIso: string, channel: AlertChannel = 'email'): OutboxRow | undefined {
  const first = prepared(db, 'claimDueRow', () =>
    db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.channel, p('channel')),
          eq(mailOutbox.priority, p('priority')),
          lte(mailOutbox.nextAttemptAt, p('nowIso')),
          sql`${mailOutbox.status} = 'pending'`,
        ),
      )
      .orderBy(asc(mailOutbox.nextAttemptAt))
      .limit(1)
      .prepare(),
  );
  for (const priority of PRIORITIES) {
    const due = first.get({ channel, priority, nowIso });
    if (due) return db.update(mailOutbox).set({ nextAttemptAt: leaseUntilIso }).where(eq(mailOutbox.id, due.id)).returning().get();
  }
  return undefined;
}

export type OutboxOutcome =
  | { status: 'sent'; sentAt: string }
  | { status: 'pending'; attempts: number; nextAttemptAt: string; lastError: string }
  | { status: 'failed'; attempts: number; lastError: string };

export function recordOutcome(db: Db, id: number, outcome: OutboxOutcome): void {
  const patch =
    outcome.status === 'sent'
      ? { status: outcome.status, sentAt: outcome.sentAt, nextAttemptAt: null, lastError: null }
      : outcome.status === 'pending'
        ? outcome
        : { ...outcome, nextAttemptAt: null };
  db.update(mailOutbox).set(patch).where(eq(mailOutbox.id, id)).run();
}

/** A company's newest alerts in the outbox (not the account's own mails), newest first. */
export function newestOutboxRows(db: Db, companyId: number, limit: number): OutboxRow[] {
  return db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.companyId, companyId), inArray(mailOutbox.kind, [...ALERT_KINDS])))
    .orderBy(desc(mailOutbox.id))
    .limit(limit)
    .all();
}

// ---------------------------------------------------------------- verified addresses

/**
 * May alert mail go to `to` for this company? Only once its owner has verified the account's
 * address, and `to` is an address the owner verified (the account's own, or an alert address).
 */
export function mayMail(db: Db, companyId: number, to: string): boolean {
  return (
    prepared(db, 'mayMail', () =>
      db
        .select({ one: sql<number>`1` })
        .from(verifiedAddresses)
        .innerJoin(users, and(eq(users.companyId, verifiedAddresses.companyId), isNotNull(users.emailVerifiedAt)))
        .where(and(eq(verifiedAddresses.companyId, p('companyId')), eq(verifiedAddresses.email, p('email'))))
        .limit(1)
        .prepare(),
    ).get({ companyId, email: to.toLowerCase() }) !== undefined
  );
}

/** Has the company's owner proved `email` (whether or not the account itself is verified yet)? */
export function isVerifiedAddress(db: Db, companyId: number, email: string): boolean {
  return (
    db
      .select({ one: sql<number>`1` })
      .from(verifiedAddresses)
      .where(and(eq(verifiedAddresses.companyId, companyId), eq(verifiedAddresses.email, email.toLowerCase())))
      .get() !== undefined
  );
}

/** Records that the company's owner proved `email` (run in write()). */
export function addVerifiedAddress(db: Db, companyId: number, email: string, atIso: string): void {
  db.insert(verifiedAddresses).values({ companyId, email: email.toLowerCase(), verifiedAt: atIso }).onConflictDoNothing().run();
}

/**
 * Alerts held "waiting for a verified address" go now to whichever of them may be mailed
 * (mayMail); without a mail server they become unsent. Run in write() after a verification.
 */
export function releaseWaitingMail(db: Db, companyId: number, atIso: string, mailServer: boolean): number {
  const waiting = db
    .select({ id: mailOutbox.id, to: mailOutbox.to })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.companyId, companyId), eq(mailOutbox.status, 'unverified')))
    .all();
  const ready = waiting.filter((r) => mayMail(db, companyId, r.to)).map((r) => r.id);
  if (ready.length === 0) return 0;
  db.update(mailOutbox)
    .set(mailServer ? { status: 'pending', nextAttemptAt: atIso } : { status: 'unsent', nextAttemptAt: null })
    .where(inArray(mailOutbox.id, ready))
    .run();
  return ready.length;
}

// ---------------------------------------------------------------- the text budgets (api/mail/sms-budget.ts)

/** Texts counted by the budgets since `fromIso` (a UK midnight), all companies together. */
export function textsCountedSince(db: Db, fromIso: string): number {
  return prepared(db, 'textsCountedSince', () =>
    db.$client.prepare('select count(*) from mail_outbox where budget_at is not null and budget_at >= ?').pluck(),
  ).get(fromIso) as number;
}

/** The company's texts counted by the budgets since `fromIso`. */
export function companyTextsCountedSince(db: Db, companyId: number, fromIso: string): number {
  return prepared(db, 'companyTextsCountedSince', () =>
    db.$client.prepare('select count(*) from mail_outbox where company_id = ? and budget_at is not null and budget_at >= ?').pluck(),
  ).get(companyId, fromIso) as number;
}

/** The dedupe keys of the texts to `to` counted since `fromIso`, from every company. */
export function textKeysToNumberSince(db: Db, to: string, fromIso: string): string[] {
  return prepared(db, 'textKeysToNumberSince', () =>
    db.$client.prepare('select dedupe_key from mail_outbox where "to" = ? and budget_at is not null and budget_at >= ?').pluck(),
  ).all(to, fromIso) as string[];
}

/** Counts a text against the budgets of the UK day of `atIso` (run in write(), as it is handed to the provider). */
export function markTextCounted(db: Db, id: number, atIso: string): void {
  prepared(db, 'markTextCounted', () => db.$client.prepare('update mail_outbox set budget_at = ? where id = ?')).run(atIso, id);
}
