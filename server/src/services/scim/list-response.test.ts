import { describe, expect, it } from 'vitest';
import { isScimError } from './errors';
import { listResponse, MAX_RESULTS, parsePagination } from './list-response';

describe('parsePagination', () => {
  it('defaults to the first page of maxResults', () => {
    expect(parsePagination({})).toEqual({ startIndex: 1, count: MAX_RESULTS });
  });

  it('reads startIndex (1-based; below 1 means 1) and clamps count to [0, maxResults]', () => {
    expect(parsePagination({ startIndex: '11', count: '5' })).toEqual({ startIndex: 11, count: 5 });
    expect(parsePagination({ startIndex: '0', count: '-3' })).toEqual({ startIndex: 1, count: 0 });
    expect(parsePagination({ count: '100000' })).toEqual({ startIndex: 1, count: MAX_RESULTS });
    expect(parsePagination({ count: '50' }, 20)).toEqual({ startIndex: 1, count: 20 });
  });

  it('refuses a non-integer with invalidValue naming the parameter', () => {
    for (const [q, name] of [[{ startIndex: 'abc' }, 'startIndex'], [{ count: '1.5' }, 'count'], [{ count: '9'.repeat(20) }, 'count']] as const) {
      try {
        parsePagination(q);
        expect.unreachable();
      } catch (err) {
        expect(isScimError(err) && `${err.status} ${err.scimType} ${err.detail}`).toBe(`400 invalidValue ${name} must be an integer`);
      }
    }
  });
});

describe('listResponse', () => {
  it('answers the ListResponse message with the page\'s size as itemsPerPage', () => {
    expect(listResponse([{ id: 'a' }, { id: 'b' }], 12, 3)).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 12, startIndex: 3, itemsPerPage: 2, Resources: [{ id: 'a' }, { id: 'b' }] });
  });
});
