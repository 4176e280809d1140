/**
 * The reach of a tenant's admins into its sub-accounts (migration 021; README "All accounts").
 *
 * A user U acts as admin in tenant T without being a member of T when, for some ancestor P of T
 * (any depth; the nearest such P counts):
 *   1. U is an active member of P;
 *   2. U has sub-account access in P: P's `subAccountAccessType` is `alwaysOn`; or `defaultOn` and
 *      U's membership was not revoked (`sub_account_access` <> 0); or `defaultOff` and U's
 *      membership was granted (`sub_account_access` = 1);
 *   3. U holds fe.account-hierarchy.read.subAccount in P (a wildcard covering it counts).
 * U then acts in T with the permission keys U holds in P. Every endpoint still requires its own key.
 *
 * Never sideways or upwards: only ancestors of T are looked at, so an admin of a child reaches
 * neither a sibling nor the parent (both answer 404, as any tenant the caller cannot act in).
 * A membership row of U in T itself (even a disabled or locked one) governs alone: the hierarchy
 * never overrides what T's admins decided for U. Impersonation sessions and API tokens never reach
 * sub-accounts (tokens stay in their own tenant).
 */
import { Permissions, type SubAccountAccessType } from '@gatehouse/shared/wire';
import type { Db } from '../../db';
import { memberAncestors } from '../../db/queries/sub-accounts';
import { hasMembership } from '../../db/queries/tenants';
import { covers, grantsOf } from './permissions';

/** Whether a member of a tenant with this access type and this override reaches its descendants. */
export function accessAllowed(type: SubAccountAccessType | string, override: number | null | undefined): boolean {
  if (type === 'alwaysOn') return true;
  if (type === 'defaultOn') return override !== 0;
  return override === 1;
}

/** The ancestor through which `userId` reaches `tenantId` to act in it, with the keys held there; null when none. */
export async function hierarchyReach(db: Db, userId: string, tenantId: string, now: number): Promise<{ viaTenantId: string; keys: string[] } | null> {
  if (await hasMembership(db, userId, tenantId)) return null;
  return ancestorGrant(db, userId, tenantId, now);
}

/**
 * Conditions 1-3 alone: whether `userId` may manage sub-account `tenantId` (its users, roles, access)
 * from an ancestor, whatever membership they may also have in it.
 */
export async function ancestorGrant(db: Db, userId: string, tenantId: string, now: number): Promise<{ viaTenantId: string; keys: string[] } | null> {
  for (const m of await memberAncestors(db, userId, tenantId, now)) {
    if (!accessAllowed(m.accessType, m.access)) continue;
    const grants = await grantsOf(db, userId, m.tenantId);
    if (covers(grants.keys, Permissions.subAccountsRead)) return { viaTenantId: m.tenantId, keys: grants.keys };
  }
  return null;
}

/**
 * Conditions 1-3 through one given ancestor only: the grant that goes with the keys of `viaTenantId`.
 * A grant held in another ancestor never lends its access to these keys (a user revoked in C does not
 * act on C's descendants with C's keys because they also have access in C's parent G).
 */
export async function grantThrough(db: Db, userId: string, tenantId: string, viaTenantId: string, now: number): Promise<boolean> {
  const m = (await memberAncestors(db, userId, tenantId, now)).find((a) => a.tenantId === viaTenantId);
  if (!m || !accessAllowed(m.accessType, m.access)) return false;
  return covers((await grantsOf(db, userId, m.tenantId)).keys, Permissions.subAccountsRead);
}
