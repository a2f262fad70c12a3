// Proof of condition (docs/product.md, "Proof of condition"): the photos, checklist, notes and
// signatures of a job at pickup and drop-off. The limits, the words the pages use, and the
// request and response schemas, written once for the server, the driver's page, the status page
// and the portal.
import { z } from 'zod';
import { forbiddenCharacterMessage, isCleanText } from './schemas';

/** The image types taken, each recognised by its bytes (api/proof/image.ts). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export const PROOF_STAGES = ['pickup', 'dropoff'] as const;
export type ProofStage = (typeof PROOF_STAGES)[number];
export const PROOF_STAGE_LABELS: Record<ProofStage, string> = { pickup: 'Pickup', dropoff: 'Drop-off' };

/** The guided set: the four corners, then any damage close-ups. */
export const PHOTO_SLOTS = ['front', 'rear', 'left', 'right', 'damage'] as const;
export type PhotoSlot = (typeof PHOTO_SLOTS)[number];
export const REQUIRED_SLOTS: readonly PhotoSlot[] = ['front', 'rear', 'left', 'right'];
export const PHOTO_SLOT_LABELS: Record<PhotoSlot, string> = { front: 'Front', rear: 'Rear', left: 'Left side', right: 'Right side', damage: 'Damage close-up' };

export const FILE_KINDS = ['photo', 'signature'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** The largest file the server takes (a phone's full-size photo fits; the driver's page sends ~300 KB). */
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;
/** The largest thumbnail. */
export const MAX_THUMBNAIL_BYTES = 512 * 1024;
/** Files (photos and signatures) per job. */
export const MAX_FILES_PER_JOB = 60;
/** The driver's page resizes photos to this longest side before upload, as JPEG. */
export const PHOTO_MAX_SIDE = 2048;
/** …and makes a thumbnail of this longest side for the job report and the grids. */
export const THUMBNAIL_MAX_SIDE = 320;

export const NOTE_MAX = 200;
export const SIGNER_MAX = 80;
export const CONDITION_NOTES_MAX = 1000;
export const CHECKLIST_ITEM_MAX = 80;
export const CHECKLIST_MAX_ITEMS = 12;

export const DEFAULT_CHECKLIST = ['Keys handed over', 'Personal items removed', 'Existing damage agreed'];

// Messages (docs/product.md, "Proof of condition").
export const PROOF_FILES_FULL = `This job already has ${MAX_FILES_PER_JOB} photos and signatures, the most it can keep.`;
export const THUMBNAIL_BEFORE_PHOTO = 'The photo this thumbnail belongs to has not arrived yet.';
export const UPLOAD_RATE_LIMITED = 'Too many uploads. The page will try again in a minute.';
export const PHOTOS_NEEDED = (stage: ProofStage) => `Take the four ${stage === 'pickup' ? 'pickup' : 'drop-off'} photos first: front, rear, left and right.`;
/** The server's refusal of Loaded (Completed) without the required photos, naming the sides missing. */
export const photosMissing = (stage: ProofStage, slots: readonly PhotoSlot[]) => {
  const names = slots.map((slot) => PHOTO_SLOT_LABELS[slot].toLowerCase());
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
  return `Take the ${stage === 'pickup' ? 'pickup' : 'drop-off'} photos first: ${list} ${names.length > 1 ? 'are' : 'is'} missing.`;
};
export const PROOF_WAITING = (count: number) => (count === 1 ? '1 photo or signature waiting to upload' : `${count} photos or signatures waiting to upload`);
export const PROOF_ALL_UPLOADED = 'All photos and signatures uploaded';

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
