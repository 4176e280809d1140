import { describe, expect, it } from 'vitest';
import { isScimError } from './errors';
import { MAX_GROUP_MEMBERS, MAX_MULTI_VALUES, MAX_STRING_LENGTH, normalizeResource, parseBoolean } from './normalize';
import { GROUP_RESOURCE, SCHEMA_ENTERPRISE_USER, SCHEMA_GROUP, SCHEMA_USER, USER_RESOURCE } from './schemas';

const ENT = SCHEMA_ENTERPRISE_USER;

function refusal(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (isScimError(err)) return `${err.status} ${err.scimType}: ${err.detail}`;
    throw err;
  }
  return undefined;
}

describe('normalizeResource (User)', () => {
  it('keeps schema attributes in the schema\'s spelling and drops readOnly and unknown ones', () => {
    const out = normalizeResource(
      {
        schemas: [SCHEMA_USER],
        id: 'client-chosen',
        meta: { created: 'x' },
        groups: [{ value: 'g' }],
        USERNAME: 'kim@example.com',
        Name: { GivenName: 'Kim', shoe: 42 },
        password: 'hunter2!',
        favouriteColour: 'teal',
        emails: [{ value: 'kim@example.com', primary: true, type: 'work', display: null }],
      },
      USER_RESOURCE,
    );
    expect(out).toEqual({ schemas: [SCHEMA_USER], userName: 'kim@example.com', name: { givenName: 'Kim' }, emails: [{ value: 'kim@example.com', primary: true, type: 'work' }] });
  });

  it('keeps the enterprise extension, nested or sent flat, and lists its schema', () => {
    const nested = normalizeResource({ schemas: [SCHEMA_USER, ENT], userName: 'a', [ENT]: { department: 'Ops', manager: { value: 'usr_2', displayName: 'Boss' } } }, USER_RESOURCE);
    expect(nested).toEqual({ schemas: [SCHEMA_USER, ENT], userName: 'a', [ENT]: { department: 'Ops', manager: { value: 'usr_2' } } });
    const flat = normalizeResource({ schemas: [SCHEMA_USER], userName: 'a', [`${ENT}:employeeNumber`]: 42, [`${SCHEMA_USER}:title`]: 'Dr' }, USER_RESOURCE);
    expect(flat).toEqual({ schemas: [SCHEMA_USER, ENT], userName: 'a', title: 'Dr', [ENT]: { employeeNumber: '42' } });
  });

  it('accepts Entra ID\'s string booleans and a single object where a list is declared', () => {
    const out = normalizeResource({ schemas: [SCHEMA_USER], userName: 'a', active: 'False', emails: { value: 'a@x.io', primary: 'True' } }, USER_RESOURCE);
    expect(out.active).toBe(false);
    expect(out.emails).toEqual([{ value: 'a@x.io', primary: true }]);
  });

  it('refuses a body without the User schema, or without userName, naming the field', () => {
    expect(refusal(() => normalizeResource({ userName: 'a' }, USER_RESOURCE))).toBe('400 invalidValue: schemas must be an array of schema URNs');
    expect(refusal(() => normalizeResource({ schemas: [SCHEMA_GROUP], userName: 'a' }, USER_RESOURCE))).toBe(`400 invalidValue: schemas must include ${SCHEMA_USER}`);
    expect(refusal(() => normalizeResource({ schemas: [SCHEMA_USER], userName: '  ' }, USER_RESOURCE))).toBe('400 invalidValue: userName is required');
    expect(refusal(() => normalizeResource([], USER_RESOURCE))).toBe('400 invalidSyntax: The request body must be a JSON object');
  });

  it('refuses values of the wrong type, naming the attribute', () => {
    expect(refusal(() => normalizeResource({ schemas: [SCHEMA_USER], userName: 'a', active: 'yes' }, USER_RESOURCE))).toBe('400 invalidValue: active must be a boolean');
    expect(refusal(() => normalizeResource({ schemas: [SCHEMA_USER], userName: 'a', name: 'Kim' }, USER_RESOURCE))).toBe('400 invalidValue: name must be an object');
    expect(refusal(() => normalizeResource({ schemas: [SCHEMA_USER], userName: 'a', title: ['a', 'b'] }, USER_RESOURCE))).toBe('400 invalidValue: title is single-valued: it cannot be an array');
    expect(refusal(() => normalizeResource({ schemas: [SCHEMA_USER], userName: 'a', emails: [{ value: {} }] }, USER_RESOURCE))).toBe('400 invalidValue: emails[0].value must be a string');
    expect(refusal(() => normalizeResource({ schemas: [SCHEMA_USER], userName: 'a', [ENT]: 'Ops' }, USER_RESOURCE))).toBe(`400 invalidValue: ${ENT} must be an object`);
  });

  it('refuses an email, phone number or member without its value, naming it', () => {
    expect(refusal(() => normalizeResource({ schemas: [SCHEMA_USER], userName: 'a', emails: [{ value: 'a@x' }, { type: 'work', primary: true }] }, USER_RESOURCE))).toBe('400 invalidValue: emails[1].value is required');
    expect(refusal(() => normalizeResource({ schemas: [SCHEMA_USER], userName: 'a', phoneNumbers: [{ value: ' ' }] }, USER_RESOURCE))).toBe('400 invalidValue: phoneNumbers[0].value is required');
    expect(refusal(() => normalizeResource({ schemas: [SCHEMA_GROUP], displayName: 'g', members: [{ display: 'Kim' }] }, GROUP_RESOURCE))).toBe('400 invalidValue: members[0].value is required');
    expect(normalizeResource({ schemas: [SCHEMA_USER], userName: 'a', addresses: [{ locality: 'Oslo' }] }, USER_RESOURCE).addresses).toEqual([{ locality: 'Oslo' }]);
  });

  it('refuses two primary values', () => {
    expect(refusal(() => normalizeResource({ schemas: [SCHEMA_USER], userName: 'a', emails: [{ value: 'a@x', primary: true }, { value: 'b@x', primary: true }] }, USER_RESOURCE))).toBe('400 invalidValue: emails has more than one primary value');
  });

  it('bounds sizes: string length and number of values', () => {
    expect(refusal(() => normalizeResource({ schemas: [SCHEMA_USER], userName: 'a'.repeat(MAX_STRING_LENGTH + 1) }, USER_RESOURCE))).toBe(`400 invalidValue: userName is longer than ${MAX_STRING_LENGTH} characters`);
    const emails = Array.from({ length: MAX_MULTI_VALUES + 1 }, (_, i) => ({ value: `${i}@x` }));
    expect(refusal(() => normalizeResource({ schemas: [SCHEMA_USER], userName: 'a', emails }, USER_RESOURCE))).toBe(`400 invalidValue: emails has more than ${MAX_MULTI_VALUES} values`);
  });

  it('drops exact duplicate values (merged lists)', () => {
    const out = normalizeResource({ schemas: [SCHEMA_USER], userName: 'a', emails: [{ value: 'a@x' }, { value: 'a@x' }] }, USER_RESOURCE);
    expect(out.emails).toEqual([{ value: 'a@x' }]);
  });
});

