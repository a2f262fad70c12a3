// The Quotes tab's reads and writes (decision 016's routes). Query keys are the API paths, as in
// ../api.ts: the list's key is ['/api/quotes', query], so invalidating ['/api/quotes'] refreshes
// every filtered list and nothing else.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../../../shared/api-client';
import type { LeadStatusUpdate, LeadSettingsUpdate } from '../../../../../shared/schemas';
import type { Alert, LeadDetail, LeadNumbers, LeadPage, LeadSettings } from '../../../../../shared/types';

export interface LeadFilters {
  from: string;
  to: string;
  status: string;
  urgency: string;
}

export const NO_FILTERS: LeadFilters = { from: '', to: '', status: '', urgency: '' };

/** The filters as a query string, blanks left out: shared by the list and the CSV export. */
export function filterQuery(filters: LeadFilters, cursor?: string): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  if (cursor) query.set('cursor', cursor);
  const text = query.toString();
  return text ? `?${text}` : '';
}

export const exportHref = (filters: LeadFilters): string => `/api/quotes/export.csv${filterQuery(filters)}`;

const LIST_KEY = '/api/quotes';
const NUMBERS_KEY = ['/api/quotes/numbers'] as const;
const SETTINGS_KEY = ['/api/lead-settings'] as const;
const ALERTS_KEY = ['/api/alerts'] as const;
const leadPath = (reference: string) => `/api/quotes/${encodeURIComponent(reference)}`;

export function useLeadPages(filters: LeadFilters, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: [LIST_KEY, filterQuery(filters)],
    queryFn: ({ pageParam }) => apiRequest<LeadPage>(`${LIST_KEY}${filterQuery(filters, pageParam)}`),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled,
  });
}

const leadQuery = (reference: string) => ({ queryKey: [leadPath(reference)], queryFn: () => apiRequest<LeadDetail>(leadPath(reference)) });

export const useLead = (reference: string | null) => useQuery({ ...leadQuery(reference ?? ''), enabled: reference !== null });

/**
 * Reads one quote afresh into the cache: find-by-reference opens it only once it is known to
 * exist, and shows the customer's latest tap.
 */
export const fetchLead = (queryClient: QueryClient, reference: string) => queryClient.fetchQuery({ ...leadQuery(reference), staleTime: 0 });

/** What a quote's change of status moves: the lists it appears in and the numbers. */
function refreshAfterStatus(queryClient: QueryClient) {
  return Promise.all([queryClient.invalidateQueries({ queryKey: [LIST_KEY] }), queryClient.invalidateQueries({ queryKey: NUMBERS_KEY })]);
}

/** The Refresh button: new quotes and taps since the tab opened (the portal never polls). */
export const refreshInbox = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ predicate: (query) => String(query.queryKey[0]).startsWith(LIST_KEY) });

export function useSaveLeadStatus(reference: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LeadStatusUpdate) => apiRequest<LeadDetail>(`${leadPath(reference)}/status`, { method: 'PUT', body }),
    onSuccess: (lead) => {
      queryClient.setQueryData([leadPath(reference)], lead);
      return refreshAfterStatus(queryClient);
    },
  });
}

export const useLeadNumbers = () => useQuery({ queryKey: NUMBERS_KEY, queryFn: () => apiRequest<LeadNumbers>(NUMBERS_KEY[0]) });

export const useLeadSettings = () => useQuery({ queryKey: SETTINGS_KEY, queryFn: () => apiRequest<LeadSettings>(SETTINGS_KEY[0]) });

export function useSaveLeadSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LeadSettingsUpdate) => apiRequest<LeadSettings>(SETTINGS_KEY[0], { method: 'PUT', body }),
    onSuccess: (settings) => queryClient.setQueryData(SETTINGS_KEY, settings),
  });
}

export const useAlerts = () => useQuery({ queryKey: ALERTS_KEY, queryFn: () => apiRequest<Alert[]>(ALERTS_KEY[0]) });
