// Proof of condition (docs/product.md, "Proof of condition"): the driver uploads photos and
// signatures and saves the checklist from the driver's page (its token is the credential); the
// motorist sees the photos and downloads the job report from the status page (the job's token);
// the operator sees everything in the portal and sets what the driver is asked for. Every file is
// named by 128 random bits and reached only under one of those credentials.
import {
  conditionSchema,
  conditionViewSchema,
  IMAGE_TYPES,
  MAX_FILES_PER_JOB,
  MAX_UPLOAD_BYTES,
  proofFileSchema,
  proofSettingsSchema,
  proofSettingsUpdateSchema,
  proofViewSchema,
} from '#shared/proof';
import { OFFICE, OWNER } from '#shared/roles';
import { body, error, json, parameter, rateLimited, route } from './define';

const driverToken = parameter('token', 'path', 'The driver’s token (32 characters, from the link): never logged', 'Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g');
const jobToken = parameter('token', 'path', 'The motorist’s token (32 characters, from the link): never logged', 'Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g');
const referenceParameter = parameter('reference', 'path', 'The booked quote’s reference (TQ-…), as typed', 'TQ-KJAECF76R');
export const fileParameter = parameter('fileId', 'path', 'The file’s id (22 characters, 128 random bits), from the job’s proof', 'q7Yc2LmN4rT1uV8aC5eF6g');
export const sizeParameter = parameter('size', 'query', '`thumbnail` for the small copy the grids and the report use; the full image otherwise', 'thumbnail');
const query = (name: string, description: string, example: string) => parameter(name, 'query', description, example);

/** What an upload is, in its query: the driver's page (by its token) and the signed-in driver's own job send the same. */
export const uploadParameters = [
  query('uploadId', 'The phone’s own id for this upload (16–64 of A–Z a–z 0–9 - _)', 'u-2f9c1d7e8a4b4c21'),
  query('stage', '`pickup` or `dropoff`', 'pickup'),
  query('kind', '`photo` or `signature`', 'photo'),
  query('slot', 'A photo’s place in the set: `front`, `rear`, `left`, `right` or `damage`', 'front'),
  query('note', 'A damage close-up’s short note (200 characters)', 'Scratch on the rear bumper'),
  query('signer', 'A signature’s typed name (80 characters)', 'Alex Driver'),
  query('takenAt', 'When the phone took it (ISO 8601)', '2026-11-28T21:14:05.120Z'),
  query('lat', 'Where the phone was, if it shared it', '52.4862'),
  query('lng', 'Where the phone was, if it shared it', '-1.8904'),
  query('variant', '`full` (default) or `thumbnail`', 'full'),
];

const jobMissing = error('No job has this token: `code` NOT_FOUND');
const jobClosed = error('The job finished more than a day ago and its page has closed: `code` JOB_CLOSED');
const bookingMissing = error('No booking of this company has this reference');
const fileMissing = error('No file of this job has this id (or none can be shown here): `code` NOT_FOUND');
export const image = {
  description: 'The image (Content-Type its own, by its bytes), never cached',
  content: Object.fromEntries(IMAGE_TYPES.map((type) => [type, { schema: { type: 'string' as const, format: 'binary' } }])),
};
const pdf = {
  description: 'The job report as a PDF (Content-Disposition: attachment)',
  content: { 'application/pdf': { schema: { type: 'string' as const, format: 'binary' } } },
};

export const UPLOAD_DESCRIPTION = `The body is a JPEG, PNG, WebP or HEIC image, recognised by its bytes (anything else: 415 NOT_AN_IMAGE), at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB (413), streamed to the store with its SHA-256; the motorist’s copy has its EXIF and XMP (where the phone’s position is) taken out. At most ${MAX_FILES_PER_JOB} files a job (409 PROOF_FILES_FULL). A repeat with the same \`uploadId\` answers 200 with the file stored the first time. \`variant=thumbnail\` adds the small copy of a photo already uploaded (409 PROOF_THUMBNAIL_EARLY before it). Rate-limited per client address (UPLOAD_RATE_LIMIT a minute). A refused or interrupted upload stores nothing.`;

