import { expect, it } from 'vitest';
import { describeDialects, signUpAndActivate } from '../test/harness';
import { observeStatements } from './statement-observer';
import { precompiled, precompiledInsert, precompiledUpdateById, type Params } from './precompiled';

describeDialects('precompiled queries', (h) => {
  it('builds and compiles once per dialect, then answers each call with its own values, as the query built each time would', async () => {
    const server = await h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });
    const [a, b] = [await signUpAndActivate(server), await signUpAndActivate(server)];
    let builds = 0;
    const emailOf = precompiled((db, p: Params<{ id: string; verified: number }>) => {
      builds += 1;
      return db.selectFrom('users').select(['id', 'email']).where('id', '=', p.id).where('verified', '=', p.verified);
    });
    const texts: string[] = [];
    const stop = observeStatements(server.db, (q) => texts.push(q.sql));
    const answers = [await emailOf(server.db, { id: a.userId, verified: 1 }), await emailOf(server.db, { id: b.userId, verified: 1 }), await emailOf(server.db, { id: a.userId, verified: 0 })];
    stop();
    expect(answers.map((r) => r.rows)).toEqual([[{ id: a.userId, email: a.email }], [{ id: b.userId, email: b.email }], []]);
    const built = await server.db.selectFrom('users').select(['id', 'email']).where('id', '=', b.userId).where('verified', '=', 1).execute();
    expect(answers[1]!.rows).toEqual(built);
    expect(builds).toBe(1);
    expect(new Set(texts).size).toBe(1);
  });

  it('writes with stand-ins in set and where, inside a transaction too, and counts the rows it changed', async () => {
    const server = await h.start();
    const user = await signUpAndActivate(server);
    const rename = precompiled((db, p: Params<{ id: string; name: string }>) => db.updateTable('users').set({ name: p.name }).where('id', '=', p.id));
    expect(Number((await rename(server.db, { id: user.userId, name: 'Ada' })).numAffectedRows)).toBe(1);
    expect(Number((await server.db.transaction().execute((trx) => rename(trx, { id: 'nobody', name: 'x' }))).numAffectedRows)).toBe(0);
    expect((await server.db.selectFrom('users').select('name').where('id', '=', user.userId).executeTakeFirstOrThrow()).name).toBe('Ada');
  });

  it('refuses a query holding any other object as a value, and a call missing a value, naming the statement', async () => {
    const server = await h.start();
    const captured = precompiled((db) => db.selectFrom('users').selectAll().where('id', '=', { id: 'x' } as unknown as string));
    await expect(captured(server.db, {})).rejects.toThrow(/not a stand-in/);
    const byId = precompiled((db, p: Params<{ id: string }>) => db.selectFrom('users').selectAll().where('id', '=', p.id));
    await expect(byId(server.db, {} as { id: string })).rejects.toThrow(/no value for "id"/);
  });

  it('inserts rows whose columns vary by caller, compiled once per set of columns, leaving undefined columns to their defaults', async () => {
    const server = await h.start();
    const user = await signUpAndActivate(server);
    const insert = precompiledInsert('sessions');
    const row = (id: string, extra: Record<string, unknown> = {}) => ({ id, user_id: user.userId, tenant_id: user.tenantId, user_agent: null, ip: '192.0.2.1', created_at: 1, last_used_at: 2, expires_at: 3, revoked_at: null, auth_time: 1, amr: '["pwd"]', ...extra });
    const texts: string[] = [];
    const stop = observeStatements(server.db, (q) => texts.push(q.sql));
    await insert(server.db, row('pc-a'));
    await insert(server.db, row('pc-b', { login_origin: undefined }));
    await insert(server.db, row('pc-c', { login_origin: 'social' }));
    await server.db.transaction().execute((trx) => insert(trx, row('pc-d', { login_origin: 'sso' })));
    stop();
    // Two sets of columns: two texts, each the statement Kysely builds for that row.
    expect(new Set(texts).size).toBe(2);
    expect(texts[0]).toBe(server.db.insertInto('sessions').values(row('pc-a')).compile().sql);
    expect(texts[2]).toBe(server.db.insertInto('sessions').values(row('pc-c', { login_origin: 'social' })).compile().sql);
    const stored = await server.db.selectFrom('sessions').select(['id', 'ip', 'login_origin', 'expires_at']).where('id', 'like', 'pc-%').orderBy('id').execute();
    expect(stored).toEqual([
      { id: 'pc-a', ip: '192.0.2.1', login_origin: 'direct', expires_at: 3 },
      { id: 'pc-b', ip: '192.0.2.1', login_origin: 'direct', expires_at: 3 },
      { id: 'pc-c', ip: '192.0.2.1', login_origin: 'social', expires_at: 3 },
      { id: 'pc-d', ip: '192.0.2.1', login_origin: 'sso', expires_at: 3 },
    ]);
  });

  it('updates the row of an id with the columns a patch sets, runs nothing for a patch that sets none, and says whether a row changed', async () => {
    const server = await h.start();
    const user = await signUpAndActivate(server);
    const update = precompiledUpdateById('users');
    const texts: string[] = [];
    const stop = observeStatements(server.db, (q) => texts.push(q.sql));
    expect(await update(server.db, user.userId, { name: 'Ada', job_title: undefined })).toBe(true);
    expect(await update(server.db, user.userId, { name: undefined })).toBe(false);
    expect(await update(server.db, 'nobody', { name: 'Eve' })).toBe(false);
    expect(await update(server.db, user.userId, { name: 'Grace', job_title: 'Admiral' })).toBe(true);
    stop();
    expect(texts).toHaveLength(3);
    expect(new Set(texts).size).toBe(2);
    expect(await server.db.selectFrom('users').select(['name', 'job_title']).where('id', '=', user.userId).executeTakeFirstOrThrow()).toEqual({ name: 'Grace', job_title: 'Admiral' });
  });
});
