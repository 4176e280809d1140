import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventsOf } from '../../test/event-helpers';
import { SsoPaths, type LoginResponse, type SsoConfiguration } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { startTestDns, type TestDns } from '../../test/dns-server';
import { call, describeDialects } from '../../test/harness';
import { createTestSamlIdp, makeKeyPair, verifyRedirectSignature, type AnswerOptions, type KeyPair, type TestSamlIdp } from '../../test/saml-idp';
import { bindingHeader, claimsOf, path, postToAcs, SAML_CALLBACK, startSso, tenantWithSso, type SsoTenant } from '../../test/sso-helpers';

let dns: TestDns;
let idp: TestSamlIdp;
let forger: KeyPair;
beforeAll(async () => {
  dns = await startTestDns();
  idp = createTestSamlIdp();
  forger = makeKeyPair('forger');
});
afterAll(async () => {
  await dns?.stop();
});

/** Sign-ups and SSO calls of a whole file come from one IP: their limits are raised (rate limiting has its own tests). */
const env = () => ({ SSO_DNS_SERVERS: dns.address, RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_SSO_PER_IP: '1000/600' });

const spEntityId = (server: GatehouseServer, configId: string) => `${server.config.publicUrl}${path(SsoPaths.samlMetadata, { configId })}`;

async function samlTenant(server: GatehouseServer): Promise<SsoTenant> {
  return tenantWithSso(server, dns, { type: 'saml' }, async (token, configId) => {
    const res = await call<SsoConfiguration>(server, 'PUT', path(SsoPaths.metadata, { configId }), { token, body: { metadata: idp.metadata() } });
    expect(res.status).toBe(200);
  });
}

/** Starts a sign-in for `email`, lets the IdP answer with `options`, and posts the answer to the ACS. */
async function throughIdp(server: GatehouseServer, tenant: SsoTenant, email: string, options: Partial<AnswerOptions> = {}) {
  const started = await startSso(server, 'saml', email);
  expect(started.res.status).toBe(200);
  const request = idp.readRequest(started.address);
  const answer = idp.answer(request, spEntityId(server, tenant.configId), { email, groups: ['support'], ...options });
  const acs = await postToAcs(server, tenant.configId, answer, request.relayState ?? undefined);
  return { started, request, answer, acs, location: acs.headers.get('location') ?? '' };
}

async function postLogin(server: GatehouseServer, code: string, binding: string | undefined) {
  return call<LoginResponse>(server, 'POST', SsoPaths.samlPostLogin, { body: { code }, headers: bindingHeader(server, binding) });
}

/** The ACS refused the answer: back to the login box with an error and no code to redeem. */
function expectRefused(acs: { status: number }, location: string): void {
  expect(acs.status).toBe(303);
  const target = new URL(location);
  expect(`${target.origin}${target.pathname}`).toBe(SAML_CALLBACK);
  expect(target.searchParams.get('error')).toBe('sso_failed');
  expect(target.searchParams.get('code')).toBeNull();
}