describe('normalizeResource (Group)', () => {
  it('keeps displayName, externalId and members (value, type), dropping the readOnly display', () => {
    const out = normalizeResource({ schemas: [SCHEMA_GROUP], displayName: 'Ops', externalId: 'okta-1', members: [{ value: 'usr_1', display: 'Kim', type: 'User' }] }, GROUP_RESOURCE);
    expect(out).toEqual({ schemas: [SCHEMA_GROUP], externalId: 'okta-1', displayName: 'Ops', members: [{ value: 'usr_1', type: 'User' }] });
  });

  it('allows up to the member bound and refuses more', () => {
    const members = Array.from({ length: MAX_GROUP_MEMBERS + 1 }, (_, i) => ({ value: `u${i}` }));
    expect(refusal(() => normalizeResource({ schemas: [SCHEMA_GROUP], displayName: 'Big', members }, GROUP_RESOURCE))).toBe(`400 invalidValue: members has more than ${MAX_GROUP_MEMBERS} values`);
    expect((normalizeResource({ schemas: [SCHEMA_GROUP], displayName: 'Big', members: members.slice(1) }, GROUP_RESOURCE).members as unknown[]).length).toBe(MAX_GROUP_MEMBERS);
  });

  it('requires displayName', () => {
    expect(refusal(() => normalizeResource({ schemas: [SCHEMA_GROUP], members: [] }, GROUP_RESOURCE))).toBe('400 invalidValue: displayName is required');
  });
});

describe('parseBoolean', () => {
  it('reads booleans and true/false strings in any case, and nothing else', () => {
    expect(parseBoolean(true, 'x')).toBe(true);
    expect(parseBoolean(' TRUE ', 'x')).toBe(true);
    expect(parseBoolean('False', 'x')).toBe(false);
    expect(refusal(() => parseBoolean(0, 'active'))).toBe('400 invalidValue: active must be a boolean');
    expect(refusal(() => parseBoolean('no', 'active'))).toBe('400 invalidValue: active must be a boolean');
  });
});

describe('normalizeResource against hostile input', () => {
  it('never takes an attribute from a flat __proto__ key or from Object.prototype', () => {
    const out = normalizeResource(JSON.parse(`{"schemas":["${SCHEMA_USER}"],"userName":"a","${SCHEMA_USER}:__proto__":{"title":"pwned"},"${ENT}:__proto__":{"department":"pwned"}}`), USER_RESOURCE);
    expect(out).toEqual({ schemas: [SCHEMA_USER], userName: 'a' });
    expect(({} as Record<string, unknown>).title).toBeUndefined();
  });
});
