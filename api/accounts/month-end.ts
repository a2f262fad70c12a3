// The month-end run (docs/product.md §26): on the 1st of each UK month, from 06:00, every account
// gets one invoice of its jobs completed in the month before and not yet invoiced. A daily job of
// the runner (api/boot.ts) whose marker keeps the day, so a restart neither repeats nor skips it;
// a run that failed part way is finished by the next day's (the jobs left are still uninvoiced).
import type { DailyJob } from '../platform/jobs/runner';
import type { AccountService } from './service';

export const MONTH_END_HOUR = 6;

export function monthEndJob(accounts: Pick<AccountService, 'runInvoices'>): DailyJob {
  return {
    name: 'account-month-end',
    marker: 'accounts.monthEndDay',
    dailyAt: { hour: MONTH_END_HOUR },
    async run({ day }) {
      // Every day's check catches up a month whose 1st the server was down for: the jobs are still uninvoiced.
      const [y, m] = day.split('-').map(Number);
      const previous = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
      await accounts.runInvoices(null, previous);
      return true;
    },
  };
}
