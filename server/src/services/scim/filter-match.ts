/**
 * Matching a parsed filter against a SCIM resource (its JSON, as the service answers it), and the SQL
 * hint for the filters identity providers send most.
 *
 * How the SCIM service is meant to use it (part B): take `sqlHint(filter)`; when it names an
 * attribute the store indexes (userName, externalId, emails.value, displayName, id), narrow the SQL
 * query to it; then run `matchesFilter` over the bounded page of candidates in memory. The hint only
 * ever narrows (it is a conjunct of the filter), so the in-memory check keeps results exact.
 *
 * Comparisons follow RFC 7644 section 3.4.2.2: attribute names are case-insensitive; strings compare
 * case-insensitively unless the attribute is caseExact; dateTime compares chronologically; ordering
 * and substring operators on booleans are `invalidFilter`; a complex multi-valued attribute compared
 * without a sub-attribute compares its `value`s; any value of a multi-valued attribute may match.
 */
import { ScimErrors } from './errors';
import type { AttrPath, CompareOp, Filter, FilterValue } from './filter';
import { resolveAttribute, type AttributeDefinition, type ResourceTypeDefinition } from './schemas';

/** A JSON object, as a SCIM resource is. */
export type JsonObject = Record<string, unknown>;

/** The property of `obj` whose name equals `name` case-insensitively. */
export function getCi(obj: unknown, name: string): unknown {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return undefined;
  const o = obj as JsonObject;
  // Own properties only: a body's keys must never reach Object.prototype (`constructor`, `__proto__`).
  if (Object.hasOwn(o, name)) return o[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(o)) if (key.toLowerCase() === lower) return o[key];
  return undefined;
}

interface Target {
  values: unknown[];
  def: AttributeDefinition;
}

/** The values a path designates in `resource` (flattened across a multi-valued attribute), with the definition they compare by. */
function collect(resource: JsonObject, rt: ResourceTypeDefinition, path: AttrPath, scope: AttributeDefinition | null): Target {
  if (scope) {
    // Inside a value filter: the path names a sub-attribute of `scope` (no URN, no further dot).
    if (path.urn !== null || path.sub !== null) throw ScimErrors.invalidFilter(`"${path.attr}.${path.sub}" cannot be used inside a value filter of ${scope.name}`);
    const def = scope.subAttributes?.find((s) => s.name.toLowerCase() === path.attr.toLowerCase());
    if (!def) throw ScimErrors.invalidFilter(`${scope.name} has no sub-attribute "${path.attr}"`);
    return { values: flatten(getCi(resource, def.name)), def };
  }
  const resolved = resolveAttribute(rt, path.urn, path.attr, path.sub);
  if (!resolved) throw ScimErrors.invalidFilter(`Unknown attribute "${formatPath(path)}"`);
  const holder = resolved.extension ? getCi(resource, resolved.extension) : resource;
  const top = getCi(holder, resolved.definition.name);
  if (resolved.sub) {
    const items = resolved.definition.multiValued ? flatten(top) : top === undefined ? [] : [top];
    return { values: items.flatMap((item) => flatten(getCi(item, resolved.sub!.name))), def: resolved.sub };
  }
  if (resolved.definition.type === 'complex') {
    // `emails eq "x"`: a complex attribute compares by its `value` sub-attribute (RFC 7644 3.4.2.2).
    const valueDef = resolved.definition.subAttributes?.find((s) => s.name === 'value');
    if (valueDef) return { values: flatten(top).flatMap((item) => flatten(getCi(item, 'value'))), def: valueDef };
    return { values: flatten(top), def: resolved.definition };
  }
  return { values: flatten(top), def: resolved.definition };
}

function flatten(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v.filter((x) => x !== undefined && x !== null) : [v];
}

/** How `path` reads in a message. */
export function formatPath(path: AttrPath): string {
  return `${path.urn ? `${path.urn}:` : ''}${path.attr}${path.sub ? `.${path.sub}` : ''}`;
}

function isPresent(v: unknown): boolean {
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object' && v !== null) return Object.keys(v).length > 0;
  return v !== undefined && v !== null;
}

function compareOne(actual: unknown, op: CompareOp, expected: FilterValue, def: AttributeDefinition): boolean {
  const name = def.name;
  if (def.type === 'boolean') {
    if (op !== 'eq' && op !== 'ne') throw ScimErrors.invalidFilter(`"${op}" cannot compare the boolean attribute ${name}`);
    if (typeof expected !== 'boolean') throw ScimErrors.invalidFilter(`${name} is a boolean: compare it with true or false`);
    return (actual === expected) === (op === 'eq');
  }
  if (def.type === 'integer' || def.type === 'decimal') {
    if (typeof expected !== 'number') throw ScimErrors.invalidFilter(`${name} is a number: compare it with a number`);
    if (typeof actual !== 'number') return op === 'ne';
    return ordered(actual - expected, op, name);
  }
  if (typeof expected !== 'string') throw ScimErrors.invalidFilter(`${name} is a ${def.type}: compare it with a quoted string`);
  if (typeof actual !== 'string') return op === 'ne';
  if (def.type === 'dateTime' && op !== 'co' && op !== 'sw' && op !== 'ew') {
    const a = Date.parse(actual);
    const e = Date.parse(expected);
    if (Number.isNaN(e)) throw ScimErrors.invalidFilter(`"${expected}" is not a date-time for ${name}`);
    if (Number.isNaN(a)) return op === 'ne';
    return ordered(a - e, op, name);
  }
  if (def.type === 'binary' && op !== 'eq' && op !== 'ne') throw ScimErrors.invalidFilter(`"${op}" cannot compare the binary attribute ${name}`);
  const a = def.caseExact ? actual : actual.toLowerCase();
  const e = def.caseExact ? expected : expected.toLowerCase();
  switch (op) {
    case 'eq':
      return a === e;
    case 'ne':
      return a !== e;
    case 'co':
      return a.includes(e);
    case 'sw':
      return a.startsWith(e);
    case 'ew':
      return a.endsWith(e);
    default:
      return ordered(a < e ? -1 : a > e ? 1 : 0, op, name);
  }
}

