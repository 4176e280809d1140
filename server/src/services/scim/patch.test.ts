/**
 * PATCH cases written from the shapes Okta's and Microsoft Entra ID's SCIM documentation publish for
 * their requests (our own payloads, same shapes), then RFC 7644 section 3.5.2 edge cases.
 */
import { describe, expect, it } from 'vitest';
import { isScimError } from './errors';
import type { JsonObject } from './filter-match';
import { normalizeResource } from './normalize';
import { applyPatch } from './patch';
import { toScimGroup, toScimUser, userColumns } from './resources';
import { GROUP_RESOURCE, SCHEMA_ENTERPRISE_USER, SCHEMA_PATCH_OP, USER_RESOURCE } from './schemas';

const BASE = 'https://id.example.com/scim/v2';
const ENT = SCHEMA_ENTERPRISE_USER;

function user(): JsonObject {
  const attributes = normalizeResource(
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', ENT],
      userName: 'jo.smith@example.com',
      externalId: '00u1abcd',
      name: { givenName: 'Jo', familyName: 'Smith' },
      displayName: 'Jo Smith',
      emails: [{ value: 'jo.smith@example.com', type: 'work', primary: true }],
      phoneNumbers: [{ value: '+15550100', type: 'mobile' }],
      active: true,
      [ENT]: { department: 'Sales', employeeNumber: '1001' },
    },
    USER_RESOURCE,
  );
  return toScimUser({ id: 'usr_1', attributes, active: true, groups: [{ id: 'grp_1', displayName: 'Sales' }], created: Date.UTC(2026, 0, 1), lastModified: Date.UTC(2026, 0, 2), version: 4, createdAccount: true }, BASE);
}

function group(members: string[] = ['usr_1', 'usr_2']): JsonObject {
  return toScimGroup({ id: 'grp_1', displayName: 'Sales', externalId: '00g1', members: members.map((id) => ({ id, display: id })), created: 0, lastModified: 0, version: 1 }, BASE);
}

const patch = (...Operations: unknown[]) => ({ schemas: [SCHEMA_PATCH_OP], Operations });
const patchUser = (body: unknown, resource = user()) => normalizeResource(applyPatch(resource, body, USER_RESOURCE).resource, USER_RESOURCE);
const patchGroup = (body: unknown, resource = group()) => normalizeResource(applyPatch(resource, body, GROUP_RESOURCE).resource, GROUP_RESOURCE);
const memberIds = (g: JsonObject) => ((g.members ?? []) as JsonObject[]).map((m) => m.value);

function scimTypeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (isScimError(err)) return `${err.status} ${err.scimType}`;
    throw err;
  }
  return undefined;
}

describe('Okta\'s PATCH requests', () => {
  it('deactivates with a pathless replace of active, and reactivates the same way', () => {
    const off = patchUser(patch({ op: 'replace', value: { active: false } }));
    expect(off.active).toBe(false);
    expect(userColumns(off).active).toBe(false);
    expect(patchUser(patch({ op: 'replace', value: { active: true } }), { ...user(), active: false }).active).toBe(true);
  });

  it('renames a group with a pathless replace that echoes the group\'s id, and refuses a different id', () => {
    const renamed = patchGroup(patch({ op: 'replace', value: { id: 'grp_1', displayName: 'Sales EMEA' } }));
    expect(renamed.displayName).toBe('Sales EMEA');
    expect(scimTypeOf(() => patchGroup(patch({ op: 'replace', value: { id: 'grp_2', displayName: 'x' } })))).toBe('400 mutability');
  });

  it('adds members with path "members" and removes one with members[value eq "…"]', () => {
    const added = patchGroup(patch({ op: 'add', path: 'members', value: [{ value: 'usr_3', display: 'kim@example.com' }] }));
    expect(memberIds(added)).toEqual(['usr_1', 'usr_2', 'usr_3']);
    const removed = patchGroup(patch({ op: 'remove', path: 'members[value eq "usr_2"]' }));
    expect(memberIds(removed)).toEqual(['usr_1']);
  });

  it('adding a member twice keeps one, and removing an absent member changes nothing', () => {
    const g = group();
    const again = applyPatch(g, patch({ op: 'add', path: 'members', value: [{ value: 'usr_1' }] }), GROUP_RESOURCE);
    expect(memberIds(normalizeResource(again.resource, GROUP_RESOURCE))).toEqual(['usr_1', 'usr_2']);
    const none = applyPatch(g, patch({ op: 'remove', path: 'members[value eq "usr_9"]' }), GROUP_RESOURCE);
    expect(none.changed).toBe(false);
  });

  it('ignores attributes the service does not keep (Okta\'s pathless password replace)', () => {
    const r = applyPatch(user(), patch({ op: 'replace', value: { password: 'Sw0rdfish!' } }), USER_RESOURCE);
    expect(r.changed).toBe(false);
    expect(JSON.stringify(r.resource)).not.toContain('Sw0rdfish');
  });
});

