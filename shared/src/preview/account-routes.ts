/**
 * Preview routes of the portal's account sections (docs/preview-mode.md): groups, API tokens (the
 * account's and the user's own) and the SSO configuration list. Reads answer the sample data of
 * admin-sample-data.ts; every change is kept for the page's life and audited.
 */
import { AdminPaths } from '../wire/admin/paths';
import { ApiTokenPaths, MINUTES_PER_DAY } from '../wire/admin/api-token-paths';
import { SsoPaths } from '../wire/sso/paths';
import type { ApiToken } from '../wire/admin/api-tokens';
import type { Group } from '../wire/admin/groups';
import type { SsoConfiguration } from '../wire/sso/sso';
import { PREVIEW_API_TOKENS, PREVIEW_GROUPS, PREVIEW_SSO_CONFIGURATIONS } from './admin-sample-data';
import { created, fail, ids, noContent, ok, roleSummaries, text, type Answer, type PreviewState, type Route } from './routes';

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

export function groupRoutes(state: PreviewState): Route[] {
  let groups: Group[] = structuredClone([...PREVIEW_GROUPS]);
  const find = (id: string | undefined) => groups.find((g) => g.id === id);
  /** Name, description and color of a create or update; a string naming the bad field, or the changes. */
  const fields = (body: Record<string, unknown>, creating: boolean): string | Partial<Group> => {
    const changes: Partial<Group> = {};
    if (creating || 'name' in body) {
      const name = text(body, 'name');
      if (!name || name.length > 100) return 'name must be 1 to 100 characters';
      if (groups.some((g) => g.name.toLowerCase() === name.toLowerCase() && g.id !== body.id)) return 'name is taken';
      changes.name = name;
    }
    if ('description' in body) changes.description = text(body, 'description') || null;
    if ('color' in body && body.color !== null) {
      if (!HEX_COLOR.test(text(body, 'color'))) return 'color must be a hex color such as #3366ff';
      changes.color = text(body, 'color');
    } else if ('color' in body) changes.color = null;
    return changes;
  };
  const refused = (message: string): Answer => fail(message === 'name is taken' ? 409 : 400, message);
  /** Adds or removes roles or users of one group (POST adds, DELETE removes). */
  const relation = (kind: 'roles' | 'users'): Route[] =>
    (['POST', 'DELETE'] as const).map((method): Route => [method, kind === 'roles' ? AdminPaths.groupRoles : AdminPaths.groupUsers, ({ params, body }) => {
      const group = find(params.groupId);
      if (!group) return fail(404, 'Group not found');
      const field = kind === 'roles' ? 'roleIds' : 'userIds';
      const wanted = ids(body, field);
      if (wanted.length === 0) return fail(400, `${field} must list at least one id`);
      if (kind === 'roles') {
        const next = method === 'POST' ? [...new Set([...group.roles.map((r) => r.id), ...wanted])] : group.roles.map((r) => r.id).filter((id) => !wanted.includes(id));
        group.roles = roleSummaries(state, next);
      } else {
        const known = state.users().filter((u) => wanted.includes(u.id)).map(({ id, name, email }) => ({ id, name, email }));
        group.users = method === 'POST' ? [...group.users, ...known.filter((u) => !group.users.some((m) => m.id === u.id))] : group.users.filter((m) => !wanted.includes(m.id));
      }
      group.updatedAt = state.iso();
      state.audit(`Group ${kind} updated`, `The ${kind} of the group ${group.name} changed`);
      return ok(group);
    }]);

  return [
    ['GET', AdminPaths.groups, ({ query }) => {
      // Like the server: without _groupsRelations both lists are empty.
      const relations = query.get('_groupsRelations');
      // A role deleted since is gone from its groups, and a renamed one shows its new name.
      return ok({ groups: groups.map((g) => ({ ...g, roles: relations === 'roles' || relations === 'rolesAndUsers' ? roleSummaries(state, g.roles.map((r) => r.id)) : [], users: relations === 'users' || relations === 'rolesAndUsers' ? g.users : [] })) });
    }],
    ['GET', AdminPaths.group, ({ params }) => find(params.groupId) ? ok(find(params.groupId)) : fail(404, 'Group not found')],
    ['POST', AdminPaths.groups, ({ body }) => {
      const changes = fields(body, true);
      if (typeof changes === 'string') return refused(changes);
      const when = state.iso();
      const group: Group = { id: state.newId('group'), name: '', description: null, color: null, metadata: null, managedBy: null, roles: roleSummaries(state, ids(body, 'roleIds')), users: [], createdAt: when, updatedAt: when, ...changes };
      groups.push(group);
      state.audit('Group created', `The group ${group.name} was created`);
      return created(group);
    }],
    ['PATCH', AdminPaths.group, ({ params, body }) => {
      const group = find(params.groupId);
      if (!group) return fail(404, 'Group not found');
      const changes = fields({ ...body, id: group.id }, false);
      if (typeof changes === 'string') return refused(changes);
      const before = group.name;
      Object.assign(group, changes, { updatedAt: state.iso() });
      state.audit('Group updated', `The group ${before} was updated`);
      return ok(group);
    }],
    ['DELETE', AdminPaths.group, ({ params }) => {
      const group = find(params.groupId);
      if (!group) return fail(404, 'Group not found');
      groups = groups.filter((g) => g !== group);
      state.audit('Group deleted', `The group ${group.name} was deleted`);
      return noContent;
    }],
    ...relation('roles'),
    ...relation('users'),
  ];
}

