// Reads started before the code that shows their answer has loaded (the portal's first reads,
// admin/src/early-reads.ts; the status page's, pages/job/first-read.ts), each handed over once to
// whoever takes it; a later read goes out as usual.

export interface HandedOverReads<K, V> {
  /** Starts `read` under `key`, unless one is started and not yet taken; answers the read started now, if any. */
  start(key: K, read: () => Promise<V>): Promise<V> | undefined;
  /** The read started under `key`, handed over once; undefined when none was, or it was taken. */
  take(key: K): Promise<V> | undefined;
}

export function handedOverReads<K, V>(): HandedOverReads<K, V> {
  const started = new Map<K, Promise<V>>();
  return {
    start(key, read) {
      if (started.has(key)) return undefined;
      const promise = read();
      // A refused read (not signed in, no such job) is whoever takes it to say; if nobody does, it
      // is not an unhandled rejection.
      promise.catch(() => undefined);
      started.set(key, promise);
      return promise;
    },
    take(key) {
      const promise = started.get(key);
      started.delete(key);
      return promise;
    },
  };
}
