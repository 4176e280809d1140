import { describe, expect, it } from 'vitest';
import { createApiClient } from '../api/client';
import { AdminPaths } from '../wire/admin/paths';
import { ApiTokenPaths } from '../wire/admin/api-token-paths';
import { AuditPaths } from '../wire/admin/audit-paths';
import { ApiTokenList, CreatedApiToken } from '../wire/admin/api-tokens';
import { AuditsResponse } from '../wire/admin/audits';
import { Group, GroupsResponse } from '../wire/admin/groups';
import { SsoPaths } from '../wire/sso/paths';
import { SsoConfiguration } from '../wire/sso/sso';
import { isGatehouseError } from '../errors';
import { createPreviewFetch } from './preview-api';

const BASE = 'https://auth.example.test/api';

function setup() {
  const waits: number[] = [];
  const fetch = createPreviewFetch({ baseUrl: BASE, now: () => Date.UTC(2026, 1, 20, 15), sleep: async (ms) => void waits.push(ms) });
  const api = createApiClient({ baseUrl: BASE, clientId: 'preview', getAccessToken: () => 'preview-access-token', fetch, retry: { attempts: 1 } });
  const lastAudit = async () => AuditsResponse.parse(await api.request('GET', AuditPaths.audits)).data[0];
  return { api, waits, lastAudit };
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!isGatehouseError(error)) throw new Error(`expected a GatehouseError, got ${String(error)}`);
  return [error.statusCode, error.message];
}

const withGroup = (path: string, id: string) => path.replace('{groupId}', id);

describe('preview groups', () => {
  it('lists the sample groups with their roles and users only when asked for the relations', async () => {
    const { api } = setup();
    const full = GroupsResponse.parse(await api.request('GET', AdminPaths.groups, { query: { _groupsRelations: 'rolesAndUsers' } }));
    expect(full.groups.map((g) => [g.name, g.roles.map((r) => r.name), g.users.length])).toEqual([['Engineering', ['Support'], 3], ['Managers', ['Admin'], 1]]);
    const bare = GroupsResponse.parse(await api.request('GET', AdminPaths.groups));
    expect(bare.groups.every((g) => g.roles.length === 0 && g.users.length === 0)).toBe(true);
  });

  it('creates, renames, gives roles and members to, and deletes a group, each audited, with the write delay', async () => {
    const { api, waits, lastAudit } = setup();
    const group = Group.parse(await api.request('POST', AdminPaths.groups, { body: { name: 'Support desk', color: '#aa3300', roleIds: ['preview-role-support', 'no-such-role'] } }));
    expect(group.roles.map((r) => r.key)).toEqual(['Support']);
    expect(waits.at(-1)).toBe(500);
    expect(await lastAudit()).toMatchObject({ action: 'Group created', description: 'The group Support desk was created' });

    await api.request('PATCH', withGroup(AdminPaths.group, group.id), { body: { name: 'Help desk', description: 'First line', color: null } });
    await api.request('POST', withGroup(AdminPaths.groupRoles, group.id), { body: { roleIds: ['preview-role-readonly'] } });
    await api.request('DELETE', withGroup(AdminPaths.groupRoles, group.id), { body: { roleIds: ['preview-role-support'] } });
    await api.request('POST', withGroup(AdminPaths.groupUsers, group.id), { body: { userIds: ['preview-user-2', 'preview-user-3'] } });
    await api.request('DELETE', withGroup(AdminPaths.groupUsers, group.id), { body: { userIds: ['preview-user-3'] } });
    const saved = Group.parse(await api.request('GET', withGroup(AdminPaths.group, group.id)));
    expect([saved.name, saved.description, saved.color, saved.roles.map((r) => r.key), saved.users.map((u) => u.email)]).toEqual(['Help desk', 'First line', null, ['ReadOnly'], ['ben@preview.example']]);
    expect(await lastAudit()).toMatchObject({ action: 'Group users updated' });

    await api.request('DELETE', withGroup(AdminPaths.group, group.id));
    expect(GroupsResponse.parse(await api.request('GET', AdminPaths.groups)).groups.map((g) => g.name)).toEqual(['Engineering', 'Managers']);
    expect(await lastAudit()).toMatchObject({ action: 'Group deleted', description: 'The group Help desk was deleted' });
  });

  it('refuses a group without a name, a bad color and a taken name, naming the field, and changes nothing', async () => {
    const { api } = setup();
    expect(await failure(api.request('POST', AdminPaths.groups, { body: { name: ' ' } }))).toEqual([400, 'name must be 1 to 100 characters']);
    expect(await failure(api.request('POST', AdminPaths.groups, { body: { name: 'Blue', color: 'blue' } }))).toEqual([400, 'color must be a hex color such as #3366ff']);
    expect(await failure(api.request('POST', AdminPaths.groups, { body: { name: 'managers' } }))).toEqual([409, 'name is taken']);
    expect(await failure(api.request('PATCH', withGroup(AdminPaths.group, 'preview-group-1'), { body: { name: 'Managers' } }))).toEqual([409, 'name is taken']);
    expect(await failure(api.request('POST', withGroup(AdminPaths.groupRoles, 'preview-group-1'), { body: { roleIds: [] } }))).toEqual([400, 'roleIds must list at least one id']);
    expect(await failure(api.request('DELETE', withGroup(AdminPaths.group, 'nope')))).toEqual([404, 'Group not found']);
    expect(GroupsResponse.parse(await api.request('GET', AdminPaths.groups)).groups.map((g) => g.name)).toEqual(['Engineering', 'Managers']);
  });
});

