/**
 * Validating and canonicalising a SCIM resource body (POST, PUT, and the result of a PATCH) against
 * its schema: attribute names take the schema's spelling, values their declared type, unknown
 * attributes and readOnly ones are dropped (RFC 7644 section 3.5.1: readOnly values in a replace are
 * ignored), and a wrong value is `invalidValue` (400) naming the attribute. Sizes are bounded, so a
 * stored resource stays small whatever a client sends.
 *
 * Accepted quirks: Entra ID's string booleans (`"active": "False"`), a single object where an array
 * is declared, numbers in string attributes (employeeNumber), and extension attributes sent flat as
 * `"urn:…:enterprise:2.0:User:department": "…"`.
 */
import { ScimErrors } from './errors';
import { getCi, type JsonObject } from './filter-match';
import { findExtension, type AttributeDefinition, type ResourceTypeDefinition } from './schemas';

/** Longest string value kept (characters). */
export const MAX_STRING_LENGTH = 2048;
/** Most values in a multi-valued attribute, except Group members. */
export const MAX_MULTI_VALUES = 100;
/** Most members of one Group in one body. */
export const MAX_GROUP_MEMBERS = 10_000;

/** A canonical resource body: only schema attributes (plus `externalId` and `schemas`), typed as declared. */
export type ResourceBody = JsonObject;

/** Parses a boolean, accepting Entra ID's "True"/"False" strings. */
export function parseBoolean(v: unknown, where: string): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const l = v.trim().toLowerCase();
    if (l === 'true') return true;
    if (l === 'false') return false;
  }
  throw ScimErrors.invalidValue(`${where} must be a boolean`);
}

function normalizeValue(def: AttributeDefinition, v: unknown, where: string): unknown {
  switch (def.type) {
    case 'boolean':
      return parseBoolean(v, where);
    case 'integer':
      if (typeof v !== 'number' || !Number.isInteger(v)) throw ScimErrors.invalidValue(`${where} must be an integer`);
      return v;
    case 'decimal':
      if (typeof v !== 'number' || !Number.isFinite(v)) throw ScimErrors.invalidValue(`${where} must be a number`);
      return v;
    case 'complex': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw ScimErrors.invalidValue(`${where} must be an object`);
      const out: JsonObject = {};
      for (const sub of def.subAttributes ?? []) {
        if (sub.mutability === 'readOnly') continue;
        const raw = getCi(v, sub.name);
        if (raw === undefined || raw === null) continue;
        out[sub.name] = normalizeValue(sub, raw, `${where}.${sub.name}`);
      }
      return out;
    }
    case 'dateTime':
      if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw ScimErrors.invalidValue(`${where} must be a date-time string`);
      return v;
    default: {
      // string, reference, binary
      const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : v;
      if (typeof s !== 'string') throw ScimErrors.invalidValue(`${where} must be a string`);
      if (s.length > MAX_STRING_LENGTH) throw ScimErrors.invalidValue(`${where} is longer than ${MAX_STRING_LENGTH} characters`);
      return s;
    }
  }
}

