// The guided set-up (docs/product.md §14): shown in the portal on the first visit after sign-up and
// until the operator leaves it or finishes; three short steps (how customers reach you, your
// prices, where you work), then go live. Each step saves on its own; "Skip for now" keeps what
// was typed (saved when valid, else a draft in this browser), and the step the operator is on is
// remembered, so the set-up picks up where it was left.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Check } from 'lucide-react';
import { Button, Spinner } from '../../components/ui';
import { cn } from '../../lib/cn';
import { useCompany } from '../dashboard/api';
import { OpenTabProvider } from '../dashboard/go-to-field';
import { AreaStep } from './AreaStep';
import { ContactStep } from './ContactStep';
import { GoLiveStep } from './GoLiveStep';
import { PricesStep } from './PricesStep';
import { SETUP_STEPS, STEP_TITLES, useSetupProgress, type SetupStep } from '../../lib/setup-progress';

export function SetupGuide({ userId }: { userId: number }) {
  const company = useCompany();
  const navigate = useNavigate();
  const { progress, update } = useSetupProgress(userId);
  const step = progress?.step ?? 'contact';
  const index = SETUP_STEPS.indexOf(step);
  // Moving between steps puts the focus on the new step's heading; arriving at the page does not.
  const [moved, setMoved] = useState(false);
  const go = (to: SetupStep) => {
    setMoved(true);
    update({ status: 'open', step: to });
  };
  const next = () => go(SETUP_STEPS[Math.min(index + 1, SETUP_STEPS.length - 1)]);
  const back = index > 0 ? () => go(SETUP_STEPS[index - 1]) : undefined;
  const leave = (status: 'left' | 'done') => {
    update({ status, ...(status === 'done' ? { step: 'contact' as const } : {}) });
    void navigate('/dashboard', { replace: true });
  };

  return (
    <main className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <title>Set up your quote page</title>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <h1 className="text-2xl font-bold tracking-tight">
          Set up your quote page<span className="sr-only"> - </span>
          <span className="mt-1 block text-base font-normal text-slate-600">Three short steps, then your page is live.</span>
        </h1>
        <Button variant="outline" onClick={() => leave('left')}>
          Finish set-up later
        </Button>
      </div>

      <nav aria-label="Set-up steps" className="mt-6">
        <ol className="grid gap-2 sm:grid-cols-4">
          {SETUP_STEPS.map((each, i) => {
            const current = each === step;
            return (
              <li key={each}>
                <button
                  type="button"
                  onClick={() => go(each)}
                  aria-current={current ? 'step' : undefined}
                  className={cn(
                    'flex w-full items-center gap-2 rounded-lg border px-3 py-2 text-left text-sm',
                    current ? 'border-brand-600 bg-white font-semibold text-brand-800' : 'border-slate-200 bg-white text-slate-700 hover:bg-slate-50',
                  )}
                >
                  <span
                    aria-hidden="true"
                    className={cn(
                      'grid size-6 shrink-0 place-items-center rounded-full text-xs',
                      i < index ? 'bg-green-700 text-white' : current ? 'bg-brand-600 text-white' : 'bg-slate-200 text-slate-800',
                    )}
                  >
                    {i < index ? <Check className="size-3.5" /> : i + 1}
                  </span>
                  <span>
                    <span className="sr-only">
                      Step {i + 1} of {SETUP_STEPS.length}:{' '}
                    </span>
                    {STEP_TITLES[each]}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
      </nav>

      <div className="mt-6">
        {company.isLoading ? (
          <Spinner label="Loading your settings" />
        ) : !company.data ? (
          <p className="text-red-700">Unable to load your company settings. Please reload the page.</p>
        ) : step === 'contact' ? (
          <ContactStep userId={userId} company={company.data} next={next} moved={moved} />
        ) : step === 'prices' ? (
          <PricesStep userId={userId} next={next} back={back} moved={moved} />
        ) : step === 'area' ? (
          <AreaStep userId={userId} company={company.data} next={next} back={back} moved={moved} />
        ) : (
          // A reason on the cards links to the field that fixes it: here, on the step that has it.
          <OpenTabProvider value={(tab) => (tab === 'contact' ? go('contact') : tab === 'branding' ? go('area') : undefined)}>
            <GoLiveStep
              userId={userId}
              company={company.data}
              next={next}
              back={back}
              moved={moved}
              finish={() => leave('done')}
              toContact={() => go('contact')}
            />
          </OpenTabProvider>
        )}
      </div>
    </main>
  );
}
