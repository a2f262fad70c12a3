// Minutes left as the job pages count them down.
import { useEffect, useState } from 'react';

/** Whole minutes from now until `iso` (0 once passed), brought up to date every 15 s. */
export function useMinutesLeft(iso: string | null | undefined): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!iso) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, [iso]);
  if (!iso) return null;
  return Math.max(0, Math.ceil((Date.parse(iso) - now) / 60_000));
}
