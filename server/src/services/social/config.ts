/**
 * SOCIAL_LOGIN_PROVIDERS: which social login providers are on, with the vendor's client id, secret
 * and scopes. Read once at start; a provider that cannot work stops the server with a sentence
 * that says what to fix. Secrets are kept only here and sent only to the provider's token endpoint.
 */
import { SOCIAL_LOGIN_PROVIDERS, SOCIAL_PROVIDER_ID, type SocialLoginProvider } from '@gatehouse/shared/wire';
import { BUILT_IN_PROVIDERS, type ProviderDefinition } from './providers';

/** A provider as the server uses it: the built-in (or custom) definition with the vendor's settings. */
export interface SocialProviderSettings extends ProviderDefinition {
  id: string;
  custom: boolean;
  enabled: boolean;
  clientId: string;
  /** Null for Apple, whose secret is a JWT signed with the team's key (see `apple`). */
  clientSecret: string | null;
  /** Treat the provider's email as verified when it says nothing either way (never overrides a "false"). */
  trustEmail: boolean;
  /** How the client authenticates at the token endpoint (built-ins: client_secret_post). */
  tokenAuth: 'client_secret_post' | 'client_secret_basic';
  apple: { teamId: string; keyId: string; privateKey: string } | null;
}

export interface SocialLoginConfig {
  providers: SocialProviderSettings[];
  /** SOCIAL_LOGIN_ALLOW_SIGNUP: a first social sign-in with a new verified email creates the account. */
  allowSignUp: boolean;
  /** Seconds a started sign-in (state, nonce, PKCE) stays usable. */
  stateTtl: number;
}

type Fail = (message: string) => Error;
type Settings = Record<string, unknown>;

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

function text(settings: Settings, key: string, where: string, fail: Fail, required = false): string | undefined {
  const value = settings[key];
  if (value === undefined || value === null || value === '') {
    if (required) throw fail(`SOCIAL_LOGIN_PROVIDERS: ${where} needs "${key}".`);
    return undefined;
  }
  if (typeof value !== 'string') throw fail(`SOCIAL_LOGIN_PROVIDERS: ${where}.${key} must be a string.`);
  return value.trim();
}

/** Provider endpoints are https; plain http only on this machine (a provider running beside the server, or tests). */
function endpoint(settings: Settings, key: string, where: string, fail: Fail, required = false): string | undefined {
  const raw = text(settings, key, where, fail, required);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fail(`SOCIAL_LOGIN_PROVIDERS: ${where}.${key} must be a URL, got "${raw}".`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.includes(url.hostname))) {
    throw fail(`SOCIAL_LOGIN_PROVIDERS: ${where}.${key} must be https (http only for localhost), got "${raw}".`);
  }
  if (url.username || url.password || url.hash) throw fail(`SOCIAL_LOGIN_PROVIDERS: ${where}.${key} must not carry credentials or a fragment.`);
  return url.href;
}

function bool(settings: Settings, key: string, where: string, def: boolean, fail: Fail): boolean {
  const value = settings[key];
  if (value === undefined) return def;
  if (typeof value !== 'boolean') throw fail(`SOCIAL_LOGIN_PROVIDERS: ${where}.${key} must be true or false.`);
  return value;
}

/** Scopes as one space-separated string (an array is accepted too). */
function scopes(settings: Settings, where: string, def: string, fail: Fail): string {
  const value = settings.scopes;
  if (value === undefined) return def;
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : null;
  if (!list || list.some((s) => typeof s !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s.trim() || '-'))) {
    throw fail(`SOCIAL_LOGIN_PROVIDERS: ${where}.scopes must be a space-separated string of scopes.`);
  }
  const joined = (list as string[]).map((s) => s.trim()).filter(Boolean).join(' ');
  if (!joined) throw fail(`SOCIAL_LOGIN_PROVIDERS: ${where}.scopes is empty.`);
  return joined;
}

