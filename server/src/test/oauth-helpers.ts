/** Helpers of the hosted-login (OAuth) route tests: a registered client, PKCE, the calls of a relying party. */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OAuthPaths } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../app';
import { oauthBrowserCookieName } from '../routes/oauth/provider';
import { hashClientSecret } from '../services/oauth/clients';
import { call, type CallResult } from './harness';

export const PUBLIC_CLIENT = { clientId: 'notes-spa', redirectUri: 'https://notes.example.com/oauth/callback', postLogoutUri: 'https://notes.example.com/signed-out' };
export const CONFIDENTIAL_CLIENT = { clientId: 'notes-backend', secret: 'a-long-random-client-secret-0123456789abcdef', redirectUri: 'https://api.notes.example.com/callback' };

/** OAUTH_CLIENTS_FILE with one public and one confidential client. */
export function clientsFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-oauth-'));
  const file = path.join(dir, 'clients.json');
  writeFileSync(
    file,
    JSON.stringify({
      clients: [
        { clientId: PUBLIC_CLIENT.clientId, name: 'Notes', redirectUris: [PUBLIC_CLIENT.redirectUri], postLogoutRedirectUris: [PUBLIC_CLIENT.postLogoutUri] },
        { clientId: CONFIDENTIAL_CLIENT.clientId, redirectUris: [CONFIDENTIAL_CLIENT.redirectUri], clientSecretHash: hashClientSecret(CONFIDENTIAL_CLIENT.secret) },
      ],
    }),
  );
  return file;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizeParams extends Record<string, string | undefined> {
  client_id?: string;
  redirect_uri?: string;
}

/** A complete, valid authorization request for the public client (override or drop with undefined). */
export function authorizeParams(challenge: string, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const base: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: PUBLIC_CLIENT.clientId,
    redirect_uri: PUBLIC_CLIENT.redirectUri,
    scope: 'openid email profile',
    state: `state-${randomBytes(6).toString('hex')}`,
    nonce: `nonce-${randomBytes(6).toString('hex')}`,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined));
}

/** GET /oauth/authorize as a browser, with the `/oauth` cookie when given. */
export function getAuthorize(server: GatehouseServer, params: Record<string, string> | string, browserCookie?: string): Promise<CallResult> {
  const query = typeof params === 'string' ? params : new URLSearchParams(params).toString();
  const cookie: Record<string, string> = browserCookie ? { cookie: `${oauthBrowserCookieName(server.config.clientId)}=${browserCookie}` } : {};
  return call(server, 'GET', `${OAuthPaths.authorize}?${query}`, { headers: cookie });
}

/** The hosted page's completion call with a browser session's access token. */
export async function completeAuthorize(server: GatehouseServer, accessToken: string, params: Record<string, string>) {
  const res = await call(server, 'POST', OAuthPaths.authorizeComplete, { token: accessToken, body: params });
  const name = oauthBrowserCookieName(server.config.clientId);
  const browserCookie = res.headers.getSetCookie().map((c) => new RegExp(`^${name}=([^;]*)`).exec(c)?.[1]).find(Boolean);
  return { ...res, browserCookie };
}

/** The query of a redirect (Location) as an object. */
export function redirectQuery(location: string | null): Record<string, string> {
  if (!location) throw new Error('no Location header');
  return Object.fromEntries(new URL(location).searchParams);
}

/** POST /oauth/token with a form body, as a relying party (optionally with Basic credentials or an Origin). */
export function tokenCall(server: GatehouseServer, form: Record<string, string>, headers: Record<string, string> = {}): Promise<CallResult> {
  return call(server, 'POST', OAuthPaths.token, { rawBody: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
}

export const basicAuth = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** Signs in on the hosted page and gets a code for the public client: what the browser part does. */
export async function codeFor(server: GatehouseServer, accessToken: string, overrides: Record<string, string | undefined> = {}) {
  const { verifier, challenge } = pkce();
  const params = authorizeParams(challenge, overrides);
  const completed = await completeAuthorize(server, accessToken, params);
  if (completed.status !== 200) throw new Error(`completion failed: ${JSON.stringify(completed.body)}`);
  const query = redirectQuery(completed.body.redirectUrl);
  return { code: query.code!, query, verifier, params, browserCookie: completed.browserCookie };
}

/** Exchanges a code for the public client's tokens. */
export function exchange(server: GatehouseServer, code: string, verifier: string, overrides: Record<string, string> = {}) {
  return tokenCall(server, { grant_type: 'authorization_code', code, redirect_uri: PUBLIC_CLIENT.redirectUri, client_id: PUBLIC_CLIENT.clientId, code_verifier: verifier, ...overrides });
}

export const jwtClaims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
