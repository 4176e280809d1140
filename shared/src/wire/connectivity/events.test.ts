import { describe, expect, it } from 'vitest';
import { EVENT_CATALOGUE, EVENT_KEYS, EventCatalogueSchema, EventDataSchemas, isEventKey } from './events';

/** The keys issue 16's contract between the connectivity parts names: the catalogue has each. */
const CONTRACT_KEYS = [
  'user.created', 'user.updated', 'user.deleted', 'user.invited', 'user.activated', 'user.disabled', 'user.enabled', 'user.locked', 'user.unlocked',
  'user.signed_in', 'user.sign_in_failed', 'user.mfa_enrolled', 'user.mfa_removed', 'user.password_reset', 'user.password_changed', 'user.roles_updated',
  'role.created', 'role.updated', 'role.deleted', 'group.created', 'group.updated', 'group.deleted', 'group.users_updated', 'group.roles_updated',
  'api_token.created', 'api_token.deleted', 'sso.configuration_changed', 'scim.connection_changed', 'security_policy.updated', 'subscription.updated',
  'sub_account.created', 'sub_account.updated', 'sub_account.deleted', 'webhook.endpoint_disabled',
];

describe('the event catalogue', () => {
  it('has every key of the contract, each once, in dot.case', () => {
    expect([...EVENT_KEYS].sort()).toEqual([...CONTRACT_KEYS].sort());
    for (const key of EVENT_KEYS) expect(key).toMatch(/^[a-z_]+\.[a-z_]+$/);
  });

  it("each entry's example is valid data of its own schema, and its JSON schema describes an object with the example's fields", () => {
    for (const entry of EVENT_CATALOGUE) {
      expect(EventDataSchemas[entry.key].safeParse(entry.example).success, entry.key).toBe(true);
      expect(entry.schema).toMatchObject({ type: 'object' });
      const properties = Object.keys(entry.schema.properties as Record<string, unknown>);
      expect(properties.sort(), entry.key).toEqual(Object.keys(entry.example).sort());
      expect(entry.description.length, entry.key).toBeGreaterThan(10);
    }
  });

  it('membership and role events carry the ids added and removed (logto#8263, logto#7961)', () => {
    expect(Object.keys(EVENT_CATALOGUE.find((e) => e.key === 'group.users_updated')!.example)).toEqual(['groupId', 'addedUserIds', 'removedUserIds']);
    expect(Object.keys(EVENT_CATALOGUE.find((e) => e.key === 'group.roles_updated')!.example)).toEqual(['groupId', 'addedRoleIds', 'removedRoleIds']);
    expect(EVENT_CATALOGUE.find((e) => e.key === 'user.roles_updated')!.schema).toMatchObject({ required: expect.arrayContaining(['userId', 'addedRoleIds', 'removedRoleIds']) });
    expect(EventDataSchemas['group.users_updated'].safeParse({ groupId: 'g', addedUserIds: 'u1' }).success).toBe(false);
  });

  it('is what the catalogue route answers (the wire schema accepts it) and isEventKey knows exactly its keys', () => {
    expect(EventCatalogueSchema.safeParse(EVENT_CATALOGUE).success).toBe(true);
    expect(EVENT_KEYS.every(isEventKey)).toBe(true);
    for (const bad of ['user', 'user.CREATED', 'toString', '__proto__', 7, null]) expect(isEventKey(bad)).toBe(false);
  });
});
