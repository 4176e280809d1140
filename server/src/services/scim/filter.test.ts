import { describe, expect, it } from 'vitest';
import { isScimError } from './errors';
import { MAX_FILTER_DEPTH, MAX_FILTER_LENGTH, parseFilter, parsePatchPath, type Filter } from './filter';
import { matchesFilter, sqlHints } from './filter-match';
import { GROUP_RESOURCE, SCHEMA_ENTERPRISE_USER, USER_RESOURCE } from './schemas';

const alice = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', SCHEMA_ENTERPRISE_USER],
  id: 'u_1',
  externalId: 'ExtAlice',
  userName: 'Alice@Example.com',
  name: { givenName: 'Alice', familyName: 'Liddell', formatted: 'Alice Liddell' },
  displayName: 'Alice Liddell',
  title: 'Engineer',
  active: true,
  emails: [
    { value: 'alice@example.com', type: 'work', primary: true },
    { value: 'alice@home.example', type: 'home' },
  ],
  phoneNumbers: [{ value: '+15550100', type: 'mobile' }],
  [SCHEMA_ENTERPRISE_USER]: { employeeNumber: '701984', department: 'Tour Operations', manager: { value: 'u_9' } },
  meta: { resourceType: 'User', created: '2026-01-10T10:00:00.000Z', lastModified: '2026-03-01T08:30:00.000Z', version: 'W/"3"' },
};

const match = (filter: string, resource: Record<string, unknown> = alice) => matchesFilter(parseFilter(filter), resource, USER_RESOURCE);

function scimTypeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (isScimError(err)) return `${err.status} ${err.scimType}`;
    throw err;
  }
  return undefined;
}

describe('parseFilter', () => {
  it('parses Okta\'s userName eq filter into one comparison', () => {
    expect(parseFilter('userName eq "alice@example.com"')).toEqual({ kind: 'compare', op: 'eq', value: 'alice@example.com', path: { urn: null, attr: 'userName', sub: null } });
  });

  it('gives "and" precedence over "or", and parentheses override it', () => {
    const f = parseFilter('title pr or userName eq "x" and active eq false');
    expect(f.kind).toBe('or');
    expect((f as Extract<Filter, { kind: 'or' }>).right.kind).toBe('and');
    const g = parseFilter('(title pr or userName eq "x") and active eq false');
    expect(g.kind).toBe('and');
  });

  it('parses URN-qualified attributes, sub-attributes, value filters, operators in any case, JSON escapes and numbers', () => {
    expect(parseFilter(`${SCHEMA_ENTERPRISE_USER}:employeeNumber EQ "1"`)).toMatchObject({ path: { urn: SCHEMA_ENTERPRISE_USER, attr: 'employeeNumber', sub: null }, op: 'eq' });
    expect(parseFilter('name.givenName sw "A"')).toMatchObject({ path: { attr: 'name', sub: 'givenName' }, op: 'sw' });
    expect(parseFilter('emails[type eq "work" and value co "@example.com"]')).toMatchObject({ kind: 'valuePath', path: { attr: 'emails' }, filter: { kind: 'and' } });
    expect(parseFilter('userName eq "a\\"b\\u0041"')).toMatchObject({ value: 'a"bA' });
    expect(parseFilter('x gt -1.5e2')).toMatchObject({ value: -150 });
  });

  it('refuses malformed filters with 400 invalidFilter', () => {
    for (const bad of ['', 'userName', 'userName eq', 'userName eq alice', 'userName zz "a"', '(userName eq "a"', 'userName eq "a")', 'userName eq "a', 'emails[type eq "w"', 'emails[type[x eq "1"] eq "w"]', 'a.b.c eq "x"', 'userName eq "a" and', 'not userName eq "a"', 'userName eq "\\x"', 'userName ! "a"']) {
      expect(scimTypeOf(() => parseFilter(bad)), bad).toBe('400 invalidFilter');
    }
  });

  it('bounds hostile filters: length, depth and term count; runs of escapes and parentheses are refused', () => {
    expect(scimTypeOf(() => parseFilter(`userName eq "${'a'.repeat(MAX_FILTER_LENGTH)}"`))).toBe('400 invalidFilter');
    const deep = `${'('.repeat(MAX_FILTER_DEPTH + 2)}userName eq "a"${')'.repeat(MAX_FILTER_DEPTH + 2)}`;
    expect(scimTypeOf(() => parseFilter(deep))).toBe('400 invalidFilter');
    const many = Array.from({ length: 100 }, (_, i) => `userName eq "${i}"`).join(' or ');
    expect(scimTypeOf(() => parseFilter(many))).toBe('400 invalidFilter');
    expect(scimTypeOf(() => parseFilter(`"${'\\"'.repeat(1000)}`))).toBe('400 invalidFilter');
    expect(scimTypeOf(() => parseFilter('('.repeat(2000)))).toBe('400 invalidFilter');
  });
});

