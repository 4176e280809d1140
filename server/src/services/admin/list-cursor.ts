/**
 * Keyset cursors of the admin lists (issue 17: the users list and the audit log). A cursor is
 * base64url of `[version, list, fingerprint, way, key]`: `key` is the sort key of the row it starts
 * from (the sort columns, the id last), `way` whether the page is the one after it or before it, and
 * `fingerprint` a hash of the list's sort, direction and filters, so a cursor is refused with any
 * other query. It carries no tenant: the tenant comes from the caller's token, so a cursor of
 * another tenant (or a forged one) only positions the caller in the caller's own list.
 */
import { createHash } from 'node:crypto';
import { Errors } from '../../errors';

export type CursorValue = string | number | null;
/** How each value of a key is checked when a cursor is read. */
export type CursorColumn = 'text' | 'nullable-text' | 'integer';
export type CursorWay = 'next' | 'prev';
export interface ListCursor {
  way: CursorWay;
  key: CursorValue[];
}

const VERSION = 1;
/** The longest text value a key holds (names and emails are far shorter; descriptions are not keys). */
const MAX_TEXT = 1000;

/** A short hash of what the list is (sort, direction, filters): a cursor belongs to that list only. */
export function listFingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

export function encodeCursor(list: string, fingerprint: string, way: CursorWay, key: readonly CursorValue[]): string {
  return Buffer.from(JSON.stringify([VERSION, list, fingerprint, way, key])).toString('base64url');
}

const invalid = (why: string) => Errors.validation(`cursor: ${why}`, { parameter: 'cursor' });

/**
 * The cursor `text` for this list, or a 400 naming the parameter: not one of ours (malformed,
 * edited), or one of another list, sort or filter. Never throws anything else.
 */
export function decodeCursor(text: string, list: string, fingerprint: string, columns: readonly CursorColumn[]): ListCursor {
  let parsed: unknown;
  try {
    const bytes = Buffer.from(text, 'base64url');
    // Strict: the canonical encoding of what it decodes to (Buffer skips characters it does not know).
    if (bytes.toString('base64url') !== text) throw new Error('not canonical base64url');
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw invalid('not a cursor of this list: give the nextCursor or prevCursor of an earlier answer unchanged');
  }
  if (!Array.isArray(parsed) || parsed.length !== 5 || parsed[0] !== VERSION || typeof parsed[1] !== 'string' || typeof parsed[2] !== 'string') {
    throw invalid('not a cursor of this list: give the nextCursor or prevCursor of an earlier answer unchanged');
  }
  const [, kind, print, way, key] = parsed as [number, string, string, unknown, unknown];
  if (kind !== list || print !== fingerprint) {
    throw invalid('this cursor belongs to another list, sort, direction or filter: start again without a cursor');
  }
  if ((way !== 'next' && way !== 'prev') || !Array.isArray(key) || key.length !== columns.length || !key.every((v, i) => valid(v, columns[i]!))) {
    throw invalid('not a cursor of this list: give the nextCursor or prevCursor of an earlier answer unchanged');
  }
  return { way, key: key as CursorValue[] };
}

function valid(value: unknown, column: CursorColumn): boolean {
  if (column === 'integer') return typeof value === 'number' && Number.isSafeInteger(value);
  if (value === null) return column === 'nullable-text';
  return typeof value === 'string' && value.length <= MAX_TEXT;
}
