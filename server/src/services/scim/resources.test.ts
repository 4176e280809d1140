import { describe, expect, it } from 'vitest';
import { normalizeResource } from './normalize';
import { groupColumns, toScimGroup, toScimUser, userColumns } from './resources';
import { GROUP_RESOURCE, SCHEMA_ENTERPRISE_USER, SCHEMA_GROUP, SCHEMA_USER, USER_RESOURCE } from './schemas';

const BASE = 'https://id.example.com/scim/v2';
const body = (b: Record<string, unknown>) => normalizeResource({ schemas: [SCHEMA_USER], ...b }, USER_RESOURCE);

describe('userColumns', () => {
  it('takes the primary email, lower-cased, else the first, else userName when it is an address', () => {
    expect(userColumns(body({ userName: 'kim', emails: [{ value: 'b@x.io' }, { value: 'A@X.io', primary: true }] })).email).toBe('a@x.io');
    expect(userColumns(body({ userName: 'kim', emails: [{ value: 'b@x.io' }, { value: 'c@x.io' }] })).email).toBe('b@x.io');
    expect(userColumns(body({ userName: 'Kim@X.io' })).email).toBe('kim@x.io');
    expect(userColumns(body({ userName: 'kim' })).email).toBeNull();
  });

  it('takes the name from displayName, else name.formatted, else given and family name, else userName', () => {
    expect(userColumns(body({ userName: 'k', displayName: 'Kim L', name: { formatted: 'F' } })).name).toBe('Kim L');
    expect(userColumns(body({ userName: 'k', name: { formatted: 'Kim Formatted', givenName: 'Kim' } })).name).toBe('Kim Formatted');
    expect(userColumns(body({ userName: 'k', name: { givenName: 'Kim', familyName: 'Lee' } })).name).toBe('Kim Lee');
    expect(userColumns(body({ userName: 'k' })).name).toBe('k');
  });

  it('takes the primary phone, the title, externalId, and active (absent means active)', () => {
    const cols = userColumns(body({ userName: 'k', externalId: 'E1', title: 'CTO', phoneNumbers: [{ value: '+1555' }, { value: '+1666', primary: true }] }));
    expect(cols).toEqual({ userName: 'k', externalId: 'E1', email: null, name: 'k', phoneNumber: '+1666', jobTitle: 'CTO', active: true });
    expect(userColumns(body({ userName: 'k', active: false })).active).toBe(false);
  });
});

describe('toScimUser', () => {
  const record = {
    id: 'usr_1',
    attributes: body({ userName: 'kim@x.io', externalId: 'E1', active: true, [SCHEMA_ENTERPRISE_USER]: { department: 'Ops' } }),
    active: false,
    groups: [{ id: 'grp/1', displayName: 'Ops' }],
    created: Date.UTC(2026, 0, 1),
    lastModified: Date.UTC(2026, 1, 2, 3, 4, 5),
    version: 7,
    createdAccount: true,
  };

  it('answers the stored attributes with id, the membership\'s active, groups and meta (location, weak ETag version)', () => {
    expect(toScimUser(record, BASE)).toEqual({
      schemas: [SCHEMA_USER, SCHEMA_ENTERPRISE_USER],
      id: 'usr_1',
      userName: 'kim@x.io',
      externalId: 'E1',
      active: false,
      [SCHEMA_ENTERPRISE_USER]: { department: 'Ops' },
      groups: [{ value: 'grp/1', display: 'Ops', $ref: `${BASE}/Groups/grp%2F1`, type: 'direct' }],
      meta: { resourceType: 'User', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-02-02T03:04:05.000Z', location: `${BASE}/Users/usr_1`, version: 'W/"7"' },
    });
  });

  it('round-trips: normalising its answer gives back the stored attributes (what a client wrote is what it reads)', () => {
    const again = normalizeResource(toScimUser({ ...record, active: true }, BASE), USER_RESOURCE);
    expect(again).toEqual(record.attributes);
  });
});

describe('groups', () => {
  it('toScimGroup answers members with $ref and display, and meta', () => {
    const g = toScimGroup({ id: 'grp_1', displayName: 'Ops', externalId: null, members: [{ id: 'usr_1', display: 'Kim' }, { id: 'usr_2', display: null }], created: 0, lastModified: 1000, version: 2 }, BASE);
    expect(g).toEqual({
      schemas: [SCHEMA_GROUP],
      id: 'grp_1',
      displayName: 'Ops',
      members: [
        { value: 'usr_1', $ref: `${BASE}/Users/usr_1`, type: 'User', display: 'Kim' },
        { value: 'usr_2', $ref: `${BASE}/Users/usr_2`, type: 'User' },
      ],
      meta: { resourceType: 'Group', created: '1970-01-01T00:00:00.000Z', lastModified: '1970-01-01T00:00:01.000Z', location: `${BASE}/Groups/grp_1`, version: 'W/"2"' },
    });
  });

  it('groupColumns de-duplicates member ids in order', () => {
    const b = normalizeResource({ schemas: [SCHEMA_GROUP], displayName: ' Ops ', externalId: 'x', members: [{ value: 'u2' }, { value: 'u1', type: 'User' }, { value: 'u2', type: 'User' }] }, GROUP_RESOURCE);
    expect(groupColumns(b)).toEqual({ displayName: 'Ops', externalId: 'x', memberIds: ['u2', 'u1'] });
  });

  it('reads Okta\'s group push PUT (id echoed, members with display) as the full member list', () => {
    const put = {
      schemas: [SCHEMA_GROUP],
      id: 'grp_1',
      displayName: 'Field Sales',
      members: [
        { value: 'usr_a', display: 'ana@example.com' },
        { value: 'usr_b', display: 'ben@example.com' },
      ],
    };
    const b = normalizeResource(put, GROUP_RESOURCE);
    expect(b.id).toBeUndefined();
    expect(groupColumns(b)).toEqual({ displayName: 'Field Sales', externalId: null, memberIds: ['usr_a', 'usr_b'] });
    expect(groupColumns(normalizeResource({ ...put, members: [] }, GROUP_RESOURCE)).memberIds).toEqual([]);
  });
});
