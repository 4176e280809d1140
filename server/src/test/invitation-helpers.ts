/** Helpers of the invitation and impersonation tests: the emailed link and code, and role grants made the way the roles API will. */
import { ApiPaths } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../app';
import { newId } from '../crypto';
import { assignRole, findRoleByKey, insertRole, listPermissionsByKeys } from '../db/queries/roles';
import { call, mailbox } from './harness';

export interface InvitationMail {
  userId: string;
  token: string;
  link: string;
  /** The code printed in the email (INVITATION_STRATEGY=code), else null. */
  code: string | null;
  text: string;
}

/** The newest invitation email to `to`, after background resends finished. */
export async function invitationMailFor(server: GatehouseServer, to: string): Promise<InvitationMail> {
  await server.invitations.idle();
  const mail = (await mailbox(server)).find((m) => m.to === to && /invited/i.test(m.subject));
  if (!mail) throw new Error(`no invitation mail to ${to}`);
  const link = /https?:\/\/\S+\/account\/invitation\/(?:accept|code)\?\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error('no invitation link in mail');
  const u = new URL(link);
  return { userId: u.searchParams.get('userId')!, token: u.searchParams.get('token')!, link, code: /invitation code[^\n]*\n(\d{6})\n/.exec(mail.text)?.[1] ?? null, text: mail.text };
}

export async function invitationMailCount(server: GatehouseServer, to: string): Promise<number> {
  await server.invitations.idle();
  return (await mailbox(server)).filter((m) => m.to === to && /invited/i.test(m.subject)).length;
}

/** POST users v1 as the admin whose access token is given. */
export function invite(server: GatehouseServer, accessToken: string, body: Record<string, unknown>, query = '') {
  return call(server, 'POST', `${ApiPaths.inviteUser}${query}`, { token: accessToken, body });
}

/** The decoded (unverified) payload of an access token. */
export function claimsOf(accessToken: string): Record<string, any> {
  return JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString('utf8'));
}

/** Gives the user a new role of the tenant holding exactly `permissionKeys` (what the roles API of issue 5 will do). */
export async function grantRoleWith(server: GatehouseServer, userId: string, tenantId: string, key: string, permissionKeys: string[]): Promise<string> {
  const perms = await listPermissionsByKeys(server.db, permissionKeys);
  const id = newId();
  await insertRole(server.db, { id, tenant_id: tenantId, key, name: key, description: null, is_default: 0, created_at: Date.now() }, perms.map((p) => p.id));
  await assignRole(server.db, userId, tenantId, id);
  return id;
}

/** The id of a built-in role (Admin, ReadOnly, Support) of a tenant. */
export async function roleId(server: GatehouseServer, tenantId: string, key: string): Promise<string> {
  const role = await findRoleByKey(server.db, tenantId, key);
  if (!role) throw new Error(`no role ${key} in ${tenantId}`);
  return role.id;
}
