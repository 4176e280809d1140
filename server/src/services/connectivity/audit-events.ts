/**
 * Events from audit records (issue 16 "Events are written in the same transaction as the change"):
 * every change already writes its audit record through `recordAudit`, in the change's transaction.
 * `raiseAuditEvents` turns the records that correspond to a catalogue event into that event, through
 * the same `db`, so the event commits or rolls back with the change. The data is built from the
 * record's json (ids, fields changed) and, where the record names only an id, the row it names, read
 * in the same transaction. Changes with no audit record raise their events where they happen
 * (sign-up, activation, profile edits, SSO and social sign-up).
 */
import { EventDataSchemas, type EventKey } from '@gatehouse/shared/wire';
import type { Db } from '../../db';
import { findTenantRole } from '../../db/queries/admin-roles';
import { findGroup } from '../../db/queries/groups';
import { findSubscription } from '../../db/queries/subscriptions';
import { findTenant } from '../../db/queries/tenants';
import { findUserById } from '../../db/queries/users';
import { log, reasonOf } from '../../log';
import { raiseEvent, type EventActor } from './events';

/** An audit record as `recordAudit` writes it. */
export interface AuditFacts {
  tenantId: string;
  actor: EventActor;
  action: string;
  json: Record<string, unknown>;
}

type Raised = { key: EventKey; data: Record<string, unknown> };
type Mapper = (db: Db, facts: AuditFacts) => Promise<Raised[]>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const fieldsOf = (json: Record<string, unknown>, ...idKeys: string[]) => Object.keys(json).filter((k) => !idKeys.includes(k));
const minus = (a: readonly string[], b: readonly string[]) => a.filter((x) => !b.includes(x));

/** The subject of a user event: the record's userId, else the actor (a user's own sign-in, lockout, password). */
async function userRef(db: Db, facts: AuditFacts): Promise<{ userId: string; email: string | null } | null> {
  const userId = str(facts.json.userId) ?? facts.actor.userId;
  if (!userId) return null;
  if (userId === facts.actor.userId && facts.actor.email !== null) return { userId, email: facts.actor.email };
  const email = str(facts.json.email) ?? (await findUserById(db, userId))?.email ?? null;
  return { userId, email };
}

const userEvent =
  (key: EventKey, extra: (facts: AuditFacts) => Record<string, unknown> = () => ({})): Mapper =>
  async (db, facts) => {
    const ref = await userRef(db, facts);
    return ref ? [{ key, data: { ...ref, ...extra(facts) } }] : [];
  };

async function roleData(db: Db, facts: AuditFacts, roleId: string): Promise<{ roleId: string; key: string; name: string }> {
  const row = await findTenantRole(db, facts.tenantId, roleId);
  const key = row?.key ?? str(facts.json.key) ?? roleId;
  return { roleId, key, name: row?.name ?? str(facts.json.name) ?? key };
}

async function groupName(db: Db, facts: AuditFacts, groupId: string): Promise<string> {
  return (await findGroup(db, facts.tenantId, groupId))?.name ?? str(facts.json.name) ?? str(facts.json.displayName) ?? groupId;
}

const groupMembers =
  (added: boolean): Mapper =>
  async (_db, { json }) => {
    const groupId = str(json.groupId);
    return groupId ? [{ key: 'group.users_updated', data: { groupId, addedUserIds: added ? strs(json.userIds) : [], removedUserIds: added ? [] : strs(json.userIds) } }] : [];
  };

const groupRoles =
  (added: boolean): Mapper =>
  async (_db, { json }) => {
    const groupId = str(json.groupId);
    return groupId ? [{ key: 'group.roles_updated', data: { groupId, addedRoleIds: added ? strs(json.roleIds) : [], removedRoleIds: added ? [] : strs(json.roleIds) } }] : [];
  };

const roleChanged =
  (fields: (json: Record<string, unknown>) => string[]): Mapper =>
  async (db, facts) => {
    const roleIds = str(facts.json.roleId) ? [str(facts.json.roleId)!] : strs(facts.json.roleIds);
    return Promise.all(roleIds.map(async (roleId) => ({ key: 'role.updated' as const, data: { ...(await roleData(db, facts, roleId)), changedFields: fields(facts.json) } })));
  };

const ssoChanged =
  (change: 'created' | 'updated' | 'deleted'): Mapper =>
  async (_db, { json }) => {
    const configurationId = str(json.configId);
    return configurationId ? [{ key: 'sso.configuration_changed', data: { configurationId, change } }] : [];
  };

