// The team's dispatch (docs/product.md §23): the company's trucks and what its vehicle types need
// of one, the dispatch board with its live stream, assigning a job to a person and a truck, jobs
// for later, and the signed-in person's own jobs ("My jobs"), which they move on as the driver's
// page does, without its link.
import { EVERYONE, OFFICE, OWNER } from '#shared/roles';
import { z } from 'zod';
import { driverViewSchema } from '#shared/booking-responses';
import { balanceSchema, positionSchema } from '#shared/booking-schemas';
import {
  acceptLaterSchema,
  assignSchema,
  boardJobSchema,
  boardSchema,
  carriageRowSchema,
  carriageSchema,
  laterSettingsRowSchema,
  laterSettingsSchema,
  myJobSchema,
  myPhoneRowSchema,
  myPhoneSchema,
  myStepSchema,
  truckRowSchema,
  truckSchema,
  truckUpdateSchema,
} from '#shared/dispatch-schemas';
import { conditionSchema, conditionViewSchema, MAX_FILES_PER_JOB, MAX_UPLOAD_BYTES, proofFileSchema, proofViewSchema } from '#shared/proof';
import { successSchema } from '#shared/responses';
import { body, error, json, parameter, route } from './define';
import { fileParameter, image, sizeParameter, UPLOAD_DESCRIPTION, uploadParameters } from './proof';

const idParams = [parameter('id', 'path', 'A row id', '1')];
const referenceParameter = parameter('reference', 'path', 'The booked quote’s reference (TQ-…), as typed', 'TQ-KJAECF76R');
const truckMissing = error('No truck of this company has this id');
const bookingMissing = error('No booking of this company has this reference');
const myJobMissing = error('No job with this reference is assigned to the signed-in person: `code` NOT_FOUND');
const stream = {
  description: 'text/event-stream',
  content: { 'text/event-stream': { schema: { type: 'string' as const } } },
};

export const trucks = {
  list: route({
    method: 'get',
    path: '/api/trucks',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Dispatch'],
    summary: 'The company’s trucks, by name',
    responses: { 200: json(z.array(truckRowSchema), 'The trucks') },
  }),
  create: route({
    method: 'post',
    path: '/api/trucks',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Dispatch'],
    summary:
      'Adds a truck: name or registration, kind, the heaviest vehicle it carries, electric vehicles allowed, and its usual driver (a driver of the company)',
    request: { body: body(truckSchema, { name: 'AB12 CDE', kind: 'flatbed', maxWeightKg: 3500, evAllowed: true, defaultDriverId: null }) },
    responses: { 201: json(truckRowSchema, 'The new truck') },
  }),
  update: route({
    method: 'put',
    path: '/api/trucks/{id}',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Dispatch'],
    summary: 'Changes the given fields of a truck',
    parameters: idParams,
    request: { body: body(truckUpdateSchema, { maxWeightKg: 2600 }) },
    responses: { 200: json(truckRowSchema, 'The truck'), 404: truckMissing },
  }),
  remove: route({
    method: 'delete',
    path: '/api/trucks/{id}',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Dispatch'],
    summary: 'Deletes a truck; the jobs it was on keep no truck',
    parameters: idParams,
    responses: { 200: json(successSchema, 'Deleted'), 404: truckMissing },
  }),
  carriage: route({
    method: 'get',
    path: '/api/vehicle-type-carriage',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Dispatch'],
    summary: 'What each vehicle type needs of a truck: the kinds that may carry it (none: any), its weight, whether it is electric',
    responses: { 200: json(z.array(carriageRowSchema), 'Every vehicle type of the company') },
  }),
  setCarriage: route({
    method: 'put',
    path: '/api/vehicle-types/{id}/carriage',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Dispatch'],
    summary: 'Sets what a vehicle type needs of a truck',
    parameters: idParams,
    request: { body: body(carriageSchema, { truckKinds: ['flatbed', 'spec_lift'], weightKg: 1500, electric: false }) },
    responses: { 200: json(carriageRowSchema, 'The vehicle type’s needs'), 404: error('No such vehicle type row of this company') },
  }),
};

