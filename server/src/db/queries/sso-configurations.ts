import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index';
import { changesOf } from '../patch';
import type { SsoConfigurationsTable, SsoDomainsTable, SsoGroupMappingsTable } from '../schema-sso';

export type SsoConfigurationRow = Selectable<SsoConfigurationsTable>;
export type SsoDomainRow = Selectable<SsoDomainsTable>;
export type SsoGroupMappingRow = Selectable<SsoGroupMappingsTable>;

export async function insertSsoConfiguration(db: Db, row: Insertable<SsoConfigurationsTable>): Promise<void> {
  await db.insertInto('sso_configurations').values(row).execute();
}

export function findSsoConfiguration(db: Db, id: string): Promise<SsoConfigurationRow | undefined> {
  return db.selectFrom('sso_configurations').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listSsoConfigurations(db: Db, tenantId: string): Promise<SsoConfigurationRow[]> {
  return db.selectFrom('sso_configurations').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').execute();
}

export async function updateSsoConfiguration(db: Db, id: string, patch: Updateable<SsoConfigurationsTable>): Promise<void> {
  const changes = changesOf(patch);
  if (!changes) return;
  await db.updateTable('sso_configurations').set(changes).where('id', '=', id).execute();
}

export async function deleteSsoConfiguration(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sso_configurations').where('id', '=', id).execute();
}

export async function insertSsoDomain(db: Db, row: Insertable<SsoDomainsTable>): Promise<void> {
  await db.insertInto('sso_domains').values(row).execute();
}

export function findSsoDomain(db: Db, configId: string, domainId: string): Promise<SsoDomainRow | undefined> {
  return db.selectFrom('sso_domains').selectAll().where('id', '=', domainId).where('config_id', '=', configId).executeTakeFirst();
}

export function listSsoDomains(db: Db, configIds: readonly string[]): Promise<SsoDomainRow[]> {
  if (configIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('sso_domains').selectAll().where('config_id', 'in', configIds).orderBy('created_at').orderBy('id').execute();
}

export async function deleteSsoDomain(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sso_domains').where('id', '=', id).execute();
}

/**
 * Marks a domain validated. The partial unique index on validated domains makes this fail when
 * another configuration validated the same domain first, whichever process it ran in.
 */
export async function markSsoDomainValidated(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('sso_domains').set({ validated: 1, validated_at: now }).where('id', '=', id).execute();
}

/** The configuration owning a validated email domain, if any. */
export async function findConfigurationForDomain(db: Db, domain: string): Promise<SsoConfigurationRow | undefined> {
  return db
    .selectFrom('sso_domains')
    .innerJoin('sso_configurations', 'sso_configurations.id', 'sso_domains.config_id')
    .selectAll('sso_configurations')
    .where('sso_domains.domain', '=', domain)
    .where('sso_domains.validated', '=', 1)
    .executeTakeFirst();
}

/** The validated domain row of `domain`, whichever configuration owns it. */
export function findValidatedDomain(db: Db, domain: string): Promise<SsoDomainRow | undefined> {
  return db.selectFrom('sso_domains').selectAll().where('domain', '=', domain).where('validated', '=', 1).executeTakeFirst();
}

export function listSsoGroupMappings(db: Db, configIds: readonly string[]): Promise<SsoGroupMappingRow[]> {
  if (configIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('sso_group_mappings').selectAll().where('config_id', 'in', configIds).orderBy('group_name').execute();
}

/** Replaces a configuration's group mappings in one transaction (the caller's, when `db` is one). */
export async function replaceSsoGroupMappings(db: Db, configId: string, rows: Insertable<SsoGroupMappingsTable>[]): Promise<void> {
  const replace = async (trx: Db) => {
    await trx.deleteFrom('sso_group_mappings').where('config_id', '=', configId).execute();
    if (rows.length) await trx.insertInto('sso_group_mappings').values(rows).execute();
  };
  if (db.isTransaction) await replace(db);
  else await db.transaction().execute(replace);
}

/** The ids among `ids` that are roles of `tenantId`. */
export async function tenantRoleIds(db: Db, tenantId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('roles').select('id').where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
  return rows.map((r) => r.id);
}

/**
 * Whether any tenant has an SSO configuration one can sign in with: enabled, complete (SAML: the
 * IdP's entity id, address and certificates; OIDC: issuer, client id and secret) and owning a
 * validated domain. One indexed probe, no row read.
 */
export async function hasReadySsoConfiguration(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('sso_configurations')
    .innerJoin('sso_domains', 'sso_domains.config_id', 'sso_configurations.id')
    .select('sso_configurations.id')
    .where('sso_configurations.enabled', '=', 1)
    .where('sso_domains.validated', '=', 1)
    .where((eb) =>
      eb.or([
        eb.and([eb('sso_configurations.type', '=', 'saml'), eb('sso_configurations.idp_sso_url', 'is not', null), eb('sso_configurations.idp_entity_id', 'is not', null), eb('sso_configurations.idp_certificates', 'is not', null)]),
        eb.and([eb('sso_configurations.type', '=', 'oidc'), eb('sso_configurations.oidc_issuer', 'is not', null), eb('sso_configurations.oidc_client_id', 'is not', null), eb('sso_configurations.oidc_client_secret', 'is not', null)]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
