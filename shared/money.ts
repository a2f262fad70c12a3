// Money is integer pence inside, pounds (at most 2 decimals) in JSON, `£1,234.50` on screen.

export const penceToPounds = (pence: number): number => Math.round(pence) / 100;
export const poundsToPence = (pounds: number): number => Math.round(pounds * 100);

const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
export const formatPounds = (pounds: number): string => gbp.format(pounds);
export const formatPence = (pence: number): string => gbp.format(pence / 100);

const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
/** en-GB long format: `22 November 2026`. Accepts a Date or an ISO string. */
export const formatLongDate = (value: Date | string): string => longDate.format(typeof value === 'string' ? new Date(value) : value);

/** Whole days left, rounded up, never below 0 (docs/product.md §4). */
export function daysLeft(until: Date | string | null | undefined, now: Date = new Date()): number {
  if (!until) return 0;
  const end = typeof until === 'string' ? new Date(until) : until;
  const ms = end.getTime() - now.getTime();
  if (!Number.isFinite(ms)) return 0;
  return Math.max(0, Math.ceil(ms / 86_400_000));
}
