/**
 * GET /identity/resources/configurations/v1/sso/public (seed 000 section 7.3 "Public SSO
 * configuration"): whether SSO sign-in is active in the deployment, and nothing about which tenant,
 * domain or identity provider.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SSO_PUBLIC_CONFIGURATION_PATH, SsoPaths, type SsoConfiguration } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { startTestDns, type TestDns } from '../../test/dns-server';
import { call, describeDialects } from '../../test/harness';
import { createTestSamlIdp, type TestSamlIdp } from '../../test/saml-idp';
import { addValidatedDomain, path, tenantWithSso, uniqueDomain } from '../../test/sso-helpers';
import { tenantWithAdmin } from '../../test/admin-helpers';

let dns: TestDns;
let idp: TestSamlIdp;
beforeAll(async () => {
  dns = await startTestDns();
  idp = createTestSamlIdp();
});
afterAll(async () => {
  await dns?.stop();
});

const env = () => ({ SSO_DNS_SERVERS: dns.address, RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_SSO_PER_IP: '1000/600' });
const isActive = async (server: GatehouseServer) => {
  const res = await call(server, 'GET', SSO_PUBLIC_CONFIGURATION_PATH);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=60');
  return res.body;
};

describeDialects('public SSO configuration', (h) => {
  it('is active only while some tenant has an enabled, complete configuration with a validated domain', async () => {
    const server = await h.start(env());
    expect(await isActive(server)).toEqual({ isActive: false });

    // Incomplete (no IdP metadata yet) with a validated domain: no one can sign in with it.
    const admin = await tenantWithAdmin(server);
    const draft = await call<SsoConfiguration>(server, 'POST', SsoPaths.configurations, { token: admin.accessToken, body: { type: 'saml' } });
    expect(draft.status).toBe(201);
    await addValidatedDomain(server, dns, admin.accessToken, draft.body.id, uniqueDomain('draft'));
    expect(await isActive(server)).toEqual({ isActive: false });

    const tenant = await tenantWithSso(server, dns, { type: 'saml' }, async (token, configId) => {
      expect((await call(server, 'PUT', path(SsoPaths.metadata, { configId }), { token, body: { metadata: idp.metadata() } })).status).toBe(200);
    });
    const answer = await call(server, 'GET', SSO_PUBLIC_CONFIGURATION_PATH);
    // Exactly the flag: no tenant id, domain, configuration id or IdP address.
    expect(answer.body).toEqual({ isActive: true });
    for (const secret of [tenant.tenantId, tenant.domain, tenant.configId, tenant.adminEmail]) expect(JSON.stringify(answer.body)).not.toContain(secret);

    // Disabled by its admin: inactive again.
    expect((await call(server, 'PATCH', path(SsoPaths.configuration, { configId: tenant.configId }), { token: tenant.token, body: { enabled: false } })).status).toBe(200);
    expect(await isActive(server)).toEqual({ isActive: false });
  });

  it('answers the same to a signed-in caller and ignores what the query names', async () => {
    const server = await h.start(env());
    const admin = await tenantWithAdmin(server);
    const res = await call(server, 'GET', `${SSO_PUBLIC_CONFIGURATION_PATH}?tenantId=${admin.tenantId}&email=a@b.test`, { token: admin.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ isActive: false });
    expect((await call(server, 'POST', SSO_PUBLIC_CONFIGURATION_PATH, { body: { isActive: true } })).status).toBeGreaterThanOrEqual(400);
  });
});
