/**
 * A refresh at scale (issue 17): its statements and writes are counted, so a regression that adds a
 * lookup or a write fails here; the rotation's compare-and-swap holds across two servers.
 */
import { ApiPaths, ENTITLEMENTS_CLAIM, ErrorCodes } from '@gatehouse/shared/wire';
import { decodeJwt } from 'jose';
import { expect, it } from 'vitest';
import { listUserTenants } from '../../db/queries/tenants';
import { loadAuthorization } from '../../services/admin/tenants';
import { createEntitlements } from '../../services/entitlements';
import { systemClock } from '../../clock';
import { call, describeDialects, signUpAndActivate } from '../../test/harness';
import { countStatements, isWrite } from '../../test/statement-counter';

describeDialects('refresh rotation, statements and races (issue 17)', (h) => {
  const env = { RATE_LIMIT_SIGNUP_PER_IP: '1000/60', RATE_LIMIT_REFRESH_PER_IP: '1000/60' };

  it('runs at most 4 statements with 3 writes, on PostgreSQL 2 with the writes as one (one read of the token with its session, user, tenants, roles, entitlement grants and the rate limit window; the rotation), and writes nothing to the rate limits', async () => {
    const server = await h.start(env);
    const user = await signUpAndActivate(server);
    const counted = await countStatements(server.db, async () => {
      const res = await call(server, 'POST', ApiPaths.refresh, { cookie: user.cookie });
      expect(res.status).toBe(200);
      expect(res.refreshCookie).toBeTruthy();
    });
    expect(counted.total, counted.sql.join('\n')).toBeLessThanOrEqual(h.dialect === 'postgres' ? 2 : 4);
    const writes = counted.sql.filter((text) => isWrite({ sql: text, query: { kind: 'RawNode' } } as never));
    if (h.dialect === 'postgres') {
      // One round trip: a statement whose WITH entries spend, touch and insert.
      expect(writes, counted.sql.join('\n')).toHaveLength(1);
      expect(writes[0]).toMatch(/update refresh_tokens set used_at[\s\S]*update sessions set last_used_at[\s\S]*insert into refresh_tokens/);
    } else expect(counted.writes, counted.sql.join('\n')).toBe(3);
    expect(counted.writes).toBe(writes.length);
    expect(counted.sql.filter((s) => /rate_limits/.test(s)).every((s) => /^select/i.test(s))).toBe(true);
  });

  it("mints the refreshed token from its one read: the user's active tenants in membership order, their own and their groups' roles, their current name", async () => {
    const server = await h.start(env);
    const user = await signUpAndActivate(server);
    const db = server.db;
    const session = await db.selectFrom('sessions').select(['user_id', 'tenant_id']).where('user_id', '=', user.userId).executeTakeFirstOrThrow();
    const home = session.tenant_id;
    const now = Date.now();
    // Five more tenants, joined one after the other: active, disabled, locked, ended, ending tomorrow.
    const others = ['active', 'disabled', 'locked', 'ended', 'ending'].map((state, i) => ({ id: `t-${state}-${user.userId.slice(0, 8)}`, state, joined: now + i + 1 }));
    await db.insertInto('tenants').values(others.map((t) => ({ id: t.id, name: t.state, is_reseller: 0, application_url: null, metadata: null, created_at: now }))).execute();
    await db
      .insertInto('user_tenants')
      .values(
        others.map((t) => ({
          user_id: user.userId,
          tenant_id: t.id,
          created_at: t.joined,
          disabled_at: t.state === 'disabled' ? now : null,
          admin_locked_at: t.state === 'locked' ? now : null,
          expires_at: t.state === 'ended' ? now - 1_000 : t.state === 'ending' ? now + 86_400_000 : null,
        })),
      )
      .execute();
    // A role through a group of the session's tenant, and a role of another tenant through a group of this one (not held).
    await db.insertInto('roles').values([
      { id: `r-viewer-${user.userId}`, tenant_id: home, key: 'Viewer', name: 'Viewer', description: null, is_default: 0, created_at: now },
      { id: `r-elsewhere-${user.userId}`, tenant_id: others[0]!.id, key: 'Elsewhere', name: 'Elsewhere', description: null, is_default: 0, created_at: now },
    ]).execute();
    await db.insertInto('groups').values({ id: `g-${user.userId}`, tenant_id: home, name: 'Readers', description: null, color: null, metadata: null, managed_by: null, created_at: now, updated_at: now }).execute();
    await db.insertInto('group_roles').values([{ group_id: `g-${user.userId}`, role_id: `r-viewer-${user.userId}` }, { group_id: `g-${user.userId}`, role_id: `r-elsewhere-${user.userId}` }]).execute();
    await db.insertInto('group_users').values({ group_id: `g-${user.userId}`, user_id: user.userId, created_at: now }).execute();
    await db.updateTable('users').set({ name: 'Renamed Since Sign-in' }).where('id', '=', user.userId).execute();
    // Entitlement grants: to the tenant (every user), to this user (expiring), to another user, and in another tenant.
    const tag = user.userId.slice(0, 8);
    const someoneElse = await signUpAndActivate(server);
    await db.insertInto('features').values(['tenant-wide', 'mine', 'theirs', 'elsewhere'].map((key) => ({ id: `f-${key}-${tag}`, key: `${key}-${tag}`, name: key, created_at: now, updated_at: now }))).execute();
    await db.insertInto('entitlement_grants').values([
      { id: `eg-1-${tag}`, feature_id: `f-tenant-wide-${tag}`, tenant_id: home, user_id: null, expires_at: null, created_by: null, created_at: now },
      { id: `eg-2-${tag}`, feature_id: `f-mine-${tag}`, tenant_id: home, user_id: user.userId, expires_at: now + 86_400_000, created_by: null, created_at: now + 1 },
      { id: `eg-3-${tag}`, feature_id: `f-theirs-${tag}`, tenant_id: home, user_id: someoneElse.userId, expires_at: null, created_by: null, created_at: now + 2 },
      { id: `eg-4-${tag}`, feature_id: `f-elsewhere-${tag}`, tenant_id: others[0]!.id, user_id: user.userId, expires_at: null, created_by: null, created_at: now + 3 },
    ]).execute();

    const res = await call(server, 'POST', ApiPaths.refresh, { cookie: user.cookie });
    expect(res.status).toBe(200);
    const claims = decodeJwt(res.body.accessToken as string);
    // What the separate reads answer (listUserTenants, loadAuthorization) is what the token says.
    expect(claims.tenantIds).toEqual((await listUserTenants(db, user.userId, Date.now())).map((t) => t.id));
    expect(claims.tenantIds).toEqual([home, others[0]!.id, others[4]!.id]);
    const authz = await loadAuthorization(db, user.userId, home);
    expect(claims.roles).toEqual(authz.roles.map((r) => r.key));
    expect([...(claims.roles as string[])].sort()).toEqual(['Admin', 'Viewer']);
    expect(claims.permissions).toEqual(authz.permissions.map((p) => p.key));
    expect(claims.name).toBe('Renamed Since Sign-in');
    // The entitlements claim, as the entitlements service computes it with its own reads.
    const expected = await createEntitlements({ db, clock: systemClock, config: server.config }).tokenClaim({ userId: user.userId, tenantId: home, email: claims.email as string, emailVerified: true, claims });
    expect(claims[ENTITLEMENTS_CLAIM]).toEqual(expected);
    expect(Object.keys(expected.f).filter((k) => k.endsWith(tag)).sort()).toEqual([`mine-${tag}`, `tenant-wide-${tag}`]);
    expect(expected.f[`mine-${tag}`]).toBe(now + 86_400_000);

    // Disabled since: the next refresh is refused and ends the session.
    await db.updateTable('users').set({ disabled: 1 }).where('id', '=', user.userId).execute();
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: res.refreshCookie })).status).toBe(401);
    expect((await db.selectFrom('sessions').select('revoked_at').where('user_id', '=', user.userId).executeTakeFirstOrThrow()).revoked_at).not.toBeNull();
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
