/**
 * What the security center reads beyond the policies: a tenant's IP and email-domain restriction
 * state, whether it has single sign-on, and its score history
 * (security_score_history, one row per tenant and UTC day). Every function takes the tenant id.
 */
import type { RestrictionStrategy } from '@gatehouse/shared/wire';
import type { Db } from '../index';

const count = (row: { n: number | string | bigint } | undefined) => Number(row?.n ?? 0);

/** The tenant's IP restriction config (inactive when it has none) and its active entries of the configured strategy. */
export async function ipRestrictionState(db: Db, tenantId: string): Promise<{ isActive: boolean; strategy: RestrictionStrategy; activeEntries: number }> {
  const config = await db.selectFrom('ip_restriction_configs').select(['is_active', 'strategy']).where('tenant_id', '=', tenantId).executeTakeFirst();
  const strategy = config?.strategy ?? 'ALLOW';
  const entries = await db
    .selectFrom('ip_restrictions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('strategy', '=', strategy)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  return { isActive: Number(config?.is_active ?? 0) === 1, strategy, activeEntries: count(entries) };
}

/** The tenant's email-domain restriction config (inactive when it has none) and its entries of the configured list type. */
export async function emailDomainRestrictionState(db: Db, tenantId: string): Promise<{ active: boolean; listType: RestrictionStrategy; entries: number }> {
  const config = await db.selectFrom('email_domain_restriction_configs').select(['active', 'list_type']).where('tenant_id', '=', tenantId).executeTakeFirst();
  const listType = config?.list_type ?? 'ALLOW';
  const entries = await db
    .selectFrom('email_domain_restrictions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('type', '=', listType)
    .executeTakeFirst();
  return { active: Number(config?.active ?? 0) === 1, listType, entries: count(entries) };
}

/** Whether the tenant has an enabled SAML or OIDC configuration. */
export async function hasEnabledSso(db: Db, tenantId: string): Promise<boolean> {
  const row = await db.selectFrom('sso_configurations').select('id').where('tenant_id', '=', tenantId).where('enabled', '=', 1).limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * Records the tenant's score of `day` (YYYY-MM-DD, UTC), replacing an earlier one of the same day,
 * and deletes its points older than `oldestDay`.
 */
export async function recordScore(db: Db, tenantId: string, day: string, score: number, oldestDay: string): Promise<void> {
  await db
    .insertInto('security_score_history')
    .values({ tenant_id: tenantId, day, score })
    .onConflict((oc) => oc.columns(['tenant_id', 'day']).doUpdateSet({ score }))
    .execute();
  await db.deleteFrom('security_score_history').where('tenant_id', '=', tenantId).where('day', '<', oldestDay).execute();
}

/** The tenant's score history from `oldestDay` on, oldest first. */
export async function listScoreHistory(db: Db, tenantId: string, oldestDay: string): Promise<{ day: string; score: number }[]> {
  const rows = await db
    .selectFrom('security_score_history')
    .select(['day', 'score'])
    .where('tenant_id', '=', tenantId)
    .where('day', '>=', oldestDay)
    .orderBy('day', 'asc')
    .execute();
  return rows.map((r) => ({ day: r.day, score: Number(r.score) }));
}