function object(value: unknown, where: string, fail: Fail): Settings {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw fail(`SOCIAL_LOGIN_PROVIDERS: ${where} must be an object.`);
  return value as Settings;
}

function builtIn(name: SocialLoginProvider, settings: Settings, fail: Fail): SocialProviderSettings {
  const definition = BUILT_IN_PROVIDERS[name];
  const enabled = bool(settings, 'enabled', name, true, fail);
  const clientId = text(settings, 'clientId', name, fail, true)!;
  let apple: SocialProviderSettings['apple'] = null;
  let clientSecret: string | null = null;
  if (name === 'apple') {
    apple = { teamId: text(settings, 'teamId', name, fail, true)!, keyId: text(settings, 'keyId', name, fail, true)!, privateKey: text(settings, 'privateKey', name, fail, true)! };
    if (!apple.privateKey.includes('PRIVATE KEY')) throw fail('SOCIAL_LOGIN_PROVIDERS: apple.privateKey must be the PEM (-----BEGIN PRIVATE KEY-----) of the key Apple issued for Sign in with Apple.');
  } else {
    clientSecret = text(settings, 'clientSecret', name, fail, true)!;
  }
  let issuer = definition.issuer;
  if (name === 'microsoft') {
    const tenant = text(settings, 'tenant', name, fail) ?? 'common';
    if (!/^[A-Za-z0-9.-]{1,100}$/.test(tenant)) throw fail('SOCIAL_LOGIN_PROVIDERS: microsoft.tenant must be common, organizations, consumers, a tenant id or a tenant domain.');
    issuer = issuer!.replace('{tenant}', tenant);
  }
  return {
    ...definition,
    issuer,
    id: name,
    custom: false,
    enabled,
    clientId,
    clientSecret,
    scopes: scopes(settings, name, definition.scopes, fail),
    displayName: text(settings, 'displayName', name, fail) ?? definition.displayName,
    trustEmail: bool(settings, 'trustEmail', name, false, fail),
    tokenAuth: 'client_secret_post',
    apple,
  };
}

/** tokenEndpointAuthMethod of a custom provider: client_secret_basic (the OAuth 2.0 default) or client_secret_post. */
function tokenAuth(settings: Settings, where: string, fail: Fail): SocialProviderSettings['tokenAuth'] {
  const value = text(settings, 'tokenEndpointAuthMethod', where, fail) ?? 'client_secret_basic';
  if (value !== 'client_secret_basic' && value !== 'client_secret_post') throw fail(`SOCIAL_LOGIN_PROVIDERS: ${where}.tokenEndpointAuthMethod must be client_secret_basic or client_secret_post.`);
  return value;
}

/**
 * A custom provider: OpenID Connect by discovery (`issuer`), or explicit endpoints. With explicit
 * endpoints it is OIDC when `jwksUri` and `issuer` are given (ID tokens validated), else OAuth 2.0
 * whose `userinfoEndpoint` must answer with `sub` (or `id`), `email` and `email_verified`.
 */
