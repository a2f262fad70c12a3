// The Jobs card's reads and writes (api/contract/bookings.ts), through the typed client. The jobs
// list is the one read the portal polls: a booking waits minutes, not hours, so it must appear
// without a reload. Query keys are the API paths, as in ../api.ts.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { call, pathOf, portalApi } from '#shared/api-client';
import type { BookingAccept, BookingDecline, BookingSettingsUpdate } from '#shared/booking-schemas';
import type { PaymentRefund } from '#shared/payment-schemas';
import type { Booking, BookingList } from '#shared/booking-responses';

/** How often the jobs list is read again while the tab is open. */
export const JOBS_POLL_MS = 5_000;

export const JOBS_KEY = [pathOf(portalApi.bookings)] as const;
const SETTINGS_KEY = [pathOf(portalApi['booking-settings'])] as const;
const QUOTES_PATH = pathOf(portalApi.quotes);

export const useJobs = () =>
  useQuery({
    queryKey: JOBS_KEY,
    queryFn: () => call(portalApi.bookings.$get),
    refetchInterval: JOBS_POLL_MS,
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: true,
    staleTime: 0,
  });

/** The answered job in place at once, then the lists it moves (a booked quote's status and the numbers) read again. */
function afterAnswer(queryClient: QueryClient, job: Booking) {
  const put = (jobs: Booking[]) => jobs.map((j) => (j.reference === job.reference ? job : j));
  queryClient.setQueryData<BookingList>(JOBS_KEY, (list) => list && { open: put(list.open), recent: put(list.recent) });
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: JOBS_KEY }),
    queryClient.invalidateQueries({ predicate: (query) => String(query.queryKey[0]).startsWith(QUOTES_PATH) }),
  ]);
}

/** What the operator does to a job from the card: answer it, or refund its payment. */
export type Answer = { action: 'accept'; body: BookingAccept } | { action: 'decline'; body: BookingDecline } | { action: 'refund'; body: PaymentRefund };

export function useAnswerJob(reference: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (answer: Answer) => {
      const param = { reference };
      const job = portalApi.bookings[':reference'];
      switch (answer.action) {
        case 'accept':
          return call(job.accept.$post, { param, json: answer.body });
        case 'decline':
          return call(job.decline.$post, { param, json: answer.body });
        case 'refund':
          return call(job.refund.$post, { param, json: answer.body });
      }
    },
    onSuccess: (job) => afterAnswer(queryClient, job),
  });
}

/** A completed job's balance by card: makes its pay link (the same one each time) and texts it to the customer, once. */
export function usePayLink(reference: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(portalApi.bookings[':reference']['pay-link'].$post, { param: { reference } }),
    onSuccess: (job) => afterAnswer(queryClient, job),
  });
}

export const useBookingSettings = () => useQuery({ queryKey: SETTINGS_KEY, queryFn: () => call(portalApi['booking-settings'].$get) });

export function useSaveBookingSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BookingSettingsUpdate) => call(portalApi['booking-settings'].$put, { json: body }),
    onSuccess: (settings) => queryClient.setQueryData(SETTINGS_KEY, settings),
  });
}