export const proof = {
  upload: route({
    method: 'post',
    path: '/api/driver/{token}/files',
    'x-access': 'public',
    'x-body-limit': MAX_UPLOAD_BYTES,
    tags: ['Public'],
    summary: 'Uploads one photo or signature from the driver’s page: the body is the image itself, what it is goes in the query',
    description: UPLOAD_DESCRIPTION,
    parameters: [driverToken, ...uploadParameters],
    request: { body: { required: true, ...image } },
    responses: {
      201: json(proofFileSchema, 'Stored'),
      200: json(proofFileSchema, 'Stored already (the same `uploadId`), or the thumbnail added'),
      400: error('A query value is missing or wrong: `fields` names it'),
      404: jobMissing,
      409: error(`The job holds ${MAX_FILES_PER_JOB} files already (PROOF_FILES_FULL), or a thumbnail came before its photo (PROOF_THUMBNAIL_EARLY)`),
      410: jobClosed,
      413: error(`The image is over ${MAX_UPLOAD_BYTES / 1024 / 1024} MB: nothing was stored`),
      415: error('The body is not a JPEG, PNG, WebP or HEIC image: nothing was stored (NOT_AN_IMAGE)'),
      429: error('Too many uploads from this address: `Retry-After` says when to try again'),
    },
  }),
  driverProof: route({
    method: 'get',
    path: '/api/driver/{token}/proof',
    'x-access': 'public',
    'x-rate-limit': ['driver'],
    tags: ['Public'],
    summary: 'The job’s photos, signatures and checklists as the driver’s page shows them, and what the operator asks for',
    parameters: [driverToken],
    responses: { 200: json(proofViewSchema, 'The proof'), 404: jobMissing, 410: jobClosed, 429: rateLimited },
  }),
  condition: route({
    method: 'put',
    path: '/api/driver/{token}/condition',
    'x-access': 'public',
    'x-rate-limit': ['driver'],
    tags: ['Public'],
    summary: 'Saves the checklist and notes of one stage (pickup or drop-off), replacing what was saved before',
    parameters: [driverToken],
    request: {
      body: body(conditionSchema, {
        stage: 'pickup',
        checklist: [
          { item: 'Keys handed over', checked: true },
          { item: 'Personal items removed', checked: false },
        ],
        notes: 'Light scuff on the offside mirror, pointed out to the owner',
      }),
    },
    responses: { 200: json(conditionViewSchema, 'Saved'), 404: jobMissing, 410: jobClosed, 429: rateLimited },
  }),
  driverFile: route({
    method: 'get',
    path: '/api/driver/{token}/files/{fileId}',
    'x-access': 'public',
    'x-rate-limit': ['driver'],
    tags: ['Public'],
    summary: 'One of the job’s files, for the driver’s page',
    parameters: [driverToken, fileParameter, sizeParameter],
    responses: { 200: image, 404: fileMissing, 410: jobClosed, 429: rateLimited },
  }),
  jobProof: route({
    method: 'get',
    path: '/api/jobs/{token}/proof',
    'x-access': 'public',
    'x-rate-limit': ['job'],
    tags: ['Public'],
    summary: 'The job’s photos, signatures and checklists as the motorist’s status page shows them (no positions)',
    parameters: [jobToken],
    responses: { 200: json(proofViewSchema, 'The proof'), 404: jobMissing, 410: jobClosed, 429: rateLimited },
  }),
  jobFile: route({
    method: 'get',
    path: '/api/jobs/{token}/files/{fileId}',
    'x-access': 'public',
    'x-rate-limit': ['job'],
    tags: ['Public'],
    summary: 'One of the job’s photos or signatures for the motorist: the copy without its EXIF or XMP',
    parameters: [jobToken, fileParameter, sizeParameter],
    responses: { 200: image, 404: fileMissing, 410: jobClosed, 429: rateLimited },
  }),
  jobReport: route({
    method: 'get',
    path: '/api/jobs/{token}/report',
    'x-access': 'public',
    'x-rate-limit': ['job'],
    tags: ['Public'],
    summary: 'The job report PDF: photos with their times, checklists, notes, signatures, the route and the times',
    parameters: [jobToken],
    responses: { 200: pdf, 404: jobMissing, 409: error('The job is not completed yet: `code` DOCUMENT_NOT_ISSUED'), 410: jobClosed, 429: rateLimited },
  }),
  bookingProof: route({
    method: 'get',
    path: '/api/bookings/{reference}/proof',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'A booking’s photos, signatures and checklists, with where each photo was taken and its SHA-256',
    parameters: [referenceParameter],
    responses: { 200: json(proofViewSchema, 'The proof'), 404: bookingMissing },
  }),
  bookingFile: route({
    method: 'get',
    path: '/api/bookings/{reference}/files/{fileId}',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'One of a booking’s files as uploaded',
    parameters: [referenceParameter, fileParameter, sizeParameter],
    responses: { 200: image, 404: error('No booking of this company has this reference, or no file of it this id') },
  }),
  bookingReport: route({
    method: 'get',
    path: '/api/bookings/{reference}/report',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'A booking’s job report PDF',
    parameters: [referenceParameter],
    responses: { 200: pdf, 404: bookingMissing, 409: error('The job is not completed yet: `code` DOCUMENT_NOT_ISSUED') },
  }),
  settings: route({
    method: 'get',
    path: '/api/proof-settings',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'What the driver’s page asks for: photos before Loaded and Completed, and the checklist',
    responses: { 200: json(proofSettingsSchema, 'The settings') },
  }),
  updateSettings: route({
    method: 'put',
    path: '/api/proof-settings',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Bookings'],
    summary: 'Changes the given proof settings',
    request: {
      body: body(proofSettingsUpdateSchema, {
        photosBeforeLoaded: true,
        photosBeforeCompleted: true,
        checklist: ['Keys handed over', 'Personal items removed', 'Existing damage agreed'],
      }),
    },
    responses: { 200: json(proofSettingsSchema, 'The settings') },
  }),
};
