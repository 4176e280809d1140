import { SqliteDialect, SqliteQueryCompiler, ValueNode, type LimitNode, type QueryCompiler } from 'kysely';

/**
 * SQLite's query compiler with a builder's integer LIMIT written into the statement's text
 * (`limit 20`) instead of bound as a parameter (`limit ?`).
 *
 * SQLite (3.53, in better-sqlite3 12) reads a bound LIMIT's value while it prepares a statement
 * (a small limit can make another plan cheaper), so it marks the statement as depending on that
 * parameter, and binding it again, even to the same value, expires the statement: every run of a
 * cached statement with `limit ?` was prepared again from its text. perf showed those
 * re-prepares at 2% of a sign-in's main thread (a tenant's subscription, read with `limit 1`;
 * the outbox and job-queue leases). A literal limit is planned once per distinct text, and the
 * texts stay few: the server's limits are constants and page sizes.
 *
 * Only a safe integer is written, so no caller's value can become SQL; any other limit (an
 * expression, a bigint, a non-integer) stays a parameter. PostgreSQL plans a parameter without
 * this cost and keeps its compiler.
 */
export class LiteralLimitSqliteCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    const limit = node.limit;
    if (ValueNode.is(limit) && typeof limit.value === 'number' && Number.isSafeInteger(limit.value)) {
      this.append(`limit ${limit.value}`);
      return;
    }
    super.visitLimit(node);
  }
}

/** Kysely's SQLite dialect with LiteralLimitSqliteCompiler. */
export class GatehouseSqliteDialect extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new LiteralLimitSqliteCompiler();
  }
}
