import { describe, expect, it } from 'vitest';
import { findResourceType, findSchema, resourceTypeBody, schemaBody, serviceProviderConfig } from './discovery';
import { MAX_RESULTS } from './list-response';
import { ALL_SCHEMAS, GROUP_RESOURCE, SCHEMA_ENTERPRISE_USER, USER_RESOURCE, type AttributeDefinition } from './schemas';

const BASE = 'https://id.example.com/scim/v2';

describe('serviceProviderConfig', () => {
  it('declares what the service does: PATCH, filter with maxResults, ETags, bearer tokens; no bulk, sort or changePassword', () => {
    const c = serviceProviderConfig(BASE);
    expect(c).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: MAX_RESULTS },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
      meta: { resourceType: 'ServiceProviderConfig', location: `${BASE}/ServiceProviderConfig` },
    });
    expect(c.authenticationSchemes).toEqual([expect.objectContaining({ type: 'oauthbearertoken', primary: true })]);
  });
});

describe('resource types and schemas', () => {
  it('User has the enterprise extension (optional); Group has none', () => {
    expect(resourceTypeBody(USER_RESOURCE, BASE)).toMatchObject({ id: 'User', endpoint: '/Users', schema: 'urn:ietf:params:scim:schemas:core:2.0:User', schemaExtensions: [{ schema: SCHEMA_ENTERPRISE_USER, required: false }], meta: { location: `${BASE}/ResourceTypes/User` } });
    expect(resourceTypeBody(GROUP_RESOURCE, BASE)).toMatchObject({ id: 'Group', endpoint: '/Groups', schemaExtensions: [] });
    expect(findResourceType('User')).toBe(USER_RESOURCE);
    expect(findResourceType('Nope')).toBeUndefined();
  });

  it('every published attribute carries the RFC 7643 characteristics, recursively', () => {
    const check = (a: AttributeDefinition) => {
      expect(Object.keys(a)).toEqual(expect.arrayContaining(['name', 'type', 'multiValued', 'description', 'required', 'caseExact', 'mutability', 'returned', 'uniqueness']));
      if (a.type === 'complex') expect(a.subAttributes?.length).toBeGreaterThan(0);
      for (const s of a.subAttributes ?? []) check(s);
    };
    for (const s of ALL_SCHEMAS) for (const a of schemaBody(s, BASE).attributes as AttributeDefinition[]) check(a);
  });

  it('publishes userName as required, caseExact false and unique, and groups as readOnly', () => {
    const user = schemaBody(findSchema('URN:IETF:PARAMS:SCIM:SCHEMAS:CORE:2.0:USER')!, BASE);
    const attrs = user.attributes as AttributeDefinition[];
    expect(attrs.find((a) => a.name === 'userName')).toMatchObject({ required: true, caseExact: false, uniqueness: 'server' });
    expect(attrs.find((a) => a.name === 'groups')).toMatchObject({ mutability: 'readOnly', multiValued: true });
    expect(user.meta).toEqual({ resourceType: 'Schema', location: `${BASE}/Schemas/urn:ietf:params:scim:schemas:core:2.0:User` });
  });
});
