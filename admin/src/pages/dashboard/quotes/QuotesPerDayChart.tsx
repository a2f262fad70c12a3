// The bar chart of quotes per day. Its own chunk: recharts is most of the Quotes tab's weight, so
// the list and the figures show without waiting for it. Hidden from assistive technology, which
// gets the summary and the table beside it (LeadNumbersCard).
import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { LeadNumbers } from '#shared/types';
import { formatDay } from './format';

export default function QuotesPerDayChart({ perDay }: { perDay: LeadNumbers['perDay'] }) {
  const data = perDay.map((day) => ({ day: formatDay(day.date), quotes: day.count }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      {/* No accessibility layer: it makes the chart a focus stop inside an aria-hidden region. */}
      <BarChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: -24 }}>
        <XAxis dataKey="day" tick={{ fontSize: 12, fill: '#475569' }} interval="preserveStartEnd" minTickGap={16} />
        <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: '#475569' }} />
        <Tooltip cursor={{ fill: '#e2e8f0' }} />
        <Bar dataKey="quotes" name="Quotes" fill="#1d4ed8" radius={[3, 3, 0, 0]} />
      </BarChart>
    </ResponsiveContainer>
  );
}
