import { expect, it } from 'vitest';
import { BillingErrorCodes } from '@gatehouse/shared/wire';
import { insertPlan, subscribe } from '../../test/entitlement-helpers';
import { describeDialects, signUpAndActivate } from '../../test/harness';
import { SSO_IDP_CLIENT_ID, SSO_IDP_CLIENT_SECRET } from '../../test/oidc-idp';
import { oidcPeers, oidcSignIn, ssoEnv, tenantWithSso } from '../../test/sso-helpers';

const peers = oidcPeers();
const env = () => ssoEnv(peers.dns);

describeDialects('SSO just-in-time provisioning and seat limits', (h) => {
  it("refuses to provision a new user into a tenant whose plan's seats are all taken (403 ER-03009, no account made); a seat more lets them in", async () => {
    const server = await h.start(env());
    const tenant = await tenantWithSso(server, peers.dns, { type: 'oidc', oidc: { issuer: peers.idp.issuer, clientId: SSO_IDP_CLIENT_ID, clientSecret: SSO_IDP_CLIENT_SECRET, scopes: 'openid email profile' } });
    const planId = await insertPlan(server, { seatLimit: 1 });
    await subscribe(server, tenant.tenantId, planId);
    const email = `newcomer@${tenant.domain}`;

    const refused = await oidcSignIn(server, email);
    expect([refused.status, (refused.body as any).errorCode, (refused.body as any).errorContext]).toEqual([403, BillingErrorCodes.seatLimitReached, { limit: 1, used: 1 }]);
    expect(await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();

    await server.db.updateTable('plans').set({ seat_limit: 2 }).where('id', '=', planId).execute();
    expect((await oidcSignIn(server, email)).status).toBe(200);
  });

  it('existing accounts signing in by SSO at once cannot take the last seat together: one joins, the others are refused (403 ER-03009)', async () => {
    const server = await h.start(env());
    const tenant = await tenantWithSso(server, peers.dns, { type: 'oidc', oidc: { issuer: peers.idp.issuer, clientId: SSO_IDP_CLIENT_ID, clientSecret: SSO_IDP_CLIENT_SECRET, scopes: 'openid email profile' } });
    const planId = await insertPlan(server, { seatLimit: 2 });
    await subscribe(server, tenant.tenantId, planId);
    // Accounts that exist already (each with a tenant of its own), not yet members of the SSO tenant.
    const emails = [1, 2, 3, 4].map((i) => `existing-${i}-${Date.now()}@${tenant.domain}`);
    for (const email of emails) await signUpAndActivate(server, email);

    const results = await Promise.all(emails.map((email) => oidcSignIn(server, email)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403, 403]);
    for (const r of results.filter((x) => x.status === 403)) expect((r.body as any).errorCode).toBe(BillingErrorCodes.seatLimitReached);
    const members = await server.db.selectFrom('user_tenants').select('user_id').where('tenant_id', '=', tenant.tenantId).execute();
    expect(members).toHaveLength(2);
  });
});
