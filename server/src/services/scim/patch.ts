/**
 * SCIM PATCH (RFC 7644 section 3.5.2): add, replace and remove, with or without a path, value filters
 * in paths, multi-valued attributes and the enterprise extension.
 *
 * The engine works on a resource's JSON (as the service answers it) and returns a new one; the
 * caller then validates the result with normalizeResource, so a PATCH can never store what a PUT
 * could not. Errors: invalidSyntax (the body), invalidPath (a path that does not parse or names no
 * attribute), noTarget (remove without a path; a value filter that selects nothing where something
 * must be selected), mutability (a readOnly attribute, or an immutable one that has a value),
 * invalidValue (a value of the wrong shape).
 *
 * Identity providers' quirks accepted (see docs/scim.md):
 * - Entra ID's capitalised ops (`"Add"`, `"Replace"`, `"Remove"`) — ops compare case-insensitively;
 * - Entra ID's `remove` of `members` with a `value` list (removes the listed members only);
 * - Entra ID's `replace`/`add` on `emails[type eq "work"].value` when no work email exists yet: the
 *   item is created from the filter's equalities (as scim-patch does);
 * - Okta's pathless `{"op":"replace","value":{"active":false}}`, and its group rename
 *   `{"op":"replace","value":{"id":"…","displayName":"…"}}` (a readOnly attribute equal to the
 *   current value is ignored; a different one is `mutability`).
 */
import { isScimError, ScimErrors } from './errors';
import { parsePatchPath, type Filter, type PatchPath } from './filter';
import { formatPath, getCi, matchesValueFilter, type JsonObject } from './filter-match';
import { clone, deleteCi, isObject, jsonEqual, setCi } from './json-object';
import { parsePatchBody, type PatchOp, type PatchOperation } from './patch-body';
import { findExtension, resolveAttribute, type AttributeDefinition, type ResourceTypeDefinition } from './schemas';

export interface PatchResult {
  resource: JsonObject;
  /** False when the operations left the resource as it was (the store need not write nor bump the version). */
  changed: boolean;
}

/** Where an operation lands: the object holding the attribute (the resource or an extension object) and the attribute. */
interface Target {
  /** The extension URN whose object holds the attribute, or null for the resource itself. */
  extension: string | null;
  def: AttributeDefinition;
  sub: AttributeDefinition | null;
  filter: Filter | null;
}

function resolveTarget(rt: ResourceTypeDefinition, parsed: PatchPath, raw: string): Target {
  const resolved = resolveAttribute(rt, parsed.path.urn, parsed.path.attr, parsed.path.sub);
  if (!resolved) throw ScimErrors.invalidPath(`"${raw.slice(0, 200)}" names no attribute of ${rt.name}`);
  let sub = resolved.sub;
  if (parsed.filter) {
    if (resolved.definition.type !== 'complex' || !resolved.definition.multiValued) throw ScimErrors.invalidPath(`"${formatPath(parsed.path)}" is not a multi-valued complex attribute, so it cannot take a value filter`);
    if (parsed.subAfterFilter !== null) {
      sub = resolved.definition.subAttributes?.find((s) => s.name.toLowerCase() === parsed.subAfterFilter!.toLowerCase()) ?? null;
      if (!sub) throw ScimErrors.invalidPath(`${resolved.definition.name} has no sub-attribute "${parsed.subAfterFilter}"`);
    }
    // Check the value filter against the attribute now, so a bad one is refused whatever the data holds.
    try {
      matchesValueFilter(parsed.filter, {}, rt, resolved.definition);
    } catch (err) {
      if (isScimError(err)) throw ScimErrors.invalidPath(`Invalid path "${raw.slice(0, 200)}": ${err.detail}`);
      throw err;
    }
  }
  return { extension: resolved.extension, def: resolved.definition, sub, filter: parsed.filter };
}

function holderOf(resource: JsonObject, extension: string | null, create: boolean): JsonObject | undefined {
  if (extension === null) return resource;
  const existing = getCi(resource, extension);
  if (isObject(existing)) return existing;
  if (!create) return undefined;
  const fresh: JsonObject = {};
  setCi(resource, extension, fresh);
  const schemas = resource.schemas;
  if (Array.isArray(schemas) && !schemas.includes(extension)) schemas.push(extension);
  return fresh;
}

