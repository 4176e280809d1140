/**
 * The access token of a session: the user's tenants, roles and
 * permissions, the session's impersonation and hosted-login grant, and the compact entitlements,
 * signed with the current key. Every sign-in, refresh, tenant switch and step-up ends here.
 */
import { AuthContextClasses, AuthMethods, ENTITLEMENTS_CLAIM, type LoginResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { SessionRow } from '../../db/queries/sessions';
import type { GrantRow } from '../../db/queries/entitlement-context';
import { listUserTenants, type TenantRow } from '../../db/queries/tenants';
import { findImpersonationBySession } from '../../db/queries/impersonations';
import { findOAuthGrant } from '../../db/queries/oauth';
import { findUserById, type UserRow } from '../../db/queries/users';
import { loadAuthorization } from '../admin/tenants';
import type { KeyService } from '../platform/keys';
import type { EntitlementsService } from '../entitlements';

/** Authentication method reference and context class for a password sign-in (claims amr/acr). */
export const AMR_PASSWORD = AuthMethods.password;
export const ACR_PASSWORD = AuthContextClasses.password;

/** What the caller already read about a session, so it is not read again. */
export interface KnownSession {
  actor: { impersonator_id: string } | null;
  grantClientId: string | null;
  /** The user's active tenants, when the caller has read them (listUserTenants' order). */
  tenants?: readonly Pick<TenantRow, 'id'>[];
  /**
   * What the user holds in one tenant, when the caller has read it: their roles (listHeldRoleIds)
   * and the entitlement grants there (listGrantsFor). Used for a token of that tenant only.
   */
  inTenant?: { tenantId: string; roleIds: readonly string[]; grants: readonly GrantRow[] };
}

/** Signs the access token of `session` acting in `tenantId`, expiring no later than `notAfter`. */
export type AccessTokenMinter = (user: UserRow, session: SessionRow, tenantId: string, notAfter?: number, known?: KnownSession) => Promise<LoginResponse>;

export function createAccessTokens(deps: {
  db: Db;
  keys: KeyService;
  clock: Clock;
  /** The compact entitlements every access token carries (claim ENTITLEMENTS_CLAIM), computed at each issue and refresh. */
  entitlements?: Pick<EntitlementsService, 'tokenClaim'>;
  config: Pick<Config, 'accessTokenTtl'>;
}): AccessTokenMinter {
  const { db, keys, clock, config } = deps;
  /**
   * `known`: the session's impersonation and hosted-login grant when the caller has read them already
   * (a refresh reads them with its token), so they are not read again.
   */
  async function accessToken(
    user: UserRow,
    session: SessionRow,
    tenantId: string,
    notAfter = Infinity,
    known?: KnownSession,
  ): Promise<LoginResponse> {
    const tenants = known?.tenants ?? (await listUserTenants(db, user.id, clock.now()));
    const held = known?.inTenant?.tenantId === tenantId ? known.inTenant : undefined;
    const authz = await loadAuthorization(db, user.id, tenantId, held?.roleIds);
    // Impersonation (RFC 8693 `act`): the token names the impersonator, lists only the session's
    // tenant, and dies with the (short) session.
    const actor = known ? known.actor : await findImpersonationBySession(db, session.id);
    const actorEmail = actor ? (await findUserById(db, actor.impersonator_id))?.email : undefined;
    // A hosted-login grant's session: the token names its client (RFC 9068 client_id), so the API
    // of a MANAGED_ACCESS application can refuse tokens issued to the login box or to other clients.
    const grant = known ? (known.grantClientId === null ? undefined : { client_id: known.grantClientId }) : await findOAuthGrant(db, session.id);
    const expiresAt = Math.min(clock.now() + config.accessTokenTtl * 1000, actor ? session.expires_at : Infinity, notAfter);
    const capped = expiresAt < clock.now() + config.accessTokenTtl * 1000;
    const claims = {
      ...(actor ? { act: { sub: actor.impersonator_id, ...(actorEmail ? { email: actorEmail } : {}) } } : {}),
      sub: user.id,
      // An account made by phone sign-up has no email: no email claim, and email_verified false.
      ...(user.email ? { email: user.email } : {}),
      email_verified: user.email !== null && user.verified === 1,
      name: user.name,
      tenantId,
      tenantIds: actor ? [tenantId] : tenants.map((t) => t.id),
      roles: authz.roles.map((r) => r.key),
      permissions: authz.permissions.map((p) => p.key),
      amr: JSON.parse(session.amr) as string[],
      // The session's amr decides: a second factor (sign-in or step-up) raises it to the MFA class.
      acr: (JSON.parse(session.amr) as string[]).includes(AuthMethods.mfa) ? AuthContextClasses.mfa : ACR_PASSWORD,
      auth_time: Math.floor(session.auth_time / 1000),
      sid: session.id,
      superUser: user.super_user === 1,
      ...(grant ? { client_id: grant.client_id } : {}),
    };
    // Evaluated with the token's own claims, so rules on jwt.* see what the token will say; left
    // out when empty to keep tokens small.
    const entitled = await deps.entitlements?.tokenClaim({ userId: user.id, tenantId, email: user.email, emailVerified: claims.email_verified, claims }, { grants: held?.grants });
    const token = await keys.sign(entitled && Object.keys(entitled.f).length > 0 ? { ...claims, [ENTITLEMENTS_CLAIM]: entitled } : claims, expiresAt);
    return {
      accessToken: token,
      expiresIn: capped ? Math.max(0, Math.floor((expiresAt - clock.now()) / 1000)) : config.accessTokenTtl,
      expires: new Date(expiresAt).toISOString(),
      mfaRequired: false,
      tenantId,
      userId: user.id,
    };
  }
  return accessToken;
}
