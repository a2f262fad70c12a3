// Idempotent quote calculations (docs/product.md §17): the widget names each tap's calculation with an
// Idempotency-Key, and retries it once when the connection drops. The same key for the same
// company within the window answers with the first calculation's result (or waits for it, if it
// is still running) and stores no second quote. In memory, per process, bounded: the least
// recently used key goes first (decision 013).

/** The key was first used with another request: its answer is not this request's to have. */
export const KEY_REUSED = 'reused' as const;

export interface ReplayCache<T> {
  /**
   * The first answer for `key` if it was started less than the window ago, for the same request
   * (`fingerprint`, e.g. its body); KEY_REUSED when the key was first used for another request.
   */
  get(key: string, now: number, fingerprint?: string): Promise<T> | typeof KEY_REUSED | undefined;
  /** Remembers `answer` for `key` (and the request's `fingerprint`) from `now`; forgets it if it fails, so a retry does the work again. */
  remember(key: string, answer: Promise<T>, now: number, fingerprint?: string): void;
  readonly size: number;
}

export function createReplayCache<T>(options: { maxEntries: number; windowMs: number }): ReplayCache<T> {
  const entries = new Map<string, { answer: Promise<T>; startedAt: number; fingerprint: string }>();
  return {
    get(key, now, fingerprint = '') {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (now - entry.startedAt >= options.windowMs) return undefined;
      // Map keeps insertion order: re-inserting makes this key the most recently used.
      entries.set(key, entry);
      return entry.fingerprint === fingerprint ? entry.answer : KEY_REUSED;
    },
    remember(key, answer, now, fingerprint = '') {
      entries.delete(key);
      if (entries.size >= options.maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      const entry = { answer, startedAt: now, fingerprint };
      entries.set(key, entry);
      answer.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
    },
    get size() {
      return entries.size;
    },
  };
}
