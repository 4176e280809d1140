/**
 * Enterprise SSO against a second, independent SAML IdP: samlify (server/src/test/samlify-idp.ts)
 * reads our SP metadata, parses our real AuthnRequest and makes and signs the Response itself.
 * The attacks on the XML structure (signature wrapping, foreign keys, …) are in login.saml.test.ts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SsoPaths, type LoginResponse, type SsoConfiguration } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { startTestDns, type TestDns } from '../../test/dns-server';
import { call, describeDialects } from '../../test/harness';
import { makeKeyPair } from '../../test/saml-idp';
import { createSamlifyIdp, type SamlifyAnswer, type SamlifyIdp } from '../../test/samlify-idp';
import { bindingHeader, claimsOf, path, postToAcs, SAML_CALLBACK, startSso, tenantWithSso, type SsoTenant } from '../../test/sso-helpers';

let dns: TestDns;
let idp: SamlifyIdp;
beforeAll(async () => {
  dns = await startTestDns();
  idp = createSamlifyIdp();
});
afterAll(async () => {
  await dns?.stop();
});

/** Sign-ups and SSO calls of a whole file come from one IP: their limits are raised (rate limiting has its own tests). */
const env = () => ({ SSO_DNS_SERVERS: dns.address, RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_SSO_PER_IP: '1000/600' });

const spEntityId = (server: GatehouseServer, configId: string) => `${server.config.publicUrl}${path(SsoPaths.samlMetadata, { configId })}`;

/** A tenant whose SSO configuration holds samlify's own metadata of `peer`. */
async function samlifyTenant(server: GatehouseServer, peer: SamlifyIdp = idp): Promise<SsoTenant> {
  return tenantWithSso(server, dns, { type: 'saml' }, async (token, configId) => {
    const res = await call<SsoConfiguration>(server, 'PUT', path(SsoPaths.metadata, { configId }), { token, body: { metadata: peer.metadata() } });
    expect(res.status).toBe(200);
  });
}

/** Our SP metadata for the configuration, as the IdP admin downloads it. */
async function spMetadata(server: GatehouseServer, configId: string): Promise<string> {
  const res = await call<string>(server, 'GET', path(SsoPaths.samlMetadata, { configId }));
  expect(res.status).toBe(200);
  return res.body;
}

/** Starts a sign-in for `email`, lets samlify parse the AuthnRequest and answer for `user`. */
async function samlifyAnswer(server: GatehouseServer, tenant: SsoTenant, email: string, user: Partial<SamlifyAnswer> = {}, peer: SamlifyIdp = idp) {
  const started = await startSso(server, 'saml', email);
  expect(started.res.status).toBe(200);
  const request = await peer.readRequest(started.address, await spMetadata(server, tenant.configId));
  const answer = await peer.answer(request, { email, groups: ['support'], ...user });
  return { started, request, answer };
}

async function postLogin(server: GatehouseServer, code: string, binding: string | undefined) {
  return call<LoginResponse>(server, 'POST', SsoPaths.samlPostLogin, { body: { code }, headers: bindingHeader(server, binding) });
}

/** The ACS refused the answer: back to the login box with an error and no code to redeem. */
function expectRefused(acs: { status: number; headers: Headers }): void {
  expect(acs.status).toBe(303);
  const target = new URL(acs.headers.get('location') ?? '');
  expect(`${target.origin}${target.pathname}`).toBe(SAML_CALLBACK);
  expect(target.searchParams.get('error')).toBe('sso_failed');
  expect(target.searchParams.get('code')).toBeNull();
}

async function usersOf(server: GatehouseServer, tenant: SsoTenant) {
  return server.db.selectFrom('users').select('email').where('email', 'like', `%@${tenant.domain}`).execute();
}

const xmlOf = (samlResponse: string) => Buffer.from(samlResponse, 'base64').toString('utf8');

