// Above every tab of the Driver Portal (docs/product.md §14): the setup checklist, ticked from the
// company's data, and the way back into the guided set-up where the operator left it.
import { ListChecks } from 'lucide-react';
import { Button } from '../../components/ui';
import { Checklist } from '../dashboard/ShareEmbedCard';
import { SETUP_STEPS, STEP_TITLES, useSetupProgress } from '../../lib/setup-progress';

export function SetupBar({ userId }: { userId: number }) {
  const { progress, update } = useSetupProgress(userId);
  const unfinished = progress !== null && progress.status !== 'done';
  const step = progress?.step ?? 'contact';
  return (
    <div className="mt-6 grid gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start">
      <Checklist />
      <Button
        variant={unfinished ? 'primary' : 'outline'}
        onClick={() => update({ status: 'open', step: unfinished ? step : 'contact' })}
        aria-describedby={unfinished ? 'setup-resume-step' : undefined}
      >
        <ListChecks aria-hidden="true" /> {unfinished ? 'Continue set-up' : 'Guided set-up'}
      </Button>
      {unfinished && (
        <p id="setup-resume-step" className="text-sm text-slate-600 sm:col-span-2">
          You were on step {SETUP_STEPS.indexOf(step) + 1} of {SETUP_STEPS.length}: {STEP_TITLES[step]}.
        </p>
      )}
    </div>
  );
}
