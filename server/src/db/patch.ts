/**
 * Updates fed by optional fields. Kysely drops undefined values from `.set()`, and an UPDATE (or an
 * ON CONFLICT DO UPDATE) with an empty SET is invalid SQL on both dialects ("syntax error at or near
 * where"), so every query that writes a caller's patch asks `changesOf` first and does nothing when
 * the patch changes nothing.
 */

/** The entries of `patch` that set a value, or undefined when there are none. */
export function changesOf<T extends object>(patch: T): Partial<T> | undefined {
  const entries = Object.entries(patch).filter(([, value]) => value !== undefined);
  return entries.length > 0 ? (Object.fromEntries(entries) as Partial<T>) : undefined;
}
