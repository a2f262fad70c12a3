// App-wide toasts (docs/product.md §9): one at a time, shown for 5000 ms, swipe right past 50 px to
// dismiss. `toast()` works outside React too (mutation callbacks), so the current toast lives in
// a tiny module store rather than in context. Two live regions stay mounted so screen readers
// announce each toast (polite for news, assertive for problems) and its text exists exactly
// once in the page (Radix Toast copied it into a hidden announcer, so a text lookup found two).
import { useEffect, useState, useSyncExternalStore } from 'react';
import { X } from 'lucide-react';
import { useSwipeDismiss } from '../../../widget/src/use-swipe-dismiss';
import { cn } from '../lib/cn';

const TOAST_DURATION_MS = 5000;
const TOAST_SWIPE_THRESHOLD_PX = 50;

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  /** One button beside the text, e.g. Undo after a delete; pressing it closes the toast. */
  action?: { label: string; onClick: () => void };
}

interface ShownToast extends ToastOptions {
  id: number;
}

let current: ShownToast | null = null;
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Shows a toast, replacing any toast already on screen. */
export function toast(options: ToastOptions): void {
  current = { ...options, id: nextId++ };
  emit();
}

function dismissToast(): void {
  current = null;
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getSnapshot = () => current;

export function useToast(): { toast: typeof toast; dismiss: typeof dismissToast; current: ShownToast | null } {
  const shown = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toast, dismiss: dismissToast, current: shown };
}

export function Toaster() {
  const { current: shown } = useToast();
  const card = shown && <ToastCard key={shown.id} toast={shown} />;
  return (
    // At the top: the portal's sticky bars (Save Branding) sit at the bottom, and a toast there
    // covered the very button that follows it ("Logo uploaded", then Save).
    <section aria-label="Notifications" className="pointer-events-none fixed right-0 top-0 z-[100] m-0 flex w-full max-w-sm flex-col gap-2 p-4">
      {/* Live regions without status/alert roles: the page's own alerts stay the only ones. */}
      <div aria-live="polite" aria-atomic="true">
        {shown?.variant !== 'destructive' && card}
      </div>
      <div aria-live="assertive" aria-atomic="true">
        {shown?.variant === 'destructive' && card}
      </div>
    </section>
  );
}

function ToastCard({ toast: shown }: { toast: ShownToast }) {
  const { offset, handlers } = useSwipeDismiss(dismissToast, TOAST_SWIPE_THRESHOLD_PX);
  const [hovered, setHovered] = useState(false);

  // A new key per toast remounts this card, restarting the timer; hovering pauses it.
  useEffect(() => {
    if (hovered) return;
    const timer = setTimeout(dismissToast, TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [hovered]);

  return (
    <div
      className={cn(
        'pointer-events-auto relative flex w-full touch-pan-y items-start gap-3 rounded-lg border p-4 pr-10 shadow-lg animate-toast-in',
        offset === 0 && 'transition-transform',
        shown.variant === 'destructive' ? 'border-red-700 bg-red-700 text-white' : 'border-slate-200 bg-white text-slate-900',
      )}
      style={{ transform: `translateX(${offset}px)` }}
      {...handlers}
      onPointerEnter={() => setHovered(true)}
      onPointerLeave={() => setHovered(false)}
    >
      <div className="grid gap-1">
        <p className="text-sm font-semibold">{shown.title}</p>
        {shown.description && <p className="text-sm opacity-90">{shown.description}</p>}
      </div>
      {shown.action && (
        <button
          type="button"
          onClick={() => {
            dismissToast();
            shown.action?.onClick();
          }}
          className="ml-auto shrink-0 self-center rounded-md border border-current px-3 py-1 text-sm font-medium hover:bg-black/5 focus-visible:outline-2 focus-visible:outline-current"
        >
          {shown.action.label}
        </button>
      )}
      <button
        type="button"
        onClick={dismissToast}
        aria-label="Close notification"
        className="absolute right-2 top-2 rounded-md p-1 opacity-80 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-current"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}
