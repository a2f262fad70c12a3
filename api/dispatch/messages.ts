// What a driver is texted about their jobs (docs/product.md §23): a job assigned to them, a job
// taken off them, and their job cancelled or declined. No token: the text sends them to their own jobs, behind their sign-in.
import { PRODUCT_NAME } from '#shared/constants';

export const myJobsUrl = (publicUrl: string) => `${publicUrl}/dashboard/my-jobs`;

export const driverMessages = {
  assigned: (job: { reference: string; pickupPostcode: string; destinationPostcode: string }, publicUrl: string) =>
    `${PRODUCT_NAME}: job TQ-${job.reference} is yours: ${job.pickupPostcode} to ${job.destinationPostcode}. Open it: ${myJobsUrl(publicUrl)}`,
  unassigned: (job: { reference: string }) => `${PRODUCT_NAME}: job TQ-${job.reference} is no longer yours. Do not go to it.`,
  cancelled: (job: { reference: string }) => `${PRODUCT_NAME}: job TQ-${job.reference} is cancelled. Do not go to it; if you set off, turn back.`,
  declined: (job: { reference: string }) => `${PRODUCT_NAME}: job TQ-${job.reference} was declined. Do not go to it.`,
};
