/**
 * What a password sign-in costs the database (issue 17), counted over HTTP on both dialects, and the
 * bookkeeping cut from its success path: the session, its refresh token, the last sign-in and the
 * audit record are written in one transaction, all or none; a user with no failures on record is
 * not written to clear them.
 */
import { ApiPaths } from '@gatehouse/shared/wire';
import { statSync } from 'node:fs';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { call, describeDialects, PASSWORD, signUpAndActivate } from '../../test/harness';
import { countStatements } from '../../test/statement-counter';

const ROOMY = { RATE_LIMIT_LOGIN_PER_IP: '1000/600' };

describeDialects('password sign-in statements', (h) => {
  it('signs in with at most 16 statements, 8 of them writes (30 and 9 before issue 17: the tenants and policies are read once, the catalogue and role grants come from the caches), and no write of the failure counter it does not need', async () => {
    const server = await h.start(ROOMY);
    const { email, userId } = await signUpAndActivate(server);
    const counted = await countStatements(server.db, async () => {
      const login = await call(server, 'POST', ApiPaths.login, { body: { email, password: PASSWORD } });
      expect(login.status).toBe(200);
    });
    const listing = counted.sql.join('\n');
    expect(counted.total, listing).toBeLessThanOrEqual(16);
    expect(counted.writes, listing).toBeLessThanOrEqual(8);
    expect(counted.sql.filter((s) => /^update "users" set "failed_logins"/.test(s)), listing).toEqual([]);
    // Failures on record are still cleared by the right password.
    expect((await call(server, 'POST', ApiPaths.login, { body: { email, password: 'not the password at all' } })).status).toBe(401);
    expect((await server.db.selectFrom('users').select('failed_logins').where('id', '=', userId).executeTakeFirstOrThrow()).failed_logins).toBe(1);
    expect((await call(server, 'POST', ApiPaths.login, { body: { email, password: PASSWORD } })).status).toBe(200);
    expect((await server.db.selectFrom('users').select('failed_logins').where('id', '=', userId).executeTakeFirstOrThrow()).failed_logins).toBe(0);
  });

  it('writes at most 36 pages of the SQLite database per sign-in (43 before migration 044): the last sign-in moves one copy on the memberships, not all ten sort indexes', async () => {
    if (h.dialect !== 'sqlite') return;
    const server = await h.start(ROOMY);
    const { email } = await signUpAndActivate(server);
    const db = server.db;
    const file = (await sql<{ file: string }>`pragma database_list`.execute(db)).rows[0]!.file;
    // The write-ahead log, emptied before the sign-in and not checkpointed during it, holds one frame
    // (a 24-byte header and a page) per page each commit wrote.
    await sql`pragma wal_autocheckpoint = 0`.execute(db);
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    expect(statSync(`${file}-wal`).size).toBe(0);
    const login = await call(server, 'POST', ApiPaths.login, { body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    const pageSize = Number((await sql<{ page_size: number }>`pragma page_size`.execute(db)).rows[0]!.page_size);
    const frames = (statSync(`${file}-wal`).size - 32) / (pageSize + 24);
    expect(Number.isInteger(frames)).toBe(true);
    expect(frames).toBeGreaterThan(0);
    expect(frames).toBeLessThanOrEqual(36);
  });

  it('keeps no session, last sign-in or audit record of a sign-in whose refresh token could not be stored', async () => {
    const server = await h.start(ROOMY);
    const { email, userId } = await signUpAndActivate(server);
    const before = await server.db.selectFrom('users').select('last_login').where('id', '=', userId).executeTakeFirstOrThrow();
    const sessionsBefore = await server.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute();
    const auditsBefore = await server.db.selectFrom('audits').select('id').where('user_id', '=', userId).where('action', '=', 'Signed in').execute();
    await sql`ALTER TABLE refresh_tokens RENAME TO refresh_tokens_unavailable`.execute(server.db);
    try {
      const login = await call(server, 'POST', ApiPaths.login, { body: { email, password: PASSWORD } });
      expect(login.status).toBe(500);
    } finally {
      await sql`ALTER TABLE refresh_tokens_unavailable RENAME TO refresh_tokens`.execute(server.db);
    }
    expect(await server.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).toEqual(sessionsBefore);
    expect(await server.db.selectFrom('audits').select('id').where('user_id', '=', userId).where('action', '=', 'Signed in').execute()).toEqual(auditsBefore);
    expect(await server.db.selectFrom('users').select('last_login').where('id', '=', userId).executeTakeFirstOrThrow()).toEqual(before);
  });
});
