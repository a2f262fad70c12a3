// The dispatch's reads and writes (api/contract/dispatch.ts), through the typed client, and the
// live stream that tells a screen to read again (docs/product.md §23). While the stream is broken
// or refused, the screen reads every 10 s and tries the stream again each minute. Query keys are
// the API paths, as in ../api.ts.
import { useEffect, useState } from 'react';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, pathOf, portalApi } from '#shared/api-client';
import type { AcceptLaterBody, AssignBody, TruckBody } from '#shared/dispatch-schemas';
import { takeEarlyRead } from '../../../early-reads';

export const POLL_MS = 10_000;
export const RETRY_STREAM_MS = 60_000;

export const BOARD_KEY = [pathOf(portalApi.board)] as const;
export const MY_JOBS_KEY = [pathOf(portalApi['my-jobs'])] as const;
const TRUCKS_KEY = [pathOf(portalApi.trucks)] as const;

/** Follows a stream of job changes at `path`: `onChange` at each, and whether the stream is up (else the caller polls). */
export function useJobChanges(path: string, onChange: (change: { reference: string; status: string; removed?: boolean }) => void, enabled = true): boolean {
  const [live, setLive] = useState(false);
  useEffect(() => {
    // No EventSource (an old browser, a test's DOM): the screen polls instead.
    if (!enabled || typeof EventSource === 'undefined') return;
    let stopped = false;
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      if (stopped) return;
      source = new EventSource(path, { withCredentials: true });
      source.addEventListener('ready', () => setLive(true));
      source.addEventListener('job', (event) => onChange(JSON.parse((event as MessageEvent<string>).data)));
      source.onerror = () => {
        source?.close();
        setLive(false);
        clearTimeout(retry);
        retry = setTimeout(connect, RETRY_STREAM_MS);
      };
    };
    connect();
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(retry);
    };
  }, [path, onChange, enabled]);
  return live;
}

const readBoard = () => call(portalApi.board.$get);

/**
 * Starts the board's read when its route is matched, before the route's chunk and the signed-in
 * user have arrived; the board's useBoard then takes this read instead of starting its own. Not
 * signed in, or a driver: the read is refused and the route's guard sends them on as before.
 */
export function prefetchBoard(queryClient: QueryClient): void {
  // The read the page's first script started, if it did (admin/src/early-reads.ts).
  void queryClient.prefetchQuery({ queryKey: BOARD_KEY, queryFn: () => takeEarlyRead<Awaited<ReturnType<typeof readBoard>>>('board') ?? readBoard() });
}

export const useBoard = (live: boolean, enabled = true) =>
  useQuery({
    queryKey: BOARD_KEY,
    queryFn: readBoard,
    refetchInterval: live ? false : POLL_MS,
    refetchIntervalInBackground: true,
    enabled,
  });

export const useMyJobs = (live: boolean) =>
  useQuery({ queryKey: MY_JOBS_KEY, queryFn: () => call(portalApi['my-jobs'].$get), refetchInterval: live ? false : POLL_MS });

export function useAssign(reference: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AssignBody) => call(portalApi.bookings[':reference'].assign.$post, { param: { reference }, json: body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BOARD_KEY }),
  });
}

export function useAcceptLater(reference: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AcceptLaterBody) => call(portalApi.bookings[':reference']['accept-later'].$post, { param: { reference }, json: body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BOARD_KEY }),
  });
}

export function useAddTruck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TruckBody) => call(portalApi.trucks.$post, { json: body }),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: BOARD_KEY }), queryClient.invalidateQueries({ queryKey: TRUCKS_KEY })]),
  });
}

export function useRemoveTruck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(portalApi.trucks[':id'].$delete, { param: { id: String(id) } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BOARD_KEY }),
  });
}