function assertWritable(def: AttributeDefinition, sub: AttributeDefinition | null, current: unknown): void {
  const d = sub ?? def;
  const name = sub ? `${def.name}.${sub.name}` : def.name;
  if (d.mutability === 'readOnly') throw ScimErrors.mutability(`${name} is readOnly`);
  if (d.mutability === 'immutable' && current !== undefined && current !== null) throw ScimErrors.mutability(`${name} is immutable`);
}

function asList(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/** JSON with object keys sorted and undefined members left out: equal for values jsonEqual deems equal. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const keys = Object.keys(v).filter((k) => (v as JsonObject)[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as JsonObject)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

/**
 * Identity of a multi-valued item for duplicates and for Entra's remove-by-value: its `value`, else
 * the whole item. A key, so an add or a remove of m items over a list of n is O(n + m), not O(n × m).
 */
function itemKey(item: unknown): string {
  const value = isObject(item) ? getCi(item, 'value') : undefined;
  return value !== undefined ? `v${canonicalJson(value)}` : `w${canonicalJson(item)}`;
}

/** The item a value filter implies (`type eq "work" and primary eq true` gives `{type:"work",primary:true}`), or null if it is not a conjunction of equalities. */
function itemFromFilter(filter: Filter): JsonObject | null {
  if (filter.kind === 'compare' && filter.op === 'eq' && filter.path.sub === null && filter.path.urn === null && filter.value !== null) return { [filter.path.attr]: filter.value };
  if (filter.kind === 'and') {
    const l = itemFromFilter(filter.left);
    const r = itemFromFilter(filter.right);
    return l && r ? { ...l, ...r } : null;
  }
  return null;
}

function canonicalSubName(def: AttributeDefinition, name: string): string {
  return def.subAttributes?.find((s) => s.name.toLowerCase() === name.toLowerCase())?.name ?? name;
}

function mergeComplex(def: AttributeDefinition, target: JsonObject, value: unknown, where: string): void {
  if (!isObject(value)) throw ScimErrors.invalidValue(`${where} must be an object`);
  for (const [k, v] of Object.entries(value)) {
    const sub = def.subAttributes?.find((s) => s.name.toLowerCase() === k.toLowerCase());
    if (!sub) continue;
    if (sub.mutability === 'readOnly') continue;
    setCi(target, sub.name, v);
  }
}

function isPrimary(item: unknown): boolean {
  const p = isObject(item) ? getCi(item, 'primary') : undefined;
  return p === true || (typeof p === 'string' && p.toLowerCase() === 'true');
}

/** The items of a multi-valued attribute that are primary now (by identity). */
function primaries(list: unknown): Set<unknown> {
  return new Set(asList(list).filter(isPrimary));
}

/**
 * RFC 7644 section 3.5.2: setting `primary` true on a value sets it false on the others. Items that
 * were primary before the operation give way to those the operation made primary.
 */
function keepOnePrimary(list: unknown, before: Set<unknown>): void {
  const items = asList(list);
  const now = items.filter(isPrimary);
  if (now.length < 2) return;
  const fresh = new Set(now.filter((item) => !before.has(item)));
  if (fresh.size === 0) return;
  for (const item of now) if (!fresh.has(item) && isObject(item)) setCi(item, 'primary', false);
}

/** add / replace at a parsed path. */
function write(resource: JsonObject, rt: ResourceTypeDefinition, op: 'add' | 'replace', t: Target, value: unknown, raw: string): void {
  const holder = holderOf(resource, t.extension, true)!;
  const current = getCi(holder, t.def.name);

  if (t.filter) {
    // emails[type eq "work"] or emails[type eq "work"].value
    const items = asList(current);
    const matched = items.filter((item) => matchesValueFilter(t.filter!, item, rt, t.def));
    if (matched.length === 0) {
      const seed = itemFromFilter(t.filter);
      if (!seed) throw ScimErrors.noTarget(`"${raw.slice(0, 200)}" selects no value of ${t.def.name}`);
      const fresh: JsonObject = {};
      for (const [k, v] of Object.entries(seed)) setCi(fresh, canonicalSubName(t.def, k), v);
      if (t.sub) {
        assertWritable(t.def, t.sub, undefined);
        setCi(fresh, t.sub.name, value);
      } else mergeComplex(t.def, fresh, value, t.def.name);
      setCi(holder, t.def.name, [...items, fresh]);
      return;
    }
    for (const item of matched) {
      if (!isObject(item)) continue;
      if (t.sub) {
        assertWritable(t.def, t.sub, getCi(item, t.sub.name));
        setCi(item, t.sub.name, value);
      } else {
        // Replace and add alike: sub-attributes not given are left unchanged (RFC 7644 3.5.2.3).
        assertWritable(t.def, null, undefined);
        mergeComplex(t.def, item, value, t.def.name);
      }
    }
    return;
  }

  if (t.sub) {
    // name.givenName, or emails.value (every item)
    assertWritable(t.def, t.sub, t.def.multiValued ? undefined : getCi(current, t.sub.name));
    if (t.def.multiValued) {
      const items = asList(current);
      if (items.length === 0) throw ScimErrors.noTarget(`${t.def.name} has no values to set ${t.sub.name} on`);
      for (const item of items) if (isObject(item)) setCi(item, t.sub.name, value);
      return;
    }
    const obj = isObject(current) ? current : {};
    setCi(obj, t.sub.name, value);
    setCi(holder, t.def.name, obj);
    return;
  }

  assertWritable(t.def, null, t.def.multiValued ? undefined : current);
  if (t.def.multiValued) {
    const incoming = asList(value);
    if (op === 'replace') {
      setCi(holder, t.def.name, clone(incoming));
      return;
    }
    const list = asList(current).slice();
    // Where each identity first is in the list.
    const at = new Map<string, number>();
    list.forEach((x, i) => {
      const key = itemKey(x);
      if (!at.has(key)) at.set(key, i);
    });
    for (const item of incoming) {
      const key = itemKey(item);
      const i = at.get(key);
      if (i !== undefined) list[i] = clone(item);
      else {
        at.set(key, list.length);
        list.push(clone(item));
      }
    }
    setCi(holder, t.def.name, list);
    return;
  }
  if (t.def.type === 'complex' && isObject(current) && isObject(value)) {
    // A complex single-valued attribute: sub-attributes not given are left unchanged (RFC 7644 3.5.2.3).
    mergeComplex(t.def, current, value, t.def.name);
    return;
  }
  setCi(holder, t.def.name, clone(value));
}

function remove(resource: JsonObject, rt: ResourceTypeDefinition, t: Target, value: unknown): void {
  const holder = holderOf(resource, t.extension, false);
  if (!holder) return;
  const current = getCi(holder, t.def.name);
  assertWritable(t.def, t.sub, undefined);
  if (current === undefined || current === null) return;

  if (t.filter) {
    const items = asList(current);
    if (t.sub) {
      for (const item of items) if (isObject(item) && matchesValueFilter(t.filter, item, rt, t.def)) deleteCi(item, t.sub.name);
      return;
    }
    const kept = items.filter((item) => !matchesValueFilter(t.filter!, item, rt, t.def));
    if (kept.length === 0) deleteCi(holder, t.def.name);
    else setCi(holder, t.def.name, kept);
    return;
  }
  if (t.sub) {
    for (const item of asList(current)) if (isObject(item)) deleteCi(item, t.sub.name);
    return;
  }
  if (t.def.multiValued && value !== undefined && value !== null) {
    // Entra ID: {"op":"Remove","path":"members","value":[{"value":"<id>"}]} removes those members only.
    const drop = new Set(asList(value).map(itemKey));
    const kept = asList(current).filter((item) => !drop.has(itemKey(item)));
    if (kept.length === 0) deleteCi(holder, t.def.name);
    else setCi(holder, t.def.name, kept);
    return;
  }
  deleteCi(holder, t.def.name);
}

/** A pathless add/replace: each attribute of `value` is written as if it were the path. */
function writePathless(resource: JsonObject, rt: ResourceTypeDefinition, op: 'add' | 'replace', value: unknown, index: number): void {
  if (!isObject(value)) throw ScimErrors.invalidValue(`Operations[${index}].value must be an object when there is no path`);
  for (const [key, v] of Object.entries(value)) {
    if (key.toLowerCase() === 'schemas' || key.toLowerCase() === 'meta') continue;
    const ext = findExtension(rt, key);
    if (ext) {
      if (!isObject(v)) throw ScimErrors.invalidValue(`${ext.id} must be an object`);
      applyAt(resource, rt, op, ext.id, v, index);
      continue;
    }
    // Entra ID also sends paths as keys: {"name.givenName": "…", "emails[type eq \"work\"].value": "…"}.
    const isPath = key.includes(':') || key.includes('.') || key.includes('[');
    const resolved = isPath ? null : resolveAttribute(rt, null, key, null);
    if (resolved && resolved.definition.mutability === 'readOnly') {
      // Okta echoes `id` in a group rename; an unchanged readOnly value is not a change.
      if (jsonEqual(getCi(resource, resolved.definition.name), v)) continue;
      throw ScimErrors.mutability(`${resolved.definition.name} is readOnly`);
    }
    if (!resolved && !isPath) continue; // an attribute this service does not keep: ignored, as in a PUT
    applyAt(resource, rt, op, key, v, index);
  }
}

/** `schemas` inside an extension's value: a list of URNs that includes the extension's (else invalidValue). */
function assertSchemasOf(value: unknown, extension: string, index: number): void {
  const ok = Array.isArray(value) && value.every((s) => typeof s === 'string') && value.some((s) => (s as string).toLowerCase() === extension.toLowerCase());
  if (!ok) throw ScimErrors.invalidValue(`Operations[${index}].value.schemas must be a list of schema URNs that includes "${extension}"`);
}

function applyAt(resource: JsonObject, rt: ResourceTypeDefinition, op: PatchOp, path: string, value: unknown, index: number): void {
  const ext = findExtension(rt, path);
  if (ext) {
    // The whole extension object.
    if (op === 'remove') {
      deleteCi(resource, ext.id);
      if (Array.isArray(resource.schemas)) resource.schemas = resource.schemas.filter((s) => s !== ext.id);
      return;
    }
    if (!isObject(value)) throw ScimErrors.invalidValue(`Operations[${index}].value must be an object for ${ext.id}`);
    for (const [k, v] of Object.entries(value)) {
      // A value written as a resource carries its `schemas` (scim2-tester, SCIM SDKs): it names the
      // extension, and is not one of its attributes.
      if (k.toLowerCase() === 'schemas') {
        assertSchemasOf(v, ext.id, index);
        continue;
      }
      applyAt(resource, rt, op, `${ext.id}:${k}`, v, index);
    }
    return;
  }
  const parsed = parsePatchPath(path);
  const target = resolveTarget(rt, parsed, path);
  if (op === 'remove') remove(resource, rt, target, value);
  else {
    const holder = holderOf(resource, target.extension, true)!;
    const before = primaries(getCi(holder, target.def.name));
    write(resource, rt, op, target, value, path);
    if (target.def.multiValued) keepOnePrimary(getCi(holder, target.def.name), before);
  }
}

/**
 * Applies a PATCH body to `resource` (not modified) for resource type `rt`; answers the patched copy.
 * Operations apply in order and all-or-nothing: the first error throws and nothing is kept.
 */
export function applyPatch(resource: JsonObject, body: unknown, rt: ResourceTypeDefinition): PatchResult {
  const operations = parsePatchBody(body, rt);
  return applyOperations(resource, operations, rt);
}

/** Applies already-parsed operations (see applyPatch). */
export function applyOperations(resource: JsonObject, operations: PatchOperation[], rt: ResourceTypeDefinition): PatchResult {
  const out = clone(resource);
  operations.forEach((operation, index) => {
    if (operation.path === null) {
      if (operation.op === 'remove') throw ScimErrors.noTarget(`Operations[${index}]: "remove" needs a path`);
      writePathless(out, rt, operation.op, operation.value, index);
    } else {
      applyAt(out, rt, operation.op, operation.path, operation.value, index);
    }
  });
  return { resource: out, changed: !jsonEqual(resource, out) };
}
