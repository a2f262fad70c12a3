// Where an operator is in the guided set-up (docs/product.md §14), remembered in this browser:
// whether it opens on their next visit to the portal, the step they were on, and what they typed
// and have not saved yet (a draft survives a reload, a tab switch and signing out and in again).
// What was saved lives on the server; this keeps only the operator's place and unsaved text.
import { useCallback, useSyncExternalStore } from 'react';

export const SETUP_STEPS = ['contact', 'prices', 'area', 'live'] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

export const STEP_TITLES: Record<SetupStep, string> = {
  contact: 'How customers reach you',
  prices: 'Your prices',
  area: 'Where you work',
  live: 'Go live',
};

/**
 * `open`: the set-up shows when the operator comes to the portal (from sign-up until they leave
 * it); `left`: they chose the portal, and can come back from the checklist; `done`: finished.
 */
export type SetupStatus = 'open' | 'left' | 'done';

export interface SetupProgress {
  status: SetupStatus;
  step: SetupStep;
  /** Unsaved text per step, field by field. */
  drafts: Partial<Record<SetupStep, Record<string, string>>>;
}

const KEY = (userId: number) => `setup_${userId}`;
const listeners = new Set<() => void>();
const cache = new Map<number, { raw: string | null; value: SetupProgress | null }>();

const isStep = (value: unknown): value is SetupStep => (SETUP_STEPS as readonly unknown[]).includes(value);

function parse(raw: string | null): SetupProgress | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<SetupProgress>;
    const status = value.status === 'open' || value.status === 'left' || value.status === 'done' ? value.status : 'left';
    return { status, step: isStep(value.step) ? value.step : 'contact', drafts: value.drafts && typeof value.drafts === 'object' ? value.drafts : {} };
  } catch {
    return null;
  }
}

/** The stored progress, the same object while the stored text is the same (for useSyncExternalStore). */
export function readSetup(userId: number): SetupProgress | null {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(KEY(userId));
  } catch {
    // Storage off (private mode): the set-up still works, it just does not remember.
  }
  const cached = cache.get(userId);
  if (cached && cached.raw === raw) return cached.value;
  const value = parse(raw);
  cache.set(userId, { raw, value });
  return value;
}

export function writeSetup(userId: number, change: Partial<SetupProgress>): SetupProgress {
  const next = { ...(readSetup(userId) ?? { status: 'open', step: 'contact', drafts: {} }), ...change };
  try {
    localStorage.setItem(KEY(userId), JSON.stringify(next));
  } catch {
    // Not remembered; the set-up carries on with what is on screen.
  }
  for (const listener of listeners) listener();
  return next;
}

/** Called at sign-up: the first visit to the portal opens the set-up. */
export const startSetup = (userId: number) => writeSetup(userId, { status: 'open', step: 'contact', drafts: {} });

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => event.key?.startsWith('setup_') && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The operator's set-up progress, and a writer that keeps every screen using it in step. */
export function useSetupProgress(userId: number) {
  const progress = useSyncExternalStore(subscribe, () => readSetup(userId));
  const update = useCallback((change: Partial<SetupProgress>) => writeSetup(userId, change), [userId]);
  const setDraft = useCallback(
    (step: SetupStep, draft: Record<string, string> | undefined) => {
      const drafts = { ...(readSetup(userId)?.drafts ?? {}) };
      if (draft) drafts[step] = draft;
      else delete drafts[step];
      writeSetup(userId, { drafts });
    },
    [userId],
  );
  return { progress, update, setDraft };
}
