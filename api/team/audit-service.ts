// The owner's reading of the audit log (docs/product.md, "The team"): pages newest first, filtered
// by person and kind, and the whole filtered log as CSV, streamed a chunk at a time.
import { AUDIT_KIND_WORDS, type AuditFilter, type AuditKind, type AuditPage } from '#shared/team';
import { londonDate, ukDateAndTime } from '../engine/calendar/uk-calendar';
import { csvCell } from '../leads/csv';
import type { AppDeps } from '../platform/deps';
import { auditView, listAudit, type AuditRow } from './audit';

const PAGE = 50;
const EXPORT_CHUNK = 500;

export const AUDIT_CSV_HEADER = ['Date', 'Time', 'Person', 'What', 'Subject', 'Before', 'After', 'Request id'];

function csvRow(row: AuditRow): string {
  const { date, time } = ukDateAndTime(row.at);
  return [date, time, row.personName, AUDIT_KIND_WORDS[row.kind as AuditKind] ?? row.kind, row.subject, row.oldValue, row.newValue, row.requestId]
    .map((cell) => csvCell(cell ?? null))
    .join(',');
}

export function auditService(deps: Pick<AppDeps, 'db' | 'now'>) {
  const { db } = deps;
  return {
    page(companyId: number, filter: AuditFilter): AuditPage {
      const limit = filter.limit ?? PAGE;
      const rows = listAudit(db, companyId, filter, limit + 1);
      const events = rows.slice(0, limit);
      return { events: events.map(auditView), nextCursor: rows.length > limit ? events[events.length - 1].id : null };
    },

    exportCsv(companyId: number, filter: AuditFilter): { filename: string; body: ReadableStream<Uint8Array> } {
      const encoder = new TextEncoder();
      let before: number | undefined;
      let started = false;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (!started) {
            started = true;
            controller.enqueue(encoder.encode(`\uFEFF${AUDIT_CSV_HEADER.map(csvCell).join(',')}\r\n`));
            return;
          }
          const rows = listAudit(db, companyId, { person: filter.person, kind: filter.kind, before }, EXPORT_CHUNK);
          if (rows.length === 0) {
            controller.close();
            return;
          }
          before = rows[rows.length - 1].id;
          controller.enqueue(encoder.encode(rows.map((row) => `${csvRow(row)}\r\n`).join('')));
        },
      });
      return { filename: `audit-log-${londonDate(deps.now())}.csv`, body };
    },
  };
}
