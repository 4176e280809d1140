import type { Db } from '..';
import { precompiled, type Params } from '../precompiled';
import type { SecurityPolicyKind } from '../schema-security';

/** A tenant's own policy of one kind, its body parsed from JSON. */
export interface OwnPolicyRow<T> {
  id: string;
  body: T;
  updatedAt: number;
}

/** The tenant's own policy of `kind`, or undefined when it uses the vendor's. */
export async function findOwnPolicy<T>(db: Db, tenantId: string, kind: SecurityPolicyKind): Promise<OwnPolicyRow<T> | undefined> {
  const row = (await ownPolicy(db, { tenantId, kind })).rows[0];
  return row ? { id: row.id, body: JSON.parse(row.body) as T, updatedAt: Number(row.updated_at) } : undefined;
}

/** Every own policy of the tenant, by kind. */
export async function listOwnPolicies(db: Db, tenantId: string): Promise<Map<SecurityPolicyKind, OwnPolicyRow<unknown>>> {
  const { rows } = await ownPolicies(db, { tenantId });
  return new Map(rows.map((r) => [r.kind, { id: r.id, body: JSON.parse(r.body) as unknown, updatedAt: Number(r.updated_at) }]));
}

const ownPolicy = precompiled((db, p: Params<{ tenantId: string; kind: SecurityPolicyKind }>) =>
  db.selectFrom('tenant_security_policies').select(['id', 'body', 'updated_at']).where('tenant_id', '=', p.tenantId).where('kind', '=', p.kind),
);
const ownPolicies = precompiled((db, p: Params<{ tenantId: string }>) =>
  db.selectFrom('tenant_security_policies').select(['id', 'kind', 'body', 'updated_at']).where('tenant_id', '=', p.tenantId),
);

/**
 * Saves the tenant's policy of `kind`: updates its row when it has one, otherwise creates it with
 * `newId` (one statement, so two saves at once leave one row). Answers the row's id.
 */
export async function upsertOwnPolicy(db: Db, tenantId: string, kind: SecurityPolicyKind, body: unknown, newId: string, now: number): Promise<string> {
  const json = JSON.stringify(body);
  await db
    .insertInto('tenant_security_policies')
    .values({ id: newId, tenant_id: tenantId, kind, body: json, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['tenant_id', 'kind']).doUpdateSet({ body: json, updated_at: now }))
    .execute();
  const row = await db.selectFrom('tenant_security_policies').select('id').where('tenant_id', '=', tenantId).where('kind', '=', kind).executeTakeFirstOrThrow();
  return row.id;
}