function custom(settings: Settings, index: number, fail: Fail): SocialProviderSettings {
  const where = `custom[${index}]`;
  const id = text(settings, 'id', where, fail, true)!;
  if (!SOCIAL_PROVIDER_ID.test(id)) throw fail(`SOCIAL_LOGIN_PROVIDERS: ${where}.id must be lowercase letters, digits and dashes (at most 40), got "${id}".`);
  if ((SOCIAL_LOGIN_PROVIDERS as readonly string[]).includes(id)) throw fail(`SOCIAL_LOGIN_PROVIDERS: ${where}.id "${id}" is a built-in provider; configure it under "${id}" instead.`);
  const at = `custom "${id}"`;
  const issuer = endpoint(settings, 'issuer', at, fail);
  const authorizationEndpoint = endpoint(settings, 'authorizationEndpoint', at, fail);
  const tokenEndpoint = endpoint(settings, 'tokenEndpoint', at, fail);
  const userinfoEndpoint = endpoint(settings, 'userinfoEndpoint', at, fail);
  const jwksUri = endpoint(settings, 'jwksUri', at, fail);
  const explicit = Boolean(authorizationEndpoint || tokenEndpoint);
  if (!explicit && !issuer) throw fail(`SOCIAL_LOGIN_PROVIDERS: ${at} needs "issuer" (OpenID Connect discovery) or "authorizationEndpoint" and "tokenEndpoint".`);
  if (explicit && (!authorizationEndpoint || !tokenEndpoint)) throw fail(`SOCIAL_LOGIN_PROVIDERS: ${at} needs both "authorizationEndpoint" and "tokenEndpoint".`);
  const kind = !explicit || (jwksUri && issuer) ? 'oidc' : 'oauth2';
  if (kind === 'oauth2' && !userinfoEndpoint) throw fail(`SOCIAL_LOGIN_PROVIDERS: ${at} is OAuth 2.0 (no issuer and jwksUri), so it needs "userinfoEndpoint" to learn who signed in.`);
  const scopeList = scopes(settings, at, kind === 'oidc' ? 'openid email profile' : 'email profile', fail);
  if (kind === 'oidc' && !scopeList.split(' ').includes('openid')) throw fail(`SOCIAL_LOGIN_PROVIDERS: ${at} is OpenID Connect, so its scopes must include openid.`);
  return {
    id,
    custom: true,
    enabled: bool(settings, 'enabled', at, true, fail),
    displayName: text(settings, 'displayName', at, fail, true)!,
    kind,
    issuer: issuer ?? null,
    discover: !explicit,
    ...(authorizationEndpoint ? { authorizationEndpoint } : {}),
    ...(tokenEndpoint ? { tokenEndpoint } : {}),
    ...(userinfoEndpoint ? { userinfoEndpoint } : {}),
    ...(jwksUri ? { jwksUri } : {}),
    scopes: scopeList,
    responseMode: 'query',
    profile: 'oidc',
    clientId: text(settings, 'clientId', at, fail, true)!,
    clientSecret: text(settings, 'clientSecret', at, fail, true)!,
    trustEmail: bool(settings, 'trustEmail', at, false, fail),
    tokenAuth: tokenAuth(settings, at, fail),
    apple: null,
  };
}

/** Reads SOCIAL_LOGIN_PROVIDERS (JSON), SOCIAL_LOGIN_ALLOW_SIGNUP and SOCIAL_LOGIN_STATE_TTL. */
export function socialLoginConfig(raw: { providers?: string; allowSignUp: boolean; stateTtl: number }, fail: Fail): SocialLoginConfig {
  const providers: SocialProviderSettings[] = [];
  if (raw.providers?.trim()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.providers);
    } catch {
      throw fail('SOCIAL_LOGIN_PROVIDERS must be a JSON object such as {"google":{"clientId":"...","clientSecret":"..."}}.');
    }
    const all = object(parsed, 'the value', fail);
    for (const [key, value] of Object.entries(all)) {
      if (key === 'custom') {
        if (!Array.isArray(value)) throw fail('SOCIAL_LOGIN_PROVIDERS: "custom" must be an array of providers.');
        value.forEach((entry, index) => providers.push(custom(object(entry, `custom[${index}]`, fail), index, fail)));
      } else if ((SOCIAL_LOGIN_PROVIDERS as readonly string[]).includes(key)) {
        providers.push(builtIn(key as SocialLoginProvider, object(value, key, fail), fail));
      } else {
        throw fail(`SOCIAL_LOGIN_PROVIDERS: unknown provider "${key}"; use one of ${SOCIAL_LOGIN_PROVIDERS.join(', ')}, or list your own under "custom".`);
      }
    }
    const ids = providers.map((p) => p.id);
    const twice = ids.find((id, i) => ids.indexOf(id) !== i);
    if (twice) throw fail(`SOCIAL_LOGIN_PROVIDERS: the provider id "${twice}" is used twice.`);
  }
  return { providers, allowSignUp: raw.allowSignUp, stateTtl: raw.stateTtl };
}
