// A small toast for the quote form, rendered inside the form itself (so inside the widget's
// shadow root, never portalled to the host page). docs/product.md §9: one at a time, shown for 5 s,
// swiped right by 50 px to dismiss. Two live regions stay mounted so screen readers announce
// each message: polite for news, assertive for problems.
import { Icon } from './icons';
import { useSwipeDismiss } from './use-swipe-dismiss';
import { useCallback, useEffect, useRef, useState } from 'react';

export interface ToastMessage {
  title: string;
  description?: string;
  variant: 'default' | 'destructive';
}

interface ShownToast extends ToastMessage {
  id: number;
}

const DISPLAY_MS = 5000;

export function useToast() {
  const [toast, setToast] = useState<ShownToast | null>(null);
  const nextId = useRef(0);
  const show = useCallback((message: ToastMessage) => setToast({ ...message, id: ++nextId.current }), []);
  const dismiss = useCallback(() => setToast(null), []);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(dismiss, DISPLAY_MS);
    return () => clearTimeout(timer);
  }, [toast, dismiss]);

  return { toast, show, dismiss };
}

export function ToastRegion({ toast, onDismiss }: { toast: ShownToast | null; onDismiss: () => void }) {
  const card = toast && <ToastCard key={toast.id} toast={toast} onDismiss={onDismiss} />;
  return (
    <section aria-label="Notifications" className="pointer-events-none fixed inset-x-3 bottom-3 z-50 sm:left-auto sm:right-4 sm:bottom-4 sm:w-96">
      <div role="status" aria-live="polite" aria-atomic="true">
        {toast?.variant === 'default' && card}
      </div>
      <div role="alert" aria-atomic="true">
        {toast?.variant === 'destructive' && card}
      </div>
    </section>
  );
}

function ToastCard({ toast, onDismiss }: { toast: ShownToast; onDismiss: () => void }) {
  const { offset, handlers } = useSwipeDismiss(onDismiss);

  const destructive = toast.variant === 'destructive';
  return (
    <div
      className={`pointer-events-auto flex touch-pan-y items-start gap-3 rounded-xl border p-4 shadow-lg ${
        destructive ? 'border-red-700 bg-red-700 text-white' : 'border-slate-200 bg-white text-slate-900'
      }`}
      style={{ transform: `translateX(${offset}px)` }}
      {...handlers}
    >
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{toast.title}</p>
        {toast.description && <p className="mt-1 text-sm">{toast.description}</p>}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss notification"
        className="-m-2 grid size-11 shrink-0 place-items-center rounded-lg focus-visible:ring-2 focus-visible:ring-current focus-visible:outline-none"
      >
        <Icon name="x" className="size-4" />
      </button>
    </div>
  );
}
