/**
 * A user's active memberships as one request's services share them (issue 17): a password sign-in
 * hands the same user row to the password policies, the MFA gate and the session, and each needs
 * the user's tenants. They are read once per row object, kept at most 1 s in a table cache
 * (services/platform/table-cache.ts) that any write through this server to memberships or tenants
 * empties, so a membership a request adds is seen by the rest of that request. Every request reads
 * its own user row, so no other request shares the entry.
 */
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { listUserTenants, type TenantRow } from '../../db/queries/tenants';
import { createTableCache, type TableCache } from '../platform/table-cache';

const caches = new WeakMap<Db, TableCache<object, TenantRow[]>>();

/** Shares memberships per user row on `db` for the server's life (routes/platform, once per server). */
export function shareMemberships(db: Db, clock: Clock): void {
  caches.set(db, createTableCache({ db, clock, max: 10_000, tables: ['user_tenants', 'tenants'] }));
}

/** listUserTenants for `user`, read once per row object (see above); read directly on a Db without the cache (e.g. a transaction). */
export function tenantsOfUser(db: Db, user: { id: string }, now: number): Promise<readonly TenantRow[]> {
  const cache = caches.get(db);
  return cache ? cache.get(user, () => listUserTenants(db, user.id, now)) : listUserTenants(db, user.id, now);
}
