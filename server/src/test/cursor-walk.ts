/**
 * What the keyset cursors of a list (the users list, the audit log) must do, for the tests of each:
 * walked by `nextCursor` from the first page to the last and by `prevCursor` back again, every page
 * is the same slice as the offset page of that number; an offset page's cursors lead to its
 * neighbours; and a cursor that is malformed, edited or another list's is refused with a 400 on
 * the cursor parameter.
 */
import { expect } from 'vitest';
import type { GatehouseServer } from '../app';
import { callAs, type TenantAdmin } from './admin-helpers';

export interface CursorPage {
  nextCursor: string | null;
  prevCursor: string | null;
}

export async function expectCursorWalk<P extends CursorPage>(walk: {
  /** Names the case in failure messages. */
  label: string;
  /** The ids of each offset page, in page order: the reference. */
  slices: string[][];
  /** The first page, read without a cursor. */
  first: P;
  /** An offset page and its number, whose cursors must lead to its neighbours. */
  byOffset: { page: P; at: number };
  ids: (page: P) => string[];
  /** The page after (or before) `cursor`. */
  load: (cursor: string) => Promise<P>;
  /** Checks every page read forwards (its total, its tenant). */
  each?: (page: P) => void;
}): Promise<void> {
  const { label, slices, first, ids, load } = walk;
  const pages = slices.length;
  expect(first.prevCursor, label).toBeNull();
  let at = first;
  for (let p = 1; p < pages; p++) {
    expect(at.nextCursor, `${label} page ${p - 1}`).toEqual(expect.any(String));
    at = await load(at.nextCursor!);
    expect(ids(at), `${label} page ${p} by cursor`).toEqual(slices[p]);
    walk.each?.(at);
  }
  expect(at.nextCursor, `${label}: the last page has no next`).toBeNull();
  for (let p = pages - 2; p >= 0; p--) {
    expect(at.prevCursor, `${label} page ${p + 1}`).toEqual(expect.any(String));
    at = await load(at.prevCursor!);
    expect(ids(at), `${label} page ${p} by prevCursor`).toEqual(slices[p]);
  }
  expect(at.prevCursor, `${label}: the first page has no previous`).toBeNull();
  const { page, at: n } = walk.byOffset;
  if (n + 1 < pages) expect(ids(await load(page.nextCursor!)), label).toEqual(slices[n + 1]);
  else expect(page.nextCursor, label).toBeNull();
  expect(ids(await load(page.prevCursor!)), label).toEqual(slices[n - 1]);
}

/** Each query of `bad` (why → query string) on `path` answers 400 with an error on the cursor parameter. */
export async function expectCursorsRefused(server: GatehouseServer, admin: TenantAdmin, path: string, bad: Record<string, string>): Promise<void> {
  for (const [why, query] of Object.entries(bad)) {
    const res = await callAs(server, admin, 'GET', `${path}&${query}`);
    expect(res.status, why).toBe(400);
    expect(res.body.errors.join(' '), why).toMatch(/^cursor: /);
  }
}

/** A cursor's decoded JSON, and JSON encoded as a cursor is: for tests that edit or forge one. */
export const decodeCursorJson = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
export const encodeCursorJson = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