describeDialects('SAML SSO with a samlify IdP', (h) => {
  it('a response samlify made and signed signs in: the user is created just in time with the default and group-mapped roles', async () => {
    const server = await h.start(env());
    const tenant = await samlifyTenant(server);
    const email = `jane@${tenant.domain}`;
    const { started, request, answer } = await samlifyAnswer(server, tenant, email, { name: 'Jane Samlify', groups: ['support', 'engineering'] });
    // samlify read our real AuthnRequest.
    expect(request.issuer).toBe(spEntityId(server, tenant.configId));
    expect(request.acsUrl).toBe(`${server.config.publicUrl}${path(SsoPaths.samlAcs, { configId: tenant.configId })}`);
    expect(request.destination).toBe(idp.ssoUrl);
    // It signed the assertion (our metadata asks for WantAssertionsSigned), answering that request.
    const xml = xmlOf(answer);
    expect(xml).toMatch(/<saml:Assertion[^>]*>.*<ds:Signature/s);
    expect(xml.match(/<ds:Signature[\s>]/g)).toHaveLength(1);
    expect(xml).toContain(`InResponseTo="${request.id}"`);

    const acs = await postToAcs(server, tenant.configId, answer, request.relayState);
    expect(acs.status).toBe(303);
    const target = new URL(acs.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe(SAML_CALLBACK);
    const code = target.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const signedIn = await postLogin(server, code, started.binding);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.mfaRequired).toBe(false);
    const claims = claimsOf(signedIn.body.accessToken);
    expect(claims).toMatchObject({ email, email_verified: true, tenantId: tenant.tenantId, amr: ['sso'] });
    expect([...claims.roles].sort()).toEqual(['ReadOnly', 'Support']);
    const me = await call(server, 'GET', '/identity/resources/users/v2/me', { token: signedIn.body.accessToken });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, name: 'Jane Samlify' });
  });

  it('refuses a samlify-signed response whose signed assertion was changed after signing (another user)', async () => {
    const server = await h.start(env());
    const tenant = await samlifyTenant(server);
    const email = `jane@${tenant.domain}`;
    const { request, answer } = await samlifyAnswer(server, tenant, email);
    const original = xmlOf(answer);
    const tampered = original.split(`>${email}<`).join(`>ceo@${tenant.domain}<`);
    expect(tampered).not.toBe(original);
    expect(tampered).toContain('<ds:SignatureValue>');
    const acs = await postToAcs(server, tenant.configId, Buffer.from(tampered, 'utf8').toString('base64'), request.relayState);
    expectRefused(acs);
    expect(await usersOf(server, tenant)).toEqual([]);
  });

  it('refuses an expired samlify-signed response (made by an IdP whose clock is 30 minutes behind)', async () => {
    const server = await h.start(env());
    const tenant = await samlifyTenant(server);
    const { request, answer } = await samlifyAnswer(server, tenant, `jane@${tenant.domain}`, { clockOffsetMs: -30 * 60_000 });
    const notOnOrAfter = /<saml:Conditions[^>]*NotOnOrAfter="([^"]+)"/.exec(xmlOf(answer))![1]!;
    expect(Date.parse(notOnOrAfter)).toBeLessThan(Date.now() - 20 * 60_000);
    expectRefused(await postToAcs(server, tenant.configId, answer, request.relayState));
    expect(await usersOf(server, tenant)).toEqual([]);
  });

  it('refuses a samlify-signed response whose assertion is for another audience', async () => {
    const server = await h.start(env());
    const tenant = await samlifyTenant(server);
    const { request, answer } = await samlifyAnswer(server, tenant, `jane@${tenant.domain}`, { audience: 'https://other-sp.example.test/metadata' });
    expect(xmlOf(answer)).toContain('<saml:Audience>https://other-sp.example.test/metadata</saml:Audience>');
    expectRefused(await postToAcs(server, tenant.configId, answer, request.relayState));
    expect(await usersOf(server, tenant)).toEqual([]);
  });

  it('refuses a replayed samlify-signed response: accepted once, the same response posted again is refused', async () => {
    const server = await h.start(env());
    const tenant = await samlifyTenant(server);
    const { started, request, answer } = await samlifyAnswer(server, tenant, `jane@${tenant.domain}`);
    const first = await postToAcs(server, tenant.configId, answer, request.relayState);
    const code = new URL(first.headers.get('location')!).searchParams.get('code')!;
    expect(code).toBeTruthy();
    const replay = await postToAcs(server, tenant.configId, answer, request.relayState);
    expect(replay.status).toBe(401);
    expect(replay.headers.get('location')).toBeNull();
    // The first answer still signs in its own browser, once.
    expect((await postLogin(server, code, started.binding)).status).toBe(200);
    expect(await usersOf(server, tenant)).toHaveLength(1);
  });

  it('with signRequest on, samlify verifies our AuthnRequest with the certificate of our SP metadata, and refuses it altered', async () => {
    const sp = makeKeyPair('gatehouse-sp');
    const server = await h.start({ ...env(), SSO_SAML_SP_KEY: sp.key, SSO_SAML_SP_CERT: sp.cert });
    const strict = createSamlifyIdp({ wantAuthnRequestsSigned: true });
    const tenant = await samlifyTenant(server, strict);
    const patched = await call<SsoConfiguration>(server, 'PATCH', path(SsoPaths.configuration, { configId: tenant.configId }), { token: tenant.token, body: { signRequest: true } });
    expect(patched.status).toBe(200);

    const email = `ray@${tenant.domain}`;
    const { started, request, answer } = await samlifyAnswer(server, tenant, email, {}, strict);
    const acs = await postToAcs(server, tenant.configId, answer, request.relayState);
    const signedIn = await postLogin(server, new URL(acs.headers.get('location')!).searchParams.get('code')!, started.binding);
    expect(signedIn.status).toBe(200);

    // The same request with another RelayState no longer matches its signature.
    const again = await startSso(server, 'saml', email);
    const altered = again.address.replace(/([?&]RelayState=)[^&]*/, '$1forged');
    expect(altered).not.toBe(again.address);
    await expect(strict.readRequest(altered, await spMetadata(server, tenant.configId))).rejects.toThrow('ERR_FAILED_MESSAGE_SIGNATURE_VERIFICATION');
  });
});
