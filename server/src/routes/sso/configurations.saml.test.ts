/**
 * The SAML configuration saved by hand (PUT .../configurations/{configId}/saml) and seed 001 section
 * 5's rules: saved only when a domain is set; changing the domain clears the SSO endpoint, the
 * certificate and the sign-request flag. And the audit record of every SSO configuration change.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SsoPaths, type LoginResponse, type SsoConfiguration } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { auditsOf } from '../../test/admin-helpers';
import { startTestDns, type TestDns } from '../../test/dns-server';
import { call, describeDialects, signUpAndActivate } from '../../test/harness';
import { createTestSamlIdp, makeKeyPair, type TestSamlIdp } from '../../test/saml-idp';
import { bindingHeader, path, postToAcs, startSso, tenantRoles, uniqueDomain } from '../../test/sso-helpers';

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

async function samlConfig(server: GatehouseServer) {
  const admin = await signUpAndActivate(server);
  const created = await call<SsoConfiguration>(server, 'POST', SsoPaths.configurations, { token: admin.accessToken, body: { type: 'saml' } });
  expect(created.status).toBe(201);
  const save = (body: Record<string, unknown>) => call<SsoConfiguration & { errors: string[] }>(server, 'PUT', path(SsoPaths.saml, { configId: created.body.id }), { token: admin.accessToken, body });
  const get = async () => (await call<SsoConfiguration>(server, 'GET', path(SsoPaths.configuration, { configId: created.body.id }), { token: admin.accessToken })).body;
  return { admin, configId: created.body.id, save, get };
}

describeDialects('SAML configuration saved by hand (seed 001 section 5)', (h) => {
  it('is saved only when a domain is set: without one it is refused naming the field, and nothing is stored', async () => {
    const server = await h.start(env());
    const { save, get } = await samlConfig(server);
    const before = await get();
    for (const body of [{ ssoEndpoint: idp.ssoUrl, publicCertificate: idp.keys.cert }, { domain: '', ssoEndpoint: idp.ssoUrl }]) {
      const res = await save(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[0]).toMatch(/^domain/);
    }
    expect(await get()).toEqual(before);
  });

  it('with a domain, stores the endpoint, certificate (and its expiry) and entity id typed in, with the domain pending its TXT record; a sign-in through it then works', async () => {
    const server = await h.start(env());
    const { admin, configId, save } = await samlConfig(server);
    const domain = uniqueDomain();
    const saved = await save({ domain: domain.toUpperCase(), ssoEndpoint: idp.ssoUrl, publicCertificate: idp.keys.cert, idpEntityId: idp.entityId });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ ssoEndpoint: idp.ssoUrl, idpEntityId: idp.entityId, signRequest: false, metadataUrl: null });
    expect(saved.body.domains).toEqual([expect.objectContaining({ domain, validated: false })]);
    expect(saved.body.publicCertificate!.replace(/\s+/g, '')).toBe(idp.keys.cert.replace(/\s+/g, ''));
    // The test IdP's certificate is made for 2 days.
    const expires = Date.parse(saved.body.publicCertificateExpiresAt!);
    expect(expires - Date.now()).toBeGreaterThan(24 * 3600_000);
    expect(expires - Date.now()).toBeLessThan(3 * 24 * 3600_000);

    // Validate the domain, then sign in through the IdP configured by hand.
    dns.setTxt(domain, [saved.body.domains[0]!.generatedVerification]);
    expect((await call(server, 'PUT', path(SsoPaths.validateDomain, { configId, domainId: saved.body.domains[0]!.id }), { token: admin.accessToken })).status).toBe(200);
    const email = `jane@${domain}`;
    const started = await startSso(server, 'saml', email);
    expect(started.res.status).toBe(200);
    const request = idp.readRequest(started.address);
    const answer = idp.answer(request, saved.body.spEntityId!, { email });
    const acs = await postToAcs(server, configId, answer, request.relayState ?? undefined);
    const code = new URL(acs.headers.get('location')!).searchParams.get('code');
    expect(code).toBeTruthy();
    const login = await call<LoginResponse>(server, 'POST', SsoPaths.samlPostLogin, { body: { code }, headers: bindingHeader(server, started.binding) });
    expect(login.status).toBe(200);
    expect(login.body.accessToken).toBeTruthy();
  });

  it('changing the domain clears the endpoint, certificate and sign-request flag; a change sent with IdP settings is refused and loses nothing', async () => {
    const server = await h.start(env());
    const { save, get } = await samlConfig(server);
    const first = uniqueDomain();
    expect((await save({ domain: first, ssoEndpoint: idp.ssoUrl, publicCertificate: idp.keys.cert, idpEntityId: idp.entityId })).status).toBe(200);
    // Same domain: the settings change, the domain (and its verification) stays.
    const kept = await save({ domain: first, ssoEndpoint: 'https://idp.example.test/other-sso' });
    expect(kept.status).toBe(200);
    expect(kept.body.ssoEndpoint).toBe('https://idp.example.test/other-sso');
    expect(kept.body.publicCertificate).toBeTruthy();
    const verification = kept.body.domains[0]!.generatedVerification;

    const second = uniqueDomain();
    const mixed = await save({ domain: second, ssoEndpoint: idp.ssoUrl });
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors[0]).toMatch(/^domain: changing the domain/);
    expect((await get()).ssoEndpoint).toBe('https://idp.example.test/other-sso');

    const changed = await save({ domain: second });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ ssoEndpoint: null, publicCertificate: null, signRequest: false, idpEntityId: idp.entityId });
    expect(changed.body.domains.map((d) => [d.domain, d.validated])).toEqual([[second, false]]);
    expect(changed.body.domains[0]!.generatedVerification).not.toBe(verification);
  });

  it("answers our SP signing certificate when the server has one, so the IdP admin can paste it; signRequest can then be saved", async () => {
    const sp = makeKeyPair('sp');
    const server = await h.start({ ...env(), SSO_SAML_SP_KEY: sp.key, SSO_SAML_SP_CERT: sp.cert });
    const { save, get } = await samlConfig(server);
    expect((await get()).spCertificate?.trim()).toBe(sp.cert.trim());
    const saved = await save({ domain: uniqueDomain(), signRequest: true });
    expect(saved.status).toBe(200);
    expect(saved.body.signRequest).toBe(true);
    const plain = await samlConfig(await h.start(env()));
    expect((await plain.get()).spCertificate).toBeNull();
  });

  it('refuses a certificate or endpoint that is not one, naming the field, and an OIDC configuration', async () => {
    const server = await h.start(env());
    const { admin, save, get } = await samlConfig(server);
    const domain = uniqueDomain();
    const before = await get();
    const cert = await save({ domain, publicCertificate: '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----' });
    expect(cert.status).toBe(400);
    expect(cert.body.errors[0]).toBe('publicCertificate must be an X.509 certificate (PEM)');
    const url = await save({ domain, ssoEndpoint: 'javascript:alert(1)' });
    expect(url.status).toBe(400);
    expect(url.body.errors[0]).toBe('ssoEndpoint must be an http(s) URL');
    expect(await get()).toEqual(before);
    const oidc = await call<SsoConfiguration>(server, 'POST', SsoPaths.configurations, { token: admin.accessToken, body: { type: 'oidc', oidc: { issuer: 'http://localhost:9/issuer', clientId: 'c', clientSecret: 's' } } });
    expect(oidc.status).toBe(201);
    const res = await call(server, 'PUT', path(SsoPaths.saml, { configId: oidc.body.id }), { token: admin.accessToken, body: { domain } });
    expect(res.status).toBe(400);
  });

  it('writes an audit record with the values before and after for every change, never the OIDC client secret', async () => {
    const server = await h.start(env());
    const { admin, configId, save } = await samlConfig(server);
    const token = admin.accessToken;
    const domain = uniqueDomain();
    const saved = await save({ domain, ssoEndpoint: idp.ssoUrl, publicCertificate: idp.keys.cert });
    const domainId = saved.body.domains[0]!.id;
    dns.setTxt(domain, [saved.body.domains[0]!.generatedVerification]);
    const roles = await tenantRoles(server, admin.tenantId);
    const calls: [string, string, Record<string, unknown>?][] = [
      ['PATCH', path(SsoPaths.configuration, { configId }), { enabled: false }],
      ['PUT', path(SsoPaths.metadata, { configId }), { metadata: idp.metadata() }],
      ['PUT', path(SsoPaths.validateDomain, { configId, domainId })],
      ['POST', path(SsoPaths.domains, { configId }), { domain: uniqueDomain() }],
      ['PUT', path(SsoPaths.roles, { configId }), { roleIds: [roles.ReadOnly] }],
      ['PUT', path(SsoPaths.groups, { configId }), { groups: [{ group: 'support', roleIds: [roles.Support] }] }],
    ];
    for (const [method, url, body] of calls) expect((await call(server, method, url, { token, ...(body ? { body } : {}) })).status, url).toBeLessThan(300);
    const oidc = await call<SsoConfiguration>(server, 'POST', SsoPaths.configurations, { token, body: { type: 'oidc', oidc: { issuer: 'http://localhost:9/issuer', clientId: 'client-1', clientSecret: 'top-secret-value' } } });
    expect((await call(server, 'DELETE', path(SsoPaths.configuration, { configId: oidc.body.id }), { token })).status).toBe(204);

    const audits = (await auditsOf(server, admin.tenantId)).filter((a) => /SSO|SAML/.test(a.action));
    expect(audits.map((a) => a.action).reverse()).toEqual([
      'SSO configuration created',
      'SAML configuration saved',
      'SSO configuration updated',
      'SSO identity provider metadata set',
      'SSO domain validated',
      'SSO domain added',
      'SSO default roles updated',
      'SSO group mappings updated',
      'SSO configuration created',
      'SSO configuration deleted',
    ]);
    for (const a of audits) {
      expect(a.email).toBe(admin.email);
      expect(a.json).not.toContain('top-secret-value');
    }
    const disabled = JSON.parse(audits.find((a) => a.action === 'SSO configuration updated')!.json!);
    expect([disabled.old.enabled, disabled.new.enabled]).toEqual([true, false]);
    const validated = JSON.parse(audits.find((a) => a.action === 'SSO domain validated')!.json!);
    expect([validated.old.domains[0].validated, validated.new.domains[0].validated]).toEqual([false, true]);
    const deleted = JSON.parse(audits.find((a) => a.action === 'SSO configuration deleted')!.json!);
    expect(deleted).toMatchObject({ old: { id: oidc.body.id, oidc: { clientId: 'client-1', hasClientSecret: true } }, new: null });
  });
});
