/**
 * Attribute selection (RFC 7644 section 3.4.2.5 / 3.9): `attributes` keeps only the named attributes
 * plus those returned "always" (id, and `schemas`); `excludedAttributes` drops the named ones except
 * those returned "always"; attributes returned "never" are never answered and "request" ones only
 * when named. Names are case-insensitive, may be URN-qualified, and may name a sub-attribute
 * (`name.givenName`, `emails.value`) or a whole extension (`urn:…:enterprise:2.0:User`).
 */
import { ScimErrors } from './errors';
import { parseAttrPath } from './filter';
import { getCi, type JsonObject } from './filter-match';
import { findExtension, resolveAttribute, type AttributeDefinition, type ResourceTypeDefinition } from './schemas';

/** Longest `attributes` / `excludedAttributes` parameter read. */
const MAX_LIST_LENGTH = 2048;

/** A selection: the holder (null = the resource, else an extension URN), the attribute, and an optional sub-attribute. */
interface Selected {
  extension: string | null;
  attr: string;
  sub: string | null;
}

function parseList(raw: string | null | undefined, rt: ResourceTypeDefinition, param: string): Selected[] | null {
  if (raw === null || raw === undefined || raw.trim() === '') return null;
  if (raw.length > MAX_LIST_LENGTH) throw ScimErrors.invalidValue(`${param} is longer than ${MAX_LIST_LENGTH} characters`);
  const out: Selected[] = [];
  for (const item of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    const ext = findExtension(rt, item);
    if (ext) {
      out.push({ extension: ext.id, attr: '*', sub: null });
      continue;
    }
    const path = parseAttrPath(item);
    if (!path) throw ScimErrors.invalidValue(`${param}: "${item.slice(0, 200)}" is not an attribute path`);
    const resolved = resolveAttribute(rt, path.urn, path.attr, path.sub);
    if (!resolved) continue; // an attribute this service does not have: nothing to select or exclude
    out.push({ extension: resolved.extension, attr: resolved.definition.name, sub: resolved.sub?.name ?? null });
  }
  return out;
}

function definitionsOf(rt: ResourceTypeDefinition, extension: string | null): AttributeDefinition[] {
  if (extension === null) return [...rt.common, ...rt.core.attributes];
  return findExtension(rt, extension)?.attributes ?? [];
}

function pickSubs(value: unknown, subs: Set<string> | 'all', def: AttributeDefinition): unknown {
  if (subs === 'all' || def.type !== 'complex') return value;
  const pick = (item: unknown) => {
    if (typeof item !== 'object' || item === null) return item;
    const out: JsonObject = {};
    for (const s of def.subAttributes ?? []) {
      if (!subs.has(s.name) && s.returned !== 'always') continue;
      const v = getCi(item, s.name);
      if (v !== undefined) out[s.name] = v;
    }
    return out;
  };
  return Array.isArray(value) ? value.map(pick) : pick(value);
}

function filterHolder(holder: JsonObject, defs: AttributeDefinition[], selections: Selected[] | null, excluded: Selected[] | null, extension: string | null): JsonObject {
  const out: JsonObject = {};
  for (const def of defs) {
    const value = getCi(holder, def.name);
    if (value === undefined || def.returned === 'never') continue;
    const mine = (list: Selected[] | null) => (list ?? []).filter((s) => s.extension === extension && (s.attr === def.name || s.attr === '*'));
    if (def.returned === 'always') {
      out[def.name] = value;
      continue;
    }
    if (selections) {
      const sel = mine(selections);
      if (sel.length === 0) continue;
      const subs = sel.some((s) => s.sub === null) ? 'all' : new Set(sel.map((s) => s.sub!));
      out[def.name] = pickSubs(value, subs, def);
      continue;
    }
    if (def.returned === 'request') continue;
    const ex = mine(excluded);
    if (ex.some((s) => s.sub === null)) continue;
    if (ex.length > 0 && def.type === 'complex') {
      const drop = new Set(ex.map((s) => s.sub!));
      const keep = new Set((def.subAttributes ?? []).map((s) => s.name).filter((n) => !drop.has(n)));
      out[def.name] = pickSubs(value, keep, def);
      continue;
    }
    out[def.name] = value;
  }
  return out;
}

/**
 * The resource as answered for the request's `attributes` / `excludedAttributes` (when both are
 * given, `attributes` wins). Throws invalidValue for a malformed list.
 */
export function selectAttributes(resource: JsonObject, rt: ResourceTypeDefinition, params: { attributes?: string | null; excludedAttributes?: string | null }): JsonObject {
  const selections = parseList(params.attributes, rt, 'attributes');
  const excluded = selections ? null : parseList(params.excludedAttributes, rt, 'excludedAttributes');
  const out: JsonObject = { schemas: resource.schemas };
  Object.assign(out, filterHolder(resource, definitionsOf(rt, null), selections, excluded, null));
  const schemas = Array.isArray(resource.schemas) ? (resource.schemas as string[]) : [];
  // An extension whose attributes were all left out is not listed in `schemas` either.
  const dropped = new Set<string>();
  for (const ext of rt.extensions) {
    const holder = getCi(resource, ext.id);
    if (typeof holder !== 'object' || holder === null) continue;
    const kept = filterHolder(holder as JsonObject, ext.attributes, selections, excluded, ext.id);
    if (Object.keys(kept).length > 0) out[ext.id] = kept;
    else dropped.add(ext.id);
  }
  out.schemas = schemas.filter((s) => !dropped.has(s));
  return out;
}
