// The audit log (docs/product.md, "The team"): append-only in the database (triggers), kept 24
// months, written with the action it records, read by the owner a page at a time and as CSV; and
// the dispatchers' refund limit, whose refusals and refunds it records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditEvents } from '../platform/db/schema';
import { createTestApp, quoteBody } from '../test/harness';
import { startStripeFake, type StripeFake } from '../test/stripe-fake';
import { paidStripeBooking } from '../test/stripe-payments';
import { auditCutoff, auditRetentionJob, purgeAuditBatch } from './audit-retention';
import { auditRecorder, type AuditRecorder, recordAudit, SYSTEM } from './audit';
import { AUDIT_CSV_HEADER } from './audit-service';
import { Conflict } from '../platform/errors';

let fake: StripeFake;
beforeAll(async () => {
  fake = await startStripeFake();
});
afterAll(async () => {
  await fake.close();
});

const MONTH = 31 * 86_400_000;

describe('the audit log is append-only', () => {
  it('refuses to change any row, and to delete one younger than 24 months', async () => {
    const t = createTestApp();
    const op = await t.operator();
    const { db } = t.deps;
    recordAudit(db, SYSTEM, { companyId: op.companyId, kind: 'prices-changed', before: { a: 1 }, after: { a: 2 } }, new Date());
    const row = db.select().from(auditEvents).where(eq(auditEvents.companyId, op.companyId)).get()!;
    expect(() => db.update(auditEvents).set({ personName: 'Someone else' }).where(eq(auditEvents.id, row.id)).run()).toThrow(/append-only/);
    expect(() => db.$client.prepare('UPDATE audit_events SET at = ? WHERE id = ?').run('2000-01-01T00:00:00.000Z', row.id)).toThrow(/append-only/);
    expect(() => db.delete(auditEvents).where(eq(auditEvents.id, row.id)).run()).toThrow(/append-only/);
    expect(() => db.$client.prepare('DELETE FROM audit_events').run()).toThrow(/append-only/);
    expect(db.select().from(auditEvents).where(eq(auditEvents.id, row.id)).get()).toEqual(row);
  });

  it('lets retention delete only rows older than 24 months, as its nightly job does', async () => {
    const t = createTestApp();
    const op = await t.operator();
    const { db } = t.deps;
    const now = new Date();
    const old = new Date(now.getTime() - 25 * MONTH);
    const recent = new Date(now.getTime() - 23 * MONTH);
    recordAudit(db, SYSTEM, { companyId: op.companyId, kind: 'sign-in', subject: 'old' }, old);
    recordAudit(db, SYSTEM, { companyId: op.companyId, kind: 'sign-in', subject: 'recent' }, recent);
    // The trigger itself: an old row may go, a recent one may not, however it is asked.
    expect(() => db.$client.prepare("DELETE FROM audit_events WHERE subject = 'recent'").run()).toThrow(/append-only/);
    const job = auditRetentionJob({ db, logger: { info() {} } });
    const done = await job.run({ now, day: '2026-06-10', stopping: () => false, signal: new AbortController().signal, busy: false } as never);
    expect(done).toBe(true);
    const subjects = db
      .select({ subject: auditEvents.subject })
      .from(auditEvents)
      .where(eq(auditEvents.companyId, op.companyId))
      .all()
      .map((r) => r.subject);
    expect(subjects).toContain('recent');
    expect(subjects).not.toContain('old');
    // The job's cutoff is never inside the trigger's 24 months.
    expect(purgeAuditBatch(db, auditCutoff(now))).toBe(0);
  });
});

