// The charge lists' operations: the operator's own rows scoped to their company (another
// company's row is the same 404 as a missing one), and a live company's enabled rows for the public.
import type { z } from 'zod';
import { createCharge, deleteCharge, listCharges, updateCharge, type ChargeInsert, type ChargeKind, type ChargeRow } from './store';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { Conflict, NotFound } from '../platform/errors';
import { parseId } from '../platform/http/validate';
import { livePublicCompany } from '../company/access';
import type { ChargeResource } from './resources';
import { type Actor, changedValues, SYSTEM } from '../team/audit';

/** Names compare trimmed and case-insensitively: 'Car' and ' car ' are one vehicle type. */
const nameKey = (name: string) => name.trim().toLocaleLowerCase('en-GB');

export function chargeService<K extends ChargeKind, Body extends z.ZodObject, Json>(deps: AppDeps, resource: ChargeResource<K, Body, Json>) {
  const { db } = deps;
  const { kind } = resource;
  const missing = () => new NotFound(`${resource.label} not found`);

  /**
   * Refuses a name another row of the company's list already has: 409 "{name} already exists".
   * Called inside the write's transaction, so two requests cannot both pass it.
   */
  const refuseDuplicateName = (rows: ChargeRow<K>[], values: Partial<ChargeInsert<K>>, exceptId?: number) => {
    const column = resource.nameColumn;
    const name = column && (values as Record<string, unknown>)[column];
    if (typeof name !== 'string') return;
    const taken = rows.some((row) => row.id !== exceptId && nameKey(String((row as Record<string, unknown>)[column!])) === nameKey(name));
    if (taken) throw new Conflict(`${name.trim()} already exists`, 'NAME_TAKEN');
  };

  /** The audit log's line of a row added, changed or deleted: its values before and after, in the portal's words. Inside the write. */
  function logChange(companyId: number, who: Actor, before: ChargeRow<K> | undefined, after: ChargeRow<K> | undefined) {
    const was = before && resource.toJson(before);
    const now = after && resource.toJson(after);
    const changed = was && now ? changedValues(was as object, now as object) : { before: was, after: now };
    if (!changed) return;
    const name = (row: ChargeRow<K> | undefined) => (row && resource.nameColumn ? String((row as Record<string, unknown>)[resource.nameColumn]) : undefined);
    const subject = [resource.label, name(after) ?? name(before)].filter(Boolean).join(': ');
    deps.audit(who, { companyId, kind: 'charges-changed', subject, ...changed }, deps.now());
  }

  return {
    list: (companyId: number): Json[] => listCharges(db, kind, companyId).map(resource.toJson),
    /** Public: enabled rows of a company whose page is live. */
    listPublic: (rawCompanyId: string): Json[] => listCharges(db, kind, livePublicCompany(deps, rawCompanyId).id, true).map(resource.toJson),
    async create(companyId: number, body: z.output<Body>, who: Actor = SYSTEM): Promise<Json> {
      const values = resource.toColumns(body, true) as ChargeInsert<K>;
      return resource.toJson(
        await write(db, () => {
          refuseDuplicateName(listCharges(db, kind, companyId), values);
          const row = createCharge(db, kind, companyId, values);
          logChange(companyId, who, undefined, row);
          return row;
        }),
      );
    },
    async update(companyId: number, rawId: string, body: Partial<z.output<Body>>, who: Actor = SYSTEM): Promise<Json> {
      const id = parseId(rawId);
      if (id === undefined) throw missing();
      const patch = resource.toColumns(body, false);
      const row =
        Object.keys(patch).length > 0
          ? await write(db, () => {
              // A missing row is a 404, whatever its new name would clash with.
              const rows = listCharges(db, kind, companyId);
              const before = rows.find((r) => r.id === id);
              if (!before) return undefined;
              refuseDuplicateName(rows, patch, id);
              const after = updateCharge(db, kind, companyId, id, patch);
              logChange(companyId, who, before, after);
              return after;
            })
          : listCharges(db, kind, companyId).find((r) => r.id === id);
      if (!row) throw missing();
      return resource.toJson(row);
    },
    async remove(companyId: number, rawId: string, who: Actor = SYSTEM): Promise<void> {
      const id = parseId(rawId);
      const removed =
        id !== undefined &&
        (await write(db, () => {
          const before = listCharges(db, kind, companyId).find((r) => r.id === id);
          if (!before || !deleteCharge(db, kind, companyId, id)) return false;
          logChange(companyId, who, before, undefined);
          return true;
        }));
      if (!removed) throw missing();
    },
  };
}