export function apiTokenRoutes(state: PreviewState): Route[] {
  const tokens: ApiToken[] = structuredClone([...PREVIEW_API_TOKENS.tenant, ...PREVIEW_API_TOKENS.user]);
  const kinds = [
    { list: ApiTokenPaths.tenantApiTokens, one: ApiTokenPaths.tenantApiToken, type: 'ClientCredentials', tenant: true },
    { list: ApiTokenPaths.tenantAccessTokens, one: ApiTokenPaths.tenantAccessToken, type: 'AccessToken', tenant: true },
    { list: ApiTokenPaths.userApiTokens, one: ApiTokenPaths.userApiToken, type: 'ClientCredentials', tenant: false },
    { list: ApiTokenPaths.userAccessTokens, one: ApiTokenPaths.userAccessToken, type: 'AccessToken', tenant: false },
  ] as const;
  return kinds.flatMap(({ list, one, type, tenant }): Route[] => {
    const mine = (t: ApiToken) => t.type === type && (tenant ? t.userId === null : t.userId === state.me().id);
    const whose = tenant ? 'account' : 'personal';
    return [
      ['GET', list, () => ok({ items: tokens.filter(mine) })],
      ['POST', list, ({ body }) => {
        const description = text(body, 'description');
        if (!description || description.length > 200) return fail(400, 'description must be 1 to 200 characters');
        const minutes = body.expiresInMinutes;
        if (minutes !== undefined && (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > 3650 * MINUTES_PER_DAY))
          return fail(400, 'expiresInMinutes must be a whole number of minutes up to 10 years');
        const id = state.newId('token');
        const token: ApiToken = {
          id, clientId: `${id}-client`, type, description, createdAt: state.iso(),
          roleIds: tenant ? ids(body, 'roleIds').filter((r) => state.roles().some((role) => role.id === r)) : [],
          expiresInMinutes: typeof minutes === 'number' ? minutes : null,
          expires: typeof minutes === 'number' ? new Date(state.now() + minutes * 60_000).toISOString() : null,
          userId: tenant ? null : state.me().id,
        };
        tokens.push(token);
        state.audit('API token created', `The ${whose} token "${description}" was created`);
        // A made-up secret: it opens nothing, there is no server.
        return created({ ...token, secret: `preview-secret-${id}` });
      }],
      ['DELETE', one, ({ params }) => {
        const index = tokens.findIndex((t) => t.id === params.tokenId && mine(t));
        if (index < 0) return fail(404, 'Token not found');
        const [token] = tokens.splice(index, 1);
        state.audit('API token deleted', `The ${whose} token "${token!.description}" was deleted`);
        return noContent;
      }],
    ];
  });
}

export function ssoRoutes(state: PreviewState): Route[] {
  let configurations: SsoConfiguration[] = structuredClone([...PREVIEW_SSO_CONFIGURATIONS]);
  const find = (id: string | undefined) => configurations.find((c) => c.id === id);
  return [
    ['GET', SsoPaths.configurations, () => ok(configurations)],
    ['GET', SsoPaths.configuration, ({ params }) => (find(params.configId) ? ok(find(params.configId)) : fail(404, 'SSO configuration not found'))],
    ['PATCH', SsoPaths.configuration, ({ params, body }) => {
      const configuration = find(params.configId);
      if (!configuration) return fail(404, 'SSO configuration not found');
      if ('enabled' in body && typeof body.enabled !== 'boolean') return fail(400, 'enabled must be true or false');
      const before = configuration.enabled;
      if (typeof body.enabled === 'boolean') configuration.enabled = body.enabled;
      configuration.updatedAt = state.iso();
      state.audit('SSO configuration updated', `SSO ${configuration.type.toUpperCase()} configuration: enabled ${before} -> ${configuration.enabled}`);
      return ok(configuration);
    }],
    ['DELETE', SsoPaths.configuration, ({ params }) => {
      const configuration = find(params.configId);
      if (!configuration) return fail(404, 'SSO configuration not found');
      configurations = configurations.filter((c) => c !== configuration);
      state.audit('SSO configuration removed', `An SSO ${configuration.type.toUpperCase()} configuration was removed`);
      return noContent;
    }],
  ];
}