describe('matchesFilter', () => {
  it('compares userName case-insensitively (caseExact false) and externalId and id exactly (caseExact true)', () => {
    expect(match('userName eq "alice@example.com"')).toBe(true);
    expect(match('USERNAME Eq "ALICE@EXAMPLE.COM"')).toBe(true);
    expect(match('externalId eq "ExtAlice"')).toBe(true);
    expect(match('externalId eq "extalice"')).toBe(false);
    expect(match('id eq "U_1"')).toBe(false);
  });

  it('implements co, sw, ew, ne, pr and the ordering operators', () => {
    expect(match('userName co "@EXAMPLE"')).toBe(true);
    expect(match('userName sw "alice"')).toBe(true);
    expect(match('userName ew ".com"')).toBe(true);
    expect(match('userName ne "bob"')).toBe(true);
    expect(match('title pr')).toBe(true);
    expect(match('nickName pr')).toBe(false);
    expect(match('displayName gt "Aa"')).toBe(true);
    expect(match('displayName lt "Aa"')).toBe(false);
    expect(match('displayName ge "alice liddell"')).toBe(true);
    expect(match('displayName le "alice liddell"')).toBe(true);
  });

  it('compares dateTime chronologically, not as text', () => {
    expect(match('meta.lastModified gt "2026-02-01T00:00:00Z"')).toBe(true);
    expect(match('meta.lastModified gt "2026-03-01T09:30:00+02:00"')).toBe(true);
    expect(match('meta.created ge "2026-01-10T10:00:00.001Z"')).toBe(false);
  });

  it('matches a multi-valued attribute when any value matches, sub-attributes and value filters included', () => {
    expect(match('emails.value eq "alice@home.example"')).toBe(true);
    expect(match('emails eq "ALICE@home.example"')).toBe(true);
    expect(match('emails[type eq "work"]')).toBe(true);
    expect(match('emails[type eq "work" and value ew "home.example"]')).toBe(false);
    expect(match('emails[type eq "home" and value ew "home.example"]')).toBe(true);
    expect(match('emails[not (type eq "work")]')).toBe(true);
    expect(match('phoneNumbers[type eq "work"]')).toBe(false);
  });

  it('resolves the enterprise extension by URN, and the core schema URN prefix', () => {
    expect(match(`${SCHEMA_ENTERPRISE_USER}:employeeNumber eq "701984"`)).toBe(true);
    expect(match(`${SCHEMA_ENTERPRISE_USER}:manager.value eq "u_9"`)).toBe(true);
    expect(match('urn:ietf:params:scim:schemas:core:2.0:User:userName sw "ali"')).toBe(true);
  });

  it('applies and/or/not with precedence', () => {
    expect(match('userName eq "nobody" or title eq "engineer" and active eq true')).toBe(true);
    expect(match('(userName eq "nobody" or title eq "engineer") and active eq false')).toBe(false);
    expect(match('not (active eq false) and not (userName eq "nobody")')).toBe(true);
  });

  it('treats eq null as absent and ne null as present', () => {
    expect(match('nickName eq null')).toBe(true);
    expect(match('title ne null')).toBe(true);
  });

  it('refuses unknown attributes and comparisons the type forbids, whatever the data', () => {
    expect(scimTypeOf(() => match('shoeSize eq "42"'))).toBe('400 invalidFilter');
    expect(scimTypeOf(() => match('active gt true'))).toBe('400 invalidFilter');
    expect(scimTypeOf(() => match('active co "t"'))).toBe('400 invalidFilter');
    expect(scimTypeOf(() => match('active eq "true"'))).toBe('400 invalidFilter');
    expect(scimTypeOf(() => match('userName eq 3'))).toBe('400 invalidFilter');
    expect(scimTypeOf(() => match('emails[shoe eq "x"]'))).toBe('400 invalidFilter');
    expect(scimTypeOf(() => match('title[type eq "x"]'))).toBe('400 invalidFilter');
    expect(scimTypeOf(() => match('nickName co "x"', { ...alice, nickName: undefined }))).toBeUndefined();
    expect(scimTypeOf(() => match('userName eq "a" or meta.created gt "yesterday"'))).toBe('400 invalidFilter');
  });

  it('matches Groups by displayName and members', () => {
    const group = { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], id: 'g_1', displayName: 'Tour Guides', members: [{ value: 'u_1', display: 'Alice' }] };
    expect(matchesFilter(parseFilter('displayName eq "tour guides"'), group, GROUP_RESOURCE)).toBe(true);
    expect(matchesFilter(parseFilter('members[value eq "u_1"]'), group, GROUP_RESOURCE)).toBe(true);
    expect(matchesFilter(parseFilter('members.value eq "u_2"'), group, GROUP_RESOURCE)).toBe(false);
  });
});

