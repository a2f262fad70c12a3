// Proof of condition's rules (docs/product.md, "Proof of condition"): the driver's uploads and
// checklists, what each reader sees of them, the files under each credential, the operator's
// settings and the job report. Who the caller is was settled by the routes (a token, or the
// session's company, through the bookings' look-ups); everything here is by booking id.
import { Readable } from 'node:stream';
import { createHash, randomBytes } from 'node:crypto';
import { JOB_PAGE_CLOSES_AFTER_MS, type BookingStatus } from '#shared/bookings';
import {
  type conditionSchema,
  IMAGE_TYPES,
  MAX_FILES_PER_JOB,
  MAX_THUMBNAIL_BYTES,
  MAX_UPLOAD_BYTES,
  PROOF_FILES_FULL,
  THUMBNAIL_BEFORE_PHOTO,
  UPLOAD_RATE_LIMITED,
  uploadQuerySchema,
  type ConditionView,
  type ProofFile,
  type ProofSettings,
  type ProofSettingsUpdate,
  type ProofView,
} from '#shared/proof';
import { DOCUMENT_TITLES, type DocumentSummary, JOB_REPORT_NUMBER } from '#shared/documents';
import { fieldMessages } from '#shared/field-messages';
import type { z } from 'zod';
import { bookingById, bookingHistory, type BookingWithQuote } from '../bookings/store';
import { write } from '../platform/db/write';
import type { AppDeps } from '../platform/deps';
import { Conflict, NotFound, UnsupportedMediaType, ValidationFailed } from '../platform/errors';
import { addressGroup } from '../platform/http/connection-guard';
import { createRateLimiter } from '../platform/http/rate-limit';
import { type BlobStore, newBlobKey } from './blob-store';
import { renderJobReport, type ReportPhoto } from '../documents/job-report';
import {
  awaitedPhotos,
  conditionsOf,
  insertJobFile,
  jobFileByClientId,
  jobFileByPublicId,
  jobFileCount,
  jobFilesOf,
  jobReportOf,
  type JobReportRow,
  proofSettingsOf,
  replaceJobReport,
  queueBlobDeletions,
  saveCondition,
  saveProofSettings,
  setThumbnail,
  type JobFileRow,
} from './store';
import { NOT_AN_IMAGE, NotAnImage, receiveImage } from './upload';

/**
 * Who is looking, and so what they see: the motorist never sees positions, hashes or the file as
 * uploaded. `assignee` is the signed-in person the job is assigned to ("My jobs"), who sees what
 * the driver's link sees.
 */
export type Audience = { kind: 'driver' | 'motorist'; token: string } | { kind: 'operator' | 'assignee'; reference: string };

/** A job takes files from its acceptance on, and for a day after it completes (queued uploads arriving late). */
const TAKES_FILES: readonly BookingStatus[] = ['accepted', 'on_the_way', 'arrived', 'loaded', 'completed'];
export const JOB_TAKES_NO_FILES = 'This job takes no photos now.';
export const FILE_NOT_FOUND = 'No such photo';

const newPublicId = () => randomBytes(16).toString('base64url');

function baseOf(audience: Audience): string {
  if ('reference' in audience) return `/api/${audience.kind === 'operator' ? 'bookings' : 'my-jobs'}/${encodeURIComponent(audience.reference)}`;
  return `/api/${audience.kind === 'driver' ? 'driver' : 'jobs'}/${audience.token}`;
}

function toProofFile(row: JobFileRow, audience: Audience): ProofFile {
  const motorist = audience.kind === 'motorist';
  const url = `${baseOf(audience)}/files/${row.publicId}`;
  const viewable = !motorist || row.shownKey !== null;
  return {
    id: row.publicId,
    stage: row.stage,
    kind: row.kind,
    slot: (row.slot as ProofFile['slot']) ?? null,
    note: row.note,
    signerName: row.signerName,
    takenAt: row.takenAt,
    takenBy: row.takenBy,
    position: !motorist && row.latitude !== null && row.longitude !== null ? { lat: row.latitude, lng: row.longitude } : null,
    contentType: row.contentType,
    size: row.size,
    sha256: motorist ? null : row.sha256,
    url: viewable ? url : null,
    thumbnailUrl: viewable ? `${url}?size=thumbnail` : null,
  };
}

const parseChecklist = (json: string): { item: string; checked: boolean }[] => {
  try {
    const list: unknown = JSON.parse(json);
    return Array.isArray(list) ? (list as { item: string; checked: boolean }[]) : [];
  } catch {
    return [];
  }
};

