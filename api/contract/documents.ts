// Receipts, VAT invoices and credit notes (docs/product.md §22): the motorist downloads theirs from
// the status page (the job's token is the credential, never logged), the operator from the job in
// the portal, and sets what its invoices print (VAT number, business address).
import { OFFICE, OWNER } from '#shared/roles';
import { documentListSchema, documentSummarySchema, fullInvoiceSchema, invoiceSettingsSchema, invoiceSettingsUpdateSchema } from '#shared/documents';
import { body, error, json, parameter, route } from './define';

const tokenParameter = parameter('token', 'path', 'The motorist’s token (32 characters, from the link): never logged', 'Zq3kP0w9sX2bYd7LmN4rT1uV8aC5eF6g');
const referenceParameter = parameter('reference', 'path', 'The booked quote’s reference (TQ-…), as typed', 'TQ-KJAECF76R');
const numberParameter = parameter('number', 'path', 'The document’s number, as printed (000012)', '000012');
const pdf = {
  description: 'The document as a PDF (Content-Disposition: attachment)',
  content: { 'application/pdf': { schema: { type: 'string' as const, format: 'binary' } } },
};
const jobMissing = error('No job has this token: `code` NOT_FOUND');
const jobClosed = error('The job finished more than a day ago and its page has closed: `code` JOB_CLOSED');
const notIssued = error('No receipt yet: the job is not completed, or nothing was paid at booking: `code` DOCUMENT_NOT_ISSUED');
const documentMissing = error('No document of this job has this number, or no such job: `code` NOT_FOUND');

export const documents = {
  jobList: route({
    method: 'get',
    path: '/api/jobs/{token}/documents',
    'x-access': 'public',
    'x-rate-limit': ['job'],
    tags: ['Public'],
    summary:
      'The job’s receipt or VAT invoice and its credit notes, oldest first (empty until the job is completed and paid); a job on account’s delivery note in their place',
    parameters: [tokenParameter],
    responses: { 200: json(documentListSchema, 'The documents'), 404: jobMissing, 410: jobClosed },
  }),
  jobReceipt: route({
    method: 'get',
    path: '/api/jobs/{token}/receipt',
    'x-access': 'public',
    'x-rate-limit': ['job'],
    tags: ['Public'],
    summary: 'The job’s receipt or VAT invoice as a PDF',
    parameters: [tokenParameter],
    responses: { 200: pdf, 404: jobMissing, 409: notIssued, 410: jobClosed },
  }),
  jobDocument: route({
    method: 'get',
    path: '/api/jobs/{token}/documents/{number}',
    'x-access': 'public',
    'x-rate-limit': ['job'],
    tags: ['Public'],
    summary: 'One of the job’s documents (a credit note, say) as a PDF',
    parameters: [tokenParameter, numberParameter],
    responses: { 200: pdf, 404: documentMissing, 410: jobClosed },
  }),
  bookingList: route({
    method: 'get',
    path: '/api/bookings/{reference}/documents',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'A booking’s receipt or VAT invoice and its credit notes, oldest first',
    parameters: [referenceParameter],
    responses: { 200: json(documentListSchema, 'The documents'), 404: error('No booking of this company has this reference') },
  }),
  bookingReceipt: route({
    method: 'get',
    path: '/api/bookings/{reference}/receipt',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'A booking’s receipt or VAT invoice as a PDF',
    parameters: [referenceParameter],
    responses: { 200: pdf, 404: error('No booking of this company has this reference'), 409: notIssued },
  }),
  bookingDocument: route({
    method: 'get',
    path: '/api/bookings/{reference}/documents/{number}',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'One of a booking’s documents as a PDF',
    parameters: [referenceParameter, numberParameter],
    responses: { 200: pdf, 404: documentMissing },
  }),
  fullInvoice: route({
    method: 'post',
    path: '/api/bookings/{reference}/full-invoice',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'Issues a full VAT invoice (with the customer’s name and the address given) for a job that got a simplified one; asked again, the same invoice',
    parameters: [referenceParameter],
    request: { body: body(fullInvoiceSchema, { customerAddress: '1 High Street\nLeeds LS1 1AA' }) },
    responses: {
      201: json(documentSummarySchema, 'The full VAT invoice'),
      404: error('No booking of this company has this reference'),
      409: error('The job has no simplified VAT invoice: `code` FULL_INVOICE_UNAVAILABLE'),
    },
  }),
  settings: route({
    method: 'get',
    path: '/api/invoice-settings',
    'x-access': 'operator',
    'x-roles': OFFICE,
    tags: ['Bookings'],
    summary: 'What the operator’s receipts and invoices print: VAT number and business address',
    responses: { 200: json(invoiceSettingsSchema, 'The settings') },
  }),
  updateSettings: route({
    method: 'put',
    path: '/api/invoice-settings',
    'x-access': 'operator',
    'x-roles': OWNER,
    tags: ['Bookings'],
    summary: 'Changes the VAT number or the business address; documents issued before keep what they printed',
    request: { body: body(invoiceSettingsUpdateSchema, { vatNumber: 'GB123456789', businessAddress: 'Unit 4, Ring Road\nBirmingham B1 1AA' }) },
    responses: { 200: json(invoiceSettingsSchema, 'The settings') },
  }),
};