describe('retention walks the log from its oldest row', () => {
  it('deletes, batch by batch, the rows older than the cutoff from the lowest id, and stops at the first one inside it', async () => {
    const t = createTestApp();
    const op = await t.operator();
    const { db } = t.deps;
    const now = new Date();
    const old = new Date(now.getTime() - 25 * MONTH);
    db.$client.transaction(() => {
      for (let i = 0; i < 1_200; i += 1) recordAudit(db, SYSTEM, { companyId: op.companyId, kind: 'sign-in', subject: `old ${i}` }, old);
      recordAudit(db, SYSTEM, { companyId: op.companyId, kind: 'sign-in', subject: 'recent' }, new Date(now.getTime() - MONTH));
    })();
    const before = db.select().from(auditEvents).all().length;
    const cutoff = auditCutoff(now);
    expect(purgeAuditBatch(db, cutoff)).toBe(500);
    expect(purgeAuditBatch(db, cutoff)).toBe(500);
    expect(purgeAuditBatch(db, cutoff)).toBe(200);
    expect(purgeAuditBatch(db, cutoff)).toBe(0);
    const left = db.select({ subject: auditEvents.subject }).from(auditEvents).all();
    expect(left).toHaveLength(before - 1_200);
    expect(left.map((r) => r.subject)).toContain('recent');
    expect(left.some((r) => r.subject?.startsWith('old '))).toBe(false);
    // Each audited action pays one B-tree insert per index: the log keeps only the ones its reads use.
    const indexes = (db.$client.prepare('pragma index_list(audit_events)').all() as Array<{ name: string }>).map((i) => i.name).sort();
    expect(indexes).toEqual(['audit_events_company']);
  });
});

describe('the audit recorder is the app’s dependency', () => {
  it('is the database’s own recorder unless given: an accept writes its line', async () => {
    const t = createTestApp();
    const owner = await t.operator();
    const reference = await requestedBooking(t, owner.companyId);
    expect((await t.call('POST', `/api/bookings/${reference}/accept`, { token: owner.token, body: { etaMinutes: 15, driverName: 'Sam' } })).status).toBe(200);
    const lines = t.deps.db.select().from(auditEvents).where(eq(auditEvents.subject, reference)).all();
    expect(lines).toMatchObject([{ kind: 'booking-accepted', personId: owner.user.id, personName: owner.user.name }]);
    expect(lines[0].requestId).toMatch(/^[\w-]{8,}$/);
  });

  it('given through AppOptions, is what every audited action calls, inside the action’s own write', async () => {
    const calls: Parameters<AuditRecorder>[] = [];
    let refuse = false;
    const t = createTestApp({
      audit: (actor, event, at) => {
        calls.push([actor, event, at]);
        // The real line first, then a refusal: both must roll back with the accept.
        if (refuse) {
          auditRecorder(t.deps.db)(actor, event, at);
          throw new Conflict('Refused by the test recorder', 'BOOKING_OUT_OF_ORDER');
        }
      },
    });
    const owner = await t.operator();
    const reference = await requestedBooking(t, owner.companyId);
    const lines = () => t.deps.db.select().from(auditEvents).where(eq(auditEvents.subject, reference)).all();

    refuse = true;
    const refused = await t.call('POST', `/api/bookings/${reference}/accept`, { token: owner.token, body: { etaMinutes: 15, driverName: 'Sam' } });
    expect(refused.status).toBe(409);
    expect(lines()).toHaveLength(0);
    expect((await t.call('GET', '/api/bookings', { token: owner.token })).json.open).toMatchObject([{ reference, status: 'requested' }]);

    refuse = false;
    const accepted = await t.call('POST', `/api/bookings/${reference}/accept`, { token: owner.token, body: { etaMinutes: 15, driverName: 'Sam' } });
    expect(accepted.status).toBe(200);
    expect(accepted.json.status).toBe('accepted');
    // The given recorder wrote nothing, and nothing else wrote the line.
    expect(lines()).toHaveLength(0);
    const acceptCalls = calls.filter(([, event]) => event.kind === 'booking-accepted');
    expect(acceptCalls).toHaveLength(2);
    expect(acceptCalls[1][0]).toMatchObject({ person: { id: owner.user.id, name: owner.user.name } });
    expect(acceptCalls[1][1]).toMatchObject({
      companyId: owner.companyId,
      subject: reference,
      after: { status: 'accepted', etaMinutes: 15, driverName: 'Sam' },
    });
    // A price change goes through it too.
    expect((await t.call('PUT', '/api/pricing', { token: owner.token, body: { callOutFee: 70 } })).status).toBe(200);
    expect(calls.some(([, event]) => event.kind === 'prices-changed')).toBe(true);
  });
});

