import { describe, expect, it } from 'vitest';
import { isScimError, scimErrorBody, ScimErrors } from './errors';

describe('SCIM errors', () => {
  it('answer the SCIM error schema with status as a string, scimType and detail', () => {
    expect(ScimErrors.invalidFilter('Unknown attribute "x"').toBody()).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '400', scimType: 'invalidFilter', detail: 'Unknown attribute "x"' });
    expect(ScimErrors.uniqueness('userName is taken').toBody()).toMatchObject({ status: '409', scimType: 'uniqueness' });
    expect(ScimErrors.preconditionFailed().toBody()).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '412', detail: 'The resource has changed since the version given in If-Match' });
    expect(scimErrorBody(404)).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '404' });
  });

  it('are recognised by their kind, not by instanceof', () => {
    expect(isScimError(ScimErrors.notFound('x'))).toBe(true);
    expect(isScimError({ kind: 'ScimError' })).toBe(true);
    expect(isScimError(new Error('x'))).toBe(false);
    expect(isScimError(null)).toBe(false);
  });
});
