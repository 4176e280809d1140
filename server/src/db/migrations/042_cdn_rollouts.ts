import type { Kysely, Migration } from 'kysely';

/**
 * CDN rollouts (issue 18), portable across SQLite and PostgreSQL (timestamps epoch ms).
 *
 * - `cdn_rollouts`: one row per bundle once an operator changed its rollout: the default version,
 *   the previous default (what rollback restores) and an optional canary. A bundle without a row
 *   serves the version the build's cdn-manifest.json names. `revision` grows with every change, so
 *   two operators changing the same bundle at once cannot both win (the loser retries on the new row).
 * - `cdn_pins`: tenants pinned to a version of a bundle; a deleted tenant loses its pins.
 */
export const cdnRolloutsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('cdn_rollouts')
      .addColumn('bundle', 'text', (c) => c.primaryKey())
      .addColumn('default_version', 'text', (c) => c.notNull())
      .addColumn('previous_version', 'text')
      .addColumn('canary_version', 'text')
      .addColumn('canary_percent', 'integer')
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('cdn_pins')
      .addColumn('bundle', 'text', (c) => c.notNull())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('cdn_pins_pk', ['bundle', 'tenant_id'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('cdn_pins').execute();
    await db.schema.dropTable('cdn_rollouts').execute();
  },
};