const scimChanged =
  (change: 'created' | 'token_rotated' | 'deleted'): Mapper =>
  async (_db, { json }) => {
    const connectionId = str(json.connectionId);
    return connectionId ? [{ key: 'scim.connection_changed', data: { connectionId, change } }] : [];
  };

/** The fields whose values differ between the record's old and new (a policy's before and after). */
function changedBetween(json: Record<string, unknown>): string[] {
  const before = (json.old && typeof json.old === 'object' ? json.old : {}) as Record<string, unknown>;
  const after = (json.new && typeof json.new === 'object' ? json.new : {}) as Record<string, unknown>;
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

const policyChanged =
  (policy: string | ((json: Record<string, unknown>) => string), fields: (json: Record<string, unknown>) => string[] = changedBetween): Mapper =>
  async (_db, { json }) => [{ key: 'security_policy.updated', data: { policy: typeof policy === 'string' ? policy : policy(json), changedFields: fields(json) } }];

const subscriptionChanged: Mapper = async (db, facts) => {
  const subscriptionId = str(facts.json.subscriptionId);
  if (!subscriptionId) return [];
  const row = await findSubscription(db, facts.tenantId, subscriptionId);
  const old = (facts.json.old && typeof facts.json.old === 'object' ? facts.json.old : {}) as Record<string, unknown>;
  return [{ key: 'subscription.updated', data: { subscriptionId, planId: row?.plan_id ?? null, status: row?.status ?? 'unknown', previousStatus: str(old.status) } }];
};

const subAccountChanged = (fields: (json: Record<string, unknown>) => string[]): Mapper => async (db, facts) => {
  const subAccountId = str(facts.json.tenantId);
  if (!subAccountId) return [];
  const name = (await findTenant(db, subAccountId))?.name ?? str(facts.json.name) ?? subAccountId;
  return [{ key: 'sub_account.updated', data: { subAccountId, name, changedFields: fields(facts.json) } }];
};

/** Audit action -> the events it raises. Keys are the actions' texts (AuditActions and each area's own). */
const MAPPERS: Record<string, Mapper> = {
  // Users, by admins (services/admin/users.ts, users/invitations.ts).
  'User roles updated': async (db, facts) => {
    const ref = await userRef(db, facts);
    const after = strs(facts.json.roleIds);
    const before = strs(facts.json.before);
    const addedRoleIds = minus(after, before);
    const removedRoleIds = minus(before, after);
    if (!ref || addedRoleIds.length + removedRoleIds.length === 0) return [];
    return [{ key: 'user.roles_updated', data: { ...ref, addedRoleIds, removedRoleIds } }];
  },
  'User removed from account': userEvent('user.deleted'),
  'User disabled': userEvent('user.disabled'),
  'User enabled': userEvent('user.enabled'),
  'User locked': userEvent('user.locked', ({ json }) => ({ reason: json.by === 'lockout policy' ? 'failed_sign_ins' : 'admin' })),
  'User unlocked': userEvent('user.unlocked'),
  'User invited': userEvent('user.invited', ({ json }) => ({ roleIds: strs(json.roleIds) })),
  'User joined by invite link': async (db, facts) => {
    const ref = await userRef(db, facts);
    if (!ref) return [];
    return [{ key: 'user.created', data: { ...ref, name: (await findUserById(db, ref.userId))?.name ?? null, source: 'invitation' } }];
  },
  // 'Users invited in bulk' raises nothing: each invitation of the call raised its user.invited in its own transaction (services/users/invitations.ts).
  // A user's own authentication and account security (the actor is the user).
  'User signed in': userEvent('user.signed_in', ({ json }) => ({ method: str(json.method) ?? 'unknown' })),
  'Sign-in failed': userEvent('user.sign_in_failed', ({ json }) => ({ reason: str(json.reason) ?? 'unknown' })),
  'MFA enrolled': userEvent('user.mfa_enrolled', ({ json }) => ({ method: str(json.factor) ?? 'unknown' })),
  'MFA removed': userEvent('user.mfa_removed', ({ json }) => ({ method: str(json.factor) ?? 'unknown' })),
  'Email changed': userEvent('user.updated', () => ({ changedFields: ['email'] })),
  'Phone number changed': userEvent('user.updated', () => ({ changedFields: ['phoneNumber'] })),
  'Password reset': userEvent('user.password_reset'),
  'Password changed': userEvent('user.password_changed'),
  // Roles (services/admin/roles.ts).
  'Role created': async (db, facts) => {
    const roleId = str(facts.json.roleId);
    return roleId ? [{ key: 'role.created', data: await roleData(db, facts, roleId) }] : [];
  },
  'Role updated': roleChanged((json) => fieldsOf(json, 'roleId')),
  'Role permissions updated': roleChanged(() => ['permissions']),
  'Permission added to roles': roleChanged(() => ['permissions']),
  'Role deleted': async (db, facts) => {
    const roleId = str(facts.json.roleId);
    return roleId ? [{ key: 'role.deleted', data: await roleData(db, facts, roleId) }] : [];
  },
  // Groups (services/admin/groups.ts, scim/groups.ts).
  'Group created': async (db, facts) => {
    const groupId = str(facts.json.groupId);
    return groupId ? [{ key: 'group.created', data: { groupId, name: await groupName(db, facts, groupId) } }] : [];
  },
  'Group updated': async (db, facts) => {
    const groupId = str(facts.json.groupId);
    return groupId ? [{ key: 'group.updated', data: { groupId, name: await groupName(db, facts, groupId), changedFields: fieldsOf(facts.json, 'groupId') } }] : [];
  },
  'Group deleted': async (db, facts) => {
    const groupId = str(facts.json.groupId);
    return groupId ? [{ key: 'group.deleted', data: { groupId, name: await groupName(db, facts, groupId) } }] : [];
  },
  'Roles added to group': groupRoles(true),
  'Roles removed from group': groupRoles(false),
  'Users added to group': groupMembers(true),
  'Users removed from group': groupMembers(false),
  // API tokens (services/admin/api-tokens.ts).
  'API token created': async (_db, { json }) => {
    const tokenId = str(json.tokenId);
    return tokenId ? [{ key: 'api_token.created', data: { tokenId, type: json.kind === 'user' ? 'user' : 'tenant', description: str(json.description) } }] : [];
  },
  'API token deleted': async (_db, { json }) => {
    const tokenId = str(json.tokenId);
    return tokenId ? [{ key: 'api_token.deleted', data: { tokenId, type: json.kind === 'user' ? 'user' : 'tenant' } }] : [];
  },
  // Sub-accounts (services/admin/sub-accounts.ts): raised in each tenant whose admins see the record.
  'Sub-account created': async (db, facts) => {
    const subAccountId = str(facts.json.tenantId);
    if (!subAccountId) return [];
    const name = (await findTenant(db, subAccountId))?.name ?? subAccountId;
    return [{ key: 'sub_account.created', data: { subAccountId, name, parentTenantId: str(facts.json.parentTenantId) } }];
  },
  'Sub-account updated': subAccountChanged((json) => fieldsOf(json, 'tenantId')),
  'Sub-account management updated': subAccountChanged(() => ['isReseller']),
  'Sub-account hierarchy settings updated': subAccountChanged(() => ['subAccountAccessType']),
  'Sub-account deleted': async (_db, facts) => {
    const subAccountId = str(facts.json.tenantId);
    // The record in the deleted sub-account itself goes with it: only its ancestors hear of it.
    if (!subAccountId || subAccountId === facts.tenantId) return [];
    return [{ key: 'sub_account.deleted', data: { subAccountId, name: str(facts.json.name) ?? subAccountId } }];
  },
  // SSO (services/sso/configurations.ts).
  'SSO configuration created': ssoChanged('created'),
  'SSO configuration updated': ssoChanged('updated'),
  'SSO configuration deleted': ssoChanged('deleted'),
  'SSO identity provider metadata set': ssoChanged('updated'),
  'SAML configuration saved': ssoChanged('updated'),
  'SSO domain added': ssoChanged('updated'),
  'SSO domain removed': ssoChanged('updated'),
  'SSO domain validated': ssoChanged('updated'),
  'SSO default roles updated': ssoChanged('updated'),
  'SSO group mappings updated': ssoChanged('updated'),
  // SCIM connections (services/scim/connections.ts) and what they provision (scim/users.ts, scim/groups.ts).
  'SCIM connection created': scimChanged('created'),
  'SCIM token rotated': scimChanged('token_rotated'),
  'SCIM connection deleted': scimChanged('deleted'),
  'User provisioned by SCIM': async (db, facts) => {
    const userId = str(facts.json.userId);
    if (!userId) return [];
    const user = await findUserById(db, userId);
    return [{ key: 'user.created', data: { userId, email: user?.email ?? null, name: user?.name ?? null, source: 'scim' } }];
  },
  'User updated by SCIM': async (db, facts) => {
    const userId = str(facts.json.userId);
    return userId ? [{ key: 'user.updated', data: { userId, email: (await findUserById(db, userId))?.email ?? null, changedFields: strs(facts.json.changed) } }] : [];
  },
  'User deprovisioned by SCIM': userEvent('user.deleted'),
  'Group provisioned by SCIM': async (db, facts) => {
    const groupId = str(facts.json.groupId);
    if (!groupId) return [];
    const created: Raised = { key: 'group.created', data: { groupId, name: await groupName(db, facts, groupId) } };
    const members = strs(facts.json.userIds);
    return members.length > 0 ? [created, { key: 'group.users_updated', data: { groupId, addedUserIds: members, removedUserIds: [] } }] : [created];
  },
  'Group updated by SCIM': async (db, facts) => {
    const groupId = str(facts.json.groupId);
    if (!groupId) return [];
    const addedUserIds = strs(facts.json.addedUserIds);
    const removedUserIds = strs(facts.json.removedUserIds);
    const updated: Raised = { key: 'group.updated', data: { groupId, name: await groupName(db, facts, groupId), changedFields: ['displayName'] } };
    return addedUserIds.length + removedUserIds.length > 0 ? [{ key: 'group.users_updated', data: { groupId, addedUserIds, removedUserIds } }] : [updated];
  },
  'Group deprovisioned by SCIM': async (db, facts) => {
    const groupId = str(facts.json.groupId);
    return groupId ? [{ key: 'group.deleted', data: { groupId, name: await groupName(db, facts, groupId) } }] : [];
  },
  // Tenant security (services/security/*).
  'Security policy updated': policyChanged((json) => str(json.policy) ?? 'unknown'),
  'Sessions policy updated': policyChanged('sessions'),
  'IP restriction created': policyChanged('ipRestrictions', () => ['restrictions']),
  'IP restriction updated': policyChanged('ipRestrictions', () => ['restrictions']),
  'IP restriction deleted': policyChanged('ipRestrictions', () => ['restrictions']),
  'IP restrictions saved in bulk': policyChanged('ipRestrictions', () => ['restrictions']),
  'IP restriction settings updated': policyChanged('ipRestrictions'),
  'Email domain restriction created': policyChanged('emailDomainRestrictions', () => ['restrictions']),
  'Email domain restriction updated': policyChanged('emailDomainRestrictions', () => ['restrictions']),
  'Email domain restriction deleted': policyChanged('emailDomainRestrictions', () => ['restrictions']),
  'Email domain restrictions saved in bulk': policyChanged('emailDomainRestrictions', () => ['restrictions']),
  'Email domain restriction settings updated': policyChanged('emailDomainRestrictions'),
  // Billing (services/billing/subscriptions.ts).
  'Subscription created': subscriptionChanged,
  'Subscription plan changed': subscriptionChanged,
  'Subscription payment method updated': subscriptionChanged,
  'Subscription canceled': subscriptionChanged,
  'Subscription renewed': subscriptionChanged,
};

/** The audit actions that raise events (tests check each maps to a real action). */
export const EVENT_RAISING_ACTIONS: readonly string[] = Object.keys(MAPPERS);

/**
 * Raises the events an audit record stands for, through `db` (the record's transaction). Data that
 * fails the catalogue's schema is a bug here, not the caller's: it is logged and the event is not
 * raised, so the change itself never fails for it.
 */
export async function raiseAuditEvents(db: Db, facts: AuditFacts, now: number): Promise<void> {
  const mapper = MAPPERS[facts.action];
  if (!mapper) return;
  for (const { key, data } of await mapper(db, facts)) {
    const parsed = EventDataSchemas[key].safeParse(data);
    if (!parsed.success) {
      log.error('connectivity: event', key, 'from audit action', facts.action, 'does not match the catalogue:', reasonOf(parsed.error));
      continue;
    }
    await raiseEvent(db, { tenantId: facts.tenantId, key, data: parsed.data as Record<string, unknown>, actor: facts.actor.userId || facts.actor.email ? facts.actor : null }, now);
  }
}
