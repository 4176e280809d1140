/**
 * Regression (issue 12 review): the concurrent-session limit was applied only where a session
 * starts, so a member of a tenant with a limit signed in to another of their tenants as often as they
 * liked and moved every one of those sessions into it (`PUT /identity/resources/users/v1/tenant`, or
 * a refresh naming `tenantId`), holding more than the maximum there. Both dialects.
 */
import { ApiPaths, SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, memberWithoutPermissions, signIn, tenantWithAdmin } from '../../test/admin-helpers';
import { call, describeDialects } from '../../test/harness';
import { liveSessionIds, RATE_LIMITS, sessionsPolicy } from '../../test/sessions-policy-helpers';

describeDialects('concurrent-session limit when sessions move into the tenant', (h) => {
  it('keeps at most maxSessions in the tenant, the session that just moved in among them', async () => {
    const server = await h.start(RATE_LIMITS);
    const limited = await tenantWithAdmin(server, 'limited');
    const member = await memberWithoutPermissions(server, limited.tenantId);
    expect((await callAs(server, limited, 'POST', SecurityPaths.sessionsPolicy, { body: sessionsPolicy({ max: 1 }) })).status).toBe(200);
    const ownSessions = async () => (await server.db.selectFrom('sessions').select('id').where('user_id', '=', member.userId).where('tenant_id', '=', limited.tenantId).where('revoked_at', 'is', null).execute()).length;

    // Three sign-ins to their own tenant (no limit there).
    const logins = [await signIn(server, member.email), await signIn(server, member.email), await signIn(server, member.email)];
    for (const l of logins) expect(l.status).toBe(200);

    // The newest moves in by PUT, then the oldest by PUT: the one that moved in last stays.
    const second = await call(server, 'PUT', ApiPaths.switchTenant, { token: logins[2]!.body.accessToken, body: { tenantId: limited.tenantId } });
    expect(second.status).toBe(200);
    const first = await call(server, 'PUT', ApiPaths.switchTenant, { token: logins[0]!.body.accessToken, body: { tenantId: limited.tenantId } });
    expect(first.status).toBe(200);
    expect(await ownSessions()).toBe(1);
    expect((await call(server, 'GET', ApiPaths.meAuthorization, { token: first.body.accessToken })).status).toBe(200);
    expect((await call(server, 'GET', ApiPaths.meAuthorization, { token: second.body.accessToken })).status).toBe(401);

    // And by a refresh naming the tenant.
    const refreshed = await call(server, 'POST', ApiPaths.refresh, { cookie: logins[1]!.refreshCookie!, body: { tenantId: limited.tenantId } });
    expect(refreshed.status).toBe(200);
    expect(await ownSessions()).toBe(1);
    expect((await call(server, 'GET', ApiPaths.meAuthorization, { token: refreshed.body.accessToken })).status).toBe(200);
    expect((await call(server, 'GET', ApiPaths.meAuthorization, { token: first.body.accessToken })).status).toBe(401);
    expect(await liveSessionIds(server, limited.tenantId, Date.now())).toHaveLength(2); // the admin's own and the member's one
  });
});
