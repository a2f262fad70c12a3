// The frame every set-up step shares: its heading (focused when the operator moves to the step, so
// a screen reader says where they are; not on arriving at the page, which starts at its top), the form, a message the server gave for no one field, and the
// step's buttons in reading order: Save and continue, Skip for now, Back.
import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { Button, Card, CardContent, CardDescription, CardHeader } from '../../components/ui';
import { STEP_TITLES, type SetupStep } from '../../lib/setup-progress';

interface StepFrameProps {
  step: SetupStep;
  description: string;
  /** A message for the whole step (the server's, when it names no field). */
  formError?: string;
  saving: boolean;
  onSave: () => void;
  onSkip: () => void;
  onBack?: () => void;
  children: ReactNode;
  /** Beside the form on a wide screen, below it on a phone (the sample quote). */
  aside?: ReactNode;
  /** Whether the operator moved here from another step: the heading takes the focus. */
  moved?: boolean;
}

export function StepFrame({ step, description, formError, saving, onSave, onSkip, onBack, children, aside, moved }: StepFrameProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the heading takes the focus again on every new step, so step is a deliberate trigger
  useEffect(() => {
    if (moved) heading.current?.focus();
  }, [step, moved]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave();
  };
  return (
    <Card>
      <CardHeader>
        <h2 ref={heading} tabIndex={-1} id="setup-step-title" className="text-lg font-semibold leading-tight outline-none">
          {STEP_TITLES[step]}
        </h2>
        <CardDescription id="setup-step-description">{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <form noValidate onSubmit={submit} aria-labelledby="setup-step-title" aria-describedby="setup-step-description" className="grid content-start gap-4">
          {children}
          {formError && (
            <p role="alert" className="text-sm text-red-700">
              {formError}
            </p>
          )}
          <div className="flex flex-wrap items-center gap-2 pt-2">
            <Button type="submit" disabled={saving}>
              {saving ? 'Saving...' : 'Save and continue'}
            </Button>
            <Button variant="outline" onClick={onSkip} disabled={saving}>
              Skip for now
            </Button>
            {onBack && (
              <Button variant="ghost" onClick={onBack} disabled={saving}>
                Back
              </Button>
            )}
          </div>
        </form>
        {aside}
      </CardContent>
    </Card>
  );
}
