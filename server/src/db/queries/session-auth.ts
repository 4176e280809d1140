import type { Db } from '../index';
import { precompiled, type Params } from '../precompiled';
import type { SessionRow } from './sessions';

/** A session as a signed-in request needs it: the row, its membership's expiry, and whether the tenant's IP restrictions are on. */
export type RequestSessionRow = SessionRow & {
  /** user_tenants.expires_at of the session's user in the token's tenant (null: no expiry, or no membership row). */
  membership_expires_at: number | null;
  /** ip_restriction_configs.is_active of the token's tenant (null: the tenant never configured them, so they are off). */
  ip_restrictions_active: number | null;
};

/**
 * The one read that authenticates a bearer access token (issue 17): the session by id, with the
 * user's membership expiry in `tenantId` and that tenant's IP restrictions switch, so a request
 * whose tenant has no IP restrictions on needs no further statement to be let in.
 */
export async function findRequestSession(db: Db, id: string, tenantId: string): Promise<RequestSessionRow | undefined> {
  return (await requestSession(db, { id, tenantId })).rows[0];
}

const requestSession = precompiled((db, p: Params<{ id: string; tenantId: string }>) =>
  db
    .selectFrom('sessions')
    .leftJoin('user_tenants', (join) => join.onRef('user_tenants.user_id', '=', 'sessions.user_id').on('user_tenants.tenant_id', '=', p.tenantId))
    .leftJoin('ip_restriction_configs', (join) => join.on('ip_restriction_configs.tenant_id', '=', p.tenantId))
    .selectAll('sessions')
    .select(['user_tenants.expires_at as membership_expires_at', 'ip_restriction_configs.is_active as ip_restrictions_active'])
    .where('sessions.id', '=', p.id),
);
