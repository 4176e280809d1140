/**
 * The ListResponse message (RFC 7644 section 3.4.2) and its pagination parameters (section 3.4.2.4):
 * `startIndex` is 1-based (below 1 means 1), `count` is clamped to [0, maxResults] and defaults to
 * maxResults; a value that is not an integer is `invalidValue` naming the parameter.
 */
import { ScimErrors } from './errors';
import type { JsonObject } from './filter-match';
import { SCHEMA_LIST_RESPONSE } from './schemas';

/** Most resources in one page; also ServiceProviderConfig's filter.maxResults. */
export const MAX_RESULTS = 200;

export interface ListResponse {
  schemas: [typeof SCHEMA_LIST_RESPONSE];
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
  Resources: JsonObject[];
}

export interface Pagination {
  /** 1-based index of the first resource answered. */
  startIndex: number;
  count: number;
}

function integer(raw: string | null | undefined, name: string): number | null {
  if (raw === null || raw === undefined || raw.trim() === '') return null;
  if (!/^-?\d{1,12}$/.test(raw.trim())) throw ScimErrors.invalidValue(`${name} must be an integer`);
  return Number(raw.trim());
}

/** Reads `startIndex` and `count` from the query string. */
export function parsePagination(query: { startIndex?: string | null; count?: string | null }, maxResults = MAX_RESULTS): Pagination {
  const start = integer(query.startIndex, 'startIndex');
  const count = integer(query.count, 'count');
  return {
    startIndex: start === null || start < 1 ? 1 : start,
    count: count === null ? maxResults : Math.min(Math.max(count, 0), maxResults),
  };
}

/** A page of resources as a ListResponse; `totalResults` counts every match, not only this page. */
export function listResponse(resources: JsonObject[], totalResults: number, startIndex: number): ListResponse {
  return { schemas: [SCHEMA_LIST_RESPONSE], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources };
}
