// The one write path every change to what a company's quotes see goes through: the writers in
// the feature stores (company settings and logo, pricing, charge rows, the owner's billing state) report
// each write here, and whoever keeps a view of the company (the quote path's configuration cache)
// listens. Routes never invalidate anything by hand, so a new writer cannot forget to.
import type { Db } from '../platform/db/client';

type Listener = (companyId: number) => void;

// Keyed by the SQLite connection: a transaction's drizzle handle shares it with its database.
const listeners = new WeakMap<object, Set<Listener>>();

/** Calls `listener` with the company id after each write to that company's priced data. */
export function onCompanyWrite(db: Pick<Db, '$client'>, listener: Listener): () => void {
  let set = listeners.get(db.$client);
  if (!set) {
    set = new Set();
    listeners.set(db.$client, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

export function companyWritten(db: Pick<Db, '$client'>, companyId: number): void {
  listeners.get(db.$client)?.forEach((listener) => listener(companyId));
}
