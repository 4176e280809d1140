/**
 * Searching with POST (RFC 7644 section 3.4.3): a SearchRequest body carries what a GET list takes
 * in its query string (filter, attributes, excludedAttributes, startIndex, count), so Users/.search
 * and Groups/.search answer exactly as GET Users and GET Groups do. `sortBy`/`sortOrder` are read and
 * ignored: ServiceProviderConfig says sort is not supported, and RFC 7644 section 3.4.2.3 lets such a
 * service answer in its own order. The root `/.search` searches Users then Groups as one list.
 */
import { isScimError, ScimErrors, type ScimError } from './errors';
import { getCi, type JsonObject } from './filter-match';
import type { ScimListPage, ScimListQuery } from './list-query';
import type { ResourceTypeDefinition } from './schemas';

export const SCHEMA_SEARCH_REQUEST = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

/** A SearchRequest read as the query parameters of a GET list. */
export interface SearchParams {
  filter?: string;
  attributes?: string;
  excludedAttributes?: string;
  startIndex?: string;
  count?: string;
}

const MAX_TEXT = 2048;

function text(body: JsonObject, name: string): string | undefined {
  const v = getCi(body, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw ScimErrors.invalidValue(`${name} must be a string`);
  if (v.length > MAX_TEXT) throw ScimErrors.invalidValue(`${name} is longer than ${MAX_TEXT} characters`);
  return v;
}

/** `attributes` / `excludedAttributes`: a list of attribute names, given to the selection as a GET's comma-separated value. */
function names(body: JsonObject, name: string): string | undefined {
  const v = getCi(body, name);
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || x.includes(','))) throw ScimErrors.invalidValue(`${name} must be a list of attribute names`);
  const joined = v.join(',');
  if (joined.length > MAX_TEXT) throw ScimErrors.invalidValue(`${name} is longer than ${MAX_TEXT} characters`);
  return joined === '' ? undefined : joined;
}

function integer(body: JsonObject, name: string): string | undefined {
  const v = getCi(body, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw ScimErrors.invalidValue(`${name} must be an integer`);
  return String(v);
}

/** Reads and checks a SearchRequest body; a wrong one is a 400 naming the field. */
export function searchParams(body: unknown): SearchParams {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw ScimErrors.invalidSyntax('The search body must be a JSON object');
  const req = body as JsonObject;
  const schemas = getCi(req, 'schemas');
  if (!Array.isArray(schemas) || !schemas.includes(SCHEMA_SEARCH_REQUEST)) throw ScimErrors.invalidSyntax(`schemas must be ["${SCHEMA_SEARCH_REQUEST}"]`);
  text(req, 'sortBy');
  const order = text(req, 'sortOrder');
  if (order !== undefined && order !== 'ascending' && order !== 'descending') throw ScimErrors.invalidValue('sortOrder must be "ascending" or "descending"');
  const out: SearchParams = { filter: text(req, 'filter'), attributes: names(req, 'attributes'), excludedAttributes: names(req, 'excludedAttributes'), startIndex: integer(req, 'startIndex'), count: integer(req, 'count') };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as SearchParams;
}

/** One resource type a root search covers. */
export interface SearchedType {
  rt: ResourceTypeDefinition;
  list(query: ScimListQuery): Promise<ScimListPage>;
}

/**
 * The root search: the types' matches one after the other (Users, then Groups), paged as one list.
 * A filter naming an attribute a type does not have matches none of that type (it is invalidFilter
 * only when no type has it).
 */
export async function searchTypes(types: SearchedType[], query: ScimListQuery): Promise<{ resources: { rt: ResourceTypeDefinition; resource: JsonObject }[]; total: number }> {
  let skip = query.startIndex - 1;
  let remaining = query.count;
  let total = 0;
  let refused: ScimError | null = null;
  let answered = 0;
  const resources: { rt: ResourceTypeDefinition; resource: JsonObject }[] = [];
  for (const { rt, list } of types) {
    let page: ScimListPage;
    try {
      page = await list({ filter: query.filter, startIndex: skip + 1, count: remaining });
    } catch (err) {
      if (isScimError(err) && err.scimType === 'invalidFilter') {
        refused ??= err;
        continue;
      }
      throw err;
    }
    answered += 1;
    total += page.total;
    skip = Math.max(0, skip - page.total);
    remaining -= page.resources.length;
    resources.push(...page.resources.map((resource) => ({ rt, resource })));
  }
  if (answered === 0 && refused) throw refused;
  return { resources, total };
}
