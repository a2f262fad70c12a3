// What the route sub-apps are given: built once in api/app.ts, replaced piecemeal in tests.
import type { Config } from './config';
import type { Db } from './db/client';
import type { Store } from './db/store';
import type { Sessions } from '../auth/session';
import type { Logger } from './http/observability';
import type { CompanyConfigCache } from '../quotes/company-config';
import type { AppEvents } from './events';
import type { AuditRecorder } from '../team/audit';

export interface DistanceEstimator {
  /** Road miles to one decimal; throws PostcodeNotFound for a postcode no data level knows. */
  distanceMiles(fromPostcode: string, toPostcode: string): Promise<number>;
  /** When the provider answers at once (the built-in estimate): the same miles, without a Promise. */
  milesNow?(fromPostcode: string, toPostcode: string): number;
}

export interface AppDeps {
  config: Config;
  db: Db;
  /**
   * The store object of `db` (the same object as `db.$store`): prepared statements, fault
   * episodes, the write deadline, the quote writer and the company-change event, made once when
   * the database opened (api/platform/db/store.ts).
   */
  store: Store;
  logger: Logger;
  sessions: Sessions;
  distance: DistanceEstimator;
  companyCache: CompanyConfigCache;
  /** The clock: tests move it; nothing else calls Date.now() for business rules. */
  now: () => Date;
  /** What one feature tells the others (a job changed): api/platform/events.ts. */
  events: AppEvents;
  /**
   * Writes an action's audit line inside the action's write() (api/team/audit.ts): always the
   * database's own recorder in the app; the accept route's bench swaps in one that writes nothing.
   */
  audit: AuditRecorder;
}