describe('Microsoft Entra ID\'s PATCH requests', () => {
  it('accepts capitalised ops: Replace of userName, emails[type eq "work"].value and name.familyName', () => {
    const out = patchUser(
      patch(
        { op: 'Replace', path: 'userName', value: 'jo.s@example.com' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'jo.s@example.com' },
        { op: 'Replace', path: 'name.familyName', value: 'Smythe' },
      ),
    );
    expect(out.userName).toBe('jo.s@example.com');
    expect(out.emails).toEqual([{ value: 'jo.s@example.com', type: 'work', primary: true }]);
    expect(out.name).toEqual({ givenName: 'Jo', familyName: 'Smythe' });
    expect(userColumns(out)).toMatchObject({ email: 'jo.s@example.com', userName: 'jo.s@example.com' });
  });

  it('accepts "Add" of a work phone when there is none yet: the item is made from the filter', () => {
    const out = patchUser(patch({ op: 'Add', path: 'phoneNumbers[type eq "work"].value', value: '+15550199' }));
    expect(out.phoneNumbers).toEqual([
      { value: '+15550100', type: 'mobile' },
      { value: '+15550199', type: 'work' },
    ]);
  });

  it('disables with Replace of active to false, and with the string "False" its older jobs send', () => {
    expect(patchUser(patch({ op: 'Replace', path: 'active', value: false })).active).toBe(false);
    expect(patchUser(patch({ op: 'Replace', path: 'active', value: 'False' })).active).toBe(false);
    expect(patchUser(patch({ op: 'Replace', path: 'active', value: 'True' }), { ...user(), active: false }).active).toBe(true);
    expect(scimTypeOf(() => patchUser(patch({ op: 'Replace', path: 'active', value: 'maybe' })))).toBe('400 invalidValue');
  });

  it('sets the manager by its URN path with the id alone, and by the older unqualified path with a one-element list', () => {
    const byUrn = patchUser(patch({ op: 'Add', path: `${ENT}:manager`, value: 'usr_9' }));
    expect(byUrn[ENT]).toEqual({ department: 'Sales', employeeNumber: '1001', manager: { value: 'usr_9' } });
    const legacy = patchUser(patch({ op: 'Replace', path: 'manager', value: [{ $ref: null, value: 'usr_8' }] }));
    expect((legacy[ENT] as JsonObject).manager).toEqual({ value: 'usr_8' });
    const removed = patchUser(patch({ op: 'Remove', path: `${ENT}:manager` }), { ...user(), [ENT]: { department: 'Sales', manager: { value: 'usr_9' } } });
    expect(removed[ENT]).toEqual({ department: 'Sales' });
  });

  it('replaces enterprise attributes by URN-qualified path', () => {
    const out = patchUser(patch({ op: 'Replace', path: `${ENT}:department`, value: 'Marketing' }, { op: 'Add', path: `${ENT}:employeeNumber`, value: 2002 }));
    expect(out[ENT]).toEqual({ department: 'Marketing', employeeNumber: '2002' });
  });

  it('adds members with "Add" and removes them with "Remove" of path members and a value list', () => {
    const added = patchGroup(patch({ op: 'Add', path: 'members', value: [{ $ref: null, value: 'usr_3' }] }));
    expect(memberIds(added)).toEqual(['usr_1', 'usr_2', 'usr_3']);
    const removed = patchGroup(patch({ op: 'Remove', path: 'members', value: [{ $ref: null, value: 'usr_1' }, { value: 'usr_3' }] }), group(['usr_1', 'usr_2', 'usr_3']));
    expect(memberIds(removed)).toEqual(['usr_2']);
  });

  it('renames a group with Replace of displayName', () => {
    expect(patchGroup(patch({ op: 'Replace', path: 'displayName', value: 'Sales (all)' })).displayName).toBe('Sales (all)');
  });

  it('accepts a pathless Add whose value keys are paths', () => {
    const out = patchUser(patch({ op: 'Add', value: { 'name.givenName': 'Joanna', 'emails[type eq "work"].value': 'joanna@example.com', title: 'Lead' } }));
    expect(out.name).toEqual({ givenName: 'Joanna', familyName: 'Smith' });
    expect(out.emails).toEqual([{ value: 'joanna@example.com', type: 'work', primary: true }]);
    expect(out.title).toBe('Lead');
  });
});

