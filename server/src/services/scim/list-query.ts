/**
 * How a list of Users or Groups runs (RFC 7644 section 3.4.2), so an identity provider's lookups never
 * load a whole tenant:
 * - no filter: the page and the total come from SQL (LIMIT/OFFSET and COUNT);
 * - a filter implying `id eq`, `externalId eq`, `userName eq` (Users) or `displayName eq` (Groups),
 *   alone or in an `and` chain (Okta's and Entra ID's lookups): SQL reads the rows holding that value
 *   (unique in the tenant), then the whole filter is matched on them;
 * - any other filter is matched in memory over the tenant's resources, read in batches, only while
 *   the tenant has at most `scanLimit` of them; past that it is `tooMany` (400), naming the filters
 *   that still work.
 */
import type { Db } from '../../db';
import { countScimResources, listScimResources, pageScimResources, type ScimNarrowing, type ScimResourceRow, type ScimResourceType } from '../../db/queries/scim-resources';
import { ScimErrors } from './errors';
import { parseFilter, type Filter } from './filter';
import { matchesFilter, sqlHints, type JsonObject } from './filter-match';
import type { ResourceTypeDefinition } from './schemas';

/** Most resources of a type a tenant may have for a filter SQL cannot narrow to be matched in memory. */
export const FILTER_SCAN_LIMIT = 20_000;
/** Rows read at once while scanning. */
const SCAN_BATCH = 500;

export interface ScimListQuery {
  filter?: string | null;
  /** 1-based. */
  startIndex: number;
  count: number;
}

export interface ScimListPage {
  resources: JsonObject[];
  total: number;
}

/** The narrowing a filter's implied equalities allow on scim_resources' columns, for this resource type. */
export function narrowingOf(filter: Filter, rt: ResourceTypeDefinition): ScimNarrowing {
  const nameAttribute = rt.name === 'User' ? 'userName' : 'displayName';
  for (const h of sqlHints(filter, rt)) {
    if (h.attribute === 'id') return { column: 'resource_id', value: h.value };
    // name_key is the lower-cased userName / displayName: a superset of the exact matches either way.
    if (h.attribute === nameAttribute) return { column: 'name_key', value: h.value.toLowerCase() };
    if (h.attribute === 'externalId' && h.caseExact) return { column: 'external_id', value: h.value };
  }
  return null;
}

/** Runs a list query over a tenant's resources of one type; `answer` turns rows into the resources answered (dropping none but the gone). */
export async function listResources(
  deps: { db: Db; scanLimit?: number },
  tenantId: string,
  rt: ResourceTypeDefinition,
  query: ScimListQuery,
  answer: (rows: ScimResourceRow[]) => Promise<JsonObject[]>,
): Promise<ScimListPage> {
  const { db } = deps;
  const type = rt.name as ScimResourceType;
  const filter = query.filter ? parseFilter(query.filter) : null;
  if (!filter) {
    const total = await countScimResources(db, tenantId, type);
    const rows = await pageScimResources(db, tenantId, type, query.startIndex - 1, query.count);
    return { resources: await answer(rows), total };
  }
  const narrowing = narrowingOf(filter, rt);
  const matched: JsonObject[] = [];
  if (narrowing) {
    matched.push(...(await answer(await listScimResources(db, tenantId, type, narrowing))).filter((r) => matchesFilter(filter, r, rt)));
  } else {
    const limit = deps.scanLimit ?? FILTER_SCAN_LIMIT;
    const total = await countScimResources(db, tenantId, type);
    if (total > limit) {
      const keys = rt.name === 'User' ? 'id, userName or externalId' : 'id, displayName or externalId';
      throw ScimErrors.tooMany(`This filter is matched one by one and the tenant has more than ${limit} ${rt.name}s: filter with "eq" on ${keys}`);
    }
    for (let offset = 0; offset < total; offset += SCAN_BATCH) {
      const rows = await pageScimResources(db, tenantId, type, offset, SCAN_BATCH);
      if (rows.length === 0) break;
      matched.push(...(await answer(rows)).filter((r) => matchesFilter(filter, r, rt)));
    }
  }
  return { resources: matched.slice(query.startIndex - 1, query.startIndex - 1 + query.count), total: matched.length };
}