export function proofService(deps: Pick<AppDeps, 'db' | 'config' | 'now' | 'logger' | 'events'>, blobs: BlobStore) {
  const { db, config, now, logger } = deps;
  const uploadLimiter = createRateLimiter({ limit: config.uploads.rateLimit, windowMs: 60_000, now: () => now().getTime() });

  const booking = (id: number): BookingWithQuote => {
    const b = bookingById(db, id);
    if (!b) throw new NotFound(FILE_NOT_FOUND);
    return b;
  };

  /**
   * From its acceptance until a day after it finished, as long as the driver's link works: the
   * signed-in driver's own job has no link to close, so the same day is counted here.
   */
  const takesFiles = (b: BookingWithQuote) =>
    TAKES_FILES.includes(b.status) && !(b.finishedAt && now().getTime() - Date.parse(b.finishedAt) > JOB_PAGE_CLOSES_AFTER_MS);

  const conditionView = (row: ReturnType<typeof conditionsOf>[number]): ConditionView => ({
    stage: row.stage,
    checklist: parseChecklist(row.checklist),
    notes: row.notes,
    updatedAt: row.updatedAt,
  });

  /** The query string of an upload, parsed: 400 with the field's message. */
  function uploadQuery(query: Record<string, string>) {
    const parsed = uploadQuerySchema.safeParse(query);
    if (!parsed.success) {
      const fields = fieldMessages(parsed.error.issues);
      throw new ValidationFailed(Object.values(fields)[0] ?? 'Invalid request', fields);
    }
    return parsed.data;
  }

  /** Deletes blobs now, and queues any the store would not delete for the sweep (api/proof/sweep.ts). */
  async function discard(keys: string[]) {
    const left: string[] = [];
    await Promise.all(keys.map((key) => blobs.delete(key).catch(() => left.push(key))));
    if (left.length > 0) await write(db, () => queueBlobDeletions(db, left, now().toISOString()));
  }

  // A completed job's report is issued as it completes, beside its receipt; should that fail, its
  // first download issues it.
  deps.events.on('job.changed', async ({ bookingId, kind }) => {
    if (kind !== 'completed') return;
    try {
      await issueReport(bookingId);
    } catch (error) {
      logger.warn({ msg: 'Could not issue a job’s report; its first download will', bookingId, error: error instanceof Error ? error.message : String(error) });
    }
  });

  return {
    blobs,

    /** Counted before anything is read, even the token: 429 past UPLOAD_RATE_LIMIT a minute per address. */
    checkUploadRate(client: string) {
      uploadLimiter.check(addressGroup(client), UPLOAD_RATE_LIMITED);
    },

    /**
     * Stores one upload of the driver's page (by its link, or the signed-in driver's own job).
     * Answers the file and whether it is new (a repeat of the same uploadId is answered with the
     * first, storing nothing). `takenBy`: the signed-in person; by the link, the driver's name
     * given at accept.
     */
    async upload(
      bookingId: number,
      audience: Audience,
      query: Record<string, string>,
      contentType: string | undefined,
      body: Readable | null,
      takenBy?: string,
    ): Promise<{ created: boolean; file: ProofFile }> {
      const q = uploadQuery(query);
      if (!/^image\/[\w.+-]+\s*(;|$)/i.test(contentType ?? '') || !body) throw new UnsupportedMediaType(NOT_AN_IMAGE, 'NOT_AN_IMAGE');
      const b = booking(bookingId);
      if (!takesFiles(b)) throw new Conflict(JOB_TAKES_NO_FILES, 'BOOKING_OUT_OF_ORDER');
      const before = jobFileByClientId(db, bookingId, q.uploadId);

      if (q.variant === 'thumbnail') {
        if (!before) throw new Conflict(THUMBNAIL_BEFORE_PHOTO, 'PROOF_THUMBNAIL_EARLY');
        if (before.thumbKey) return { created: false, file: toProofFile(before, audience) };
        const key = newBlobKey();
        await received(body, { shown: key }, MAX_THUMBNAIL_BYTES, ['image/jpeg', 'image/png']);
        const row = await write(db, () => setThumbnail(db, before.id, key));
        if (row?.thumbKey !== key) await discard([key]);
        return { created: false, file: toProofFile(row ?? before, audience) };
      }

      if (before) return { created: false, file: toProofFile(before, audience) };
      if (jobFileCount(db, bookingId) >= MAX_FILES_PER_JOB) throw new Conflict(PROOF_FILES_FULL, 'PROOF_FILES_FULL');
      const keys = { original: newBlobKey(), shown: newBlobKey() };
      const got = await received(body, keys, MAX_UPLOAD_BYTES, IMAGE_TYPES);
      const stored = await write(db, () =>
        insertJobFile(
          db,
          {
            bookingId,
            companyId: b.companyId,
            publicId: newPublicId(),
            clientId: q.uploadId,
            stage: q.stage,
            kind: q.kind,
            slot: q.kind === 'photo' ? (q.slot ?? null) : null,
            note: q.kind === 'photo' ? q.note || null : null,
            signerName: q.kind === 'signature' ? (q.signer ?? null) : null,
            takenAt: new Date(q.takenAt).toISOString(),
            latitude: q.lat ?? null,
            longitude: q.lng ?? null,
            takenBy: takenBy ?? b.driverName ?? 'Driver',
            contentType: got.type,
            size: got.size,
            sha256: got.sha256,
            storeKey: keys.original,
            shownKey: got.shown ? keys.shown : null,
          },
          MAX_FILES_PER_JOB,
        ),
      ).catch(async (error: unknown) => {
        await discard([keys.original, keys.shown]);
        throw error;
      });
      if (stored === 'full' || !stored.created) await discard([keys.original, keys.shown]);
      if (stored === 'full') throw new Conflict(PROOF_FILES_FULL, 'PROOF_FILES_FULL');
      return { created: stored.created, file: toProofFile(stored.row, audience) };
    },

    /** Saves a stage's checklist and notes (the driver's page). */
    async saveCondition(bookingId: number, input: z.output<typeof conditionSchema>): Promise<ConditionView> {
      const b = booking(bookingId);
      if (!takesFiles(b)) throw new Conflict(JOB_TAKES_NO_FILES, 'BOOKING_OUT_OF_ORDER');
      const row = await write(db, () =>
        saveCondition(db, {
          bookingId,
          companyId: b.companyId,
          stage: input.stage,
          checklist: JSON.stringify(input.checklist),
          notes: input.notes,
          updatedAt: now().toISOString(),
        }),
      );
      return conditionView(row);
    },

    view(bookingId: number, audience: Audience): ProofView {
      const b = booking(bookingId);
      const files = jobFilesOf(db, bookingId);
      return {
        files: files.map((f) => toProofFile(f, audience)),
        conditions: conditionsOf(db, bookingId).map(conditionView),
        settings: proofSettingsOf(db, b.companyId),
        room: Math.max(0, MAX_FILES_PER_JOB - files.length),
        awaiting: awaitedPhotos(db, bookingId),
        // The motorist's and the operator's routes serve the report; the driver's pages do not.
        reportUrl: b.status === 'completed' && (audience.kind === 'motorist' || audience.kind === 'operator') ? `${baseOf(audience)}/report` : null,
      };
    },

    /** A file's bytes for `audience`: the motorist only ever gets the copy without metadata. */
    async file(bookingId: number, publicId: string, audience: Audience, size: string | undefined) {
      const row = /^[A-Za-z0-9_-]{22}$/.test(publicId) ? jobFileByPublicId(db, bookingId, publicId) : undefined;
      if (!row) throw new NotFound(FILE_NOT_FOUND);
      const full = audience.kind === 'motorist' ? row.shownKey : row.storeKey;
      const key = size === 'thumbnail' ? (row.thumbKey ?? full) : full;
      const blob = key ? await blobs.get(key) : undefined;
      if (!blob) throw new NotFound(FILE_NOT_FOUND);
      const type = key === row.thumbKey ? 'image/jpeg' : row.contentType;
      return { ...blob, contentType: type };
    },

    settings: (companyId: number): ProofSettings => proofSettingsOf(db, companyId),

    async updateSettings(companyId: number, patch: ProofSettingsUpdate): Promise<ProofSettings> {
      return write(db, () => {
        const current = proofSettingsOf(db, companyId);
        return saveProofSettings(db, companyId, {
          photosBeforeLoaded: patch.photosBeforeLoaded ?? current.photosBeforeLoaded,
          photosBeforeCompleted: patch.photosBeforeCompleted ?? current.photosBeforeCompleted,
          checklist: patch.checklist ?? current.checklist,
        });
      });
    },

    issueReport,

    /**
     * The job report PDF of a completed job as issued (409 before completion): the stored copy,
     * issued now if completion's issue failed or the job's files or checklists changed since.
     */
    async report(bookingId: number): Promise<{ bytes: Uint8Array; filename: string }> {
      const b = booking(bookingId);
      if (b.status !== 'completed') throw new Conflict(DOCUMENT_NOT_ISSUED_REPORT, 'DOCUMENT_NOT_ISSUED');
      const row = await issueReport(bookingId);
      // At most 2 MB (docs/budgets.md), answered whole like the receipts.
      const bytes = await readAll(blobs, row.storeKey);
      if (!bytes) throw new NotFound(REPORT_NOT_FOUND);
      return { bytes, filename: `job-report-TQ-${b.reference}.pdf` };
    },

    /** The job report as the job's documents list it (docs/product.md §22), once issued. */
    reportSummary(bookingId: number): DocumentSummary | undefined {
      const row = jobReportOf(db, bookingId);
      return row ? { number: JOB_REPORT_NUMBER, kind: 'job_report', title: DOCUMENT_TITLES.job_report, issuedAt: row.issuedAt, total: null } : undefined;
    },
  };

  /** What a report is drawn from, in brief: a report drawn from other contents is out of date. */
  function contentsOf(bookingId: number): string {
    const files = jobFilesOf(db, bookingId);
    const conditions = conditionsOf(db, bookingId);
    return [files.map((f) => `${f.id}${f.thumbKey ? 't' : ''}`).join(','), conditions.map((c) => c.updatedAt).join(',')].join('|');
  }

  /** The report's PDF, drawn from the job's rows and files now. */
  async function drawReport(b: BookingWithQuote): Promise<Uint8Array> {
    const files = jobFilesOf(db, b.id);
    const photos: ReportPhoto[] = [];
    let embedded = 0;
    for (const f of files) {
      // The thumbnail, else the shown copy while the report stays small (docs/budgets.md: 2 MB with 12 photos).
      const printable = f.contentType === 'image/jpeg' || f.contentType === 'image/png';
      const key = f.thumbKey ?? (printable && f.shownKey && f.size <= REPORT_FULL_IMAGE_MAX && embedded + f.size <= REPORT_IMAGE_BUDGET ? f.shownKey : null);
      const bytes = key ? await readAll(blobs, key) : undefined;
      if (bytes) embedded += bytes.length;
      photos.push({
        stage: f.stage,
        kind: f.kind,
        slot: f.slot,
        note: f.note,
        signerName: f.signerName,
        takenAt: f.takenAt,
        takenBy: f.takenBy,
        image: bytes ? { bytes, type: key === f.thumbKey ? sniffPrintable(bytes) : f.contentType } : undefined,
      });
    }
    return renderJobReport({
      companyName: b.companyName,
      reference: b.reference,
      registration: b.registration,
      vehicleType: b.vehicleType,
      pickupPostcode: b.pickupPostcode,
      destinationPostcode: b.destinationPostcode,
      driverName: b.driverName,
      history: bookingHistory(db, b.quoteId),
      conditions: conditionsOf(db, b.id).map(conditionView),
      photos,
      finishedAt: b.finishedAt ?? now().toISOString(),
    });
  }

  /**
   * The completed job's report as issued: drawn once and kept in the blob store like a receipt is
   * kept, never edited. A photo or checklist arriving after it (a phone's queue catching up, up to
   * a day after completion) issues it again: the new copy replaces the old, whose blob the
   * trigger queues for deletion. Two issuing at once keep the first stored.
   */
  async function issueReport(bookingId: number): Promise<JobReportRow> {
    const b = booking(bookingId);
    const contents = contentsOf(bookingId);
    const before = jobReportOf(db, bookingId);
    if (before && before.contents === contents) return before;
    const bytes = Buffer.from(await drawReport(b));
    const key = newBlobKey();
    await blobs.put(key, Readable.from([bytes]), 'application/pdf');
    const row: JobReportRow = {
      bookingId,
      companyId: b.companyId,
      storeKey: key,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      contents,
      issuedAt: now().toISOString(),
    };
    const kept = await write(db, () => replaceJobReport(db, row, before?.storeKey ?? null)).catch(async (error: unknown) => {
      await discard([key]);
      throw error;
    });
    if (kept.storeKey !== key) await discard([key]);
    return kept;
  }

  async function received(body: Readable, targets: { original?: string; shown: string }, maxBytes: number, allowed: readonly (typeof IMAGE_TYPES)[number][]) {
    try {
      return await receiveImage(body, blobs, targets, { maxBytes, allowed });
    } catch (error) {
      if (error instanceof NotAnImage) throw new UnsupportedMediaType(NOT_AN_IMAGE, 'NOT_AN_IMAGE');
      throw error;
    }
  }
}

export const DOCUMENT_NOT_ISSUED_REPORT = 'The job report is made once the job is completed.';
const REPORT_NOT_FOUND = 'The job report is not in the store';
/** A photo without a thumbnail goes in the report full size only up to this… */
const REPORT_FULL_IMAGE_MAX = 400 * 1024;
/** …and while the report's full-size images stay under this. */
const REPORT_IMAGE_BUDGET = 1536 * 1024;

const sniffPrintable = (bytes: Uint8Array) => (bytes[0] === 0x89 ? 'image/png' : 'image/jpeg');

async function readAll(blobs: BlobStore, key: string): Promise<Uint8Array | undefined> {
  const blob = await blobs.get(key);
  if (!blob) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of blob.body) chunks.push(chunk as Buffer);
  // A copy of its own: pdf-lib reads a JPEG through its ArrayBuffer from offset 0, and a small
  // Buffer lives part way into Node's shared pool ('SOI not found in JPEG' otherwise).
  return new Uint8Array(Buffer.concat(chunks));
}

export type ProofService = ReturnType<typeof proofService>;