describe('applyPatch (RFC 7644 section 3.5.2)', () => {
  it('add and replace of the whole enterprise extension by its URN accept the value\'s own schemas (scim2-tester, SCIM SDKs) and write only its attributes', () => {
    const value = { schemas: [ENT], department: 'Research', costCenter: 'CC-7' };
    const added = patchUser(patch({ op: 'add', path: ENT, value }));
    expect(added[ENT]).toEqual({ department: 'Research', employeeNumber: '1001', costCenter: 'CC-7' });
    const replaced = patchUser(patch({ op: 'replace', path: ENT, value: { ...value, schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', ENT] } }));
    expect(replaced[ENT]).toEqual({ department: 'Research', employeeNumber: '1001', costCenter: 'CC-7' });
    const pathless = patchUser(patch({ op: 'replace', value: { [ENT]: value } }));
    expect(pathless[ENT]).toEqual({ department: 'Research', employeeNumber: '1001', costCenter: 'CC-7' });
    expect(pathless.schemas).toEqual(['urn:ietf:params:scim:schemas:core:2.0:User', ENT]);
  });

  it('refuses schemas inside the enterprise extension\'s value that do not name the extension (invalidValue)', () => {
    expect(scimTypeOf(() => patchUser(patch({ op: 'add', path: ENT, value: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], department: 'X' } })))).toBe('400 invalidValue');
    expect(scimTypeOf(() => patchUser(patch({ op: 'replace', path: ENT, value: { schemas: 'nope', department: 'X' } })))).toBe('400 invalidValue');
    expect(scimTypeOf(() => patchUser(patch({ op: 'replace', path: `${ENT}:schemas`, value: [ENT] })))).toBe('400 invalidPath');
  });

  it('add of a single-valued attribute sets it; add of a complex one merges its sub-attributes', () => {
    const out = patchUser(patch({ op: 'add', path: 'nickName', value: 'Jojo' }, { op: 'add', path: 'name', value: { middleName: 'Q' } }));
    expect(out.nickName).toBe('Jojo');
    expect(out.name).toEqual({ givenName: 'Jo', familyName: 'Smith', middleName: 'Q' });
  });

  it('making a value primary makes the others not primary (RFC 7644 3.5.2), whether added or set through a filter', () => {
    const added = patchUser(patch({ op: 'add', path: 'emails', value: [{ value: 'jo@new.example', type: 'other', primary: true }] }));
    expect(added.emails).toEqual([
      { value: 'jo.smith@example.com', type: 'work', primary: false },
      { value: 'jo@new.example', type: 'other', primary: true },
    ]);
    const withHome = patchUser(patch({ op: 'add', path: 'emails', value: [{ value: 'jo@home.example', type: 'home' }] }));
    const switched = patchUser(patch({ op: 'replace', path: 'emails[type eq "home"].primary', value: true }), { ...user(), emails: withHome.emails });
    expect((switched.emails as JsonObject[]).map((e) => [e.type, e.primary])).toEqual([['work', false], ['home', true]]);
    expect(scimTypeOf(() => patchUser(patch({ op: 'replace', path: 'emails', value: [{ value: 'a@x.io', primary: true }, { value: 'b@x.io', primary: true }] })))).toBe('400 invalidValue');
  });

  it('replace of a multi-valued attribute replaces the whole list', () => {
    const out = patchUser(patch({ op: 'replace', path: 'emails', value: [{ value: 'new@example.com', type: 'home' }] }));
    expect(out.emails).toEqual([{ value: 'new@example.com', type: 'home' }]);
  });

  it('remove of an attribute, a sub-attribute, and a filtered item', () => {
    const out = patchUser(patch({ op: 'remove', path: 'displayName' }, { op: 'remove', path: 'name.givenName' }, { op: 'remove', path: 'phoneNumbers[type eq "mobile"]' }));
    expect(out.displayName).toBeUndefined();
    expect(out.name).toEqual({ familyName: 'Smith' });
    expect(out.phoneNumbers).toBeUndefined();
  });

  it('remove of a whole extension drops it and its schema URN', () => {
    const out = patchUser(patch({ op: 'remove', path: ENT }));
    expect(out[ENT]).toBeUndefined();
    expect(out.schemas).toEqual(['urn:ietf:params:scim:schemas:core:2.0:User']);
  });

  it('answers noTarget for a remove without path and for a value filter that selects nothing and implies no item', () => {
    expect(scimTypeOf(() => applyPatch(user(), patch({ op: 'remove' }), USER_RESOURCE))).toBe('400 noTarget');
    expect(scimTypeOf(() => applyPatch(user(), patch({ op: 'replace', path: 'emails[value co "nobody"].type', value: 'home' }), USER_RESOURCE))).toBe('400 noTarget');
  });

  it('answers invalidPath for unknown attributes and filters on single-valued ones', () => {
    expect(scimTypeOf(() => applyPatch(user(), patch({ op: 'add', path: 'shoeSize', value: '42' }), USER_RESOURCE))).toBe('400 invalidPath');
    expect(scimTypeOf(() => applyPatch(user(), patch({ op: 'add', path: 'name.shoe', value: '42' }), USER_RESOURCE))).toBe('400 invalidPath');
    expect(scimTypeOf(() => applyPatch(user(), patch({ op: 'add', path: 'title[value eq "x"]', value: 'y' }), USER_RESOURCE))).toBe('400 invalidPath');
    expect(scimTypeOf(() => applyPatch(user(), patch({ op: 'add', path: 'emails[type eq "work"].shoe', value: 'y' }), USER_RESOURCE))).toBe('400 invalidPath');
  });

  it('answers mutability for readOnly attributes (id, meta, groups) and for changing an immutable member value', () => {
    expect(scimTypeOf(() => applyPatch(user(), patch({ op: 'replace', path: 'id', value: 'x' }), USER_RESOURCE))).toBe('400 mutability');
    expect(scimTypeOf(() => applyPatch(user(), patch({ op: 'replace', path: 'meta.created', value: '2020-01-01T00:00:00Z' }), USER_RESOURCE))).toBe('400 mutability');
    expect(scimTypeOf(() => applyPatch(user(), patch({ op: 'add', path: 'groups', value: [{ value: 'grp_2' }] }), USER_RESOURCE))).toBe('400 mutability');
    expect(scimTypeOf(() => applyPatch(group(), patch({ op: 'replace', path: 'members[value eq "usr_1"].value', value: 'usr_7' }), GROUP_RESOURCE))).toBe('400 mutability');
  });

  it('answers invalidSyntax for a malformed body and unknown ops, and invalidValue for values of the wrong type', () => {
    expect(scimTypeOf(() => applyPatch(user(), { Operations: [] }, USER_RESOURCE))).toBe('400 invalidSyntax');
    expect(scimTypeOf(() => applyPatch(user(), patch(), USER_RESOURCE))).toBe('400 invalidSyntax');
    expect(scimTypeOf(() => applyPatch(user(), patch({ op: 'move', path: 'title', value: 'x' }), USER_RESOURCE))).toBe('400 invalidSyntax');
    expect(scimTypeOf(() => applyPatch(user(), patch({ op: 'add', path: 'title' }), USER_RESOURCE))).toBe('400 invalidValue');
    expect(scimTypeOf(() => applyPatch(user(), patch({ op: 'add', value: 'not an object' }), USER_RESOURCE))).toBe('400 invalidValue');
    expect(scimTypeOf(() => patchUser(patch({ op: 'replace', path: 'title', value: { nested: true } })))).toBe('400 invalidValue');
  });

  it('cannot remove a required attribute: the result is refused by normalisation', () => {
    expect(scimTypeOf(() => patchUser(patch({ op: 'remove', path: 'userName' })))).toBe('400 invalidValue');
  });

  it('is all-or-nothing and never changes its input', () => {
    const before = user();
    const snapshot = structuredClone(before);
    expect(scimTypeOf(() => applyPatch(before, patch({ op: 'replace', path: 'title', value: 'CEO' }, { op: 'replace', path: 'id', value: 'x' }), USER_RESOURCE))).toBe('400 mutability');
    applyPatch(before, patch({ op: 'replace', path: 'title', value: 'CEO' }), USER_RESOURCE);
    expect(before).toEqual(snapshot);
  });

  it('reports whether anything changed', () => {
    expect(applyPatch(user(), patch({ op: 'replace', path: 'displayName', value: 'Jo Smith' }), USER_RESOURCE).changed).toBe(false);
    expect(applyPatch(user(), patch({ op: 'replace', path: 'displayName', value: 'J. Smith' }), USER_RESOURCE).changed).toBe(true);
  });

  it('matches attribute names case-insensitively and writes the schema\'s spelling', () => {
    const out = patchUser(patch({ op: 'replace', path: 'DISPLAYNAME', value: 'JS' }, { op: 'replace', path: 'Name.GivenName', value: 'J' }));
    expect(out.displayName).toBe('JS');
    expect(out.name).toEqual({ givenName: 'J', familyName: 'Smith' });
  });
});

describe('applyPatch against hostile input', () => {
  it('refuses a value nested deeper than any attribute, before walking it', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(scimTypeOf(() => applyPatch(user(), patch({ op: 'add', path: 'title', value: deep }), USER_RESOURCE))).toBe('400 invalidValue');
  });

  it('refuses a value filter naming no sub-attribute as invalidPath, even when the attribute is empty', () => {
    const noPhones = { ...user(), phoneNumbers: undefined };
    expect(scimTypeOf(() => applyPatch(noPhones, patch({ op: 'remove', path: 'phoneNumbers[shoe eq "x"]' }), USER_RESOURCE))).toBe('400 invalidPath');
    expect(scimTypeOf(() => applyPatch(user(), patch({ op: 'remove', path: 'emails[active gt 3]' }), USER_RESOURCE))).toBe('400 invalidPath');
  });

  it('never reads a prototype property as an attribute', () => {
    const out = applyPatch(user(), JSON.parse('{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"add","value":{"__proto__":{"title":"pwned"},"constructor":{"x":1}}}]}'), USER_RESOURCE);
    expect(out.changed).toBe(false);
    expect(({} as Record<string, unknown>).title).toBeUndefined();
  });
});

describe('applyPatch work bounded by the request (security review finding 3)', () => {
  /** Members whose `value` counts its reads: every comparison of an incoming member reads it. */
  function countedMembers(ids: string[]): { members: JsonObject[]; reads: () => number } {
    let reads = 0;
    const members = ids.map((id) => {
      const m = { type: 'User' } as JsonObject;
      Object.defineProperty(m, 'value', { enumerable: true, get: () => ((reads += 1), id) });
      return m;
    });
    return { members, reads: () => reads };
  }
  const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

  it('adds members to a large group reading each incoming member a few times, not once per member already there', () => {
    const big = group(ids('usr_', 2000));
    const incoming = countedMembers([...ids('new_', 50), 'usr_7']);
    const out = applyPatch(big, patch({ op: 'add', path: 'members', value: incoming.members }), GROUP_RESOURCE).resource;
    expect((out.members as JsonObject[]).length).toBe(2050);
    // Before: one read per comparison with the list, about 51 × 2,000.
    expect(incoming.reads()).toBeLessThanOrEqual(4 * 51);
  });

  it("removes Entra's value list from a large group reading each listed member a few times", () => {
    const big = group(ids('usr_', 2000));
    const drop = countedMembers(ids('usr_', 50));
    const out = applyPatch(big, patch({ op: 'remove', path: 'members', value: drop.members }), GROUP_RESOURCE).resource;
    expect(memberIds(out)).toEqual(ids('usr_', 2000).slice(50));
    expect(drop.reads()).toBeLessThanOrEqual(4 * 50);
  });

  it('refuses an operation whose list is longer than the resource may hold, and more values than that across operations, before applying any', () => {
    const members = (prefix: string, n: number) => ids(prefix, n).map((value) => ({ value }));
    const over = countedMembers(ids('m', 10_001));
    expect(scimTypeOf(() => applyPatch(group(), patch({ op: 'add', path: 'members', value: over.members }), GROUP_RESOURCE))).toBe('400 invalidValue');
    // Only the depth check walked the list (one read each); no member was compared or copied.
    expect(over.reads()).toBeLessThanOrEqual(10_001);
    expect(scimTypeOf(() => applyPatch(group(), patch({ op: 'add', path: 'members', value: members('a', 6000) }, { op: 'add', value: { members: members('b', 6000) } }), GROUP_RESOURCE))).toBe('400 invalidValue');
    const emails = ids('e', 101).map((e) => ({ value: `${e}@example.com` }));
    expect(scimTypeOf(() => applyPatch(user(), patch({ op: 'add', value: { emails } }), USER_RESOURCE))).toBe('400 invalidValue');
    // At the limits, accepted.
    expect(memberIds(patchGroup(patch({ op: 'replace', path: 'members', value: members('c', 10_000) }))).length).toBe(10_000);
  });
});