function ordered(diff: number, op: CompareOp, name: string): boolean {
  switch (op) {
    case 'eq':
      return diff === 0;
    case 'ne':
      return diff !== 0;
    case 'gt':
      return diff > 0;
    case 'ge':
      return diff >= 0;
    case 'lt':
      return diff < 0;
    case 'le':
      return diff <= 0;
    default:
      throw ScimErrors.invalidFilter(`"${op}" cannot compare ${name}`);
  }
}

function evaluate(filter: Filter, resource: JsonObject, rt: ResourceTypeDefinition, scope: AttributeDefinition | null): boolean {
  switch (filter.kind) {
    case 'and':
      // Both sides are evaluated so an invalid comparison is reported whatever the data.
      return [evaluate(filter.left, resource, rt, scope), evaluate(filter.right, resource, rt, scope)].every(Boolean);
    case 'or':
      return [evaluate(filter.left, resource, rt, scope), evaluate(filter.right, resource, rt, scope)].some(Boolean);
    case 'not':
      return !evaluate(filter.filter, resource, rt, scope);
    case 'present':
      return collect(resource, rt, filter.path, scope).values.some(isPresent);
    case 'compare': {
      const { values, def } = collect(resource, rt, filter.path, scope);
      if (filter.value === null) {
        // `attr eq null` is "not present"; `attr ne null` is "present".
        if (filter.op !== 'eq' && filter.op !== 'ne') throw ScimErrors.invalidFilter(`"${filter.op}" cannot compare with null`);
        return values.some(isPresent) === (filter.op === 'ne');
      }
      if (values.length === 0) {
        // Validate the comparison even when there is nothing to compare, so errors do not depend on data.
        compareOne(undefined, filter.op, filter.value, def);
        return filter.op === 'ne';
      }
      if (filter.op === 'ne') return !values.some((v) => compareOne(v, 'eq', filter.value, def));
      return values.some((v) => compareOne(v, filter.op, filter.value, def));
    }
    case 'valuePath': {
      const resolved = scope ? null : resolveAttribute(rt, filter.path.urn, filter.path.attr, null);
      if (!resolved || resolved.definition.type !== 'complex') throw ScimErrors.invalidFilter(`"${formatPath(filter.path)}" is not a complex attribute, so it cannot take a value filter`);
      const holder = resolved.extension ? getCi(resource, resolved.extension) : resource;
      const items = flatten(getCi(holder, resolved.definition.name));
      if (items.length === 0) {
        evaluate(filter.filter, {}, rt, resolved.definition);
        return false;
      }
      return items.map((item) => evaluate(filter.filter, (item ?? {}) as JsonObject, rt, resolved.definition)).some(Boolean);
    }
  }
}

/** True when `resource` matches `filter`; throws `invalidFilter` for an unknown attribute or a comparison the attribute's type forbids. */
export function matchesFilter(filter: Filter, resource: JsonObject, rt: ResourceTypeDefinition): boolean {
  return evaluate(filter, resource, rt, null);
}

/** True when `item` (one value of the complex attribute `attribute`) matches a value filter; used by PATCH. */
export function matchesValueFilter(filter: Filter, item: unknown, rt: ResourceTypeDefinition, attribute: AttributeDefinition): boolean {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return false;
  return evaluate(filter, item as JsonObject, rt, attribute);
}

/** Attributes the SQL store is expected to index for narrowing. */
export type IndexedAttribute = 'id' | 'userName' | 'externalId' | 'emails.value' | 'displayName';

/** An equality the whole filter implies, for narrowing a SQL query. */
export interface SqlHint {
  attribute: IndexedAttribute;
  /** Compare case-insensitively (userName, emails, displayName) or exactly (id, externalId). */
  caseExact: boolean;
  value: string;
}

const INDEXED: Record<string, IndexedAttribute> = { id: 'id', username: 'userName', externalid: 'externalId', 'emails.value': 'emails.value', emails: 'emails.value', displayname: 'displayName' };

/**
 * Equalities implied by the filter (top-level `eq` on an indexed core attribute, possibly inside an
 * `and` chain), for narrowing a SQL query before matching in memory. Empty: scan in bounded pages.
 * `rt` says which attributes exist and whether they compare case-exactly.
 */
export function sqlHints(filter: Filter, rt: ResourceTypeDefinition): SqlHint[] {
  if (filter.kind === 'and') return [...sqlHints(filter.left, rt), ...sqlHints(filter.right, rt)];
  if (filter.kind === 'valuePath' && filter.filter.kind === 'compare' && filter.filter.op === 'eq' && filter.filter.path.attr.toLowerCase() === 'value') {
    return sqlHints({ kind: 'compare', op: 'eq', value: filter.filter.value, path: { urn: filter.path.urn, attr: filter.path.attr, sub: 'value' } }, rt);
  }
  if (filter.kind !== 'compare' || filter.op !== 'eq' || typeof filter.value !== 'string') return [];
  const resolved = resolveAttribute(rt, filter.path.urn, filter.path.attr, filter.path.sub);
  if (!resolved || resolved.extension) return [];
  const key = `${resolved.definition.name}${resolved.sub ? `.${resolved.sub.name}` : ''}`.toLowerCase();
  const attribute = INDEXED[key];
  if (!attribute) return [];
  const def = resolved.sub ?? resolved.definition;
  return [{ attribute, caseExact: def.caseExact, value: filter.value }];
}
