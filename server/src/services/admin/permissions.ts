/**
 * Permission checks of admin calls (DESIGN.md security baseline: every admin endpoint checks the
 * caller's tenant and permission). Seed 000 section 6: super users bypass every permission check;
 * everyone else needs the key (or a wildcard covering it) through their roles in the tenant.
 * Read from the database on every call, never from token claims, so a role removed a second ago
 * no longer counts.
 */
import { ErrorCodes } from '@gatehouse/shared/wire';
import type { Db } from '../../db';
import { isMember } from '../../db/queries/tenants';
import { findUserById } from '../../db/queries/users';
import { AppError } from '../../errors';
import type { AuthContext } from '../auth/auth';
import { loadAuthorization } from './tenants';

/** The permission keys a user holds in a tenant through their roles (whatever the user's state). */
export async function permissionKeysOf(db: Db, userId: string, tenantId: string): Promise<string[]> {
  return (await loadAuthorization(db, userId, tenantId)).permissions.map((p) => p.key);
}

/** The permission keys a user holds in a tenant, and whether they are a super user. */
export async function grantsOf(db: Db, userId: string, tenantId: string): Promise<{ superUser: boolean; keys: string[] }> {
  const user = await findUserById(db, userId);
  if (!user || user.disabled === 1) return { superUser: false, keys: [] };
  return { superUser: user.super_user === 1, keys: await permissionKeysOf(db, userId, tenantId) };
}

/**
 * True when `granted` (a user's keys) covers `required`: the same key, or a granted wildcard whose
 * prefix contains it. One way only: holding `fe.secure.read.users` does not cover a role's
 * `fe.secure.*`, or "grant only what you hold" would let anyone hand out wildcards. (The portal's
 * `permissionMatches` also matches the other way round, to show entries "any of" whose keys unlock.)
 */
export function covers(granted: readonly string[], required: string): boolean {
  return granted.some((key) => key === required || (key.endsWith('*') && required.startsWith(key.slice(0, -1))));
}

/** Throws 403 unless the caller is a super user or holds `required` in the tenant it acts in. */
export async function requirePermission(db: Db, ctx: Pick<AuthContext, 'userId' | 'tenantId'>, required: string, action: string): Promise<void> {
  const grants = await grantsOf(db, ctx.userId, ctx.tenantId);
  if (grants.superUser) return;
  // Roles outlive a disabled, locked or expired membership, and an access token outlives it by minutes.
  if (covers(grants.keys, required) && (await isMember(db, ctx.userId, ctx.tenantId))) return;
  throw new AppError(ErrorCodes.forbidden, 403, `You do not have permission to ${action} (${required})`, { permission: required });
}

/** Admin powers are the admin's own: a session started by impersonation may not use them. */
export function refuseWhileImpersonating(ctx: Pick<AuthContext, 'claims'>): void {
  if (ctx.claims.act) throw new AppError(ErrorCodes.notWhileImpersonating, 403, 'Not available while impersonating a user');
}
