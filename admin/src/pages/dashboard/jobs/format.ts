// How the Jobs card words time: the countdown to a booking's expiry to the second (clock times
// are shared/bookings.ts's, as the texts and job pages say them).
import { useEffect, useState } from 'react';

/** "7:05" for the time left until `deadline`, "0:00" once passed. */
export function countdown(deadline: string, now: number): string {
  const seconds = Math.max(0, Math.ceil((Date.parse(deadline) - now) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The time now, read again every `everyMs` while mounted: what a countdown counts from. */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** A WhatsApp share of the driver's page: the motorist's pickup and the link, to any chat the operator picks. */
export const whatsappShare = (reference: string, pickupPostcode: string, url: string): string =>
  `https://wa.me/?text=${encodeURIComponent(`Job TQ-${reference}, pickup ${pickupPostcode}: ${url}`)}`;
