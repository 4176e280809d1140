/**
 * A real OpenID Connect provider (panva's node-oidc-provider) on loopback, the upstream IdP of a
 * custom social login provider in tests. Its accounts come from the login typed at its dev
 * interactions: the login is the account id and email; `unverified:<email>` gives an address with
 * email_verified false, `noemail:<id>` an account without one. `signInAt()` drives its login and
 * consent pages over HTTP the way a browser would (server tests); e2e tests use Chromium instead.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

export const IDP_CLIENT_ID = 'gatehouse-test';
export const IDP_CLIENT_SECRET = 'a-test-client-secret-of-enough-length-0123456789';

export interface TestIdp {
  issuer: string;
  provider: Provider;
  stop(): Promise<void>;
}

/** The account behind a login typed at the IdP (see the file comment). */
export function accountOf(login: string): { sub: string; email?: string; email_verified?: boolean; name: string } {
  if (login.startsWith('noemail:')) return { sub: login, name: 'No Email' };
  const unverified = login.startsWith('unverified:');
  const email = unverified ? login.slice('unverified:'.length) : login;
  return { sub: login, email, email_verified: !unverified, name: `IdP ${email.split('@')[0]}` };
}

/** Starts the IdP on loopback (a free port unless `port`); `redirectUris` are the registered callback URLs of the client. */
export async function startTestIdp(options: { redirectUris: string[]; host?: string; port?: number; configure?: Partial<Configuration> }): Promise<TestIdp> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://${host}:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: IDP_CLIENT_ID,
        client_secret: IDP_CLIENT_SECRET,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['social-idp-test-cookie-key-0123456789'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    // PKCE is required of every client here, as a careful IdP does.
    pkce: { required: () => true },
    async findAccount(_ctx, id) {
      const account = accountOf(id);
      return { accountId: id, claims: async () => account };
    },
    ...options.configure,
  });
  server.on('request', provider.callback());
  return {
    issuer,
    provider,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A tiny cookie jar: the IdP's session and interaction cookies, sent back on every request to it. */
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
 * Opens an authorization URL, signs in at the IdP's dev login page as `login`, consents, and returns
 * the URL the IdP sends the browser back to (redirect_uri with code, state and iss).
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
