/** Helpers of the admin API tests: tenants with an admin, members made through the API, a super user, a user without permissions. */
import { AdminPaths, ApiPaths } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../app';
import { addUserToTenant } from '../db/queries/tenants';
import { updateUser } from '../db/queries/users';
import { call, PASSWORD, signUpAndActivate, uniqueEmail, type CallOptions } from './harness';
import { invitationMailFor } from './invitation-helpers';

export interface TenantAdmin {
  email: string;
  userId: string;
  tenantId: string;
  accessToken: string;
}

/** A new tenant and its first user (the sign-up makes them Admin). */
export async function tenantWithAdmin(server: GatehouseServer, prefix = 'admin'): Promise<TenantAdmin> {
  const { email, userId, tenantId, accessToken } = await signUpAndActivate(server, uniqueEmail(prefix));
  return { email, userId, tenantId, accessToken };
}

/** A call as `who`, in `tenantId` when given (`?tenantId=`). */
export function callAs(server: GatehouseServer, who: { accessToken: string }, method: string, path: string, opts: Omit<CallOptions, 'token'> & { tenantId?: string } = {}) {
  const sep = path.includes('?') ? '&' : '?';
  return call(server, method, opts.tenantId ? `${path}${sep}tenantId=${encodeURIComponent(opts.tenantId)}` : path, { ...opts, token: who.accessToken });
}

/** Fills `{name}` segments of a path. */
export function pathOf(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(params[key] ?? `missing-${key}`));
}

/** Invites a new address into the admin's tenant (a member, unverified until they accept); returns the user id. */
export async function inviteMember(server: GatehouseServer, admin: TenantAdmin, extra: Record<string, unknown> = {}, email = uniqueEmail('member')): Promise<{ userId: string; email: string }> {
  const res = await callAs(server, admin, 'POST', ApiPaths.inviteUser, { body: { email, name: `Member ${email.slice(7, 11)}`, ...extra } });
  if (res.status !== 201) throw new Error(`invite failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { userId: res.body.id, email };
}

/** A signed-in user who is a member of `tenantId` with no role there (calls must add `tenantId`). */
export async function memberWithoutPermissions(server: GatehouseServer, tenantId: string): Promise<TenantAdmin> {
  const own = await tenantWithAdmin(server, 'plain');
  await addUserToTenant(server.db, own.userId, tenantId, Date.now());
  return { ...own, tenantId };
}

/** A signed-in super user (of their own tenant; they may name any tenant). */
export async function superUser(server: GatehouseServer): Promise<TenantAdmin> {
  const user = await tenantWithAdmin(server, 'super');
  await updateUser(server.db, user.userId, { super_user: 1 });
  return user;
}

/** The users of a tenant as its list shows them, sorted by name. */
export async function listUsers(server: GatehouseServer, admin: TenantAdmin, query = '') {
  const res = await callAs(server, admin, 'GET', `${AdminPaths.teamMembers}${query}`, { tenantId: admin.tenantId });
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { items: any[]; _metadata: { totalItems: number; totalPages: number } };
}

/** The audit records of a tenant, newest first. */
export function auditsOf(server: GatehouseServer, tenantId: string) {
  return server.db.selectFrom('audits').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** A member who accepted their invitation and chose a password: signed in to the admin's tenant. */
export async function activeMember(server: GatehouseServer, admin: TenantAdmin, extra: Record<string, unknown> = {}): Promise<TenantAdmin & { password: string }> {
  const { email } = await inviteMember(server, admin, extra);
  const mail = await invitationMailFor(server, email);
  const accepted = await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: mail.userId, token: mail.token, password: PASSWORD } });
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return { email, userId: mail.userId, tenantId: admin.tenantId, accessToken: accepted.body.authResponse.accessToken, password: PASSWORD };
}

/** Signs in with email and password; the raw answer (status 200 with accessToken, or the refusal). */
export function signIn(server: GatehouseServer, email: string, password = PASSWORD) {
  return call(server, 'POST', ApiPaths.login, { body: { email, password } });
}

/** The id of a role of the tenant by key, through the roles API. */
export async function roleIdByKey(server: GatehouseServer, admin: TenantAdmin, key: string): Promise<string> {
  const roles = (await callAs(server, admin, 'GET', AdminPaths.rolesV1, { tenantId: admin.tenantId })).body as { id: string; key: string }[];
  const role = roles.find((r) => r.key === key);
  if (!role) throw new Error(`no role ${key}`);
  return role.id;
}
