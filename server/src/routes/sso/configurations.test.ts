import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SsoPaths, type SsoConfiguration } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { startTestDns, type TestDns } from '../../test/dns-server';
import { call, describeDialects, signUpAndActivate } from '../../test/harness';
import { createTestSamlIdp, type TestSamlIdp } from '../../test/saml-idp';
import { addValidatedDomain, path, tenantRoles, uniqueDomain } from '../../test/sso-helpers';

let dns: TestDns;
let idp: TestSamlIdp;
let metadataServer: Server;
let metadataUrl = '';
beforeAll(async () => {
  dns = await startTestDns();
  idp = createTestSamlIdp();
  // The IdP's metadata published over HTTP, as IdPs do at a well-known URL.
  metadataServer = createServer((req, res) => {
    if (req.url === '/metadata') res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(idp.metadata());
    else if (req.url === '/moved') res.writeHead(302, { location: '/metadata' }).end();
    else if (req.url === '/endless') {
      // No Content-Length and no end: only a reader that stops at the size cap is done with it.
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    }
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => metadataServer.listen(0, '127.0.0.1', resolve));
  metadataUrl = `http://127.0.0.1:${(metadataServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await dns?.stop();
  await new Promise((resolve) => metadataServer?.close(resolve));
});

const env = () => ({ SSO_DNS_SERVERS: dns.address, RATE_LIMIT_SIGNUP_PER_IP: '1000/3600' });

async function newSamlConfig(server: GatehouseServer, token: string): Promise<SsoConfiguration> {
  const created = await call<SsoConfiguration>(server, 'POST', SsoPaths.configurations, { token, body: { type: 'saml' } });
  expect(created.status).toBe(201);
  return created.body;
}

describeDialects('Tenant SSO configuration', (h) => {
  it('an admin adds a SAML IdP from its metadata file and sees what the IdP admin needs: ACS, SP entity id, SP metadata URL', async () => {
    const server = await h.start(env());
    const admin = await signUpAndActivate(server);
    const config = await newSamlConfig(server, admin.accessToken);
    expect(config).toMatchObject({ type: 'saml', enabled: true, signRequest: false, domains: [], roleIds: [], groups: [], ssoEndpoint: null });
    expect(config.acsUrl).toBe(`${server.config.publicUrl}/identity/resources/auth/v1/user/saml/${config.id}/acs`);
    expect(config.spEntityId).toBe(`${server.config.publicUrl}/identity/resources/auth/v1/user/saml/${config.id}/metadata`);

    const withMetadata = await call<SsoConfiguration>(server, 'PUT', path(SsoPaths.metadata, { configId: config.id }), { token: admin.accessToken, body: { metadata: idp.metadata() } });
    expect(withMetadata.status).toBe(200);
    expect(withMetadata.body).toMatchObject({ idpEntityId: idp.entityId, ssoEndpoint: idp.ssoUrl, metadataUrl: null });
    expect(withMetadata.body.publicCertificate).toMatch(/^-----BEGIN CERTIFICATE-----\n/);

    const listed = await call<SsoConfiguration[]>(server, 'GET', SsoPaths.configurations, { token: admin.accessToken });
    expect(listed.status).toBe(200);
    expect(listed.body.map((c) => c.id)).toEqual([config.id]);
  });

  it('metadata by URL is fetched by the server; a redirect, a 404 or unreadable XML is refused with the reason', async () => {
    const server = await h.start(env());
    const admin = await signUpAndActivate(server);
    const config = await newSamlConfig(server, admin.accessToken);
    const put = (url: string) => call(server, 'PUT', path(SsoPaths.metadataUrl, { configId: config.id }), { token: admin.accessToken, body: { url } });
    const fetched = await put(`${metadataUrl}/metadata`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toMatchObject({ idpEntityId: idp.entityId, ssoEndpoint: idp.ssoUrl, metadataUrl: `${metadataUrl}/metadata` });
    for (const [url, message] of [
      [`${metadataUrl}/moved`, 'could not be fetched'],
      [`${metadataUrl}/missing`, 'answered 404'],
    ] as const) {
      const res = await put(url);
      expect(res.status, url).toBe(400);
      expect(res.body.errorCode).toBe('ER-02105');
      expect(res.body.errors[0]).toContain(message);
    }
    const broken = await call(server, 'PUT', path(SsoPaths.metadata, { configId: config.id }), { token: admin.accessToken, body: { metadata: '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>' } });
    expect(broken.status).toBe(400);
    expect(broken.body.errors[0]).toBe('The SAML metadata is not usable: no EntityDescriptor with a SAML 2.0 IDPSSODescriptor was found');
    // regression: a body without Content-Length is read only up to the cap (it was read whole first).
    const endless = await put(`${metadataUrl}/endless`);
    expect(endless.status).toBe(400);
    expect(endless.body.errors[0]).toBe('The SAML metadata document is too large');
    const doctype = await call(server, 'PUT', path(SsoPaths.metadata, { configId: config.id }), { token: admin.accessToken, body: { metadata: `<!DOCTYPE x [<!ENTITY a "a">]>${idp.metadata().replace('<?xml version="1.0"?>', '')}` } });
    expect(doctype.status).toBe(400);
  });

  it('outside dev mode only https metadata URLs and issuers on public addresses are accepted', async () => {
    // Signed up through a dev-mode server (its mailbox), then a production-mode one on the same database.
    const admin = await signUpAndActivate(await h.start(env()));
    const server = await h.start({ ...env(), GATEHOUSE_DEV: '0' });
    const config = await newSamlConfig(server, admin.accessToken);
    for (const url of [`${metadataUrl}/metadata`, 'https://127.0.0.1/metadata', 'https://10.1.2.3/metadata', 'https://[::1]/metadata']) {
      const res = await call(server, 'PUT', path(SsoPaths.metadataUrl, { configId: config.id }), { token: admin.accessToken, body: { url } });
      expect(res.status, url).toBe(400);
    }
    // regression: IPv4 written inside IPv6 ([::ffff:127.0.0.1] parses as [::ffff:7f00:1]) is the same private host.
    for (const host of ['[::ffff:127.0.0.1]', '[::ffff:10.1.2.3]', '[::ffff:169.254.169.254]', '[64:ff9b::a9fe:a9fe]']) {
      const res = await call(server, 'PUT', path(SsoPaths.metadataUrl, { configId: config.id }), { token: admin.accessToken, body: { url: `https://${host}/metadata` } });
      expect(res.status, host).toBe(400);
      expect(res.body.errors[0], host).toBe('url must point to a public address');
      const issuer = await call(server, 'POST', SsoPaths.configurations, { token: admin.accessToken, body: { type: 'oidc', oidc: { issuer: `https://${host}`, clientId: 'c', clientSecret: 's' } } });
      expect(issuer.status, host).toBe(400);
      expect(issuer.body.errors[0], host).toBe('oidc.issuer must point to a public address');
    }
    const oidc = await call(server, 'POST', SsoPaths.configurations, { token: admin.accessToken, body: { type: 'oidc', oidc: { issuer: 'http://idp.example.test', clientId: 'c', clientSecret: 's' } } });
    expect(oidc.status).toBe(400);
    expect(oidc.body.errors[0]).toBe('oidc.issuer must be an https URL');
  });

  it('a domain counts only once its TXT record is published; then no other configuration can validate it', async () => {
    const server = await h.start(env());
    const admin = await signUpAndActivate(server);
    const config = await newSamlConfig(server, admin.accessToken);
    const domain = uniqueDomain();
    const added = await call<SsoConfiguration>(server, 'POST', path(SsoPaths.domains, { configId: config.id }), { token: admin.accessToken, body: { domain: ` ${domain.toUpperCase()} ` } });
    expect(added.status).toBe(201);
    const entry = added.body.domains[0]!;
    expect(entry).toMatchObject({ domain, validated: false });
    expect(entry.generatedVerification).toMatch(/^gatehouse-verification=[A-Za-z0-9_-]{43}$/);

    const validate = () => call(server, 'PUT', path(SsoPaths.validateDomain, { configId: config.id, domainId: entry.id }), { token: admin.accessToken });
    const before = dns.queries;
    const notYet = await validate();
    expect(notYet.status).toBe(400);
    expect(notYet.body.errorCode).toBe('ER-02103');
    expect(dns.queries).toBeGreaterThan(before);
    dns.setTxt(domain, ['gatehouse-verification=someone-elses-token']);
    expect((await validate()).status).toBe(400);
    dns.setTxt(domain, ['v=spf1 -all', entry.generatedVerification]);
    const ok = await validate();
    expect(ok.status).toBe(200);
    expect(ok.body.domains[0].validated).toBe(true);

    // Another tenant cannot claim it, even with its own TXT record published.
    const other = await signUpAndActivate(server);
    const otherConfig = await newSamlConfig(server, other.accessToken);
    const claim = await call(server, 'POST', path(SsoPaths.domains, { configId: otherConfig.id }), { token: other.accessToken, body: { domain } });
    expect(claim.status).toBe(409);
    expect(claim.body.errorCode).toBe('ER-02104');
    expect((await call(server, 'POST', path(SsoPaths.domains, { configId: config.id }), { token: admin.accessToken, body: { domain: 'not a domain' } })).status).toBe(400);
  });

  it('when two tenants race for one domain, the second validation is refused by the database', async () => {
    const server = await h.start(env());
    const a = await signUpAndActivate(server);
    const b = await signUpAndActivate(server);
    const configA = await newSamlConfig(server, a.accessToken);
    const configB = await newSamlConfig(server, b.accessToken);
    const domain = uniqueDomain('race');
    const addA = await call<SsoConfiguration>(server, 'POST', path(SsoPaths.domains, { configId: configA.id }), { token: a.accessToken, body: { domain } });
    const addB = await call<SsoConfiguration>(server, 'POST', path(SsoPaths.domains, { configId: configB.id }), { token: b.accessToken, body: { domain } });
    dns.setTxt(domain, [addA.body.domains[0]!.generatedVerification, addB.body.domains[0]!.generatedVerification]);
    const first = await call(server, 'PUT', path(SsoPaths.validateDomain, { configId: configA.id, domainId: addA.body.domains[0]!.id }), { token: a.accessToken });
    const second = await call(server, 'PUT', path(SsoPaths.validateDomain, { configId: configB.id, domainId: addB.body.domains[0]!.id }), { token: b.accessToken });
    expect(first.status).toBe(200);
    expect(second.status).toBe(409);
  });

  it("another tenant's admin can neither see nor change a configuration (404), nor grant its roles", async () => {
    const server = await h.start(env());
    const owner = await signUpAndActivate(server);
    const config = await newSamlConfig(server, owner.accessToken);
    const stranger = await signUpAndActivate(server);
    const token = stranger.accessToken;
    expect((await call(server, 'GET', path(SsoPaths.configuration, { configId: config.id }), { token })).status).toBe(404);
    expect((await call(server, 'PATCH', path(SsoPaths.configuration, { configId: config.id }), { token, body: { enabled: false } })).status).toBe(404);
    expect((await call(server, 'PUT', path(SsoPaths.metadata, { configId: config.id }), { token, body: { metadata: idp.metadata() } })).status).toBe(404);
    expect((await call(server, 'POST', path(SsoPaths.domains, { configId: config.id }), { token, body: { domain: uniqueDomain() } })).status).toBe(404);
    expect((await call(server, 'DELETE', path(SsoPaths.configuration, { configId: config.id }), { token })).status).toBe(404);
    expect((await call<SsoConfiguration[]>(server, 'GET', SsoPaths.configurations, { token })).body).toEqual([]);
    // ?tenantId= of a tenant the caller is not a member of is refused outright.
    expect((await call(server, 'GET', `${SsoPaths.configurations}?tenantId=${owner.tenantId}`, { token })).status).toBe(404);

    // Roles: only the configuration's own tenant's roles can be default or mapped roles.
    const strangerRoles = await tenantRoles(server, stranger.tenantId);
    const roles = await call(server, 'PUT', path(SsoPaths.roles, { configId: config.id }), { token: owner.accessToken, body: { roleIds: [strangerRoles.Admin] } });
    expect(roles.status).toBe(400);
    const groups = await call(server, 'PUT', path(SsoPaths.groups, { configId: config.id }), { token: owner.accessToken, body: { groups: [{ group: 'eng', roleIds: [strangerRoles.Admin] }] } });
    expect(groups.status).toBe(400);
    const still = await call<SsoConfiguration>(server, 'GET', path(SsoPaths.configuration, { configId: config.id }), { token: owner.accessToken });
    expect(still.body).toMatchObject({ enabled: true, roleIds: [], groups: [] });
  });

  it('reading needs fe.secure.read.samlConfiguration and changing needs fe.secure.write.samlConfiguration', async () => {
    const server = await h.start(env());
    const admin = await signUpAndActivate(server);
    const config = await newSamlConfig(server, admin.accessToken);
    const roles = await tenantRoles(server, admin.tenantId);
    // The admin becomes read-only: reading works, changing does not.
    await server.db.deleteFrom('user_roles').where('user_id', '=', admin.userId).execute();
    await server.db.insertInto('user_roles').values({ user_id: admin.userId, tenant_id: admin.tenantId, role_id: roles.ReadOnly! }).execute();
    expect((await call(server, 'GET', path(SsoPaths.configuration, { configId: config.id }), { token: admin.accessToken })).status).toBe(200);
    const change = await call(server, 'PATCH', path(SsoPaths.configuration, { configId: config.id }), { token: admin.accessToken, body: { enabled: false } });
    expect(change.status).toBe(403);
    expect(change.body.errorContext).toEqual({ permission: 'fe.secure.write.samlConfiguration' });
    expect((await call(server, 'POST', SsoPaths.configurations, { token: admin.accessToken, body: { type: 'saml' } })).status).toBe(403);
    // Without any role: not even reading.
    await server.db.deleteFrom('user_roles').where('user_id', '=', admin.userId).execute();
    expect((await call(server, 'GET', SsoPaths.configurations, { token: admin.accessToken })).status).toBe(403);
    expect((await call(server, 'GET', SsoPaths.configurations)).status).toBe(401);
  });

  it('regression: a caller with only the SSO permissions cannot make SSO grant roles beyond their own (no escalation to Admin)', async () => {
    const server = await h.start(env());
    const admin = await signUpAndActivate(server);
    const config = await newSamlConfig(server, admin.accessToken);
    const roles = await tenantRoles(server, admin.tenantId);
    // The caller's only role: read and write the SSO configuration.
    const perms = await server.db.selectFrom('permissions').select('id').where('key', 'in', ['fe.secure.read.samlConfiguration', 'fe.secure.write.samlConfiguration']).execute();
    expect(perms).toHaveLength(2);
    const ssoManager = `sso-manager-${config.id}`;
    await server.db.insertInto('roles').values({ id: ssoManager, tenant_id: admin.tenantId, key: 'SsoManager', name: 'SSO manager', description: null, is_default: 0, created_at: Date.now() }).execute();
    await server.db.insertInto('role_permissions').values(perms.map((p) => ({ role_id: ssoManager, permission_id: p.id }))).execute();
    await server.db.deleteFrom('user_roles').where('user_id', '=', admin.userId).execute();
    await server.db.insertInto('user_roles').values({ user_id: admin.userId, tenant_id: admin.tenantId, role_id: ssoManager }).execute();
    const token = admin.accessToken;

    const asDefault = await call(server, 'PUT', path(SsoPaths.roles, { configId: config.id }), { token, body: { roleIds: [roles.Admin] } });
    expect(asDefault.status).toBe(403);
    expect(asDefault.body.errorCode).toBe('ER-01105');
    const asGroup = await call(server, 'PUT', path(SsoPaths.groups, { configId: config.id }), { token, body: { groups: [{ group: 'mine', roleIds: [roles.Admin] }] } });
    expect(asGroup.status).toBe(403);
    const still = await call<SsoConfiguration>(server, 'GET', path(SsoPaths.configuration, { configId: config.id }), { token });
    expect(still.body).toMatchObject({ roleIds: [], groups: [] });
    // A role within the caller's own permissions is fine.
    expect((await call(server, 'PUT', path(SsoPaths.roles, { configId: config.id }), { token, body: { roleIds: [ssoManager] } })).status).toBe(200);
  });

  it("regression: Entra ID's multi-tenant issuers (common, organizations, consumers) are refused: any directory could claim the tenant's domains", async () => {
    const server = await h.start(env());
    const admin = await signUpAndActivate(server);
    const token = admin.accessToken;
    const oidc = (issuer: string) => ({ type: 'oidc', oidc: { issuer, clientId: 'c', clientSecret: 's' } });
    const message = "oidc.issuer must be your Entra ID tenant's own issuer (https://login.microsoftonline.com/<tenant id>/v2.0), not common, organizations or consumers";
    for (const issuer of ['https://login.microsoftonline.com/common/v2.0', 'https://login.microsoftonline.com/organizations/v2.0', 'https://LOGIN.microsoftonline.com:443/Consumers/v2.0', 'https://login.microsoftonline.com/common']) {
      const created = await call(server, 'POST', SsoPaths.configurations, { token, body: oidc(issuer) });
      expect(created.status, issuer).toBe(400);
      expect(created.body.errors[0], issuer).toBe(message);
    }
    const existing = await call<SsoConfiguration>(server, 'POST', SsoPaths.configurations, { token, body: oidc('http://127.0.0.1:9/') });
    expect(existing.status).toBe(201);
    const changed = await call(server, 'PATCH', path(SsoPaths.configuration, { configId: existing.body.id }), { token, body: { oidc: { issuer: 'https://login.microsoftonline.com/organizations/v2.0' } } });
    expect(changed.status).toBe(400);
    expect(changed.body.errors[0]).toBe(message);
    // A directory's own issuer is not this refusal (whatever the network says about it here).
    const own = await call(server, 'POST', SsoPaths.configurations, { token, body: oidc('https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0') });
    expect(own.body.errors?.[0]).not.toBe(message);
  });

  it('default roles and group mappings are stored, listed and replaced; bad bodies get a 400', async () => {
    const server = await h.start(env());
    const admin = await signUpAndActivate(server);
    const config = await newSamlConfig(server, admin.accessToken);
    const roles = await tenantRoles(server, admin.tenantId);
    const token = admin.accessToken;
    const withRoles = await call<SsoConfiguration>(server, 'PUT', path(SsoPaths.roles, { configId: config.id }), { token, body: { roleIds: [roles.ReadOnly, roles.ReadOnly] } });
    expect(withRoles.body.roleIds).toEqual([roles.ReadOnly]);
    const withGroups = await call<SsoConfiguration>(server, 'PUT', path(SsoPaths.groups, { configId: config.id }), {
      token,
      body: { groups: [{ group: 'support', roleIds: [roles.Support] }, { group: 'admins', roleIds: [roles.Admin, roles.Support] }] },
    });
    expect(withGroups.status).toBe(200);
    expect(withGroups.body.groups.map((g) => [g.group, g.roleIds])).toEqual([['admins', [roles.Admin, roles.Support]], ['support', [roles.Support]]]);
    const replaced = await call<SsoConfiguration>(server, 'PUT', path(SsoPaths.groups, { configId: config.id }), { token, body: { groups: [{ group: 'ops', roleIds: [] }] } });
    expect(replaced.body.groups.map((g) => g.group)).toEqual(['ops']);
    expect((await call(server, 'PUT', path(SsoPaths.groups, { configId: config.id }), { token, body: { groups: [{ group: 'a', roleIds: [] }, { group: 'a', roleIds: [] }] } })).status).toBe(400);
    expect((await call(server, 'PUT', path(SsoPaths.groups, { configId: config.id }), { token, body: { groups: 'admins' } })).status).toBe(400);
    expect((await call(server, 'POST', SsoPaths.configurations, { token, body: { type: 'ldap' } })).status).toBe(400);
    expect((await call(server, 'POST', SsoPaths.configurations, { token, body: { type: 'oidc' } })).status).toBe(400);
  });

  it("an OIDC configuration keeps its client secret to itself; signRequest needs the server's SP key", async () => {
    const server = await h.start(env());
    const admin = await signUpAndActivate(server);
    const token = admin.accessToken;
    const created = await call<SsoConfiguration>(server, 'POST', SsoPaths.configurations, { token, body: { type: 'oidc', oidc: { issuer: 'http://127.0.0.1:9/', clientId: 'client-1', clientSecret: 'super-secret-value' } } });
    expect(created.status).toBe(201);
    expect(created.body.oidc).toEqual({ issuer: 'http://127.0.0.1:9', clientId: 'client-1', scopes: 'openid email profile', hasClientSecret: true });
    expect(JSON.stringify(created.body)).not.toContain('super-secret-value');
    const saml = await newSamlConfig(server, token);
    const sign = await call(server, 'PATCH', path(SsoPaths.configuration, { configId: saml.id }), { token, body: { signRequest: true } });
    expect(sign.status).toBe(400);
    expect(sign.body.errorCode).toBe('ER-02106');
    // Removing a configuration removes its domains: the domain is free again.
    const domain = uniqueDomain();
    await addValidatedDomain(server, dns, token, saml.id, domain);
    expect((await call(server, 'DELETE', path(SsoPaths.configuration, { configId: saml.id }), { token })).status).toBe(204);
    const other = await newSamlConfig(server, token);
    expect((await call(server, 'POST', path(SsoPaths.domains, { configId: other.id }), { token, body: { domain } })).status).toBe(201);
  });
});
