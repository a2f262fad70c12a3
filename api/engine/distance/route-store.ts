// Routed distances kept across restarts: OSRM is asked once per postcode pair.
import { and, eq } from 'drizzle-orm';
import type { RouteStore } from './distance';
import type { Db } from '../../platform/db/client';
import { distanceCache } from '../../platform/db/schema';
import { write } from '../../platform/db/write';

export function routeStore(db: Db, provider = 'osrm'): RouteStore {
  return {
    get(fromKey, toKey) {
      return db
        .select({ miles: distanceCache.miles })
        .from(distanceCache)
        .where(and(eq(distanceCache.fromPostcode, fromKey), eq(distanceCache.toPostcode, toKey), eq(distanceCache.provider, provider)))
        .get()?.miles;
    },
    set(fromKey, toKey, miles) {
      // Not awaited: the quote has its distance already. Should the row not be stored (the lock
      // held past the deadline, a full disk), the pair is only routed again next time.
      write(db, () => db.insert(distanceCache).values({ fromPostcode: fromKey, toPostcode: toKey, miles, provider }).onConflictDoNothing().run()).catch(
        () => {},
      );
    },
  };
}