/** A requested booking of `companyId`'s: its reference. */
async function requestedBooking(t: ReturnType<typeof createTestApp>, companyId: number): Promise<string> {
  const quote = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId } });
  const res = await t.call('POST', '/api/bookings', {
    body: {
      quoteId: quote.json.quoteId,
      bookingKey: `seam-booking-${quote.json.quoteId}-key`,
      name: 'Jane Motorist',
      phone: '07700 900123',
      registration: 'ab12cde',
    },
  });
  expect(res.status).toBe(201);
  return quote.json.quoteId as string;
}

describe('what the log records, and the owner reading it', () => {
  it('records sign-ins, team changes and price changes (old and new values) with the person and request id; filters by person and kind; CSV streamed', async () => {
    const t = createTestApp();
    const owner = await t.operator();
    const dispatcher = await t.teammate(owner, 'dispatcher');
    const prices = await t.call('PUT', '/api/pricing', { token: owner.token, body: { callOutFee: 65 } });
    expect(prices.status).toBe(200);
    await t.call('POST', '/api/vehicle-types', { token: owner.token, body: { name: 'Campervan', price: 40 } });
    await t.call('PUT', `/api/team/people/${dispatcher.id}`, { token: owner.token, body: { role: 'driver' } });
    await t.call('POST', '/api/team/invitations', { token: owner.token, body: { email: 'new.person@tow.example', role: 'driver' } });

    const page = await t.call('GET', '/api/audit', { token: owner.token });
    expect(page.status).toBe(200);
    const kinds = page.json.events.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['sign-in', 'prices-changed', 'charges-changed', 'role-changed', 'invitation-sent']));
    const priceEvent = page.json.events.find((e: { kind: string }) => e.kind === 'prices-changed');
    expect(priceEvent).toMatchObject({ personId: owner.user.id, personName: owner.user.name, before: { callOutFee: 50 }, after: { callOutFee: 65 } });
    expect(priceEvent.requestId).toEqual(expect.any(String));
    const signIn = page.json.events.find((e: { kind: string; personId: number }) => e.kind === 'sign-in' && e.personId === dispatcher.id);
    expect(signIn.personName).toBe(dispatcher.user.name);

    const theirs = await t.call('GET', `/api/audit?person=${dispatcher.id}`, { token: owner.token });
    expect(theirs.json.events.every((e: { personId: number }) => e.personId === dispatcher.id)).toBe(true);
    expect(theirs.json.events.length).toBeGreaterThan(0);
    const roles = await t.call('GET', '/api/audit?kind=role-changed', { token: owner.token });
    expect(roles.json.events).toHaveLength(1);
    expect(roles.json.events[0]).toMatchObject({ subject: dispatcher.email, before: { role: 'dispatcher' }, after: { role: 'driver' } });
    expect((await t.call('GET', '/api/audit?kind=nonsense', { token: owner.token })).status).toBe(400);

    // Pages: newest first, the cursor leads on without repeats.
    const first = await t.call('GET', '/api/audit?limit=2', { token: owner.token });
    const second = await t.call('GET', `/api/audit?limit=2&before=${first.json.nextCursor}`, { token: owner.token });
    expect(second.json.events[0].id).toBeLessThan(first.json.events[1].id);

    const csv = await t.call('GET', '/api/audit/export.csv?kind=prices-changed', { token: owner.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(AUDIT_CSV_HEADER.join(','));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Prices changed');
    expect(lines[1]).toContain('""callOutFee"":65');

    // Another company's log is its own.
    const other = await t.operator();
    const theirLog = await t.call('GET', '/api/audit', { token: other.token });
    expect(theirLog.json.events.every((e: { personId: number | null }) => e.personId === other.user.id)).toBe(true);
  });
});

