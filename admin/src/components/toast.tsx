// App-wide toasts on Radix Toast (SPEC.md §9): one at a time, shown for 5000 ms, swipe right
// past 50 px to dismiss. `toast()` works outside React too (mutation callbacks), so the current
// toast lives in a tiny module store rather than in context.
import { useSyncExternalStore } from 'react';
import { Toast } from 'radix-ui';
import { X } from 'lucide-react';
import { cn } from '../lib/cn';

export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
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

export function dismissToast(): void {
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
  return (
    <Toast.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={TOAST_SWIPE_THRESHOLD_PX} label="Notification">
      {shown && (
        // A new key per toast restarts Radix's timer and entry animation when one replaces another.
        <Toast.Root
          key={shown.id}
          type={shown.variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) dismissToast();
          }}
          className={cn(
            'pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border p-4 pr-10 shadow-lg',
            'data-[state=open]:animate-toast-in data-[state=closed]:animate-toast-out',
            'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform',
            'data-[swipe=end]:animate-toast-out',
            shown.variant === 'destructive' ? 'border-red-700 bg-red-700 text-white' : 'border-slate-200 bg-white text-slate-900',
          )}
        >
          <div className="grid gap-1">
            <Toast.Title className="text-sm font-semibold">{shown.title}</Toast.Title>
            {shown.description && <Toast.Description className="text-sm opacity-90">{shown.description}</Toast.Description>}
          </div>
          <Toast.Close
            aria-label="Close notification"
            className="absolute right-2 top-2 rounded-md p-1 opacity-80 hover:opacity-100"
          >
            <X className="size-4" aria-hidden="true" />
          </Toast.Close>
        </Toast.Root>
      )}
      <Toast.Viewport className="fixed bottom-0 right-0 z-[100] m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none" />
    </Toast.Provider>
  );
}