describe('preview API tokens', () => {
  it("keeps the account's tokens and the user's own apart, by type", async () => {
    const { api } = setup();
    const names = async (path: string) => ApiTokenList.parse(await api.request('GET', path)).items.map((t) => t.description);
    expect(await names(ApiTokenPaths.tenantApiTokens)).toEqual(['CI deploys']);
    expect(await names(ApiTokenPaths.tenantAccessTokens)).toEqual(['Monthly reports']);
    expect(await names(ApiTokenPaths.userApiTokens)).toEqual(['My command line']);
    expect(await names(ApiTokenPaths.userAccessTokens)).toEqual([]);
  });

  it('creates a token whose made-up secret is answered once, and deletes it, each audited', async () => {
    const { api, lastAudit } = setup();
    const token = CreatedApiToken.parse(await api.request('POST', ApiTokenPaths.tenantApiTokens, { body: { description: 'Nightly sync', roleIds: ['preview-role-readonly'], expiresInMinutes: 1440 } }));
    expect([token.type, token.roleIds, token.expiresInMinutes, token.expires, token.userId]).toEqual(['ClientCredentials', ['preview-role-readonly'], 1440, '2026-02-21T15:00:00.000Z', null]);
    expect(token.secret).toMatch(/^preview-secret-/);
    const listed = ApiTokenList.parse(await api.request('GET', ApiTokenPaths.tenantApiTokens)).items;
    expect(listed.map((t) => t.description)).toEqual(['CI deploys', 'Nightly sync']);
    expect(listed.some((t) => 'secret' in t)).toBe(false);
    expect(await lastAudit()).toMatchObject({ action: 'API token created', description: 'The account token "Nightly sync" was created' });

    const personal = CreatedApiToken.parse(await api.request('POST', ApiTokenPaths.userAccessTokens, { body: { description: 'Mine', roleIds: ['preview-role-admin'] } }));
    expect([personal.roleIds, personal.userId, personal.expires]).toEqual([[], 'preview-user-1', null]);

    await api.request('DELETE', ApiTokenPaths.tenantApiToken.replace('{tokenId}', token.id));
    expect(ApiTokenList.parse(await api.request('GET', ApiTokenPaths.tenantApiTokens)).items.map((t) => t.description)).toEqual(['CI deploys']);
    expect(await lastAudit()).toMatchObject({ action: 'API token deleted', description: 'The account token "Nightly sync" was deleted' });
  });

  it('refuses a token without a description or with a bad expiry, and a delete through the other kind of path', async () => {
    const { api } = setup();
    expect(await failure(api.request('POST', ApiTokenPaths.userApiTokens, { body: { description: '' } }))).toEqual([400, 'description must be 1 to 200 characters']);
    expect(await failure(api.request('POST', ApiTokenPaths.userApiTokens, { body: { description: 'x', expiresInMinutes: 0.5 } }))).toEqual([400, 'expiresInMinutes must be a whole number of minutes up to 10 years']);
    // The account's token is not one of the user's own.
    expect(await failure(api.request('DELETE', ApiTokenPaths.userApiToken.replace('{tokenId}', 'preview-token-ci')))).toEqual([404, 'Token not found']);
    expect(ApiTokenList.parse(await api.request('GET', ApiTokenPaths.tenantApiTokens)).items).toHaveLength(1);
  });
});

describe('preview SSO configurations', () => {
  it('lists the sample SAML configuration, and simulates turning it off and removing it, audited', async () => {
    const { api, lastAudit } = setup();
    const list = (await api.request<unknown[]>('GET', SsoPaths.configurations)).map((c) => SsoConfiguration.parse(c));
    expect(list.map((c) => [c.type, c.enabled, c.domains.map((d) => d.domain)])).toEqual([['saml', true, ['preview.example']]]);
    const path = SsoPaths.configuration.replace('{configId}', list[0]!.id);
    expect(SsoConfiguration.parse(await api.request('PATCH', path, { body: { enabled: false } })).enabled).toBe(false);
    expect(await lastAudit()).toMatchObject({ action: 'SSO configuration updated', description: 'SSO SAML configuration: enabled true -> false' });
    expect(await failure(api.request('PATCH', path, { body: { enabled: 'no' } }))).toEqual([400, 'enabled must be true or false']);
    await api.request('DELETE', path);
    expect(await api.request('GET', SsoPaths.configurations)).toEqual([]);
    expect(await lastAudit()).toMatchObject({ action: 'SSO configuration removed' });
  });
});
