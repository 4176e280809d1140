import { sql, type Kysely, type Migration } from 'kysely';
import { normalizePhoneNumber } from '../../services/platform/phone';
import type { DialectName } from './index';

/**
 * SMS sign-in and sign-up by phone number (seed 000 sections 1, 3, 4.2).
 * - `users.email` becomes nullable: an account made by phone sign-up has no email (nor password).
 *   The unique constraint stays; NULLs never collide in it, on either dialect.
 * - `users.phone_verified` (0/1): the number was proven by a texted code. Only a verified number
 *   is used to sign in, and at most one user holds a given verified number (a partial unique index).
 * - Existing `users.phone_number` values are rewritten in E.164 where they parse (the profile stored
 *   them as typed); the others are kept as they are (none of them is verified).
 * PostgreSQL drops the NOT NULL in place. SQLite cannot, so the table is rebuilt by SQLite's own
 * recipe (https://www.sqlite.org/lang_altertable.html#otheralter): foreign keys off (they would turn
 * the DROP into a cascade delete of every user's sessions, tenants and codes), copy into a new
 * table, drop, rename, recreate the indexes, check the foreign keys, commit, foreign keys on.
 */
export function smsLoginMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('users').addColumn('phone_verified', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      if (dialect === 'postgres') await db.schema.alterTable('users').alterColumn('email', (c) => c.dropNotNull()).execute();
      else await makeSqliteEmailNullable(db);

      const phones = await db.selectFrom('users').select(['id', 'phone_number']).where('phone_number', 'is not', null).execute();
      for (const { id, phone_number: typed } of phones as { id: string; phone_number: string }[]) {
        const e164 = normalizePhoneNumber(typed);
        if (e164 && e164 !== typed) await db.updateTable('users').set({ phone_number: e164 }).where('id', '=', id).execute();
      }
      await db.schema.createIndex('users_verified_phone').on('users').column('phone_number').unique().where(sql.ref('phone_verified'), '=', 1).execute();
    },
    async down(db: Kysely<any>) {
      // users.email stays nullable: restoring NOT NULL would fail (or lose accounts) once phone-only users exist.
      await db.schema.dropIndex('users_verified_phone').execute();
      await db.schema.alterTable('users').dropColumn('phone_verified').execute();
    },
  };
}

/** The column definition Kysely wrote in 001_initial, and what it becomes. */
const EMAIL_NOT_NULL = /"email" text not null unique/i;
const EMAIL_NULLABLE = '"email" text unique';

async function makeSqliteEmailNullable(db: Kysely<any>): Promise<void> {
  const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'users'`.execute(db);
  const createSql = table.rows[0]?.sql ?? '';
  if (!EMAIL_NOT_NULL.test(createSql)) throw new Error(`users.email is not defined as expected (${createSql.slice(0, 120)}...)`);
  const createNew = createSql.replace(EMAIL_NOT_NULL, EMAIL_NULLABLE).replace(/^create table "?users"?/i, 'create table "users_rebuilt"');
  // Explicit indexes only (sql is null for the unique constraints' automatic ones, which come back with the table).
  const indexes = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = 'users' and sql is not null`.execute(db);

  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(createNew).execute(trx);
      // Same definition, same column order: a plain copy keeps every row and value.
      await sql`insert into "users_rebuilt" select * from "users"`.execute(trx);
      await sql`drop table "users"`.execute(trx);
      await sql`alter table "users_rebuilt" rename to "users"`.execute(trx);
      for (const index of indexes.rows) await sql.raw(index.sql).execute(trx);
      const broken = await sql<Record<string, unknown>>`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error(`rebuilding users broke ${broken.rows.length} foreign key reference(s)`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
