/**
 * Preview routes of the Roles section (docs/preview-mode.md): creating a role with its permissions,
 * editing it, setting its permissions, adding one permission to several roles, and deleting a role
 * (its users and groups lose it). Each change is kept for the page's life and audited; bad input is
 * refused with a 400 naming the field, a taken key with a 409, and nothing changes.
 */
import { AdminPaths } from '../wire/admin/paths';
import type { Role } from '../wire/admin/roles';
import { PREVIEW_PERMISSIONS, PREVIEW_TENANT_ID } from './sample-data';
import { created, fail, ids, noContent, ok, roleSummaries, text, type Answer, type PreviewState, type Route } from './routes';

const ROLE_KEY = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;
const knownPermissions = (wanted: readonly string[]) => PREVIEW_PERMISSIONS.filter((p) => wanted.includes(p.id)).map((p) => p.id);

export function roleRoutes(state: PreviewState): Route[] {
  const find = (id: string | undefined) => state.roles().find((r) => r.id === id);
  const counted = (role: Role): Role => ({ ...role, userCount: state.users().filter((u) => u.roleIds.includes(role.id)).length });
  /** Key, name, description and default flag of a create (key and name required) or an update; a string naming the bad field. */
  const fields = (body: Record<string, unknown>, current: Role | null): string | Partial<Role> => {
    const changes: Partial<Role> = {};
    if (!current || 'key' in body) {
      const key = text(body, 'key');
      if (!key || key.length > 100 || !ROLE_KEY.test(key)) return 'key may hold letters, digits and . _ : - (starting with a letter or digit)';
      if (state.roles().some((r) => r.key === key && r !== current)) return `key ${key} is taken`;
      changes.key = key;
    }
    if (!current || 'name' in body) {
      const name = text(body, 'name');
      if (!name || name.length > 200) return 'name must be 1 to 200 characters';
      changes.name = name;
    }
    if ('description' in body) changes.description = text(body, 'description').slice(0, 500) || null;
    if ('isDefault' in body) {
      if (typeof body.isDefault !== 'boolean') return 'isDefault must be true or false';
      changes.isDefault = body.isDefault;
    }
    return changes;
  };
  const refused = (message: string): Answer => fail(message.endsWith('is taken') ? 409 : 400, message);
  /** One default role at most: a role made the default takes it from the others. */
  const takeDefault = (role: Role) => {
    if (role.isDefault) for (const other of state.roles()) if (other !== role) other.isDefault = false;
  };

  return [
    ['POST', AdminPaths.rolesV2, ({ body }) => {
      const changes = fields(body, null);
      if (typeof changes === 'string') return refused(changes);
      const role: Role = { id: state.newId('role'), key: '', name: '', description: null, isDefault: false, permissions: knownPermissions(ids(body, 'permissionIds')), tenantId: PREVIEW_TENANT_ID, userCount: 0, createdAt: state.iso(), ...changes };
      state.roles().push(role);
      takeDefault(role);
      state.audit('Role created', `The role ${role.name} (${role.key}) was created`);
      return created(counted(role));
    }],
    ['PATCH', AdminPaths.role, ({ params, body }) => {
      const role = find(params.roleId);
      if (!role) return fail(404, 'Role not found');
      const changes = fields(body, role);
      if (typeof changes === 'string') return refused(changes);
      const before = `${role.name} (${role.key})`;
      Object.assign(role, changes);
      takeDefault(role);
      for (const user of state.users()) user.roles = roleSummaries(state, user.roleIds);
      state.audit('Role updated', `${before} -> ${role.name} (${role.key})`);
      return ok(counted(role));
    }],
    ['PUT', AdminPaths.rolePermissions, ({ params, body }) => {
      const role = find(params.roleId);
      if (!role) return fail(404, 'Role not found');
      if (!Array.isArray(body.permissionIds)) return fail(400, 'permissionIds must be a list of permission ids');
      const before = role.permissions.length;
      role.permissions = knownPermissions(ids(body, 'permissionIds'));
      state.audit('Role permissions updated', `The permissions of ${role.name} changed: ${before} -> ${role.permissions.length}`);
      return ok(counted(role));
    }],
    ['PUT', AdminPaths.permissionRoles, ({ params, body }) => {
      const permission = PREVIEW_PERMISSIONS.find((p) => p.id === params.permissionId);
      if (!permission) return fail(404, 'Permission not found');
      const targets = state.roles().filter((r) => ids(body, 'roleIds').includes(r.id));
      if (targets.length === 0) return fail(400, 'roleIds must list at least one role of the account');
      for (const role of targets) if (!role.permissions.includes(permission.id)) role.permissions.push(permission.id);
      state.audit('Permission added to roles', `${permission.name} was added to ${targets.map((r) => r.name).join(', ')}`);
      return ok(targets.map(counted));
    }],
    ['DELETE', AdminPaths.role, ({ params }) => {
      const role = find(params.roleId);
      if (!role) return fail(404, 'Role not found');
      const list = state.roles();
      list.splice(list.indexOf(role), 1);
      for (const user of state.users()) {
        user.roleIds = user.roleIds.filter((id) => id !== role.id);
        user.roles = roleSummaries(state, user.roleIds);
      }
      state.audit('Role deleted', `The role ${role.name} (${role.key}) was deleted`);
      return noContent;
    }],
  ];
}
