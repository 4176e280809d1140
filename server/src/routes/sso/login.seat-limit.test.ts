import { afterAll, beforeAll, expect, it } from 'vitest';
import { BillingErrorCodes, SsoPaths, type LoginResponse } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { startTestDns, type TestDns } from '../../test/dns-server';
import { insertPlan, subscribe } from '../../test/entitlement-helpers';
import { call, describeDialects, signUpAndActivate } from '../../test/harness';
import { signInAt, SSO_IDP_CLIENT_ID, SSO_IDP_CLIENT_SECRET, startTestOidcIdp, type TestOidcIdp } from '../../test/oidc-idp';
import { bindingHeader, OIDC_CALLBACK, startSso, tenantWithSso } from '../../test/sso-helpers';

let dns: TestDns;
let idp: TestOidcIdp;
beforeAll(async () => {
  dns = await startTestDns();
  idp = await startTestOidcIdp({ redirectUris: [OIDC_CALLBACK] });
});
afterAll(async () => {
  await idp?.stop();
  await dns?.stop();
});

const env = () => ({ SSO_DNS_SERVERS: dns.address, RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_SSO_PER_IP: '1000/600' });

async function ssoSignIn(server: GatehouseServer, email: string) {
  const started = await startSso(server, 'oidc', email);
  const back = await signInAt(started.address, email);
  const body = { code: back.searchParams.get('code')!, RelayState: back.searchParams.get('state')!, redirectUri: `${back.origin}${back.pathname}`, ...(back.searchParams.get('iss') ? { iss: back.searchParams.get('iss')! } : {}) };
  return call<LoginResponse>(server, 'POST', SsoPaths.oidcPostLogin, { body, headers: bindingHeader(server, started.binding) });
}

describeDialects('SSO just-in-time provisioning and seat limits', (h) => {
  it("refuses to provision a new user into a tenant whose plan's seats are all taken (403 ER-03009, no account made); a seat more lets them in", async () => {
    const server = await h.start(env());
    const tenant = await tenantWithSso(server, dns, { type: 'oidc', oidc: { issuer: idp.issuer, clientId: SSO_IDP_CLIENT_ID, clientSecret: SSO_IDP_CLIENT_SECRET, scopes: 'openid email profile' } });
    const planId = await insertPlan(server, { seatLimit: 1 });
    await subscribe(server, tenant.tenantId, planId);
    const email = `newcomer@${tenant.domain}`;

    const refused = await ssoSignIn(server, email);
    expect([refused.status, (refused.body as any).errorCode, (refused.body as any).errorContext]).toEqual([403, BillingErrorCodes.seatLimitReached, { limit: 1, used: 1 }]);
    expect(await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();

    await server.db.updateTable('plans').set({ seat_limit: 2 }).where('id', '=', planId).execute();
    expect((await ssoSignIn(server, email)).status).toBe(200);
  });

  it('existing accounts signing in by SSO at once cannot take the last seat together: one joins, the others are refused (403 ER-03009)', async () => {
    const server = await h.start(env());
    const tenant = await tenantWithSso(server, dns, { type: 'oidc', oidc: { issuer: idp.issuer, clientId: SSO_IDP_CLIENT_ID, clientSecret: SSO_IDP_CLIENT_SECRET, scopes: 'openid email profile' } });
    const planId = await insertPlan(server, { seatLimit: 2 });
    await subscribe(server, tenant.tenantId, planId);
    // Accounts that exist already (each with a tenant of its own), not yet members of the SSO tenant.
    const emails = [1, 2, 3, 4].map((i) => `existing-${i}-${Date.now()}@${tenant.domain}`);
    for (const email of emails) await signUpAndActivate(server, email);

    const results = await Promise.all(emails.map((email) => ssoSignIn(server, email)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403, 403]);
    for (const r of results.filter((x) => x.status === 403)) expect((r.body as any).errorCode).toBe(BillingErrorCodes.seatLimitReached);
    const members = await server.db.selectFrom('user_tenants').select('user_id').where('tenant_id', '=', tenant.tenantId).execute();
    expect(members).toHaveLength(2);
  });
});
