import type { Kysely, Migration } from 'kysely';
import type { DialectName } from './index';

/**
 * The users list's "inactive" preset at 100,000 members (issue 17), on PostgreSQL: its total counts
 * the memberships with `active_at` before a moving instant (no counter can follow it), over the range
 * of `user_tenants_by_activity`. That index was `(tenant_id, active_at, user_id)`: the user id (a
 * column no query orders or filters by there) made it 15 MB for 100,000 members, as large as the
 * table's own pages, so the planner counted 59,452 inactive members with a scan of the whole table
 * (31 ms; the preset's request took 27 ms at p95) rather than from the index. Rebuilt as
 * `(tenant_id, active_at)`: 6.6 MB with distinct times (PostgreSQL 13+ stores equal keys once, so
 * 0.8 MB when activity falls on whole days, as in bench/users-scale.test.ts), smaller than the table,
 * so the count is an index-only scan of it (6 ms). Same name and the same number of indexes, so a
 * sign-in (which moves `active_at`) writes no more than before.
 *
 * SQLite keeps the index of migration 016: it already counts from it (4 ms), and its planner would
 * take the narrower index for the team stats' other counts of a tenant (disabled, temporary), whose
 * rows it then reads in activity order, all over the table (150 ms instead of 25).
 */
export function memberActivityIndexMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await db.schema.dropIndex('user_tenants_by_activity').execute();
      await db.schema.createIndex('user_tenants_by_activity').on('user_tenants').columns(['tenant_id', 'active_at']).execute();
    },

    async down(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await db.schema.dropIndex('user_tenants_by_activity').execute();
      await db.schema.createIndex('user_tenants_by_activity').on('user_tenants').columns(['tenant_id', 'active_at', 'user_id']).execute();
    },
  };
}
