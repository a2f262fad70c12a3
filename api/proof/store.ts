// Proof of condition's rows (docs/product.md, "Proof of condition"): each file's keys and facts
// (never its bytes), each stage's checklist and notes, each company's settings, and the queue of
// blobs to delete that a trigger fills when a file's row goes (with its booking, at retention).
// Writers run inside the caller's write().
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { DEFAULT_CHECKLIST, type PhotoSlot, type ProofSettings, type ProofStage } from '#shared/proof';
import type { Db } from '../platform/db/client';
import { blobDeletions, jobConditions, jobFilePromises, jobFiles, jobReports, proofSettings } from '../platform/db/schema';

export type JobFileRow = typeof jobFiles.$inferSelect;
export type NewJobFile = Omit<typeof jobFiles.$inferInsert, 'id' | 'createdAt'>;
export type ConditionRow = typeof jobConditions.$inferSelect;

export const jobFilesOf = (db: Db, bookingId: number): JobFileRow[] =>
  db.select().from(jobFiles).where(eq(jobFiles.bookingId, bookingId)).orderBy(asc(jobFiles.takenAt), asc(jobFiles.id)).all();

export const jobFileCount = (db: Db, bookingId: number): number =>
  db.select({ n: count() }).from(jobFiles).where(eq(jobFiles.bookingId, bookingId)).get()?.n ?? 0;

export const jobFileByClientId = (db: Db, bookingId: number, clientId: string): JobFileRow | undefined =>
  db
    .select()
    .from(jobFiles)
    .where(and(eq(jobFiles.bookingId, bookingId), eq(jobFiles.clientId, clientId)))
    .get();

export const jobFileByPublicId = (db: Db, bookingId: number, publicId: string): JobFileRow | undefined =>
  db
    .select()
    .from(jobFiles)
    .where(and(eq(jobFiles.bookingId, bookingId), eq(jobFiles.publicId, publicId)))
    .get();

/**
 * Stores the file's row unless the job is full or the same upload is stored already: answers the
 * row, or 'full', or the row stored before under the same client id.
 */
export function insertJobFile(db: Db, row: NewJobFile, maxFiles: number): { row: JobFileRow; created: boolean } | 'full' {
  const before = jobFileByClientId(db, row.bookingId, row.clientId);
  if (before) return { row: before, created: false };
  if (jobFileCount(db, row.bookingId) >= maxFiles) return 'full';
  return { row: db.insert(jobFiles).values(row).returning().get(), created: true };
}

/** Sets a photo's thumbnail when it has none; answers the row as it is after. */
export function setThumbnail(db: Db, id: number, key: string): JobFileRow | undefined {
  db.update(jobFiles)
    .set({ thumbKey: key })
    .where(and(eq(jobFiles.id, id), sql`${jobFiles.thumbKey} is null`))
    .run();
  return db.select().from(jobFiles).where(eq(jobFiles.id, id)).get();
}

export const conditionsOf = (db: Db, bookingId: number): ConditionRow[] =>
  db.select().from(jobConditions).where(eq(jobConditions.bookingId, bookingId)).orderBy(asc(jobConditions.stage)).all();

export function saveCondition(
  db: Db,
  row: { bookingId: number; companyId: number; stage: ProofStage; checklist: string; notes: string; updatedAt: string },
): ConditionRow {
  return db
    .insert(jobConditions)
    .values(row)
    .onConflictDoUpdate({
      target: [jobConditions.bookingId, jobConditions.stage],
      set: { checklist: row.checklist, notes: row.notes, updatedAt: row.updatedAt },
    })
    .returning()
    .get();
}