describe('sqlHints', () => {
  it('names the indexed equalities a filter implies, with their case rule', () => {
    expect(sqlHints(parseFilter('userName eq "Alice@Example.com"'), USER_RESOURCE)).toEqual([{ attribute: 'userName', caseExact: false, value: 'Alice@Example.com' }]);
    expect(sqlHints(parseFilter('externalId eq "x" and active eq true'), USER_RESOURCE)).toEqual([{ attribute: 'externalId', caseExact: true, value: 'x' }]);
    expect(sqlHints(parseFilter('emails[value eq "a@b.c"]'), USER_RESOURCE)).toEqual([{ attribute: 'emails.value', caseExact: false, value: 'a@b.c' }]);
    expect(sqlHints(parseFilter('displayName eq "Tour Guides"'), GROUP_RESOURCE)).toEqual([{ attribute: 'displayName', caseExact: false, value: 'Tour Guides' }]);
  });

  it('gives nothing to narrow by when a branch could match without the equality', () => {
    expect(sqlHints(parseFilter('userName eq "a" or title pr'), USER_RESOURCE)).toEqual([]);
    expect(sqlHints(parseFilter('not (userName eq "a")'), USER_RESOURCE)).toEqual([]);
    expect(sqlHints(parseFilter('userName co "a"'), USER_RESOURCE)).toEqual([]);
  });
});

describe('parsePatchPath', () => {
  it('parses the PATCH paths the IdPs send', () => {
    expect(parsePatchPath('members[value eq "2819c223"]')).toMatchObject({ path: { attr: 'members' }, filter: { kind: 'compare', value: '2819c223' }, subAfterFilter: null });
    expect(parsePatchPath('emails[type eq "work"].value')).toMatchObject({ path: { attr: 'emails' }, subAfterFilter: 'value' });
    expect(parsePatchPath(`${SCHEMA_ENTERPRISE_USER}:manager`)).toMatchObject({ path: { urn: SCHEMA_ENTERPRISE_USER, attr: 'manager' }, filter: null });
    expect(parsePatchPath('name.familyName')).toMatchObject({ path: { attr: 'name', sub: 'familyName' } });
  });

  it('refuses malformed paths with 400 invalidPath', () => {
    for (const bad of ['', 'emails[', 'emails[type eq "work"]x', 'emails[type eq "work"].value.x', 'name.givenName[type eq "x"]', '"x"', 'a b']) {
      expect(scimTypeOf(() => parsePatchPath(bad)), bad).toBe('400 invalidPath');
    }
  });
});
