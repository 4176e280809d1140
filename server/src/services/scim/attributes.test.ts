import { describe, expect, it } from 'vitest';
import { selectAttributes } from './attributes';
import { isScimError } from './errors';
import { GROUP_RESOURCE, SCHEMA_ENTERPRISE_USER, SCHEMA_GROUP, SCHEMA_USER, USER_RESOURCE } from './schemas';

const ENT = SCHEMA_ENTERPRISE_USER;
const user = {
  schemas: [SCHEMA_USER, ENT],
  id: 'usr_1',
  externalId: 'E1',
  userName: 'kim@x.io',
  name: { givenName: 'Kim', familyName: 'Lee' },
  emails: [{ value: 'kim@x.io', type: 'work', primary: true }],
  active: true,
  [ENT]: { department: 'Ops', employeeNumber: '7' },
  meta: { resourceType: 'User', version: 'W/"1"' },
};

describe('selectAttributes', () => {
  it('answers everything (returned default and always) when nothing is asked', () => {
    expect(selectAttributes(user, USER_RESOURCE, {})).toEqual(user);
  });

  it('attributes= keeps the named ones plus schemas and id (returned always), case-insensitively', () => {
    expect(selectAttributes(user, USER_RESOURCE, { attributes: 'USERNAME,externalId' })).toEqual({ schemas: [SCHEMA_USER], id: 'usr_1', userName: 'kim@x.io', externalId: 'E1' });
  });

  it('attributes= selects sub-attributes, URN-qualified attributes and whole extensions', () => {
    expect(selectAttributes(user, USER_RESOURCE, { attributes: 'name.givenName,emails.value' })).toEqual({ schemas: [SCHEMA_USER], id: 'usr_1', name: { givenName: 'Kim' }, emails: [{ value: 'kim@x.io' }] });
    expect(selectAttributes(user, USER_RESOURCE, { attributes: `${ENT}:department` })).toEqual({ schemas: [SCHEMA_USER, ENT], id: 'usr_1', [ENT]: { department: 'Ops' } });
    expect(selectAttributes(user, USER_RESOURCE, { attributes: ENT })).toEqual({ schemas: [SCHEMA_USER, ENT], id: 'usr_1', [ENT]: { department: 'Ops', employeeNumber: '7' } });
    expect(selectAttributes(user, USER_RESOURCE, { attributes: `${SCHEMA_USER}:userName` })).toEqual({ schemas: [SCHEMA_USER], id: 'usr_1', userName: 'kim@x.io' });
  });

  it('excludedAttributes= drops the named ones but never id, and can drop a sub-attribute or an extension attribute', () => {
    expect(selectAttributes(user, USER_RESOURCE, { excludedAttributes: 'id,emails,meta,name.familyName,' + `${ENT}:employeeNumber` })).toEqual({
      schemas: [SCHEMA_USER, ENT],
      id: 'usr_1',
      externalId: 'E1',
      userName: 'kim@x.io',
      name: { givenName: 'Kim' },
      active: true,
      [ENT]: { department: 'Ops' },
    });
  });

  it('an extension with nothing left is dropped from schemas too', () => {
    expect(selectAttributes(user, USER_RESOURCE, { excludedAttributes: ENT }).schemas).toEqual([SCHEMA_USER]);
  });

  it('attributes= wins over excludedAttributes=', () => {
    expect(selectAttributes(user, USER_RESOURCE, { attributes: 'userName', excludedAttributes: 'userName' })).toEqual({ schemas: [SCHEMA_USER], id: 'usr_1', userName: 'kim@x.io' });
  });

  it('lets Okta and Entra ask for a Group without its members (excludedAttributes=members)', () => {
    const group = { schemas: [SCHEMA_GROUP], id: 'g', displayName: 'Ops', members: [{ value: 'usr_1' }] };
    expect(selectAttributes(group, GROUP_RESOURCE, { excludedAttributes: 'members' })).toEqual({ schemas: [SCHEMA_GROUP], id: 'g', displayName: 'Ops' });
  });

  it('ignores unknown attributes, and refuses a malformed list with invalidValue naming the parameter', () => {
    expect(selectAttributes(user, USER_RESOURCE, { attributes: 'shoeSize' })).toEqual({ schemas: [SCHEMA_USER], id: 'usr_1' });
    let detail = '';
    try {
      selectAttributes(user, USER_RESOURCE, { attributes: 'userName,"x"' });
    } catch (err) {
      if (isScimError(err)) detail = `${err.status} ${err.scimType}: ${err.detail}`;
    }
    expect(detail).toBe('400 invalidValue: attributes: ""x"" is not an attribute path');
  });
});
