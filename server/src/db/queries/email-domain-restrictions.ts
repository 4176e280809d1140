/** SQL of email-domain restrictions (migration 025): a tenant's allow and block domains and its config, always by tenant. */
import type { Db } from '..';
import type { EmailDomainRestrictionConfigsTable, EmailDomainRestrictionsTable } from '../schema-security';

export type EmailDomainRestrictionRow = EmailDomainRestrictionsTable;
export type EmailDomainRestrictionConfigRow = EmailDomainRestrictionConfigsTable;

/** A page of the tenant's domains, oldest first, and how many there are. */
export async function listEmailDomainRestrictions(db: Db, tenantId: string, offset: number, limit: number): Promise<{ rows: EmailDomainRestrictionRow[]; total: number }> {
  const rows = await db.selectFrom('email_domain_restrictions').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').offset(offset).limit(limit).execute();
  const count = await db.selectFrom('email_domain_restrictions').select((eb) => eb.fn.countAll<string | number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

/** The entries that could cover `domain`: itself and each parent domain (a.b.example.com, b.example.com, example.com, com). */
export async function findEmailDomainMatches(db: Db, tenantId: string, domains: string[]): Promise<Pick<EmailDomainRestrictionRow, 'domain' | 'type'>[]> {
  if (domains.length === 0) return [];
  return db.selectFrom('email_domain_restrictions').select(['domain', 'type']).where('tenant_id', '=', tenantId).where('domain', 'in', domains).execute();
}

export async function findEmailDomainRestriction(db: Db, tenantId: string, id: string): Promise<EmailDomainRestrictionRow | undefined> {
  return db.selectFrom('email_domain_restrictions').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function findEmailDomainRestrictionByDomain(db: Db, tenantId: string, domain: string, type: EmailDomainRestrictionRow['type']): Promise<EmailDomainRestrictionRow | undefined> {
  return db.selectFrom('email_domain_restrictions').selectAll().where('tenant_id', '=', tenantId).where('domain', '=', domain).where('type', '=', type).executeTakeFirst();
}

export async function insertEmailDomainRestriction(db: Db, row: EmailDomainRestrictionRow): Promise<void> {
  await db.insertInto('email_domain_restrictions').values(row).execute();
}

export async function updateEmailDomainRestriction(db: Db, tenantId: string, id: string, patch: Partial<Pick<EmailDomainRestrictionRow, 'domain' | 'type'>>): Promise<void> {
  await db.updateTable('email_domain_restrictions').set(patch).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

export async function deleteEmailDomainRestriction(db: Db, tenantId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('email_domain_restrictions').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function findEmailDomainRestrictionConfig(db: Db, tenantId: string): Promise<EmailDomainRestrictionConfigRow | undefined> {
  return db.selectFrom('email_domain_restriction_configs').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
}

/** Creates or replaces the tenant's config in one statement. */
export async function upsertEmailDomainRestrictionConfig(db: Db, row: EmailDomainRestrictionConfigRow): Promise<void> {
  await db
    .insertInto('email_domain_restriction_configs')
    .values(row)
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ active: row.active, list_type: row.list_type, block_public_domains: row.block_public_domains, updated_at: row.updated_at }))
    .execute();
}
