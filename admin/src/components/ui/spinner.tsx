import { Loader2 } from 'lucide-react';
import { cn } from '../../lib/cn';

export function Spinner({ label = 'Loading', className }: { label?: string; className?: string }) {
  return (
    <span role="status" className={cn('inline-flex items-center', className)}>
      <Loader2 className="size-6 animate-spin text-brand-600" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** A centred spinner with visible text, for whole-screen loading states. The text is the status
 * itself (said once, found once), not a copy beside a hidden label. */
export function FullPageSpinner({ text }: { text?: string }) {
  if (!text) {
    return (
      <div className="flex min-h-screen flex-col items-center justify-center gap-3 p-6 text-center">
        <Spinner className="[&_svg]:size-8" />
      </div>
    );
  }
  return (
    <div role="status" className="flex min-h-screen flex-col items-center justify-center gap-3 p-6 text-center">
      <Loader2 className="size-8 animate-spin text-brand-600" aria-hidden="true" />
      <p className="text-slate-700">{text}</p>
    </div>
  );
}