export const dispatch = {
  board: route({
    method: 'get',
    path: '/api/board',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Dispatch'],
    summary: 'The dispatch board: open jobs, jobs for later, those finished today, the people and trucks to assign, and how many bookings wait for an answer',
    responses: { 200: json(boardSchema, 'The board') },
  }),
  boardEvents: route({
    method: 'get',
    path: '/api/board/events',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Dispatch'],
    summary:
      'The company’s job changes as Server-Sent Events: a `job` event `{ reference, status }` at every booking, answer, assignment and step; the board then reads itself again',
    description:
      'Counted with the status pages’ streams (LIVE_STREAMS_PER_ADDRESS, LIVE_STREAMS_MAX): over either, 429 STREAMS_FULL, and the board polls instead.',
    responses: { 200: stream, 429: error('Too many open streams (STREAMS_FULL)') },
  }),
  assign: route({
    method: 'post',
    path: '/api/bookings/{reference}/assign',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Dispatch'],
    summary: 'Assigns (or reassigns, or clears) an open job’s driver and truck; the driver is texted and their screen told at once',
    description:
      '`driverId`: a person of the company (null: nobody). `truckId`: a truck of the company (null: none). A truck that cannot carry the job’s vehicle type (kind, weight or electric) is 409 TRUCK_CANNOT_CARRY; the same call with `confirm: true` assigns it and records who confirmed it.',
    parameters: [referenceParameter],
    request: { body: body(assignSchema, { driverId: 2, truckId: 1 }) },
    responses: {
      200: json(boardJobSchema, 'Assigned'),
      404: bookingMissing,
      409: error('The truck cannot carry the vehicle (TRUCK_CANNOT_CARRY: send again with `confirm: true`), or the job is finished (BOOKING_OUT_OF_ORDER)'),
    },
  }),
  acceptLater: route({
    method: 'post',
    path: '/api/bookings/{reference}/accept-later',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Dispatch'],
    summary:
      'Accepts a requested job for later with its time window (minutes from its slot), and its driver and truck when given; the motorist is texted the window, and reminded an hour before',
    parameters: [referenceParameter],
    request: { body: body(acceptLaterSchema, { windowMinutes: 60, driverId: 2, truckId: 1 }) },
    responses: {
      200: json(boardJobSchema, 'Accepted'),
      404: bookingMissing,
      409: error('A job for now (NOT_A_LATER_JOB), not requested (BOOKING_OUT_OF_ORDER), or a truck that cannot carry the vehicle (TRUCK_CANNOT_CARRY)'),
    },
  }),
  laterSettings: route({
    method: 'get',
    path: '/api/later-settings',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Dispatch'],
    summary: 'Jobs for later: how many days ahead the company takes them, and how many jobs one hour takes',
    responses: { 200: json(laterSettingsRowSchema, 'The settings') },
  }),
  updateLaterSettings: route({
    method: 'put',
    path: '/api/later-settings',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Dispatch'],
    summary: 'Changes the given settings of jobs for later',
    request: { body: body(laterSettingsSchema, { daysAhead: 14, jobsPerHour: 2 }) },
    responses: { 200: json(laterSettingsRowSchema, 'The settings') },
  }),
};

