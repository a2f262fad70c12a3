// "A new booking is impossible to miss" (docs/product.md §23): on every portal page of the office
// (owner and dispatcher), while any booking waits for an answer, a banner says how many, the page
// title starts with the count, and a sound plays now and every 30 s until every booking is answered.
import { useCallback, useEffect } from 'react';
import { Link } from 'react-router';
import { BellRing } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { pathOf, portalApi } from '#shared/api-client';
import { useAuth } from '../../../lib/auth';
import { playNewBookingSound } from './alert-sound';
import { BOARD_KEY, useBoard, useJobChanges } from './api';

export const SOUND_REPEAT_MS = 30_000;
export const bannerText = (count: number) => (count === 1 ? 'New booking waiting for an answer' : `${count} new bookings waiting for an answer`);
export const titleWithCount = (title: string, count: number) => (count > 0 ? `(${count}) ${title.replace(/^\(\d+\) /, '')}` : title.replace(/^\(\d+\) /, ''));

/** The office's board stream and the count of bookings waiting: shared by the banner and the board. */
export function useWaitingBookings(enabled: boolean) {
  const queryClient = useQueryClient();
  const onChange = useCallback(() => void queryClient.invalidateQueries({ queryKey: BOARD_KEY }), [queryClient]);
  const live = useJobChanges(pathOf(portalApi.board.events), onChange, enabled);
  const board = useBoard(live, enabled);
  return { board, live, waiting: board.data?.requested ?? 0 };
}

export function NewBookingBanner() {
  const { user } = useAuth();
  const office = user?.role === 'owner' || user?.role === 'dispatcher';
  const { waiting } = useWaitingBookings(office);

  useEffect(() => {
    document.title = titleWithCount(document.title, waiting);
    if (waiting === 0) return;
    playNewBookingSound();
    const repeat = setInterval(playNewBookingSound, SOUND_REPEAT_MS);
    const keepTitle = setInterval(() => (document.title = titleWithCount(document.title, waiting)), 1000);
    return () => {
      clearInterval(repeat);
      clearInterval(keepTitle);
    };
  }, [waiting]);

  if (!office || waiting === 0) return null;
  return (
    <div role="alert" className="border-b border-amber-300 bg-amber-100">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-3 sm:px-6">
        <p className="flex items-center gap-2 font-semibold text-amber-950">
          <BellRing className="size-5" aria-hidden="true" /> {bannerText(waiting)}
        </p>
        <Link to="/dashboard/board" className="rounded-md bg-amber-900 px-3 py-2 text-sm font-semibold text-white">
          Open the board
        </Link>
      </div>
    </div>
  );
}
