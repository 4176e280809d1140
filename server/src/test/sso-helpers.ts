/** Test helpers of enterprise SSO: a tenant admin with a configured IdP, and the browser's side of a sign-in. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { SsoPaths, type LoginResponse, type SsoConfiguration } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../app';
import { ssoCookieName } from '../routes/sso/login';
import { startTestDns, type TestDns } from './dns-server';
import { call, PASSWORD, signUpAndActivate } from './harness';
import { signInAt, startTestOidcIdp, type TestOidcIdp } from './oidc-idp';

export const path = (template: string, params: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(params[k]!));
export const SAML_CALLBACK = 'http://localhost:8787/account/saml/callback';
export const OIDC_CALLBACK = 'http://localhost:8787/account/oidc/callback';

export interface SsoTenant {
  token: string;
  tenantId: string;
  adminEmail: string;
  configId: string;
  domain: string;
  /** Role ids of the tenant's built-in roles, by key (Admin, ReadOnly, Support). */
  roles: Record<string, string>;
}

export function uniqueDomain(prefix = 'acme'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}.test`;
}

export async function tenantRoles(server: GatehouseServer, tenantId: string): Promise<Record<string, string>> {
  const rows = await server.db.selectFrom('roles').select(['id', 'key']).where('tenant_id', '=', tenantId).execute();
  return Object.fromEntries(rows.map((r) => [r.key, r.id]));
}

/** Adds `domain` to a configuration, publishes its TXT record in the test DNS and validates it. */
export async function addValidatedDomain(server: GatehouseServer, dns: TestDns, token: string, configId: string, domain: string): Promise<void> {
  const added = await call<SsoConfiguration>(server, 'POST', path(SsoPaths.domains, { configId }), { token, body: { domain } });
  expect(added.status).toBe(201);
  const entry = added.body.domains.find((d) => d.domain === domain)!;
  dns.setTxt(domain, ['v=spf1 -all', entry.generatedVerification]);
  const validated = await call<SsoConfiguration>(server, 'PUT', path(SsoPaths.validateDomain, { configId, domainId: entry.id }), { token });
  expect(validated.status).toBe(200);
  expect(validated.body.domains.find((d) => d.id === entry.id)?.validated).toBe(true);
}

/**
 * A new tenant (its admin signed up) with an SSO configuration of `type`, set up by `configure`
 * (metadata or OIDC client), owning a validated domain, the Support role mapped from group
 * `support` and ReadOnly as the default role.
 */
export async function tenantWithSso(
  server: GatehouseServer,
  dns: TestDns,
  create: Record<string, unknown>,
  configure: (token: string, configId: string) => Promise<void> = async () => undefined,
): Promise<SsoTenant> {
  const admin = await signUpAndActivate(server);
  const token = admin.accessToken;
  const created = await call<SsoConfiguration>(server, 'POST', SsoPaths.configurations, { token, body: create });
  expect(created.status).toBe(201);
  const configId = created.body.id;
  await configure(token, configId);
  const domain = uniqueDomain();
  await addValidatedDomain(server, dns, token, configId, domain);
  const roles = await tenantRoles(server, admin.tenantId);
  expect((await call(server, 'PUT', path(SsoPaths.roles, { configId }), { token, body: { roleIds: [roles.ReadOnly] } })).status).toBe(200);
  expect((await call(server, 'PUT', path(SsoPaths.groups, { configId }), { token, body: { groups: [{ group: 'support', roleIds: [roles.Support] }] } })).status).toBe(200);
  return { token, tenantId: admin.tenantId, adminEmail: admin.email, configId, domain, roles };
}

/** The SSO binding cookie a response set, if any. */
export function bindingFrom(server: GatehouseServer, setCookie: string | null): string | undefined {
  const match = setCookie ? new RegExp(`${ssoCookieName(server.config.clientId)}=([^;]*)`).exec(setCookie) : null;
  return match?.[1];
}

/** The Cookie header a browser holding `binding` sends to the SSO calls. */
export function bindingHeader(server: GatehouseServer, binding: string | undefined): Record<string, string> {
  return binding ? { cookie: `${ssoCookieName(server.config.clientId)}=${binding}` } : {};
}

/** Starts a sign-in as the login box does; returns the IdP address and the binding cookie. */
export async function startSso(server: GatehouseServer, type: 'saml' | 'oidc', email: string, redirectUri = type === 'saml' ? SAML_CALLBACK : OIDC_CALLBACK) {
  const res = await call<{ address: string }>(server, 'POST', type === 'saml' ? SsoPaths.samlPreLogin : SsoPaths.oidcPreLogin, { body: { email, redirectUri } });
  return { res, address: res.body.address, binding: bindingFrom(server, res.setCookie) };
}

/** Posts a SAMLResponse to a configuration's ACS as the IdP's auto-submitting form does. */
export async function postToAcs(server: GatehouseServer, configId: string, samlResponse: string, relayState?: string) {
  const form = new URLSearchParams({ SAMLResponse: samlResponse, ...(relayState ? { RelayState: relayState } : {}) });
  return call(server, 'POST', path(SsoPaths.samlAcs, { configId }), { rawBody: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.example.test' } });
}

/** Decodes the payload of an access token (no verification: the server made it in this test). */
export function claimsOf(accessToken: string): Record<string, any> {
  return JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString('utf8'));
}

/** The env of an SSO test server: the test DNS, and rate limits that a file's many sign-ins stay within. */
export function ssoEnv(dns: TestDns, extra: Record<string, string> = {}): Record<string, string> {
  return { SSO_DNS_SERVERS: dns.address, RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_SSO_PER_IP: '1000/600', ...extra };
}

/** The test DNS and the peer OIDC IdP (redirecting to OIDC_CALLBACK): started before a file's tests, stopped after. Read them inside tests. */
export function oidcPeers(): { readonly dns: TestDns; readonly idp: TestOidcIdp } {
  let dns: TestDns | undefined;
  let idp: TestOidcIdp | undefined;
  beforeAll(async () => {
    dns = await startTestDns();
    idp = await startTestOidcIdp({ redirectUris: [OIDC_CALLBACK] });
  });
  afterAll(async () => {
    await idp?.stop();
    await dns?.stop();
  });
  return {
    get dns() { return dns!; },
    get idp() { return idp!; },
  };
}

/** The login box's oidc/postlogin call with what the IdP put on the callback URL. */
export function postOidcCallback<T = LoginResponse>(server: GatehouseServer, back: URL, binding?: string, overrides: Record<string, string> = {}) {
  const body = {
    code: back.searchParams.get('code')!,
    RelayState: back.searchParams.get('state')!,
    redirectUri: `${back.origin}${back.pathname}`,
    ...(back.searchParams.get('iss') ? { iss: back.searchParams.get('iss')! } : {}),
    ...overrides,
  };
  return call<T>(server, 'POST', SsoPaths.oidcPostLogin, { body, headers: bindingHeader(server, binding) });
}

/** A whole OIDC sign-in of `email` as the login box runs it: pre-login, the peer IdP's sign-in, post-login. */
export async function oidcSignIn(server: GatehouseServer, email: string) {
  const started = await startSso(server, 'oidc', email);
  return postOidcCallback(server, await signInAt(started.address, email), started.binding);
}

/** How many accounts of `domain` and sessions of anyone exist: what a test sign-in must not change. */
export async function ssoCounts(server: GatehouseServer, domain: string): Promise<{ users: number; sessions: number }> {
  const users = await server.db.selectFrom('users').select('id').where('email', 'like', `%@${domain}`).execute();
  const sessions = await server.db.selectFrom('sessions').select('id').execute();
  return { users: users.length, sessions: sessions.length };
}

/** A second session of the same account, signed in with its password. */
export async function passwordSession(server: GatehouseServer, email: string): Promise<string> {
  const res = await call<{ accessToken: string }>(server, 'POST', '/identity/resources/auth/v1/user', { body: { email, password: PASSWORD } });
  expect(res.status).toBe(200);
  return res.body.accessToken;
}