export const myJobs = {
  list: route({
    method: 'get',
    path: '/api/my-jobs',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    tags: ['My jobs'],
    summary: 'The signed-in person’s jobs for today, in order: open ones (a job for later on its day) and those finished today',
    responses: { 200: json(z.array(myJobSchema), 'The jobs') },
  }),
  events: route({
    method: 'get',
    path: '/api/my-jobs/events',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    tags: ['My jobs'],
    summary:
      'The signed-in person’s job changes as Server-Sent Events: a `job` event `{ reference, status, removed? }` when a job is given to them, taken off them (`removed`), cancelled or moved',
    responses: { 200: stream, 429: error('Too many open streams (STREAMS_FULL)') },
  }),
  job: route({
    method: 'get',
    path: '/api/my-jobs/{reference}',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    tags: ['My jobs'],
    summary: 'One of the signed-in person’s jobs, as the driver’s page shows it',
    parameters: [referenceParameter],
    responses: { 200: json(driverViewSchema, 'The job'), 404: myJobMissing },
  }),
  status: route({
    method: 'post',
    path: '/api/my-jobs/{reference}/status',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    tags: ['My jobs'],
    summary: 'Moves one of the signed-in person’s jobs on, as the driver’s page does: on_the_way → arrived → loaded → completed',
    parameters: [referenceParameter],
    request: { body: body(myStepSchema, { status: 'on_the_way' }) },
    responses: {
      200: json(driverViewSchema, 'Moved'),
      404: myJobMissing,
      409: error(
        'The job cannot move to that status now (`code` BOOKING_OUT_OF_ORDER), or the operator’s required photos are missing (`code` PHOTOS_REQUIRED)',
      ),
    },
  }),
  position: route({
    method: 'post',
    path: '/api/my-jobs/{reference}/position',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    tags: ['My jobs'],
    summary: 'The signed-in driver’s position while on the way: the motorist’s ETA is recomputed from it',
    parameters: [referenceParameter],
    request: { body: body(positionSchema, { lat: 52.4862, lng: -1.8904 }) },
    responses: { 200: json(driverViewSchema, 'Stored'), 404: myJobMissing, 409: error('Not on the way: `code` BOOKING_OUT_OF_ORDER') },
  }),
  payLink: route({
    method: 'post',
    path: '/api/my-jobs/{reference}/pay-link',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    tags: ['My jobs'],
    summary:
      'The balance of one of the signed-in person’s completed jobs by card, as the driver’s page takes it: makes its pay link (for the QR code, `payLink`) on the company’s payment account and texts it to the motorist, once',
    parameters: [referenceParameter],
    responses: {
      200: json(driverViewSchema, 'The pay link is `payLink`'),
      404: myJobMissing,
      409: error(
        'Not completed yet (BOOKING_OUT_OF_ORDER), nothing left to pay (NOTHING_DUE), paid already (BALANCE_RECORDED), or no payment account ready (PAY_LINK_UNAVAILABLE)',
      ),
    },
  }),
  balance: route({
    method: 'post',
    path: '/api/my-jobs/{reference}/balance',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    tags: ['My jobs'],
    summary:
      'Records how the balance of one of the signed-in person’s completed jobs was paid (card, cash, bank_transfer, on_account), as the driver’s page does; the receipt is issued again to say so',
    parameters: [referenceParameter],
    request: { body: body(balanceSchema, { method: 'cash' }) },
    responses: {
      200: json(driverViewSchema, 'Recorded'),
      404: myJobMissing,
      409: error('Not completed yet (BOOKING_OUT_OF_ORDER), nothing left to pay (NOTHING_DUE), or recorded as paid already (BALANCE_RECORDED)'),
    },
  }),
  proof: route({
    method: 'get',
    path: '/api/my-jobs/{reference}/proof',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    tags: ['My jobs'],
    summary: 'The photos, signatures and checklists of one of the signed-in person’s jobs, as the driver’s page shows them, and what the operator asks for',
    parameters: [referenceParameter],
    responses: { 200: json(proofViewSchema, 'The proof'), 404: myJobMissing },
  }),
  condition: route({
    method: 'put',
    path: '/api/my-jobs/{reference}/condition',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    tags: ['My jobs'],
    summary: 'Saves the checklist and notes of one stage of one of the signed-in person’s jobs, as the driver’s page does',
    parameters: [referenceParameter],
    request: {
      body: body(conditionSchema, {
        stage: 'pickup',
        checklist: [{ item: 'Keys handed over', checked: true }],
        notes: 'Light scuff on the offside mirror, pointed out to the owner',
      }),
    },
    responses: {
      200: json(conditionViewSchema, 'Saved'),
      404: myJobMissing,
      409: error('The job takes no photos or checklist now: `code` BOOKING_OUT_OF_ORDER'),
    },
  }),
  upload: route({
    method: 'post',
    path: '/api/my-jobs/{reference}/files',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    'x-body-limit': MAX_UPLOAD_BYTES,
    tags: ['My jobs'],
    summary:
      'Uploads one photo or signature of one of the signed-in person’s jobs, as the driver’s page does: the body is the image, what it is goes in the query',
    description: `${UPLOAD_DESCRIPTION} The photo’s taker is the signed-in person.`,
    parameters: [referenceParameter, ...uploadParameters],
    request: { body: { required: true, ...image } },
    responses: {
      201: json(proofFileSchema, 'Stored'),
      200: json(proofFileSchema, 'Stored already (the same `uploadId`), or the thumbnail added'),
      400: error('A query value is missing or wrong: `fields` names it'),
      404: myJobMissing,
      409: error(
        `The job takes no files now (BOOKING_OUT_OF_ORDER), holds ${MAX_FILES_PER_JOB} already (PROOF_FILES_FULL), or a thumbnail came before its photo (PROOF_THUMBNAIL_EARLY)`,
      ),
      413: error(`The image is over ${MAX_UPLOAD_BYTES / 1024 / 1024} MB: nothing was stored`),
      415: error('The body is not a JPEG, PNG, WebP or HEIC image: nothing was stored (NOT_AN_IMAGE)'),
      429: error('Too many uploads from this address: `Retry-After` says when to try again'),
    },
  }),
  file: route({
    method: 'get',
    path: '/api/my-jobs/{reference}/files/{fileId}',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    tags: ['My jobs'],
    summary: 'One of the files of one of the signed-in person’s jobs, as uploaded',
    parameters: [referenceParameter, fileParameter, sizeParameter],
    responses: { 200: image, 404: error('No job with this reference is assigned to the signed-in person, or no file of it has this id: `code` NOT_FOUND') },
  }),
  phone: route({
    method: 'put',
    path: '/api/me/phone',
    'x-access': 'operator',
    'x-roles': EVERYONE,
    tags: ['My jobs'],
    summary: 'The signed-in person’s own mobile number for their job texts (a job given to them or taken off them); null or blank: none',
    request: { body: body(myPhoneSchema, { phone: '07700 900456' }) },
    responses: { 200: json(myPhoneRowSchema, 'Saved') },
  }),
};
