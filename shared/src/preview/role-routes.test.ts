import { expect, it } from 'vitest';
import { createApiClient } from '../api/client';
import { ApiPaths } from '../wire/paths';
import { AdminPaths } from '../wire/admin/paths';
import { AuditPaths } from '../wire/admin/audit-paths';
import { AuditsResponse } from '../wire/admin/audits';
import { Role, TeamRolesResponse } from '../wire/admin/roles';
import { GroupsResponse } from '../wire/admin/groups';
import { UsersPage } from '../wire/admin/users';
import { isGatehouseError } from '../errors';
import { createPreviewFetch } from './preview-api';

const BASE = 'https://auth.example.test/api';

function setup() {
  const fetch = createPreviewFetch({ baseUrl: BASE, now: () => Date.UTC(2026, 1, 20, 15), sleep: async () => {} });
  const api = createApiClient({ baseUrl: BASE, clientId: 'preview', getAccessToken: () => 'preview-access-token', fetch, retry: { attempts: 1 } });
  const lastAudit = async () => AuditsResponse.parse(await api.request('GET', AuditPaths.audits)).data[0];
  const roles = async () => (await api.request<unknown[]>('GET', AdminPaths.rolesV1)).map((r) => Role.parse(r));
  return { api, lastAudit, roles };
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!isGatehouseError(error)) throw new Error(`expected a GatehouseError, got ${String(error)}`);
  return [error.statusCode, error.message];
}

it('creates a role with its permissions, edits it, sets its permissions and adds a permission to roles, each audited', async () => {
  const { api, lastAudit, roles } = setup();
  const role = Role.parse(await api.request('POST', AdminPaths.rolesV2, { body: { key: 'Billing', name: 'Billing', permissionIds: ['preview-perm-users-read', 'no-such-permission'] } }));
  expect([role.permissions, role.userCount, role.isDefault]).toEqual([['preview-perm-users-read'], 0, false]);
  expect(await lastAudit()).toMatchObject({ action: 'Role created', description: 'The role Billing (Billing) was created' });

  const path = AdminPaths.role.replace('{roleId}', role.id);
  await api.request('PATCH', path, { body: { name: 'Billing admins', description: 'Pays', isDefault: true } });
  expect(await lastAudit()).toMatchObject({ action: 'Role updated', description: 'Billing (Billing) -> Billing admins (Billing)' });
  // One default role: the new default takes it from ReadOnly.
  expect((await roles()).filter((r) => r.isDefault).map((r) => r.name)).toEqual(['Billing admins']);

  await api.request('PUT', AdminPaths.rolePermissions.replace('{roleId}', role.id), { body: { permissionIds: ['preview-perm-audits-read'] } });
  const attached = await api.request<unknown[]>('PUT', AdminPaths.permissionRoles.replace('{permissionId}', 'preview-perm-roles-read'), { body: { roleIds: [role.id, 'preview-role-support'] } });
  expect(Object.fromEntries(attached.map((r) => Role.parse(r)).map((r) => [r.name, r.permissions]))).toEqual({
    'Billing admins': ['preview-perm-audits-read', 'preview-perm-roles-read'],
    Support: ['preview-perm-users-read', 'preview-perm-users-write', 'preview-perm-roles-read'],
  });
  expect(await lastAudit()).toMatchObject({ action: 'Permission added to roles', description: 'Read roles was added to Support, Billing admins' });

  // An invitation without roles gets the default role, now Billing admins; the team dialogs offer the new role.
  await api.request('POST', ApiPaths.inviteUser, { body: { email: 'kim@preview.example', name: 'Kim' } });
  const kim = UsersPage.parse(await api.request('GET', AdminPaths.teamMembers, { query: { filter: 'kim' } })).items[0]!;
  expect(kim.roles.map((r) => r.name)).toEqual(['Billing admins']);
  expect(TeamRolesResponse.parse(await api.request('GET', AdminPaths.teamRoles)).roles.find((r) => r.id === role.id)?.userCount).toBe(1);
});

it("deletes a role: its users and groups lose it, audited", async () => {
  const { api, lastAudit, roles } = setup();
  await api.request('DELETE', AdminPaths.role.replace('{roleId}', 'preview-role-support'));
  expect((await roles()).map((r) => r.name)).toEqual(['Admin', 'ReadOnly']);
  const everyone = UsersPage.parse(await api.request('GET', AdminPaths.teamMembers, { query: { pageSize: 20 } }));
  const page2 = UsersPage.parse(await api.request('GET', AdminPaths.teamMembers, { query: { pageOffset: 1 } }));
  expect([...everyone.items, ...page2.items].some((u) => u.roleIds.includes('preview-role-support') || u.roles.some((r) => r.key === 'Support'))).toBe(false);
  const { groups } = GroupsResponse.parse(await api.request('GET', AdminPaths.groups, { query: { _groupsRelations: 'roles' } }));
  expect(groups.find((g) => g.name === 'Engineering')!.roles).toEqual([]);
  expect(await lastAudit()).toMatchObject({ action: 'Role deleted', description: 'The role Support (Support) was deleted' });
});

it('refuses a bad key, a taken key, a missing name and an unknown role, naming the field, and changes nothing', async () => {
  const { api, roles } = setup();
  expect(await failure(api.request('POST', AdminPaths.rolesV2, { body: { key: '-bad key', name: 'Bad' } }))).toEqual([400, 'key may hold letters, digits and . _ : - (starting with a letter or digit)']);
  expect(await failure(api.request('POST', AdminPaths.rolesV2, { body: { key: 'Admin', name: 'Second admin' } }))).toEqual([409, 'key Admin is taken']);
  expect(await failure(api.request('POST', AdminPaths.rolesV2, { body: { key: 'NoName' } }))).toEqual([400, 'name must be 1 to 200 characters']);
  expect(await failure(api.request('PATCH', AdminPaths.role.replace('{roleId}', 'preview-role-support'), { body: { key: 'ReadOnly' } }))).toEqual([409, 'key ReadOnly is taken']);
  expect(await failure(api.request('PUT', AdminPaths.rolePermissions.replace('{roleId}', 'preview-role-support'), { body: {} }))).toEqual([400, 'permissionIds must be a list of permission ids']);
  expect(await failure(api.request('DELETE', AdminPaths.role.replace('{roleId}', 'nope')))).toEqual([404, 'Role not found']);
  expect((await roles()).map((r) => [r.key, r.permissions.length])).toEqual([['Admin', 1], ['ReadOnly', 3], ['Support', 2]]);
});