function normalizeAttribute(def: AttributeDefinition, v: unknown, where: string, rt: ResourceTypeDefinition): unknown {
  if (!def.multiValued) {
    let one = v;
    // Entra ID's manager: `[{"$ref":null,"value":"<id>"}]` (one-element array) or `"<id>"` (the value alone).
    if (def.type === 'complex' && Array.isArray(one) && one.length === 1) one = one[0];
    if (def.type === 'complex' && typeof one === 'string' && def.subAttributes?.some((s) => s.name === 'value')) one = { value: one };
    if (Array.isArray(one)) throw ScimErrors.invalidValue(`${where} is single-valued: it cannot be an array`);
    return normalizeValue(def, one, where);
  }
  const list = Array.isArray(v) ? v : [v];
  const max = rt.name === 'Group' && def.name === 'members' ? MAX_GROUP_MEMBERS : MAX_MULTI_VALUES;
  if (list.length > max) throw ScimErrors.invalidValue(`${where} has more than ${max} values`);
  const out = list.filter((x) => x !== null && x !== undefined).map((x, i) => normalizeValue(def, x, `${where}[${i}]`));
  if (def.type === 'complex') {
    // An email, phone number or member without its value means nothing; refuse it rather than keep it.
    if (def.subAttributes?.some((s) => s.name === 'value')) {
      const at = out.findIndex((x) => typeof (x as JsonObject).value !== 'string' || ((x as JsonObject).value as string).trim() === '');
      if (at >= 0) throw ScimErrors.invalidValue(`${where}[${at}].value is required`);
    }
    const primaries = out.filter((x) => (x as JsonObject).primary === true).length;
    if (primaries > 1) throw ScimErrors.invalidValue(`${where} has more than one primary value`);
    // Drop exact duplicates (the same value given twice), which IdPs send when they merge lists.
    const seen = new Set<string>();
    return out.filter((x) => {
      const key = JSON.stringify(x);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  return out;
}

function normalizeObject(attrs: readonly AttributeDefinition[], src: JsonObject, prefix: string, rt: ResourceTypeDefinition, flat: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const def of attrs) {
    if (def.mutability === 'readOnly') continue;
    let raw = getCi(src, def.name);
    if (raw === undefined) raw = getCi(flat, def.name);
    if (raw === undefined || raw === null) continue;
    const value = normalizeAttribute(def, raw, `${prefix}${def.name}`, rt);
    if (Array.isArray(value) && value.length === 0) continue;
    out[def.name] = value;
  }
  return out;
}

/**
 * Validates `body` as a resource of type `rt` and answers its canonical form (schemas, externalId,
 * core attributes, and one object per extension present). Required attributes must be there, for a
 * POST, a PUT and the result of a PATCH alike. Throws invalidValue / invalidSyntax.
 */
export function normalizeResource(body: unknown, rt: ResourceTypeDefinition): ResourceBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw ScimErrors.invalidSyntax('The request body must be a JSON object');
  const src = body as JsonObject;
  const schemas = getCi(src, 'schemas');
  if (!Array.isArray(schemas) || !schemas.every((s) => typeof s === 'string')) throw ScimErrors.invalidValue('schemas must be an array of schema URNs');
  if (!schemas.some((s) => (s as string).toLowerCase() === rt.core.id.toLowerCase())) throw ScimErrors.invalidValue(`schemas must include ${rt.core.id}`);

  // Flat URN-qualified keys: `urn:…:User:userName` (core) and `urn:…:enterprise:2.0:User:department` (extension).
  // Null-prototype holders: a key like `urn:…:User:__proto__` must stay a plain (ignored) entry.
  const flatCore: JsonObject = Object.create(null) as JsonObject;
  const flatExt = new Map<string, JsonObject>();
  for (const [key, value] of Object.entries(src)) {
    if (!key.toLowerCase().startsWith('urn:')) continue;
    const colon = key.lastIndexOf(':');
    const urn = key.slice(0, colon);
    const name = key.slice(colon + 1);
    if (urn.toLowerCase() === rt.core.id.toLowerCase()) flatCore[name] = value;
    const ext = findExtension(rt, urn);
    if (ext) {
      const holder = flatExt.get(ext.id) ?? (Object.create(null) as JsonObject);
      holder[name] = value;
      flatExt.set(ext.id, holder);
    }
  }

  const out: ResourceBody = { schemas: [rt.core.id] };
  const externalId = getCi(src, 'externalId') ?? flatCore.externalId;
  if (externalId !== undefined && externalId !== null) {
    out.externalId = normalizeValue(rt.common.find((c) => c.name === 'externalId')!, externalId, 'externalId');
  }
  Object.assign(out, normalizeObject(rt.core.attributes, src, '', rt, flatCore));

  for (const ext of rt.extensions) {
    const nested = getCi(src, ext.id);
    if (nested !== undefined && nested !== null && (typeof nested !== 'object' || Array.isArray(nested))) throw ScimErrors.invalidValue(`${ext.id} must be an object`);
    const value = normalizeObject(ext.attributes, (nested ?? {}) as JsonObject, `${ext.id}:`, rt, flatExt.get(ext.id) ?? {});
    if (Object.keys(value).length > 0) {
      out[ext.id] = value;
      (out.schemas as string[]).push(ext.id);
    }
  }

  for (const def of rt.core.attributes) {
    if (!def.required) continue;
    const v = out[def.name];
    if (v === undefined || (typeof v === 'string' && v.trim() === '')) {
      throw ScimErrors.invalidValue(`${def.name} is required`);
    }
  }
  return out;
}
