/**
 * A unique index refusing a row, on either dialect. Check-then-insert races: on PostgreSQL two
 * requests both pass the check and the loser's insert fails on the index; SQLite serializes writes,
 * so there the check usually wins. Services that insert under a unique rule catch this and answer
 * with their own 409; the HTTP error handler maps any left over to a generic 409.
 */

/** PostgreSQL SQLSTATE 23505 (unique_violation); better-sqlite3's unique and primary-key constraint codes. */
const UNIQUE_VIOLATION_CODES: ReadonlySet<unknown> = new Set(['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

/** Whether `error` is a unique (or primary key) violation raised by the database. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && UNIQUE_VIOLATION_CODES.has((error as { code?: unknown }).code);
}
