// Proof of condition (docs/product.md, "Proof of condition"): the photos, checklist, notes and
// signatures of a job at pickup and drop-off. The request and response schemas, written once for
// the server, the driver's page, the status page and the portal; the limits and the words the
// pages use are shared/proof-words.ts's (without zod), re-exported here.
import { z } from 'zod';
import { forbiddenCharacterMessage, isCleanText } from './schemas';
import {
  CHECKLIST_ITEM_MAX,
  CHECKLIST_MAX_ITEMS,
  CONDITION_NOTES_MAX,
  FILE_KINDS,
  MAX_FILES_PER_JOB,
  NOTE_MAX,
  PHOTO_SLOTS,
  PROOF_STAGES,
  SIGNER_MAX,
} from './proof-words';

export * from './proof-words';

const text = (label: string, max: number, multiline = false) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => isCleanText(v, multiline), forbiddenCharacterMessage(label));

/** The phone's own id for an upload (the upload's `uploadId`). */
const uploadId = z.string({ error: 'uploadId is required' }).regex(/^[A-Za-z0-9_-]{16,64}$/, 'uploadId must be 16 to 64 letters, digits, - or _');

/**
 * What the phone says of an upload, in the query string (the body is the image itself): which
 * stage, what it is, when and where it was taken, and the phone's own id for it, so a retry of an
 * upload that did arrive is answered with the file already stored.
 */
export const uploadQuerySchema = z
  .object({
    uploadId,
    stage: z.enum(PROOF_STAGES, { error: 'stage must be pickup or dropoff' }),
    kind: z.enum(FILE_KINDS, { error: 'kind must be photo or signature' }),
    slot: z.enum(PHOTO_SLOTS, { error: 'slot must be front, rear, left, right or damage' }).optional(),
    note: text('Note', NOTE_MAX).optional(),
    signer: text('Name', SIGNER_MAX).optional(),
    takenAt: z.iso.datetime({ offset: true, error: 'takenAt must be an ISO 8601 time' }),
    lat: z.coerce.number({ error: 'lat must be a number' }).min(-90).max(90).optional(),
    lng: z.coerce.number({ error: 'lng must be a number' }).min(-180).max(180).optional(),
    variant: z.enum(['full', 'thumbnail']).default('full'),
  })
  .superRefine((q, ctx) => {
    if (q.kind === 'photo' && !q.slot) ctx.addIssue({ code: 'custom', path: ['slot'], message: 'A photo needs its slot' });
    if (q.kind === 'signature' && !q.signer) ctx.addIssue({ code: 'custom', path: ['signer'], message: 'Type the name of the person signing' });
    if ((q.lat === undefined) !== (q.lng === undefined)) ctx.addIssue({ code: 'custom', path: ['lat'], message: 'lat and lng go together' });
  });
export type UploadQuery = z.output<typeof uploadQuerySchema>;

/**
 * Photos of the stage being left that the phone has taken and still holds in its queue, sent with
 * Loaded or Completed: they count toward the operator's required photos (decision 050).
 */
export const queuedPhotosSchema = z
  .array(
    z.object({
      uploadId,
      slot: z.enum(PHOTO_SLOTS, { error: 'slot must be front, rear, left, right or damage' }),
    }),
    { error: 'queuedPhotos must be a list' },
  )
  .max(MAX_FILES_PER_JOB, `At most ${MAX_FILES_PER_JOB} queued photos`);
export type QueuedPhoto = z.output<typeof queuedPhotosSchema>[number];

export const conditionSchema = z.object({
  stage: z.enum(PROOF_STAGES, { error: 'stage must be pickup or dropoff' }),
  checklist: z
    .array(z.object({ item: text('Checklist item', CHECKLIST_ITEM_MAX).min(1, 'Checklist item is required'), checked: z.boolean() }), {
      error: 'checklist must be a list',
    })
    .max(CHECKLIST_MAX_ITEMS, `At most ${CHECKLIST_MAX_ITEMS} checklist items`),
  notes: text('Notes', CONDITION_NOTES_MAX, true).default(''),
});
export type ConditionInput = z.input<typeof conditionSchema>;

export const proofSettingsUpdateSchema = z.object({
  photosBeforeLoaded: z.boolean({ error: 'Must be true or false' }).optional(),
  photosBeforeCompleted: z.boolean({ error: 'Must be true or false' }).optional(),
  checklist: z
    .array(text('Checklist item', CHECKLIST_ITEM_MAX).min(1, 'Checklist item is required'), { error: 'checklist must be a list' })
    .max(CHECKLIST_MAX_ITEMS, `At most ${CHECKLIST_MAX_ITEMS} checklist items`)
    .optional(),
});
export type ProofSettingsUpdate = z.input<typeof proofSettingsUpdateSchema>;

export const proofSettingsSchema = z.object({
  photosBeforeLoaded: z.boolean(),
  photosBeforeCompleted: z.boolean(),
  checklist: z.array(z.string()),
});
export type ProofSettings = z.infer<typeof proofSettingsSchema>;

export const proofFileSchema = z.object({
  /** 128 random bits: the file's name in its URLs. */
  id: z.string(),
  stage: z.enum(PROOF_STAGES),
  kind: z.enum(FILE_KINDS),
  slot: z.enum(PHOTO_SLOTS).nullable(),
  note: z.string().nullable(),
  signerName: z.string().nullable(),
  takenAt: z.string(),
  takenBy: z.string(),
  /** Where the phone was, if it shared it: the operator's and driver's views only. */
  position: z.object({ lat: z.number(), lng: z.number() }).nullable(),
  contentType: z.string(),
  size: z.number().int(),
  /** Hex SHA-256 of the file as uploaded: the operator's and driver's views only. */
  sha256: z.string().nullable(),
  /** The file to open full size, under the same credential as the page; null when none can be shown here (HEIC to the motorist). */
  url: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
});
export type ProofFile = z.infer<typeof proofFileSchema>;

export const conditionViewSchema = z.object({
  stage: z.enum(PROOF_STAGES),
  checklist: z.array(z.object({ item: z.string(), checked: z.boolean() })),
  notes: z.string(),
  updatedAt: z.string(),
});
export type ConditionView = z.infer<typeof conditionViewSchema>;

export const proofViewSchema = z.object({
  files: z.array(proofFileSchema),
  conditions: z.array(conditionViewSchema),
  settings: proofSettingsSchema,
  /** Files the job may still take. */
  room: z.number().int(),
  /** Photos the driver's phone said were queued when it moved the job on, not received yet. */
  awaiting: z.array(z.object({ stage: z.enum(PROOF_STAGES), slot: z.enum(PHOTO_SLOTS), promisedAt: z.string() })),
  /** The job report PDF, under the same credential; null until the job is completed. */
  reportUrl: z.string().nullable(),
});
export type ProofView = z.infer<typeof proofViewSchema>;
