/**
 * The relying-party side of one social login provider, on openid-client v6: the authorization URL
 * (PKCE S256, state, nonce), and the code exchange with every check openid-client makes (state,
 * RFC 9207 issuer, PKCE at the token endpoint, ID token signature, issuer, audience, expiry and
 * nonce), then the account read from the ID token, UserInfo or the provider's API.
 */
import * as client from 'openid-client';
import { importPKCS8, SignJWT } from 'jose';
import type { SocialProviderSettings } from './config';
import { readProfile, type ProviderAnswers, type SocialProfile } from './providers';

/** Seconds one call to a provider may take. */
const PROVIDER_TIMEOUT_S = 10;
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface CodeExchange {
  /** The redirect_uri of the authorization request (the token request repeats it). */
  redirectUri: string;
  code: string;
  state: string;
  /** RFC 9207 `iss` of the authorization response, if the provider sent one. */
  iss?: string;
  codeVerifier: string;
  nonce: string;
  /** Apple's `user` form field, if it was posted. */
  providerUser?: string | null;
}

export interface ProviderClient {
  authorizationUrl(request: AuthorizationRequest): Promise<URL>;
  exchange(exchange: CodeExchange): Promise<SocialProfile>;
}

const isLoopback = (url: string | null | undefined) => {
  try {
    return url ? LOOPBACK.includes(new URL(url).hostname) : false;
  } catch {
    return false;
  }
};

/** Apple's client secret: an ES256 JWT signed with the team's Sign in with Apple key, minted per exchange. */
export async function appleClientSecret(settings: SocialProviderSettings): Promise<string> {
  const apple = settings.apple!;
  const key = await importPKCS8(apple.privateKey, 'ES256');
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: apple.keyId })
    .setIssuer(apple.teamId)
    .setSubject(settings.clientId)
    .setAudience('https://appleid.apple.com')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key);
}

export function createProviderClient(settings: SocialProviderSettings): ProviderClient {
  let discovered: Promise<client.Configuration> | null = null;

  // No secret: the authorization URL needs none (Apple's is minted only for the token request).
  const auth = (secret: string | null) => (secret === null ? client.None() : settings.tokenAuth === 'client_secret_basic' ? client.ClientSecretBasic(secret) : client.ClientSecretPost(secret));
  const insecure = settings.discover ? isLoopback(settings.issuer) : isLoopback(settings.tokenEndpoint);

  /** Provider metadata: discovered once (and again after a failure), or the configured endpoints. */
  async function configuration(secret: string | null): Promise<client.Configuration> {
    if (settings.discover) {
      discovered ??= client
        .discovery(new URL(settings.issuer!), settings.clientId, undefined, auth(settings.clientSecret), {
          timeout: PROVIDER_TIMEOUT_S,
          ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
        })
        .catch((err: unknown) => {
          discovered = null;
          throw err;
        });
      // Discovered providers authenticate with their configured secret (Apple's minted one is not discovered).
      return discovered;
    }
    const config = new client.Configuration(
      {
        // An OAuth 2.0-only provider has no issuer; no ID token is ever compared against this one.
        issuer: settings.issuer ?? new URL(settings.authorizationEndpoint!).origin,
        authorization_endpoint: settings.authorizationEndpoint!,
        token_endpoint: settings.tokenEndpoint!,
        ...(settings.userinfoEndpoint ? { userinfo_endpoint: settings.userinfoEndpoint } : {}),
        ...(settings.jwksUri ? { jwks_uri: settings.jwksUri } : {}),
      },
      settings.clientId,
      undefined,
      auth(secret),
    );
    config.timeout = PROVIDER_TIMEOUT_S;
    if (insecure) client.allowInsecureRequests(config);
    return config;
  }

  async function apiJson(config: client.Configuration, accessToken: string, url: string): Promise<unknown> {
    const headers = new Headers({ accept: settings.profile === 'github' ? 'application/vnd.github+json' : 'application/json' });
    const response = await client.fetchProtectedResource(config, accessToken, new URL(url), 'GET', undefined, headers);
    if (!response.ok) throw new Error(`${new URL(url).pathname} answered ${response.status}`);
    return response.json();
  }

  return {
    async authorizationUrl({ redirectUri, state, nonce, codeVerifier }) {
      const config = await configuration(null);
      const params: Record<string, string> = {
        redirect_uri: redirectUri,
        scope: settings.scopes,
        response_type: 'code',
        state,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      };
      if (settings.kind === 'oidc') params.nonce = nonce;
      if (settings.responseMode === 'form_post') params.response_mode = 'form_post';
      return client.buildAuthorizationUrl(config, params);
    },

    async exchange({ redirectUri, code, state, iss, codeVerifier, nonce, providerUser }) {
      const secret = settings.apple ? await appleClientSecret(settings) : settings.clientSecret;
      const config = await configuration(secret);
      // The authorization response as the provider sent it to redirect_uri.
      const response = new URL(redirectUri);
      response.searchParams.set('code', code);
      response.searchParams.set('state', state);
      if (iss !== undefined) response.searchParams.set('iss', iss);
      const tokens = await client.authorizationCodeGrant(config, response, {
        pkceCodeVerifier: codeVerifier,
        expectedState: state,
        ...(settings.kind === 'oidc' ? { expectedNonce: nonce, idTokenExpected: true } : {}),
      });
      const answers: ProviderAnswers = { providerUser: providerUser ?? null };
      if (settings.kind === 'oidc') {
        const claims = tokens.claims();
        if (!claims) throw new Error('no ID token');
        answers.idClaims = claims as Record<string, unknown>;
        // UserInfo only for what the ID token left out; openid-client checks it names the same subject.
        if ((claims.email === undefined || claims.name === undefined) && config.serverMetadata().userinfo_endpoint) {
          answers.userinfo = (await client.fetchUserInfo(config, tokens.access_token, claims.sub)) as Record<string, unknown>;
        }
      } else {
        const info = (await apiJson(config, tokens.access_token, settings.userinfoEndpoint!)) as Record<string, unknown>;
        // A custom OAuth 2.0 provider's UserInfo may call its subject `id`.
        answers.userinfo = settings.profile === 'oidc' && info.sub === undefined && info.id !== undefined ? { ...info, sub: info.id } : info;
        if (settings.emailsEndpoint) answers.emails = await apiJson(config, tokens.access_token, settings.emailsEndpoint);
      }
      return readProfile(settings.profile, answers, settings.trustEmail);
    },
  };
}
