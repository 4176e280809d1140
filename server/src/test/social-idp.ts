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

/** Drives the IdP's login and consent pages over HTTP (one implementation for both test IdPs). */
export { signInAt } from './oidc-idp';
