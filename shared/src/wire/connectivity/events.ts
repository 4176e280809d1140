/**
 * The event catalogue (issue 16 "One catalogue of events"): every event Gatehouse raises, with its
 * key (dot.case), category, description, the JSON schema of its `data` and an example. It is the
 * single source of truth: the server validates nothing against another list, the portal offers
 * these keys to subscribe to, and docs/events.md is rendered from it (events-doc.ts).
 *
 * Payloads carry what consumers ask for (logto#8263, logto#7961): the subject's ids, and for
 * membership and role events the ids added and removed. The acting user and the tenant travel
 * beside `data` (RaisedEvent.actor, RaisedEvent.tenantId), never inside it.
 */
import { z } from 'zod';

const id = z.string().min(1);
const ids = z.array(id);
const email = z.string().nullable();

const userRef = { userId: id, email };

/** The `data` of each event, as zod (the server's tests validate raised events against it). */
export const EventDataSchemas = {
  'user.created': z.object({ ...userRef, name: z.string().nullable(), source: z.enum(['signup', 'admin', 'invitation', 'scim', 'sso', 'social']) }),
  'user.updated': z.object({ ...userRef, changedFields: z.array(z.string()) }),
  'user.deleted': z.object({ ...userRef }),
  'user.invited': z.object({ ...userRef, roleIds: ids }),
  'user.activated': z.object({ ...userRef }),
  'user.disabled': z.object({ ...userRef }),
  'user.enabled': z.object({ ...userRef }),
  'user.locked': z.object({ ...userRef, reason: z.enum(['admin', 'failed_sign_ins']) }),
  'user.unlocked': z.object({ ...userRef }),
  'user.signed_in': z.object({ ...userRef, method: z.string() }),
  'user.sign_in_failed': z.object({ userId: id.nullable(), email, reason: z.string() }),
  'user.mfa_enrolled': z.object({ ...userRef, method: z.string() }),
  'user.mfa_removed': z.object({ ...userRef, method: z.string() }),
  'user.password_reset': z.object({ ...userRef }),
  'user.password_changed': z.object({ ...userRef }),
  'user.roles_updated': z.object({ ...userRef, addedRoleIds: ids, removedRoleIds: ids }),
  'role.created': z.object({ roleId: id, key: z.string(), name: z.string() }),
  'role.updated': z.object({ roleId: id, key: z.string(), name: z.string(), changedFields: z.array(z.string()) }),
  'role.deleted': z.object({ roleId: id, key: z.string(), name: z.string() }),
  'group.created': z.object({ groupId: id, name: z.string() }),
  'group.updated': z.object({ groupId: id, name: z.string(), changedFields: z.array(z.string()) }),
  'group.deleted': z.object({ groupId: id, name: z.string() }),
  'group.users_updated': z.object({ groupId: id, addedUserIds: ids, removedUserIds: ids }),
  'group.roles_updated': z.object({ groupId: id, addedRoleIds: ids, removedRoleIds: ids }),
  'api_token.created': z.object({ tokenId: id, type: z.enum(['tenant', 'user']), description: z.string().nullable() }),
  'api_token.deleted': z.object({ tokenId: id, type: z.enum(['tenant', 'user']) }),
  'sso.configuration_changed': z.object({ configurationId: id, change: z.enum(['created', 'updated', 'deleted']) }),
  'scim.connection_changed': z.object({ connectionId: id, change: z.enum(['created', 'token_rotated', 'deleted']) }),
  'security_policy.updated': z.object({ policy: z.string(), changedFields: z.array(z.string()) }),
  'subscription.updated': z.object({ subscriptionId: id, planId: z.string().nullable(), status: z.string(), previousStatus: z.string().nullable() }),
  'sub_account.created': z.object({ subAccountId: id, name: z.string(), parentTenantId: id.nullable() }),
  'sub_account.updated': z.object({ subAccountId: id, name: z.string(), changedFields: z.array(z.string()) }),
  'sub_account.deleted': z.object({ subAccountId: id, name: z.string() }),
  'webhook.endpoint_disabled': z.object({ endpointId: id, url: z.string(), reason: z.string() }),
} as const;

