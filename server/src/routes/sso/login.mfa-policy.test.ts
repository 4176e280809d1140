/**
 * The tenant's MFA policy at SSO sign-in (issue 12): ForceExceptSAML exempts SAML sign-ins only, so
 * an OIDC sign-in of the same policy must pass MFA; Force asks both.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SecurityPaths, SsoPaths, type LoginResponse, type SsoConfiguration } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { callAs } from '../../test/admin-helpers';
import { startTestDns, type TestDns } from '../../test/dns-server';
import { call, describeDialects } from '../../test/harness';
import { signInAt, SSO_IDP_CLIENT_ID, SSO_IDP_CLIENT_SECRET, startTestOidcIdp, type TestOidcIdp } from '../../test/oidc-idp';
import { createTestSamlIdp, type TestSamlIdp } from '../../test/saml-idp';
import { bindingHeader, OIDC_CALLBACK, path, postToAcs, startSso, tenantWithSso, type SsoTenant } from '../../test/sso-helpers';

let dns: TestDns;
let saml: TestSamlIdp;
let oidc: TestOidcIdp;
beforeAll(async () => {
  dns = await startTestDns();
  saml = createTestSamlIdp();
  oidc = await startTestOidcIdp({ redirectUris: [OIDC_CALLBACK] });
});
afterAll(async () => {
  await oidc?.stop();
  await dns?.stop();
});

const env = () => ({ SSO_DNS_SERVERS: dns.address, RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_SSO_PER_IP: '1000/600' });

async function samlSignIn(server: GatehouseServer, tenant: SsoTenant, email: string) {
  const started = await startSso(server, 'saml', email);
  const request = saml.readRequest(started.address);
  const answer = saml.answer(request, `${server.config.publicUrl}${path(SsoPaths.samlMetadata, { configId: tenant.configId })}`, { email, groups: [] });
  const acs = await postToAcs(server, tenant.configId, answer, request.relayState ?? undefined);
  const code = new URL(acs.headers.get('location')!).searchParams.get('code')!;
  return call<LoginResponse>(server, 'POST', SsoPaths.samlPostLogin, { body: { code }, headers: bindingHeader(server, started.binding) });
}

async function oidcSignIn(server: GatehouseServer, email: string) {
  const started = await startSso(server, 'oidc', email);
  const back = await signInAt(started.address, email);
  const body = { code: back.searchParams.get('code')!, RelayState: back.searchParams.get('state')!, redirectUri: `${back.origin}${back.pathname}`, ...(back.searchParams.get('iss') ? { iss: back.searchParams.get('iss')! } : {}) };
  return call<LoginResponse>(server, 'POST', SsoPaths.oidcPostLogin, { body, headers: bindingHeader(server, started.binding) });
}

const setMfa = async (server: GatehouseServer, tenant: SsoTenant, enforceMFAType: string) =>
  expect((await callAs(server, { accessToken: tenant.token }, 'PATCH', SecurityPaths.mfaPolicy, { body: { enforceMFAType } })).status).toBe(200);

describeDialects('MFA policy at SSO sign-in', (h) => {
  it('ForceExceptSAML lets a SAML sign-in through without MFA; Force asks for it', async () => {
    const server = await h.start(env());
    const tenant = await tenantWithSso(server, dns, { type: 'saml' }, async (token, configId) => {
      expect((await call<SsoConfiguration>(server, 'PUT', path(SsoPaths.metadata, { configId }), { token, body: { metadata: saml.metadata() } })).status).toBe(200);
    });
    await setMfa(server, tenant, 'ForceExceptSAML');
    const email = `jane@${tenant.domain}`;
    const exempt = await samlSignIn(server, tenant, email);
    expect(exempt.status).toBe(200);
    expect(exempt.body.mfaRequired).toBe(false);
    expect(exempt.body.accessToken).not.toBe('');

    await setMfa(server, tenant, 'Force');
    const forced = await samlSignIn(server, tenant, email);
    expect(forced.body).toMatchObject({ mfaRequired: true, accessToken: '' });
  });

  it('ForceExceptSAML asks an OIDC sign-in for MFA', async () => {
    const server = await h.start(env());
    const tenant = await tenantWithSso(server, dns, { type: 'oidc', oidc: { issuer: oidc.issuer, clientId: SSO_IDP_CLIENT_ID, clientSecret: SSO_IDP_CLIENT_SECRET, scopes: 'openid email profile' } });
    await setMfa(server, tenant, 'ForceExceptSAML');
    const res = await oidcSignIn(server, `olga@${tenant.domain}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mfaRequired: true, accessToken: '' });
  });
});
