// Proof of condition (docs/product.md, "Proof of condition"): the limits and the words the pages
// use, without zod, so a page that only shows the photos (the motorist's status page) loads no
// validation library for them (docs/budgets.md "The status page's map"). The schemas are
// shared/proof.ts's, which re-exports all of this.

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