/** A catalogue key (dot.case). */
export type EventKey = keyof typeof EventDataSchemas;
/** The `data` of an event of key K. */
export type EventData<K extends EventKey> = z.infer<(typeof EventDataSchemas)[K]>;

export const EventCategories = ['users', 'authentication', 'roles', 'groups', 'api_tokens', 'sso', 'scim', 'security', 'billing', 'sub_accounts', 'webhooks'] as const;
export type EventCategory = (typeof EventCategories)[number];

const U = '3f1c0e5b8a6d4e2f9b7c1a0d5e6f7a8b';
const R = 'b2c4d6e8f0a1b3c5d7e9f1a3b5c7d9e1';
const G = 'c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4';
const who = { userId: U, email: 'ada@example.com' };

type Describe = { [K in EventKey]: { category: EventCategory; description: string; example: EventData<K> } };
const described: Describe = {
  'user.created': { category: 'users', description: 'A user account was created in the tenant (sign-up, an admin, an accepted invitation, SCIM, SSO or social sign-in).', example: { ...who, name: 'Ada Lovelace', source: 'admin' } },
  'user.updated': { category: 'users', description: "A user's profile fields changed (name, phone number, job title, metadata...).", example: { ...who, changedFields: ['name', 'phoneNumber'] } },
  'user.deleted': { category: 'users', description: 'A user was removed from the tenant.', example: { ...who } },
  'user.invited': { category: 'users', description: 'A user was invited into the tenant; the invitation email is on its way.', example: { ...who, roleIds: [R] } },
  'user.activated': { category: 'users', description: 'A user activated their account (verified their email or accepted an invitation).', example: { ...who } },
  'user.disabled': { category: 'users', description: "A user's membership of the tenant was disabled by an admin.", example: { ...who } },
  'user.enabled': { category: 'users', description: "A user's membership of the tenant was enabled again by an admin.", example: { ...who } },
  'user.locked': { category: 'security', description: 'A user was locked, by an admin or by the lockout policy after failed sign-ins.', example: { ...who, reason: 'failed_sign_ins' } },
  'user.unlocked': { category: 'security', description: 'A locked user was unlocked by an admin.', example: { ...who } },
  'user.signed_in': { category: 'authentication', description: 'A user signed in.', example: { ...who, method: 'password' } },
  'user.sign_in_failed': { category: 'authentication', description: 'A sign-in into the tenant failed (wrong password, wrong code, locked or disabled user). `userId` is null when no user matched.', example: { ...who, reason: 'Invalid password' } },
  'user.mfa_enrolled': { category: 'security', description: 'A user enrolled a second factor.', example: { ...who, method: 'authenticator' } },
  'user.mfa_removed': { category: 'security', description: 'A second factor of a user was removed.', example: { ...who, method: 'authenticator' } },
  'user.password_reset': { category: 'security', description: 'A user set a new password through password recovery.', example: { ...who } },
  'user.password_changed': { category: 'security', description: 'A user changed their password while signed in.', example: { ...who } },
  'user.roles_updated': { category: 'roles', description: "A user's roles in the tenant changed; the ids added and removed.", example: { ...who, addedRoleIds: [R], removedRoleIds: [] } },
  'role.created': { category: 'roles', description: 'A role was created.', example: { roleId: R, key: 'billing-admin', name: 'Billing admin' } },
  'role.updated': { category: 'roles', description: "A role's name, description, key or permissions changed.", example: { roleId: R, key: 'billing-admin', name: 'Billing admin', changedFields: ['permissions'] } },
  'role.deleted': { category: 'roles', description: 'A role was deleted.', example: { roleId: R, key: 'billing-admin', name: 'Billing admin' } },
  'group.created': { category: 'groups', description: 'A group was created.', example: { groupId: G, name: 'Support' } },
  'group.updated': { category: 'groups', description: "A group's name, description, color or metadata changed.", example: { groupId: G, name: 'Support', changedFields: ['description'] } },
  'group.deleted': { category: 'groups', description: 'A group was deleted.', example: { groupId: G, name: 'Support' } },
  'group.users_updated': { category: 'groups', description: "A group's members changed; the user ids added and removed.", example: { groupId: G, addedUserIds: [U], removedUserIds: [] } },
  'group.roles_updated': { category: 'groups', description: "A group's roles changed; the role ids added and removed.", example: { groupId: G, addedRoleIds: [R], removedRoleIds: [] } },
  'api_token.created': { category: 'api_tokens', description: 'An API token (tenant or personal) was created. The secret is never in an event.', example: { tokenId: 'e1d2c3b4a5f60718293a4b5c6d7e8f90', type: 'tenant', description: 'CI deploys' } },
  'api_token.deleted': { category: 'api_tokens', description: 'An API token was deleted.', example: { tokenId: 'e1d2c3b4a5f60718293a4b5c6d7e8f90', type: 'tenant' } },
  'sso.configuration_changed': { category: 'sso', description: "A tenant's SSO configuration was created, changed or deleted.", example: { configurationId: 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5', change: 'updated' } },
  'scim.connection_changed': { category: 'scim', description: 'A SCIM provisioning connection was created, had its token rotated, or was deleted.', example: { connectionId: 'f0e1d2c3b4a5968778695a4b3c2d1e0f', change: 'created' } },
  'security_policy.updated': { category: 'security', description: "One of the tenant's security policies changed (MFA, lockout, password, password history, captcha, sessions, user emails, IP or email-domain restrictions).", example: { policy: 'mfa', changedFields: ['enforceMFAType'] } },
  'subscription.updated': { category: 'billing', description: "The tenant's subscription changed plan or status.", example: { subscriptionId: 'd4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9', planId: 'pro', status: 'past_due', previousStatus: 'active' } },
  'sub_account.created': { category: 'sub_accounts', description: 'A sub-account was created under the tenant.', example: { subAccountId: '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d', name: 'Acme EU', parentTenantId: '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d' } },
  'sub_account.updated': { category: 'sub_accounts', description: "A sub-account's name or settings changed.", example: { subAccountId: '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d', name: 'Acme Europe', changedFields: ['name'] } },
  'sub_account.deleted': { category: 'sub_accounts', description: 'A sub-account was deleted.', example: { subAccountId: '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d', name: 'Acme EU' } },
  'webhook.endpoint_disabled': { category: 'webhooks', description: 'A webhook endpoint was disabled after failing for 5 days.', example: { endpointId: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', url: 'https://hooks.example.com/gatehouse', reason: 'Failing since 2026-11-20T10:00:00.000Z' } },
};

/** Every catalogue key, in catalogue order. */
export const EVENT_KEYS = Object.keys(EventDataSchemas) as EventKey[];

/** True when `value` is a catalogue key. */
export function isEventKey(value: unknown): value is EventKey {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(EventDataSchemas, value);
}

/** One catalogue entry as served and documented; `schema` is the JSON schema (draft 2020-12) of `data`. */
export interface EventCatalogueEntry {
  key: EventKey;
  category: EventCategory;
  description: string;
  schema: Record<string, unknown>;
  example: Record<string, unknown>;
}

/** The catalogue: every event with its JSON schema (derived from EventDataSchemas) and example. */
export const EVENT_CATALOGUE: readonly EventCatalogueEntry[] = EVENT_KEYS.map((key) => ({
  key,
  category: described[key].category,
  description: described[key].description,
  schema: z.toJSONSchema(EventDataSchemas[key]) as Record<string, unknown>,
  example: described[key].example as Record<string, unknown>,
}));

/** One entry of the answer of GET ConnectivityPaths.events. */
export const EventCatalogueEntrySchema = z.object({
  key: z.string(),
  category: z.enum(EventCategories),
  description: z.string(),
  schema: z.record(z.string(), z.unknown()),
  example: z.record(z.string(), z.unknown()),
});

/** The answer of GET ConnectivityPaths.events: the whole catalogue, in catalogue order. */
export const EventCatalogueSchema = z.array(EventCatalogueEntrySchema);
