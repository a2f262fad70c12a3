// Who did what (docs/product.md, "The team"; decision 041): one row per action, written in the
// same transaction as the action where there is one (recordAudit inside the feature's write()),
// so the log never says something happened that did not, nor misses what did. The table refuses
// UPDATE and early DELETE by trigger (api/platform/db/migrations/0028_team.sql).
import type { Context } from 'hono';
import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { AuditEventView, AuditFilter, AuditKind } from '#shared/team';
import type { Db } from '../platform/db/client';
import { auditEvents } from '../platform/db/schema';
import { prepared } from '../platform/db/prepared';
import type { AppEnv } from '../platform/http/context';

/** Who acted, and the request it came in: a route makes it with actorOf(c) and hands it to its service. */
export interface Actor {
  /** Null for the system (an expiry, a webhook, a motorist). */
  person: { id: number; name: string } | null;
  requestId: string | null;
  /** Who it was when no person: the driver's link, the motorist, the system. */
  label?: string;
}

export const SYSTEM: Actor = { person: null, requestId: null };

/** How the log names who moved a job when no person of the company did. */
export const ACTOR_LABELS = { operator: 'System', driver: 'Driver (by link)', motorist: 'Motorist', system: 'System' } as const;

/** The signed-in person of a request (or the system, if none) and its request id. */
export function actorOf(c: Context<AppEnv>): Actor {
  const user = c.get('user');
  return { person: user ? { id: user.id, name: user.name } : null, requestId: c.get('requestId') ?? null };
}

export interface AuditEvent {
  companyId: number;
  kind: AuditKind;
  /** What it was done to: a booking reference, a person's address, a price list. */
  subject?: string | null;
  before?: unknown;
  after?: unknown;
}

const asJson = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/**
 * The row of one event. Run it inside the write() of the action it records. A statement prepared
 * once (api/platform/db/prepared.ts): through Drizzle's builder the insert cost about 1 ms a call,
 * several times the action it records (`npm run bench -- --against`, the audited write).
 */
export function recordAudit(db: Db, actor: Actor, event: AuditEvent, at: Date): void {
  prepared(db, 'audit:insert', () =>
    db.$client.prepare(
      `insert into audit_events (company_id, person_id, person_name, kind, subject, old_value, new_value, request_id, at)
       values (@companyId, @personId, @personName, @kind, @subject, @oldValue, @newValue, @requestId, @at)`,
    ),
  ).run({
    companyId: event.companyId,
    personId: actor.person?.id ?? null,
    personName: actor.person?.name ?? actor.label ?? 'System',
    kind: event.kind,
    subject: event.subject ?? null,
    oldValue: asJson(event.before),
    newValue: asJson(event.after),
    requestId: actor.requestId,
    at: at.toISOString(),
  });
}

/**
 * How the app writes an action's audit line: `deps.audit(actor, event, at)`, called inside the
 * action's own write() so the line and the action commit together. The app's is always
 * `auditRecorder(db)`; it is a dependency so the accept route's bench can measure the insert side
 * by side with a recorder that writes nothing (scripts/bench/audit.ts, decision 056).
 */
export type AuditRecorder = (actor: Actor, event: AuditEvent, at: Date) => void;

/** The recorder of `db`: one prepared INSERT a line (recordAudit). */
export function auditRecorder(db: Db): AuditRecorder {
  return (actor, event, at) => recordAudit(db, actor, event, at);
}

/** Only the values that differ, before and after: what a price change shows. */
export function changedValues<T extends object>(before: T, after: T): { before: Partial<T>; after: Partial<T> } | undefined {
  const was: Partial<T> = {};
  const now: Partial<T> = {};
  for (const key of Object.keys(after) as Array<keyof T>) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      was[key] = before[key];
      now[key] = after[key];
    }
  }
  return Object.keys(now).length > 0 ? { before: was, after: now } : undefined;
}

export type AuditRow = typeof auditEvents.$inferSelect;

/** A page of the company's events, newest first, before the cursor. */
export function listAudit(db: Db, companyId: number, filter: Omit<AuditFilter, 'limit'>, limit: number): AuditRow[] {
  const where: SQL[] = [eq(auditEvents.companyId, companyId)];
  if (filter.person !== undefined) where.push(eq(auditEvents.personId, filter.person));
  if (filter.kind !== undefined) where.push(eq(auditEvents.kind, filter.kind));
  if (filter.before !== undefined) where.push(lt(auditEvents.id, filter.before));
  return db
    .select()
    .from(auditEvents)
    .where(and(...where))
    .orderBy(desc(auditEvents.id))
    .limit(limit)
    .all();
}

const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

export const auditView = (row: AuditRow): AuditEventView => ({
  id: row.id,
  at: row.at,
  personId: row.personId,
  personName: row.personName,
  kind: row.kind as AuditKind,
  subject: row.subject,
  before: parsed(row.oldValue),
  after: parsed(row.newValue),
  requestId: row.requestId,
});
