import { expect, it } from 'vitest';
import { describeDialects, signUpAndActivate } from '../test/harness';
import { observeStatements } from './statement-observer';
import { precompiled, type Params } from './precompiled';

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
});