describeDialects('SAML SSO sign-in', (h) => {
  it("preLogin finds SAML SSO for an email at the tenant's validated domain, and answers 'no SSO' (200, both null, not a 404) for other or unvalidated domains", async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const found = await call(server, 'POST', SsoPaths.preLogin, { body: { email: `Jane@${tenant.domain.toUpperCase()}` } });
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ type: 'saml', address: idp.ssoUrl });
    const noSso = { status: 200, body: { type: null, address: null } };
    const lookup = async (body: Record<string, string>) => {
      const res = await call(server, 'POST', SsoPaths.preLogin, { body });
      return { status: res.status, body: res.body };
    };
    expect(await lookup({ email: 'jane@elsewhere.test' })).toEqual(noSso);
    // A domain added but never validated gives no SSO.
    const added = await call<SsoConfiguration>(server, 'POST', path(SsoPaths.domains, { configId: tenant.configId }), { token: tenant.token, body: { domain: 'pending-domain.test' } });
    expect(added.status).toBe(201);
    expect(await lookup({ email: 'jane@pending-domain.test' })).toEqual(noSso);
    // Another tenant's id narrows the lookup.
    expect(await lookup({ email: `jane@${tenant.domain}`, tenantId: 'another-tenant' })).toEqual(noSso);
    // A plain username is never looked up (that would tell whether it exists).
    expect(await lookup({ username: 'jane' })).toEqual(noSso);
  });

  it("a valid signed assertion signs in: the user is created in the domain's tenant with the default and group-mapped roles", async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const email = `jane@${tenant.domain}`;
    const { started, request, location } = await throughIdp(server, tenant, email);
    expect(request.acsUrl).toBe(`${server.config.publicUrl}${path(SsoPaths.samlAcs, { configId: tenant.configId })}`);
    expect(request.issuer).toBe(spEntityId(server, tenant.configId));
    expect(request.destination).toBe(idp.ssoUrl);
    const target = new URL(location);
    expect(`${target.origin}${target.pathname}`).toBe(SAML_CALLBACK);
    const code = target.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const signedIn = await postLogin(server, code, started.binding);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.mfaRequired).toBe(false);
    expect(signedIn.refreshCookie).toBeTruthy();
    const claims = claimsOf(signedIn.body.accessToken);
    expect(claims).toMatchObject({ email, email_verified: true, tenantId: tenant.tenantId, amr: ['sso'] });
    expect([...claims.roles].sort()).toEqual(['ReadOnly', 'Support']);
    const me = await call(server, 'GET', '/identity/resources/users/v2/me', { token: signedIn.body.accessToken });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, name: 'Jane Doe' });
    // Issue 16: the account made at this first sign-in raises user.created (source sso) in the tenant.
    expect((await eventsOf(server, tenant.tenantId, 'user.created')).filter((e) => e.data.userId === claims.sub).map((e) => [e.data, e.actor])).toEqual([[{ userId: claims.sub, email, name: 'Jane Doe', source: 'sso' }, { userId: claims.sub, email }]]);

    // The code is single use.
    expect((await postLogin(server, code, started.binding)).status).toBe(401);
  });

  it('a later sign-in takes away the roles of groups the IdP no longer asserts, and leaves roles granted by hand', async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const email = `sam@${tenant.domain}`;
    const first = await throughIdp(server, tenant, email, { groups: ['support'] });
    const firstLogin = await postLogin(server, new URL(first.location).searchParams.get('code')!, first.started.binding);
    const userId = claimsOf(firstLogin.body.accessToken).sub as string;
    await server.db.insertInto('user_roles').values({ user_id: userId, tenant_id: tenant.tenantId, role_id: tenant.roles.Admin! }).execute();

    const second = await throughIdp(server, tenant, email, { groups: ['engineering'] });
    const secondLogin = await postLogin(server, new URL(second.location).searchParams.get('code')!, second.started.binding);
    expect(secondLogin.status).toBe(200);
    expect([...claimsOf(secondLogin.body.accessToken).roles].sort()).toEqual(['Admin', 'ReadOnly']);
  });

  it('the one-time code signs in only the browser that started the sign-in', async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const { location } = await throughIdp(server, tenant, `eve@${tenant.domain}`);
    const code = new URL(location).searchParams.get('code')!;
    const otherBrowser = await startSso(server, 'saml', `eve@${tenant.domain}`);
    const stolen = await postLogin(server, code, otherBrowser.binding);
    expect(stolen.status).toBe(401);
    expect(stolen.body).toMatchObject({ errors: ['Failed to authenticate'], errorCode: 'ER-02102' });
    expect(stolen.refreshCookie).toBeUndefined();
    expect((await postLogin(server, code, undefined)).status).toBe(401);
  });

  const attacks: [string, (tenant: SsoTenant, server: GatehouseServer) => Partial<AnswerOptions>][] = [
    ['a modified attribute (signature no longer matches)', (t) => ({ tamperEmail: `ceo@${t.domain}` })],
    ['a wrapped assertion (XSW: forged assertion in front of the signed one)', (t) => ({ wrapAs: `ceo@${t.domain}` })],
    ['an assertion signed by a key other than the configured certificate', () => ({ signingKey: forger.key })],
    ['an expired assertion', () => ({ notBefore: Date.now() - 30 * 60_000, notOnOrAfter: Date.now() - 10 * 60_000 })],
    ['an assertion not yet valid', () => ({ notBefore: Date.now() + 10 * 60_000, notOnOrAfter: Date.now() + 20 * 60_000 })],
    ['an assertion for another audience', () => ({ audience: 'https://other-sp.example.test/metadata' })],
    ['an assertion for another recipient', () => ({ recipient: 'https://other-sp.example.test/acs' })],
    ['a response addressed to another Destination', () => ({ destination: 'https://other-sp.example.test/acs' })],
    ['an assertion from another issuer', () => ({ issuer: 'https://other-idp.example.test' })],
    ['an answer to a request we never made (unknown InResponseTo)', () => ({ inResponseTo: '_0123456789abcdef0123456789abcdef' })],
  ];
  for (const [what, options] of attacks) {
    it(`refuses ${what}`, async () => {
      const server = await h.start(env());
      const tenant = await samlTenant(server);
      const { acs, location } = await throughIdp(server, tenant, `jane@${tenant.domain}`, options(tenant, server));
      expectRefused(acs, location);
      const users = await server.db.selectFrom('users').select('email').where('email', 'like', `%@${tenant.domain}`).execute();
      expect(users).toEqual([]);
    });
  }

  it('refuses an unsolicited response (no InResponseTo), with nowhere to send the browser', async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const started = await startSso(server, 'saml', `jane@${tenant.domain}`);
    const request = idp.readRequest(started.address);
    const acs = await postToAcs(server, tenant.configId, idp.answer(request, spEntityId(server, tenant.configId), { email: `jane@${tenant.domain}`, inResponseTo: null }));
    expect(acs.status).toBe(401);
    expect(acs.body).toMatchObject({ errors: ['Failed to authenticate'], errorCode: 'ER-02102' });
  });

  it('refuses a replayed response: the same assertion posted again is not accepted', async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const { answer, request, location } = await throughIdp(server, tenant, `jane@${tenant.domain}`);
    expect(new URL(location).searchParams.get('code')).toBeTruthy();
    const replay = await postToAcs(server, tenant.configId, answer, request.relayState ?? undefined);
    expect(replay.status).toBe(401);
    expect(replay.headers.get('location')).toBeNull();
  });

  it('refuses an assertion ID seen before even when it answers a new request (the replay cache in the database)', async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const assertionId = `_${'ab'.repeat(16)}`;
    const first = await throughIdp(server, tenant, `jane@${tenant.domain}`, { assertionId });
    expect(new URL(first.location).searchParams.get('code')).toBeTruthy();
    const second = await throughIdp(server, tenant, `jane@${tenant.domain}`, { assertionId });
    expectRefused(second.acs, second.location);
    const remembered = await server.db.selectFrom('sso_assertions').select('assertion_id').where('config_id', '=', tenant.configId).execute();
    expect(remembered.map((r) => r.assertion_id)).toContain(assertionId);
  });

  it("refuses an assertion for an email outside the configuration's validated domains", async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const started = await startSso(server, 'saml', `jane@${tenant.domain}`);
    const request = idp.readRequest(started.address);
    const answer = idp.answer(request, spEntityId(server, tenant.configId), { email: 'ceo@victim-company.test' });
    const acs = await postToAcs(server, tenant.configId, answer, request.relayState ?? undefined);
    const code = new URL(acs.headers.get('location')!).searchParams.get('code')!;
    const res = await postLogin(server, code, started.binding);
    expect(res.status).toBe(401);
    expect(await server.db.selectFrom('users').select('id').where('email', '=', 'ceo@victim-company.test').executeTakeFirst()).toBeUndefined();
  });

  it('accepts a response signed as a whole (the assertion inside unsigned)', async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const { started, location } = await throughIdp(server, tenant, `ray@${tenant.domain}`, { sign: 'response' });
    const res = await postLogin(server, new URL(location).searchParams.get('code')!, started.binding);
    expect(res.status).toBe(200);
  });

  it('MFA rules apply: under a forced MFA policy the SSO sign-in asks for the second factor before any session', async () => {
    const server = await h.start({ ...env(), MFA_POLICY: 'force' });
    const tenant = await samlTenant(server);
    const { started, location } = await throughIdp(server, tenant, `mia@${tenant.domain}`);
    const res = await postLogin(server, new URL(location).searchParams.get('code')!, started.binding);
    expect(res.status).toBe(200);
    expect(res.body.mfaRequired).toBe(true);
    expect(res.body.mfaToken).toBeTruthy();
    expect(res.refreshCookie).toBeUndefined();
  });

  it('a sign-in may only return to a page of an allowed origin', async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    for (const redirectUri of ['https://evil.example/account/saml/callback', 'javascript:alert(1)', '//evil.example/cb', 'http://localhost:8787/account/saml/callback#x']) {
      const res = await startSso(server, 'saml', `jane@${tenant.domain}`, redirectUri);
      expect(res.res.status, redirectUri).toBe(400);
    }
  });

  it('with signRequest on, the AuthnRequest is signed and verifies with the certificate in our SP metadata', async () => {
    const sp = makeKeyPair('gatehouse-sp');
    const server = await h.start({ ...env(), SSO_SAML_SP_KEY: sp.key, SSO_SAML_SP_CERT: sp.cert });
    const tenant = await samlTenant(server);
    const patched = await call<SsoConfiguration>(server, 'PATCH', path(SsoPaths.configuration, { configId: tenant.configId }), { token: tenant.token, body: { signRequest: true } });
    expect(patched.status).toBe(200);
    expect(patched.body.signRequest).toBe(true);
    const metadata = await call<string>(server, 'GET', path(SsoPaths.samlMetadata, { configId: tenant.configId }));
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get('content-type')).toContain('application/samlmetadata+xml');
    expect(metadata.body).toContain('AuthnRequestsSigned="true"');
    const published = /<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/.exec(metadata.body)![1]!;
    const pem = `-----BEGIN CERTIFICATE-----\n${published.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;

    const started = await startSso(server, 'saml', `jane@${tenant.domain}`);
    const request = idp.readRequest(started.address);
    expect(request.params.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(verifyRedirectSignature(request, pem)).toBe(true);
    expect(verifyRedirectSignature(request, idp.keys.cert)).toBe(false);
  });
});