describe('jobs in the log', () => {
  it('records an accept, a decline and each status change with the person, the driver’s link or the motorist who made it', async () => {
    const t = createTestApp();
    const owner = await t.operator();
    const dispatcher = await t.teammate(owner, 'dispatcher');
    const booked = async (key: string) => {
      const quote = await t.call('POST', '/api/quotes/calculate', { body: { ...quoteBody, companyId: owner.companyId } });
      const res = await t.call('POST', '/api/bookings', {
        body: { quoteId: quote.json.quoteId, bookingKey: key, name: 'Jane Motorist', phone: '07700 900123', registration: 'ab12cde' },
      });
      expect(res.status).toBe(201);
      return { reference: quote.json.quoteId as string, jobToken: res.json.jobToken as string };
    };
    const first = await booked('k3Y-of-one-booking-form-0001');
    const accepted = await t.call('POST', `/api/bookings/${first.reference}/accept`, { token: dispatcher.token, body: { etaMinutes: 20, driverName: 'Sam' } });
    expect(accepted.status).toBe(200);
    const driverToken = (accepted.json.driverUrl as string).split('/driver/')[1];
    expect((await t.call('POST', `/api/driver/${driverToken}/status`, { body: { status: 'on_the_way' } })).status).toBe(200);
    const second = await booked('k3Y-of-one-booking-form-0002');
    expect((await t.call('POST', `/api/bookings/${second.reference}/decline`, { token: owner.token, body: { reason: 'No truck free' } })).status).toBe(200);

    const events = (await t.call('GET', '/api/audit', { token: owner.token })).json.events as Array<Record<string, unknown>>;
    const about = (reference: string) => events.filter((e) => e.subject === reference).reverse();
    expect(about(first.reference).map((e) => [e.kind, e.personName])).toEqual([
      ['booking-accepted', dispatcher.user.name],
      ['booking-status', 'Driver (by link)'],
    ]);
    expect(about(first.reference)[0]).toMatchObject({ personId: dispatcher.id, after: { status: 'accepted', etaMinutes: 20, driverName: 'Sam' } });
    expect(about(first.reference)[1]).toMatchObject({ before: { status: 'accepted' }, after: { status: 'on_the_way' } });
    expect(about(second.reference)).toMatchObject([{ kind: 'booking-declined', personId: owner.user.id, after: { reason: 'No truck free' } }]);
  });
});

describe('the dispatchers’ refund limit', () => {
  it('refuses a dispatcher’s refund above the owner’s limit with 403 before any money moves; within it, and any the owner gives, go through and are logged', async () => {
    const s = await paidStripeBooking(fake, { rule: 'full' });
    const dispatcher = await s.t.teammate(s.op, 'dispatcher');
    const refundCalls = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds' && r.params.get('payment_intent') === s.intent);
    const refund = (token: string, body: Record<string, unknown>) => s.t.call('POST', `/api/bookings/${s.reference}/refund`, { token, body });

    // No limit set yet: a dispatcher may refund nothing.
    const none = await refund(dispatcher.token, { amount: 5 });
    expect(none.status).toBe(403);
    expect(none.json.code).toBe('REFUND_OVER_LIMIT');
    expect((await s.t.call('PUT', '/api/team/refund-limit', { token: dispatcher.token, body: { dispatcherRefundLimit: 500 } })).status).toBe(403);
    const set = await s.t.call('PUT', '/api/team/refund-limit', { token: s.op.token, body: { dispatcherRefundLimit: 30 } });
    expect(set.status).toBe(200);
    expect(set.json.dispatcherRefundLimit).toBe(30);

    const over = await refund(dispatcher.token, { amount: 30.01 });
    expect(over.status).toBe(403);
    expect(over.json.message).toBe('Refunds above £30.00 need the owner. Ask the owner to give this refund.');
    // "Everything left" is over the limit too.
    expect((await refund(dispatcher.token, {})).status).toBe(403);
    expect(refundCalls()).toHaveLength(0);

    expect((await refund(dispatcher.token, { amount: 30 })).status).toBe(200);
    expect((await refund(s.op.token, { amount: 100 })).status).toBe(200);
    expect(refundCalls()).toHaveLength(2);

    const log = await s.t.call('GET', '/api/audit?kind=refund', { token: s.op.token });
    expect(log.json.events.map((e: { personId: number; after: { amount: number } }) => [e.personId, e.after.amount])).toEqual([
      [s.op.user.id, 100],
      [dispatcher.id, 30],
    ]);
  });
});
