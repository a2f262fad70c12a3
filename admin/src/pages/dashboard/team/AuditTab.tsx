// The Audit log tab (docs/product.md, "The team"), the owner's only: who did what, newest first,
// filtered by person and kind, a page at a time, and the filtered log as CSV.
import { useState } from 'react';
import { Download } from 'lucide-react';
import { AUDIT_KIND_WORDS, AUDIT_KINDS, type AuditEventView, type AuditKind } from '#shared/team';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Select, Spinner } from '../../../components/ui';
import { auditCsvHref, useAudit, useTeam, type AuditFilters } from './api';

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/London' });

/** "callOutFee: 50 → 65" for each value that changed, or the values set. */
function change(event: AuditEventView): string {
  const before = (event.before ?? {}) as Record<string, unknown>;
  const after = (event.after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys
    .map((key) => {
      const was = key in before ? JSON.stringify(before[key]) : undefined;
      const now = key in after ? JSON.stringify(after[key]) : undefined;
      return was !== undefined && now !== undefined ? `${key}: ${was} → ${now}` : `${key}: ${now ?? was}`;
    })
    .join(', ');
}

export default function AuditTab() {
  const [filters, setFilters] = useState<AuditFilters>({});
  const team = useTeam();
  const audit = useAudit(filters);
  const events = audit.data?.pages.flatMap((page) => page.events) ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Audit log</CardTitle>
        <CardDescription>Who did what, and when: kept for 24 months and never changed.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap items-end gap-3">
          <Field label="Person">
            <Select value={filters.person ?? ''} onChange={(e) => setFilters({ ...filters, person: e.target.value ? Number(e.target.value) : undefined })}>
              <option value="">Everyone</option>
              {team.data?.people.map((person) => (
                <option key={person.id} value={person.id}>
                  {person.name}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="What">
            <Select value={filters.kind ?? ''} onChange={(e) => setFilters({ ...filters, kind: (e.target.value || undefined) as AuditKind | undefined })}>
              <option value="">Everything</option>
              {AUDIT_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {AUDIT_KIND_WORDS[kind]}
                </option>
              ))}
            </Select>
          </Field>
          <Button asChild variant="outline" className="mb-0.5">
            <a href={auditCsvHref(filters)} download>
              <Download aria-hidden="true" /> Download CSV
            </a>
          </Button>
        </div>
        {audit.isLoading ? (
          <Spinner label="Loading the audit log" />
        ) : events.length === 0 ? (
          <p className="text-sm text-slate-600">Nothing recorded yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200" aria-label="Audit log">
            {events.map((event) => (
              <li key={event.id} className="grid gap-0.5 py-2 text-sm">
                <p>
                  <span className="font-medium">{event.personName}</span> · {AUDIT_KIND_WORDS[event.kind]}
                  {event.subject && <span> · {event.subject}</span>}
                </p>
                {(event.before != null || event.after != null) && <p className="break-words text-slate-700">{change(event)}</p>}
                <p className="text-xs text-slate-600">{when.format(new Date(event.at))}</p>
              </li>
            ))}
          </ul>
        )}
        {audit.hasNextPage && (
          <Button variant="outline" onClick={() => void audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
            Show more
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
