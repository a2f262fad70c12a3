// The Quotes tab's reads and writes (decision 016's routes), through the typed client. Query keys
// are the API paths, as in ../api.ts: the list's key is [the list's path, query], so invalidating
// [the list's path] refreshes every filtered list and nothing else.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { call, pathOf, portalApi } from '#shared/api-client';
import type { LeadStatusUpdate, LeadSettingsUpdate } from '#shared/schemas';

export interface LeadFilters {
  from: string;
  to: string;
  status: string;
  urgency: string;
}

export const NO_FILTERS: LeadFilters = { from: '', to: '', status: '', urgency: '' };

type LeadQuery = Record<string, string>;

/** The filters as query parameters, blanks left out: shared by the list and the CSV export. */
export function filterQuery(filters: LeadFilters, cursor?: string): LeadQuery {
  const query: LeadQuery = {};
  for (const [name, value] of Object.entries(filters)) if (value) query[name] = value;
  if (cursor) query.cursor = cursor;
  return query;
}

export const exportHref = (filters: LeadFilters): string => pathOf(portalApi.quotes['export.csv'], { query: filterQuery(filters) });

const LIST_KEY = pathOf(portalApi.quotes);
const NUMBERS_KEY = [pathOf(portalApi.quotes.numbers)] as const;
const SETTINGS_KEY = [pathOf(portalApi['lead-settings'])] as const;
const ALERTS_KEY = [pathOf(portalApi.alerts)] as const;
const lead = (reference: string) => ({ param: { reference } });
const leadPath = (reference: string) => pathOf(portalApi.quotes[':reference'], lead(reference));

export function useLeadPages(filters: LeadFilters, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: [LIST_KEY, filterQuery(filters)],
    queryFn: ({ pageParam }) => call(portalApi.quotes.$get, { query: filterQuery(filters, pageParam) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled,
  });
}

const leadQuery = (reference: string) => ({ queryKey: [leadPath(reference)], queryFn: () => call(portalApi.quotes[':reference'].$get, lead(reference)) });

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
    mutationFn: (body: LeadStatusUpdate) => call(portalApi.quotes[':reference'].status.$put, { ...lead(reference), json: body }),
    onSuccess: (lead) => {
      queryClient.setQueryData([leadPath(reference)], lead);
      return refreshAfterStatus(queryClient);
    },
  });
}

export const useLeadNumbers = () => useQuery({ queryKey: NUMBERS_KEY, queryFn: () => call(portalApi.quotes.numbers.$get) });

export const useLeadSettings = () => useQuery({ queryKey: SETTINGS_KEY, queryFn: () => call(portalApi['lead-settings'].$get) });

export function useSaveLeadSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LeadSettingsUpdate) => call(portalApi['lead-settings'].$put, { json: body }),
    onSuccess: (settings) => queryClient.setQueryData(SETTINGS_KEY, settings),
  });
}

export const useAlerts = () => useQuery({ queryKey: ALERTS_KEY, queryFn: () => call(portalApi.alerts.$get) });
