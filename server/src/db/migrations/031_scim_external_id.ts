import type { Kysely, Migration } from 'kysely';

/**
 * SCIM lookups by externalId (issue 15): identity providers find a user or group by
 * `externalId eq "…"`, and every write checks that an externalId is unique in the tenant; this index
 * answers both from the tenant's rows holding that value instead of all its provisioned resources.
 */
export const scimExternalIdMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex('scim_resources_external_id').on('scim_resources').columns(['tenant_id', 'resource_type', 'external_id']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('scim_resources_external_id').execute();
  },
};
