// Never lose an edit (docs/product.md §14): each form of the portal reports whether it holds unsaved
// changes; while any does, closing or reloading the tab asks first (beforeunload), and so do
// the portal's own ways out (the menu's pages and Sign Out).
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

export const LEAVE_WITH_UNSAVED = 'You have unsaved changes. Leave without saving them?';

interface UnsavedChanges {
  report(key: string, dirty: boolean): void;
  /** True when nothing is unsaved, or the operator agrees to leave it. */
  confirmLeave(): boolean;
}

// Outside a provider (a tab rendered on its own) nothing is tracked and leaving never asks.
const Context = createContext<UnsavedChanges>({ report: () => {}, confirmLeave: () => true });

export function UnsavedChangesProvider({ children }: { children: ReactNode }) {
  const dirty = useRef(new Set<string>());
  const [anyDirty, setAnyDirty] = useState(false);

  const report = useCallback((key: string, isDirty: boolean) => {
    if (isDirty) dirty.current.add(key);
    else dirty.current.delete(key);
    setAnyDirty(dirty.current.size > 0);
  }, []);

  useEffect(() => {
    if (!anyDirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [anyDirty]);

  const value = useMemo<UnsavedChanges>(() => ({ report, confirmLeave: () => dirty.current.size === 0 || window.confirm(LEAVE_WITH_UNSAVED) }), [report]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

/** Reports this form's unsaved state under `key` while it is mounted. */
export function useReportUnsaved(key: string, dirty: boolean): void {
  const { report } = useContext(Context);
  useEffect(() => {
    report(key, dirty);
    return () => report(key, false);
  }, [report, key, dirty]);
}

export const useConfirmLeave = () => useContext(Context).confirmLeave;
