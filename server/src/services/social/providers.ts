/**
 * The seven built-in social login providers (seed 000 section 1) and how each one's account is read.
 * Google, Microsoft, Apple, LinkedIn and Slack are OpenID Connect: an ID token is validated (issuer,
 * audience, signature, nonce). LinkedIn and Slack retired their OAuth-2.0-only sign-in products for
 * "Sign In with LinkedIn using OpenID Connect" and "Sign in with Slack" (OIDC), which are used here.
 * GitHub and Facebook are OAuth 2.0 only: the profile and email come from their APIs.
 */
import type { SocialLoginProvider } from '@gatehouse/shared/wire';

/** How a provider's account is read after the code exchange. */
export type ProfileReader = 'oidc' | 'microsoft' | 'apple' | 'github' | 'facebook';

/** Endpoints and defaults of a provider; a vendor's settings supply client id, secret and scopes. */
export interface ProviderDefinition {
  displayName: string;
  /** oidc: an ID token is required and validated (nonce included); oauth2: profile from APIs. */
  kind: 'oidc' | 'oauth2';
  /** OIDC issuer (the ID token's `iss`); with `discover` its metadata is read from /.well-known/openid-configuration. */
  issuer: string | null;
  discover: boolean;
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  userinfoEndpoint?: string;
  jwksUri?: string;
  /** GitHub: the list of the account's addresses with their verified flags. */
  emailsEndpoint?: string;
  scopes: string;
  /** Apple answers with an HTML form POST (response_mode=form_post) when name or email is asked for. */
  responseMode: 'query' | 'form_post';
  profile: ProfileReader;
}

/** Built-in endpoints, from each provider's developer documentation. */
export const BUILT_IN_PROVIDERS: Record<SocialLoginProvider, ProviderDefinition> = {
  google: {
    displayName: 'Google',
    kind: 'oidc',
    issuer: 'https://accounts.google.com',
    discover: false,
    authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenEndpoint: 'https://oauth2.googleapis.com/token',
    userinfoEndpoint: 'https://openidconnect.googleapis.com/v1/userinfo',
    jwksUri: 'https://www.googleapis.com/oauth2/v3/certs',
    scopes: 'openid email profile',
    responseMode: 'query',
    profile: 'oidc',
  },
  microsoft: {
    displayName: 'Microsoft',
    kind: 'oidc',
    // Entra ID's multi-tenant issuer is a template (…/{tenantid}/v2.0): openid-client's discovery
    // checks each ID token against the tenant (tid) it names. `{tenant}` is the configured tenant.
    issuer: 'https://login.microsoftonline.com/{tenant}/v2.0',
    discover: true,
    scopes: 'openid email profile',
    responseMode: 'query',
    profile: 'microsoft',
  },
  apple: {
    displayName: 'Apple',
    kind: 'oidc',
    issuer: 'https://appleid.apple.com',
    discover: false,
    authorizationEndpoint: 'https://appleid.apple.com/auth/authorize',
    tokenEndpoint: 'https://appleid.apple.com/auth/token',
    jwksUri: 'https://appleid.apple.com/auth/keys',
    scopes: 'openid email name',
    responseMode: 'form_post',
    profile: 'apple',
  },
  linkedin: {
    displayName: 'LinkedIn',
    kind: 'oidc',
    issuer: 'https://www.linkedin.com/oauth',
    discover: false,
    authorizationEndpoint: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenEndpoint: 'https://www.linkedin.com/oauth/v2/accessToken',
    userinfoEndpoint: 'https://api.linkedin.com/v2/userinfo',
    jwksUri: 'https://www.linkedin.com/oauth/openid/jwks',
    scopes: 'openid profile email',
    responseMode: 'query',
    profile: 'oidc',
  },
  slack: {
    displayName: 'Slack',
    kind: 'oidc',
    issuer: 'https://slack.com',
    discover: false,
    authorizationEndpoint: 'https://slack.com/openid/connect/authorize',
    tokenEndpoint: 'https://slack.com/api/openid.connect.token',
    userinfoEndpoint: 'https://slack.com/api/openid.connect.userInfo',
    jwksUri: 'https://slack.com/openid/connect/keys',
    scopes: 'openid email profile',
    responseMode: 'query',
    profile: 'oidc',
  },
  github: {
    displayName: 'GitHub',
    kind: 'oauth2',
    issuer: null,
    discover: false,
    authorizationEndpoint: 'https://github.com/login/oauth/authorize',
    tokenEndpoint: 'https://github.com/login/oauth/access_token',
    userinfoEndpoint: 'https://api.github.com/user',
    emailsEndpoint: 'https://api.github.com/user/emails',
    scopes: 'read:user user:email',
    responseMode: 'query',
    profile: 'github',
  },
  facebook: {
    displayName: 'Facebook',
    kind: 'oauth2',
    issuer: null,
    discover: false,
    authorizationEndpoint: 'https://www.facebook.com/v19.0/dialog/oauth',
    tokenEndpoint: 'https://graph.facebook.com/v19.0/oauth/access_token',
    userinfoEndpoint: 'https://graph.facebook.com/v19.0/me?fields=id,name,email',
    scopes: 'email public_profile',
    responseMode: 'query',
    profile: 'facebook',
  },
};

