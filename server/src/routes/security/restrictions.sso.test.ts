/**
 * Restrictions at an SSO (SAML) sign-in: the tenant's email-domain restrictions decide before the
 * first sign-in creates the user in the tenant (403 ER-02803), and its IP restrictions before any
 * session is made (403 ER-IP-RESTRICTED). The server trusts X-Forwarded-For here.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SecurityErrorCodes, SecurityPaths, SsoPaths } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { startTestDns, type TestDns } from '../../test/dns-server';
import { call, describeDialects } from '../../test/harness';
import { createTestSamlIdp, type TestSamlIdp } from '../../test/saml-idp';
import { bindingHeader, path, postToAcs, startSso, tenantWithSso, type SsoTenant } from '../../test/sso-helpers';

let dns: TestDns;
let idp: TestSamlIdp;
beforeAll(async () => {
  dns = await startTestDns();
  idp = createTestSamlIdp();
});
afterAll(async () => {
  await dns?.stop();
});

const GOOD = '203.0.113.10';
const BAD = '198.51.100.66';
const env = () => ({ TRUST_PROXY: 'true', SSO_DNS_SERVERS: dns.address, RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_SSO_PER_IP: '1000/600' });

async function samlTenant(server: GatehouseServer): Promise<SsoTenant> {
  return tenantWithSso(server, dns, { type: 'saml' }, async (token, configId) => {
    expect((await call(server, 'PUT', path(SsoPaths.metadata, { configId }), { token, body: { metadata: idp.metadata() } })).status).toBe(200);
  });
}

/** A whole SAML sign-in of `email`, its code redeemed from `ip`. */
async function ssoSignIn(server: GatehouseServer, tenant: SsoTenant, email: string, ip: string) {
  const started = await startSso(server, 'saml', email);
  const request = idp.readRequest(started.address);
  const answer = idp.answer(request, `${server.config.publicUrl}${path(SsoPaths.samlMetadata, { configId: tenant.configId })}`, { email, groups: [] });
  const acs = await postToAcs(server, tenant.configId, answer, request.relayState ?? undefined);
  const code = new URL(acs.headers.get('location') ?? '').searchParams.get('code');
  expect(code, 'the ACS issued a code').toBeTruthy();
  return call(server, 'POST', SsoPaths.samlPostLogin, { body: { code }, headers: { ...bindingHeader(server, started.binding), 'x-forwarded-for': ip } });
}

const userByEmail = (server: GatehouseServer, email: string) => server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();

describeDialects('restrictions at an SSO sign-in', (h) => {
  it("refuses the first SSO sign-in of an address the tenant's email-domain restrictions refuse, and creates no user", async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const admin = (method: string, p: string, body: unknown) => call(server, method, p, { token: tenant.token, body, headers: { 'x-forwarded-for': GOOD } });
    expect((await admin('POST', SecurityPaths.emailDomainRestrictions, { domain: 'elsewhere.example', type: 'ALLOW' })).status).toBe(201);
    expect((await admin('POST', SecurityPaths.emailDomainRestrictionsConfig, { active: true, listType: 'ALLOW', blockPublicDomains: false })).status).toBe(200);

    const email = `jane@${tenant.domain}`;
    const refused = await ssoSignIn(server, tenant, email, GOOD);
    expect([refused.status, refused.body.errorCode]).toEqual([403, SecurityErrorCodes.emailDomainRestricted]);
    expect(await userByEmail(server, email)).toBeUndefined();

    expect((await admin('POST', SecurityPaths.emailDomainRestrictions, { domain: tenant.domain, type: 'ALLOW' })).status).toBe(201);
    const ok = await ssoSignIn(server, tenant, email, GOOD);
    expect(ok.status).toBe(200);
    expect(await userByEmail(server, email)).toBeDefined();
  });

  it("gives no session to an SSO sign-in from a network the tenant's IP restrictions keep out", async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const admin = (method: string, p: string, body: unknown) => call(server, method, p, { token: tenant.token, body, headers: { 'x-forwarded-for': GOOD } });
    expect((await admin('POST', SecurityPaths.ipRestrictions, { ip: '203.0.113.0/24', strategy: 'ALLOW' })).status).toBe(201);
    expect((await admin('POST', SecurityPaths.ipRestrictionsConfig, { isActive: true, strategy: 'ALLOW' })).status).toBe(200);

    const refused = await ssoSignIn(server, tenant, `sam@${tenant.domain}`, BAD);
    expect([refused.status, refused.body.errorCode]).toEqual([403, SecurityErrorCodes.ipRestricted]);
    expect(refused.refreshCookie).toBeUndefined();
    const ok = await ssoSignIn(server, tenant, `sam@${tenant.domain}`, GOOD);
    expect(ok.status).toBe(200);
    expect(ok.body.accessToken).toBeTruthy();
  });
});
