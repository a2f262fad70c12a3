// The numbers at the top of the Quotes tab, from one read of the company's last 30 UK days
// (oldest first): counts, shares, the median total, quotes per day and the top pickup districts;
// and from the same days' bookings: how many, how many completed, the median time to accept, and
// the money taken at booking less refunds (docs/product.md §21), and the review requests sent.
import { penceToPounds } from '#shared/money';
import { keptPence } from '#shared/payments';
import { paymentAmountsOfRow } from '../payments/store';
import type { LeadNumbers } from '#shared/types';
import type { BookingNumbersRow, NumbersRow } from './store';
import { londonDate } from '../engine/calendar/uk-calendar';
import { addDays, londonMidnight } from '../engine/calendar/uk-calendar';

export const NUMBERS_DAYS = 30;
const WEEK_DAYS = 7;
const TOP_DISTRICTS = 5;

/** The 30 UK days ending today, oldest first, with the instant each begins and the one after today. */
export function numbersWindow(now: Date): { days: string[]; starts: string[]; end: string } {
  const today = londonDate(now);
  const days = Array.from({ length: NUMBERS_DAYS }, (_, i) => addDays(today, i - (NUMBERS_DAYS - 1)));
  return { days, starts: days.map((day) => londonMidnight(day).toISOString()), end: londonMidnight(addDays(today, 1)).toISOString() };
}

/**
 * `rows`: the company's quotes since the window's first day began, oldest first; `bookings`: its
 * bookings since then; `phoneQuotes`: how many of the window's quotes were taken by phone.
 */
export function leadNumbers(
  rows: readonly NumbersRow[],
  window: ReturnType<typeof numbersWindow>,
  bookings: readonly BookingNumbersRow[] = [],
  phoneQuotes = 0,
): LeadNumbers {
  const { days, starts, end } = window;
  const perDay = new Array<number>(NUMBERS_DAYS).fill(0);
  const totals: number[] = [];
  const districts = new Map<string, number>();
  let contacted = 0;
  let won = 0;
  let day = 0;
  for (const row of rows) {
    if (row.createdAt >= end) break;
    // Rows come oldest first: the day only ever moves forward.
    while (day + 1 < NUMBERS_DAYS && row.createdAt >= starts[day + 1]) day += 1;
    perDay[day] += 1;
    totals.push(row.totalPricePence);
    if (row.status !== 'new') contacted += 1;
    if (row.status === 'won') won += 1;
    const district = row.pickupPostcode.split(' ')[0];
    districts.set(district, (districts.get(district) ?? 0) + 1);
  }
  const count = totals.length;
  const booked = bookings.filter((booking) => booking.createdAt < end);
  const acceptance = booked.flatMap((booking) =>
    booking.acceptedAt ? [Math.round((Date.parse(booking.acceptedAt) - Date.parse(booking.createdAt)) / 1000)] : [],
  );
  return {
    today: perDay[NUMBERS_DAYS - 1],
    last7Days: perDay.slice(-WEEK_DAYS).reduce((a, b) => a + b, 0),
    last30Days: count,
    contactedShare: count === 0 ? 0 : contacted / count,
    wonShare: count === 0 ? 0 : won / count,
    medianTotal: count === 0 ? null : penceToPounds(median(totals)),
    perDay: days.map((date, i) => ({ date, count: perDay[i] })),
    topDistricts: [...districts]
      .sort(([a, m], [b, n]) => n - m || a.localeCompare(b))
      .slice(0, TOP_DISTRICTS)
      .map(([district, n]) => ({ district, count: n })),
    bookings: booked.length,
    completedBookings: booked.filter((booking) => booking.status === 'completed').length,
    medianAcceptanceSeconds: acceptance.length === 0 ? null : median(acceptance),
    moneyTaken: penceToPounds(
      booked.reduce((sum, booking) => {
        const payment = paymentAmountsOfRow(booking);
        return sum + (payment ? keptPence(payment) : 0);
      }, 0),
    ),
    phoneQuotes,
    phoneBookings: booked.filter((booking) => booking.phone === 1).length,
    reviewRequests: booked.filter((booking) => booking.reviewRequested === 1).length,
  };
}

/** The middle total, or the two middle ones' mean rounded to a penny. */
function median(values: number[]): number {
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
}
