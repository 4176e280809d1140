/**
 * The OpenID Connect relying party of one SSO configuration, on openid-client: discovery (cached a
 * few minutes per configuration version), the authorization request with PKCE S256, state and
 * nonce, and the code exchange that checks all three and the ID token.
 */
import * as client from 'openid-client';
import type { Config } from '../../config';
import type { SsoConfigurationRow } from '../../db/queries/sso-configurations';
import { DEFAULT_OIDC_SCOPES, openSecret } from './configurations';
import type { SsoIdentity } from './saml';
import { checkIdpUrl } from './urls';

const DISCOVERY_TTL_MS = 5 * 60_000;

/** What the authorization request needs to be answered: kept server-side on the sso_requests row. */
export interface OidcRequestSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** A refused OIDC callback; `message` is for the server log only. */
export class OidcRejected extends Error {
  override name = 'OidcRejected';
}

export interface OidcRelyingParty {
  /** The authorization request; `loginHint` is left out when there is none (a connection test). */
  authorizationUrl(row: SsoConfigurationRow, redirectUri: string, loginHint?: string): Promise<{ url: string; secrets: OidcRequestSecrets }>;
  /** Exchanges the code (PKCE verifier, state, nonce and ID token checked) and reads the identity. */
  finish(row: SsoConfigurationRow, callback: OidcCallback, secrets: OidcRequestSecrets): Promise<SsoIdentity>;
  /** The same exchange and checks as `finish`, answering the ID token's claims merged over UserInfo's (the connection test reports them). */
  exchange(row: SsoConfigurationRow, callback: OidcCallback, secrets: OidcRequestSecrets): Promise<Record<string, unknown>>;
}

export interface OidcCallback {
  redirectUri: string;
  code: string;
  state: string;
  iss?: string;
}

/**
 * The identity real sign-ins take from the claims: the email (lowercased; refused when missing or
 * when the IdP says it is not verified), the name, and the groups.
 */
export function identityFromClaims(claims: Record<string, unknown>): SsoIdentity {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email) throw new OidcRejected('the IdP returned no email claim');
  if (claims.email_verified === false) throw new OidcRejected('the IdP says the email is not verified');
  const groups = Array.isArray(claims.groups) ? claims.groups.filter((g): g is string => typeof g === 'string') : [];
  const name = typeof claims.name === 'string' ? claims.name : [claims.given_name, claims.family_name].filter((p) => typeof p === 'string').join(' ') || null;
  return { subject: String(claims.sub), email, name, groups };
}

export function createOidcRelyingParty(config: Pick<Config, 'keyEncryptionKey' | 'sso'>): OidcRelyingParty {
  const cache = new Map<string, { at: number; configuration: Promise<client.Configuration> }>();

  function configurationFor(row: SsoConfigurationRow): Promise<client.Configuration> {
    // The version (updated_at) is part of the key: a changed issuer or secret is rediscovered at once.
    const key = `${row.id}:${row.updated_at}`;
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.configuration;
    const configuration = (async () => {
      if (!row.oidc_issuer || !row.oidc_client_id || !row.oidc_client_secret) throw new OidcRejected('the configuration has no issuer, client id or client secret');
      const issuer = await checkIdpUrl(row.oidc_issuer, config, 'oidc.issuer');
      const discovered = await client.discovery(issuer, row.oidc_client_id, undefined, client.ClientSecretBasic(openSecret(row.oidc_client_secret, config)), {
        timeout: 5,
        // The discovery document (the tenant admin's) names the token, JWKS and UserInfo endpoints:
        // each is held to the issuer's rule (https, public address) before the server calls it.
        [client.customFetch]: async (url, options) => fetch(await checkIdpUrl(url, config, 'an endpoint of the IdP'), options as RequestInit),
        ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
      });
      // A multi-tenant Entra issuer ({tenantid}) takes every directory's users (see isMultiTenantIssuer).
      if (discovered.serverMetadata().issuer.includes('{tenantid}')) throw new OidcRejected('the issuer accepts every Entra ID directory ({tenantid}); configure the tenant-specific issuer');
      return discovered;
    })();
    configuration.catch(() => cache.delete(key));
    for (const [k, v] of cache) if (k.startsWith(`${row.id}:`) || Date.now() - v.at >= DISCOVERY_TTL_MS) cache.delete(k);
    cache.set(key, { at: Date.now(), configuration });
    return configuration;
  }

  return {
    async authorizationUrl(row, redirectUri, loginHint) {
      const configuration = await configurationFor(row);
      const secrets = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
      const scopes = new Set(['openid', ...(row.oidc_scopes ?? DEFAULT_OIDC_SCOPES).split(/\s+/).filter(Boolean)]);
      const url = client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: [...scopes].join(' '),
        state: secrets.state,
        nonce: secrets.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(secrets.codeVerifier),
        code_challenge_method: 'S256',
        ...(loginHint ? { login_hint: loginHint } : {}),
      });
      return { url: url.href, secrets };
    },

    async finish(row, callback, secrets) {
      return identityFromClaims(await exchange(row, callback, secrets));
    },
    exchange,
  };

  async function exchange(row: SsoConfigurationRow, callback: OidcCallback, secrets: OidcRequestSecrets): Promise<Record<string, unknown>> {
    let claims: Record<string, unknown>;
    try {
      const configuration = await configurationFor(row);
      const current = new URL(callback.redirectUri);
      current.search = '';
      current.searchParams.set('code', callback.code);
      current.searchParams.set('state', callback.state);
      if (callback.iss) current.searchParams.set('iss', callback.iss);
      const tokens = await client.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: secrets.codeVerifier,
        expectedState: secrets.state,
        expectedNonce: secrets.nonce,
        idTokenExpected: true,
      });
      claims = { ...(tokens.claims() ?? {}) };
      // Providers that follow OIDC's default put profile claims in userinfo only when an access token is issued.
      if ((typeof claims.email !== 'string' || !('groups' in claims)) && tokens.access_token) {
        const info = await client.fetchUserInfo(configuration, tokens.access_token, String(claims.sub));
        claims = { ...info, ...claims };
      }
    } catch (err) {
      if (err instanceof OidcRejected) throw err;
      // The IdP's OAuth error (e.g. invalid_grant for a wrong PKCE verifier) says the most.
      const oauth = err as { error?: unknown; error_description?: unknown };
      const detail = typeof oauth.error === 'string' ? ` (${oauth.error}${typeof oauth.error_description === 'string' ? `: ${oauth.error_description}` : ''})` : '';
      // openid-client wraps a refused call ("something went wrong"); its cause says which.
      const cause = err instanceof Error && err.cause instanceof Error ? ` [${err.cause.message}]` : '';
      throw new OidcRejected(err instanceof Error ? `${err.name}: ${err.message}${detail}${cause}` : String(err));
    }
    return claims;
  }
}
