// Routed distances kept across restarts: OSRM is asked once per postcode pair.
import { and, eq } from 'drizzle-orm';
import type { RouteStore } from '../distance/distance';
import type { Db } from './client';
import { distanceCache } from './schema';

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
      db.insert(distanceCache).values({ fromPostcode: fromKey, toPostcode: toKey, miles, provider }).onConflictDoNothing().run();
    },
  };
}
