/**
 * The PATCH request body (RFC 7644 section 3.5.2): its shape, its operations and the limits checked
 * before the engine (patch.ts) does any work.
 */
import { ScimErrors } from './errors';
import { getCi } from './filter-match';
import { MAX_GROUP_MEMBERS, MAX_MULTI_VALUES } from './normalize';
import { SCHEMA_PATCH_OP, type ResourceTypeDefinition } from './schemas';

/** Most operations in one PATCH request. */
export const MAX_PATCH_OPERATIONS = 1000;
/** Deepest nesting of an operation's value: a pathless value > attribute > list > complex item > sub-attribute. */
const MAX_VALUE_DEPTH = 6;

/**
 * Most values all the operations of one PATCH may carry in lists together: as many as the largest
 * list a resource may hold (a group's members), so no request makes the engine work on more before
 * normalizeResource refuses the result.
 */
export const MAX_PATCH_VALUES = MAX_GROUP_MEMBERS;

/** Values in the lists of an operation's value: the value itself when a list, else the lists among its attributes (and an extension's). */
function listedValues(value: unknown, depth = 0): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value !== 'object' || value === null || depth > 1) return 0;
  let n = 0;
  for (const v of Object.values(value)) n += Array.isArray(v) ? v.length : listedValues(v, depth + 1);
  return n;
}

/** True when `v` nests no deeper than `depth` (arrays and objects); stops at the first level too deep. */
function shallow(v: unknown, depth: number): boolean {
  if (typeof v !== 'object' || v === null) return true;
  if (depth === 0) return false;
  return Object.values(v).every((x) => shallow(x, depth - 1));
}

export type PatchOp = 'add' | 'replace' | 'remove';

/** One operation after validation: `op` lower-cased, `path` parsed. */
export interface PatchOperation {
  op: PatchOp;
  path: string | null;
  value: unknown;
}

/**
 * Validates a PATCH body (schemas, Operations, each op) and answers its operations. The lists the
 * operations carry are counted before any work: one longer than a resource of `rt` may hold
 * (members of a Group: MAX_GROUP_MEMBERS, else MAX_MULTI_VALUES), or more than MAX_PATCH_VALUES in
 * all, is invalidValue.
 */
export function parsePatchBody(body: unknown, rt?: ResourceTypeDefinition): PatchOperation[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw ScimErrors.invalidSyntax('The PATCH body must be a JSON object');
  const schemas = getCi(body, 'schemas');
  if (!Array.isArray(schemas) || !schemas.includes(SCHEMA_PATCH_OP)) throw ScimErrors.invalidSyntax(`schemas must be ["${SCHEMA_PATCH_OP}"]`);
  const ops = getCi(body, 'Operations');
  if (!Array.isArray(ops) || ops.length === 0) throw ScimErrors.invalidSyntax('Operations must be a non-empty array');
  if (ops.length > MAX_PATCH_OPERATIONS) throw ScimErrors.tooMany(`Operations has more than ${MAX_PATCH_OPERATIONS} operations`);
  const perList = rt?.name === 'Group' ? MAX_GROUP_MEMBERS : MAX_MULTI_VALUES;
  let total = 0;
  const parsed = ops.map((raw, i) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw ScimErrors.invalidSyntax(`Operations[${i}] must be an object`);
    const opRaw = getCi(raw, 'op');
    const op = typeof opRaw === 'string' ? opRaw.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw ScimErrors.invalidSyntax(`Operations[${i}].op must be "add", "replace" or "remove"`);
    const path = getCi(raw, 'path');
    if (path !== undefined && path !== null && typeof path !== 'string') throw ScimErrors.invalidPath(`Operations[${i}].path must be a string`);
    const value = getCi(raw, 'value');
    if (!shallow(value, MAX_VALUE_DEPTH)) throw ScimErrors.invalidValue(`Operations[${i}].value is nested deeper than any SCIM attribute`);
    if (op !== 'remove' && value === undefined) throw ScimErrors.invalidValue(`Operations[${i}].value is required for "${op}"`);
    if (op === 'remove' && (path === undefined || path === null || path === '')) throw ScimErrors.noTarget(`Operations[${i}]: "remove" needs a path`);
    const longest = longestList(value);
    if (longest > perList) throw ScimErrors.invalidValue(`Operations[${i}].value has a list of more than ${perList} values`);
    total += listedValues(value);
    if (total > MAX_PATCH_VALUES) throw ScimErrors.invalidValue(`Operations carry more than ${MAX_PATCH_VALUES} values in all`);
    return { op: op as PatchOp, path: path === undefined || path === null || path === '' ? null : (path as string), value };
  });
  return parsed;
}

/** The longest list in an operation's value (the value itself, its attributes', an extension's). */
function longestList(value: unknown, depth = 0): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value !== 'object' || value === null || depth > 1) return 0;
  let n = 0;
  for (const v of Object.values(value)) n = Math.max(n, longestList(v, depth + 1));
  return n;
}
