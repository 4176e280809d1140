/** JSON values as the SCIM engine handles them: deep equality, copies, and attribute names matched case-insensitively (RFC 7643 section 2.1). */
import type { JsonObject } from './filter-match';

export function clone<T>(v: T): T {
  return structuredClone(v);
}

/** Deep equality of JSON values (object key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ka = Object.keys(a as JsonObject).filter((k) => (a as JsonObject)[k] !== undefined);
  const kb = Object.keys(b as JsonObject).filter((k) => (b as JsonObject)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => jsonEqual((a as JsonObject)[k], (b as JsonObject)[k]));
}

/** The key of `obj` that names `name`, case-insensitively (the exact one first). */
export function keyOf(obj: JsonObject, name: string): string | undefined {
  if (Object.hasOwn(obj, name)) return name;
  const lower = name.toLowerCase();
  return Object.keys(obj).find((k) => k.toLowerCase() === lower);
}

/** Sets `name`, replacing a key that differs only in case. */
export function setCi(obj: JsonObject, name: string, value: unknown): void {
  const existing = keyOf(obj, name);
  if (existing !== undefined && existing !== name) delete obj[existing];
  obj[name] = value;
}

/** Deletes `name`, whatever the case of its key. */
export function deleteCi(obj: JsonObject, name: string): void {
  const existing = keyOf(obj, name);
  if (existing !== undefined) delete obj[existing];
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