const parseList = (json: string): string[] => {
  try {
    const list: unknown = JSON.parse(json);
    return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
};

export function proofSettingsOf(db: Db, companyId: number): ProofSettings {
  const row = db.select().from(proofSettings).where(eq(proofSettings.companyId, companyId)).get();
  return row
    ? { photosBeforeLoaded: row.photosBeforeLoaded, photosBeforeCompleted: row.photosBeforeCompleted, checklist: parseList(row.checklist) }
    : { photosBeforeLoaded: false, photosBeforeCompleted: false, checklist: DEFAULT_CHECKLIST };
}

export function saveProofSettings(db: Db, companyId: number, settings: ProofSettings): ProofSettings {
  const values = {
    photosBeforeLoaded: settings.photosBeforeLoaded,
    photosBeforeCompleted: settings.photosBeforeCompleted,
    checklist: JSON.stringify(settings.checklist),
  };
  db.insert(proofSettings)
    .values({ companyId, ...values })
    .onConflictDoUpdate({ target: proofSettings.companyId, set: { ...values, updatedAt: new Date().toISOString() } })
    .run();
  return proofSettingsOf(db, companyId);
}

/** Blobs queued for deletion, oldest first. */
export const queuedBlobDeletions = (db: Db, limit: number): string[] =>
  db
    .select({ key: blobDeletions.key })
    .from(blobDeletions)
    .orderBy(asc(blobDeletions.queuedAt))
    .limit(limit)
    .all()
    .map((r) => r.key);

export function queueBlobDeletions(db: Db, keys: readonly string[], at: string): void {
  if (keys.length > 0)
    db.insert(blobDeletions)
      .values(keys.map((key) => ({ key, queuedAt: at })))
      .onConflictDoNothing()
      .run();
}

export function blobsDeleted(db: Db, keys: readonly string[]): void {
  if (keys.length > 0)
    db.delete(blobDeletions)
      .where(sql`${blobDeletions.key} in (select value from json_each(${JSON.stringify(keys)}))`)
      .run();
}

/** The photos of a stage the job has received, by their place in the set. */
export const receivedSlots = (db: Db, bookingId: number, stage: ProofStage): string[] =>
  db
    .selectDistinct({ slot: jobFiles.slot })
    .from(jobFiles)
    .where(and(eq(jobFiles.bookingId, bookingId), eq(jobFiles.stage, stage), eq(jobFiles.kind, 'photo')))
    .all()
    .flatMap((r) => (r.slot ? [r.slot] : []));

/** Records the photos the phone said it held queued; a promise of one received (or promised) already is left as it was. */
export function recordPromises(
  db: Db,
  row: { bookingId: number; companyId: number; stage: ProofStage; promisedAt: string },
  photos: readonly { uploadId: string; slot: PhotoSlot }[],
): void {
  const fresh = photos.filter((p) => !jobFileByClientId(db, row.bookingId, p.uploadId));
  if (fresh.length > 0)
    db.insert(jobFilePromises)
      .values(fresh.map((p) => ({ ...row, clientId: p.uploadId, slot: p.slot })))
      .onConflictDoNothing()
      .run();
}

/** Promised photos that have not arrived, oldest first. */
export const awaitedPhotos = (db: Db, bookingId: number): { stage: ProofStage; slot: PhotoSlot; promisedAt: string }[] =>
  db
    .select({ stage: jobFilePromises.stage, slot: jobFilePromises.slot, promisedAt: jobFilePromises.promisedAt })
    .from(jobFilePromises)
    .where(
      and(
        eq(jobFilePromises.bookingId, bookingId),
        sql`not exists (select 1 from ${jobFiles} where ${jobFiles.bookingId} = ${jobFilePromises.bookingId} and ${jobFiles.clientId} = ${jobFilePromises.clientId})`,
      ),
    )
    .orderBy(asc(jobFilePromises.promisedAt), asc(jobFilePromises.id))
    .all()
    .map((r) => ({ ...r, slot: r.slot as PhotoSlot }));

export type JobReportRow = typeof jobReports.$inferSelect;

export const jobReportOf = (db: Db, bookingId: number): JobReportRow | undefined =>
  db.select().from(jobReports).where(eq(jobReports.bookingId, bookingId)).get();

/**
 * Stores the job's report in place of the one issued under `previousKey` (none: in place of none).
 * Should another have been stored meanwhile, that one is kept and answered instead. The row
 * replaced goes, and its trigger queues its blob for deletion.
 */
export function replaceJobReport(db: Db, row: JobReportRow, previousKey: string | null): JobReportRow {
  const current = jobReportOf(db, row.bookingId);
  if ((current?.storeKey ?? null) !== previousKey) return current ?? row;
  if (current) db.delete(jobReports).where(eq(jobReports.bookingId, row.bookingId)).run();
  db.insert(jobReports).values(row).run();
  return row;
}
