// Emitting and hearing the company-change event: the one write path every change to what a
// company's quotes see goes through. The event itself, who emits it, who listens and why it is
// per process, is documented where it lives, in the database's store object
// (CompanyChanges in api/platform/db/store.ts).
import type { Db } from '../platform/db/client';

/** Emits the event: called by a feature-store writer after it wrote company `companyId`'s priced data. */
export function companyWritten(db: Pick<Db, '$store'>, companyId: number): void {
  db.$store.companyChanges.emit(companyId);
}

/** Calls `listener` with the company id after each write to that company's priced data, in this process. */
export function onCompanyWrite(db: Pick<Db, '$store'>, listener: (companyId: number) => void): () => void {
  return db.$store.companyChanges.listen(listener);
}
