/**
 * The tenant's MFA policy at SSO sign-in (issue 12): ForceExceptSAML exempts SAML sign-ins only, so
 * an OIDC sign-in of the same policy must pass MFA; Force asks both.
 */
import { beforeAll, expect, it } from 'vitest';
import { SecurityPaths, SsoPaths, type LoginResponse, type SsoConfiguration } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { callAs } from '../../test/admin-helpers';
import { call, describeDialects } from '../../test/harness';
import { SSO_IDP_CLIENT_ID, SSO_IDP_CLIENT_SECRET } from '../../test/oidc-idp';
import { createTestSamlIdp, type TestSamlIdp } from '../../test/saml-idp';
import { bindingHeader, oidcPeers, oidcSignIn, path, postToAcs, ssoEnv, startSso, tenantWithSso, type SsoTenant } from '../../test/sso-helpers';

const peers = oidcPeers();
let saml: TestSamlIdp;
beforeAll(() => {
  saml = createTestSamlIdp();
});

const env = () => ssoEnv(peers.dns);

async function samlSignIn(server: GatehouseServer, tenant: SsoTenant, email: string) {
  const started = await startSso(server, 'saml', email);
  const request = saml.readRequest(started.address);
  const answer = saml.answer(request, `${server.config.publicUrl}${path(SsoPaths.samlMetadata, { configId: tenant.configId })}`, { email, groups: [] });
  const acs = await postToAcs(server, tenant.configId, answer, request.relayState ?? undefined);
  const code = new URL(acs.headers.get('location')!).searchParams.get('code')!;
  return call<LoginResponse>(server, 'POST', SsoPaths.samlPostLogin, { body: { code }, headers: bindingHeader(server, started.binding) });
}

const setMfa = async (server: GatehouseServer, tenant: SsoTenant, enforceMFAType: string) =>
  expect((await callAs(server, { accessToken: tenant.token }, 'PATCH', SecurityPaths.mfaPolicy, { body: { enforceMFAType } })).status).toBe(200);

describeDialects('MFA policy at SSO sign-in', (h) => {
  it('ForceExceptSAML lets a SAML sign-in through without MFA; Force asks for it', async () => {
    const server = await h.start(env());
    const tenant = await tenantWithSso(server, peers.dns, { type: 'saml' }, async (token, configId) => {
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
    const tenant = await tenantWithSso(server, peers.dns, { type: 'oidc', oidc: { issuer: peers.idp.issuer, clientId: SSO_IDP_CLIENT_ID, clientSecret: SSO_IDP_CLIENT_SECRET, scopes: 'openid email profile' } });
    await setMfa(server, tenant, 'ForceExceptSAML');
    const res = await oidcSignIn(server, `olga@${tenant.domain}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mfaRequired: true, accessToken: '' });
  });
});
