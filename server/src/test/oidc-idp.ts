/**
 * The upstream IdP of OIDC SSO in tests: panva's node-oidc-provider on a loopback port, with one
 * confidential client (the tenant's SSO configuration), PKCE required, and its dev interactions
 * (a login page taking any login, then consent). The login typed there is the account: its sub and
 * email; `groups` set by the test come back as the groups claim (scope groups).
 * `signInAt()` walks the IdP's pages over HTTP as a browser would (server tests); e2e uses Chromium.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export const SSO_IDP_CLIENT_ID = 'gatehouse-sso';
export const SSO_IDP_CLIENT_SECRET = 'an-sso-test-client-secret-0123456789abcdef';

export interface TestOidcIdp {
  issuer: string;
  /** Groups of an account (by login), returned in the groups claim. */
  groups: Map<string, string[]>;
  stop(): Promise<void>;
}

export async function startTestOidcIdp(options: { redirectUris: string[] }): Promise<TestOidcIdp> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const groups = new Map<string, string[]>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: SSO_IDP_CLIENT_ID,
        client_secret: SSO_IDP_CLIENT_SECRET,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    cookies: { keys: ['sso-idp-test-cookie-key-0123456789abcdef'] },
    pkce: { required: () => true },
    async findAccount(_ctx, login) {
      return {
        accountId: login,
        claims: async () => ({ sub: login, email: login, email_verified: true, name: `Idp ${login.split('@')[0]}`, groups: groups.get(login) ?? [] }),
      };
    },
  });
  server.on('request', provider.callback());
  return { issuer, groups, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A tiny cookie jar for the IdP's session and interaction cookies. */
function jar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    store(res: Response) {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair!.indexOf('=');
        cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
      }
    },
  };
}

/**
 * Opens an authorization URL, signs in at the IdP's login page as `login`, consents, and returns the
 * URL the IdP sends the browser back to (redirect_uri with code, state and iss).
 */
export async function signInAt(authorizationUrl: string, login: string): Promise<URL> {
  const cookies = jar();
  const redirectUri = new URL(authorizationUrl).searchParams.get('redirect_uri')!;
  let url = authorizationUrl;
  for (let step = 0; step < 12; step += 1) {
    if (url.startsWith(redirectUri)) return new URL(url);
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookies.header() } });
    cookies.store(res);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url).href;
      continue;
    }
    const html = await res.text();
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!prompt || !action) throw new Error(`unexpected IdP page (${res.status}): ${html.slice(0, 300)}`);
    const form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
    const posted = await fetch(new URL(action, url), { method: 'POST', redirect: 'manual', body: form, headers: { cookie: cookies.header(), 'content-type': 'application/x-www-form-urlencoded' } });
    cookies.store(posted);
    if (posted.status < 300 || posted.status >= 400) throw new Error(`IdP refused the ${prompt} form: ${posted.status} ${(await posted.text()).slice(0, 300)}`);
    url = new URL(posted.headers.get('location')!, url).href;
  }
  throw new Error('the IdP never redirected back');
}
