// The store object: everything this process keeps about one open database, in one place. It is
// made once by openDatabase (api/platform/db/client.ts) and reached two ways, which are the same
// object: `deps.store` in the dependency bag (api/platform/deps.ts) for code built with the app,
// and `db.$store` for the feature stores (api/*/store.ts), which are handed only the `Db`.
// Nothing else holds per-database state: there is no module-level registry to find it in.
// (Not to be confused with the feature stores, the modules of queries that take a `Db`.)
import { createDatabaseFaults, type DatabaseFaults } from './faults';
import type { QuoteWriter } from '../../quotes/store';

/** How long a write may wait for another connection's lock, by default. */
export const DEFAULT_WRITE_DEADLINE_MS = 5000;

/**
 * The company-change event. **Per process**: it tells this process's listeners about writes this
 * process made through this database; another process writing to the same file is not heard.
 *
 * - Who emits: every feature-store writer of something a company's quotes depend on: company
 *   settings and logo (api/company/store.ts), pricing and its rules (api/company/pricing-store.ts),
 *   the charge lists (api/charges/store.ts), and the owner's billing state (api/auth/store.ts).
 *   They emit after the write, through `companyWritten(db, companyId)` (api/company/changes.ts).
 * - Who listens: the quote path's company configuration cache (api/quotes/company-config.ts),
 *   which forgets the company so that the next quote rebuilds it from the database.
 *
 * Routes never emit by hand: a new writer of priced data emits from its store function, so no
 * route can forget to. Listeners run synchronously, in the writer's call, and must not throw.
 */
export interface CompanyChanges {
  /** A write to company `companyId`'s priced data has been made. */
  emit(companyId: number): void;
  /** Calls `listener` after each such write; answers a function that stops it. */
  listen(listener: (companyId: number) => void): () => void;
}

export function createCompanyChanges(): CompanyChanges {
  const listeners = new Set<(companyId: number) => void>();
  return {
    emit(companyId) {
      for (const listener of listeners) listener(companyId);
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * One at a time per key, in arrival order, within this process: for work that reads a row, calls
 * out (a card provider) and writes back, so a second caller reads what the first wrote (a refund
 * of a payment, decision 035). Keys whose work is done are forgotten.
 */
export interface KeyedLocks {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

export function createKeyedLocks(): KeyedLocks {
  const tails = new Map<string, Promise<unknown>>();
  return {
    async run(key, work) {
      const before = tails.get(key) ?? Promise.resolve();
      const mine = before.then(work, work);
      const tail = mine.catch(() => {});
      tails.set(key, tail);
      try {
        return await mine;
      } finally {
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
  };
}

export interface Store {
  /**
   * Prepared statements and other values built once per database on first use, by key
   * (api/platform/db/prepared.ts): the hot reads and the job markers' statements.
   */
  readonly statements: Map<string, unknown>;
  /** The database's fault episodes (api/platform/db/faults.ts): its writers, the error handler and /readyz share it. */
  readonly faults: DatabaseFaults;
  /** How long a write waits for another connection's lock before it fails with SQLITE_BUSY (a 503). */
  writeDeadlineMs: number;
  /** Writes to a company's priced data, for whoever keeps a view of it: see CompanyChanges. */
  readonly companyChanges: CompanyChanges;
  /** The quote writer's group commit (api/quotes/store.ts), made by the first quote. */
  quoteWriter: QuoteWriter | undefined;
  /** Work done one at a time per row across a call out (a payment's refunds). */
  readonly locks: KeyedLocks;
}

export function createStore(options: { writeDeadlineMs?: number } = {}): Store {
  return {
    statements: new Map(),
    faults: createDatabaseFaults(),
    writeDeadlineMs: options.writeDeadlineMs ?? DEFAULT_WRITE_DEADLINE_MS,
    companyChanges: createCompanyChanges(),
    quoteWriter: undefined,
    locks: createKeyedLocks(),
  };
}
