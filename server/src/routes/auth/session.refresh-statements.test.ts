/**
 * A refresh at scale (issue 17): its statements and writes are counted, so a regression that adds a
 * lookup or a write fails here; the rotation's compare-and-swap holds across two servers.
 */
import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { call, describeDialects, signUpAndActivate } from '../../test/harness';
import { countStatements, isWrite } from '../../test/statement-counter';

describeDialects('refresh rotation, statements and races (issue 17)', (h) => {
  const env = { RATE_LIMIT_SIGNUP_PER_IP: '1000/60', RATE_LIMIT_REFRESH_PER_IP: '1000/60' };

  it('runs at most 16 statements with 3 writes (spend the token, touch the session, insert the next; on PostgreSQL as one statement), and writes nothing to the rate limits', async () => {
    const server = await h.start(env);
    const user = await signUpAndActivate(server);
    const counted = await countStatements(server.db, async () => {
      const res = await call(server, 'POST', ApiPaths.refresh, { cookie: user.cookie });
      expect(res.status).toBe(200);
      expect(res.refreshCookie).toBeTruthy();
    });
    expect(counted.total, counted.sql.join('\n')).toBeLessThanOrEqual(16);
    const writes = counted.sql.filter((text) => isWrite({ sql: text, query: { kind: 'RawNode' } } as never));
    if (h.dialect === 'postgres') {
      // One round trip: a statement whose WITH entries spend, touch and insert.
      expect(writes, counted.sql.join('\n')).toHaveLength(1);
      expect(writes[0]).toMatch(/update refresh_tokens set used_at[\s\S]*update sessions set last_used_at[\s\S]*insert into refresh_tokens/);
    } else expect(counted.writes, counted.sql.join('\n')).toBe(3);
    expect(counted.writes).toBe(writes.length);
    expect(counted.sql.filter((s) => /rate_limits/.test(s)).every((s) => /^select/i.test(s))).toBe(true);
  });

  it('a refused refresh is counted (a write to the rate limits) before its 401', async () => {
    const server = await h.start(env);
    const counted = await countStatements(server.db, async () => expect((await call(server, 'POST', ApiPaths.refresh, { cookie: 'not-a-refresh-token' })).status).toBe(401));
    expect(counted.sql.some((s) => /rate_limits/.test(s) && /^insert/i.test(s))).toBe(true);
  });

  it('one refresh token presented twice at once (two servers on PostgreSQL): exactly one rotates it, the other is a reuse that revokes the session', async () => {
    const a = await h.start(env);
    // better-sqlite3 waits for a lock synchronously, so two SQLite servers in one test process would
    // block each other's event loop inside a transaction: on SQLite both calls go to one server, whose
    // reads both find the token unused before either transaction runs, so the swap alone decides.
    const b = h.dialect === 'postgres' ? await h.start(env) : a;
    const user = await signUpAndActivate(a);
    const results = await Promise.all([call(a, 'POST', ApiPaths.refresh, { cookie: user.cookie }), call(b, 'POST', ApiPaths.refresh, { cookie: user.cookie })]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 401]);
    const loser = results.find((r) => r.status === 401)!;
    expect(loser.body.errorCode).toBe(ErrorCodes.refreshTokenReused);
    // The whole family ends: the winner's new token is refused too, on either server.
    const winner = results.find((r) => r.status === 200)!;
    expect((await call(b, 'POST', ApiPaths.refresh, { cookie: winner.refreshCookie })).status).toBe(401);
  });
});