/** The account a provider vouched for. */
export interface SocialProfile {
  /** The provider's stable id of the account (`sub`, GitHub's numeric id, Facebook's app-scoped id). */
  subject: string;
  email: string | null;
  /** True only when the provider says it verified the address (or the vendor set trustEmail). */
  emailVerified: boolean;
  name: string | null;
}

/** What the code exchange produced: ID token claims (OIDC), UserInfo or API answers. */
export interface ProviderAnswers {
  idClaims?: Record<string, unknown>;
  userinfo?: Record<string, unknown>;
  /** GitHub's GET /user/emails. */
  emails?: unknown;
  /** Apple's `user` form field (JSON with name.firstName/lastName), posted on the first sign-in only. */
  providerUser?: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null);
/**
 * A provider's address lowercased, and whether it may name an account: not when lowercasing turns a
 * non-ASCII letter into ASCII (U+212A KELVIN SIGN into "k", U+0130 into "i" + a dot), which would make
 * the provider's address someone else's.
 */
function emailOf(value: unknown): { email: string | null; trusted: boolean } {
  const raw = str(value);
  return { email: raw?.toLowerCase() ?? null, trusted: raw !== null && ![...raw].some((ch) => ch > '\x7f' && /[\x00-\x7f]/.test(ch.toLowerCase())) };
}
/** Apple sends booleans as strings ("true"). */
const isTrue = (v: unknown): boolean => v === true || v === 'true';

function fullName(given: unknown, family: unknown): string | null {
  const name = [str(given), str(family)].filter(Boolean).join(' ');
  return name || null;
}

function appleName(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    const user = JSON.parse(raw) as { name?: { firstName?: unknown; lastName?: unknown } };
    return fullName(user.name?.firstName, user.name?.lastName);
  } catch {
    return null;
  }
}

/** Reads the account out of a provider's answers. `trustEmail` stands in for a provider that says nothing about verification. */
export function readProfile(reader: ProfileReader, answers: ProviderAnswers, trustEmail: boolean): SocialProfile {
  const id = answers.idClaims ?? {};
  const info = answers.userinfo ?? {};
  // The ID token is signed and checked; UserInfo fills in what it left out (same subject, checked by openid-client).
  const claim = (name: string): unknown => (id[name] !== undefined ? id[name] : info[name]);
  switch (reader) {
    case 'oidc':
    case 'microsoft':
    case 'apple': {
      const subject = str(claim('sub'));
      if (!subject) throw new Error('the provider named no subject');
      const { email, trusted } = emailOf(claim('email'));
      let verified = isTrue(claim('email_verified'));
      // Entra ID's `email` is whatever the tenant typed; only xms_edov says its domain owner verified it.
      if (reader === 'microsoft') verified = isTrue(claim('xms_edov')) || verified;
      if (claim('email_verified') === undefined && (reader !== 'microsoft' || claim('xms_edov') === undefined)) verified = trustEmail;
      const name = str(claim('name')) ?? fullName(claim('given_name'), claim('family_name')) ?? (reader === 'apple' ? appleName(answers.providerUser) : null);
      return { subject, email, emailVerified: email !== null && trusted && verified, name };
    }
    case 'github': {
      const subject = str(info.id);
      if (!subject) throw new Error('GitHub named no user id');
      const list = Array.isArray(answers.emails) ? (answers.emails as Array<{ email?: unknown; primary?: unknown; verified?: unknown }>) : [];
      const primary = list.find((e) => e.primary === true) ?? null;
      const { email, trusted } = emailOf(str(primary?.email) ?? info.email);
      // Only the emails API says whether the address is verified; a bare profile email is not trusted.
      const verified = primary ? primary.verified === true : trustEmail;
      return { subject, email, emailVerified: email !== null && trusted && verified, name: str(info.name) ?? str(info.login) };
    }
    case 'facebook': {
      const subject = str(info.id);
      if (!subject) throw new Error('Facebook named no user id');
      const { email, trusted } = emailOf(info.email);
      // The Graph API has no verified flag: the vendor decides (trustEmail).
      return { subject, email, emailVerified: email !== null && trusted && trustEmail, name: str(info.name) };
    }
  }
}
