/**
 * Social login (seed 000 sections 1, 2.2, 3, 4.2, 7.2, 8): sign-in at Google, Microsoft, Apple,
 * LinkedIn, Slack, GitHub, Facebook or a custom provider, by OAuth 2.0 authorization code with PKCE.
 *
 * start(): a fresh state, nonce and PKCE verifier (openid-client's helpers). The state is kept only as
 * its SHA-256; verifier and nonce are sealed (AES-256-GCM) under a key derived from a 256-bit secret
 * that lives only in the starting browser's httpOnly cookie. The row is single use and expires.
 * postLogin(): the same browser (cookie hash, constant-time) and a live, unused state are required
 * before the row is spent; openid-client then exchanges the code (PKCE verifier, state, nonce, ID token
 * checks). The account links to a user only through an earlier link or a VERIFIED email, a new user is
 * created only when sign-up by social login is allowed, and the sign-in ends like a password one: the
 * MFA gate, then a session whose login origin is social-login or custom-social-login.
 */
import { SignInMethods } from '../auth/sign-in-methods';
import { hkdfSync, createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import {
  ErrorCodes, LoginOrigins, SOCIAL_LOGIN_PROVIDERS, SocialLoginPaths, type CustomSocialProvidersResponse, type SocialLoginResult, type SocialPostLoginRequest,
  type SocialProvidersV2Response,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, newSecret, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { raiseUserCreated } from '../connectivity/user-events';
import { invalidateUserTokens } from '../../db/queries/one-time-tokens';
import { assignRole } from '../../db/queries/roles';
import {
  consumeSocialLoginState, deleteExpiredSocialLoginStates, findSocialIdentity, findSocialLoginState, insertSocialIdentity, insertSocialLoginState, setSocialLoginProviderUser,
  touchSocialIdentity, type SocialLoginStateRow,
} from '../../db/queries/social-login';
import { addUserToTenant } from '../../db/queries/tenants';
import { findUserByEmail, findUserById, insertUser, updateUser, type UserRow } from '../../db/queries/users';
import { AppError } from '../../errors';
import type { AuthService, ClientInfo, IssuedSession } from '../auth/auth';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import { createTenantWithRoles } from '../admin/tenants';
import type { SocialProviderSettings } from './config';
import { createProviderClient, type ProviderClient } from './oauth';
import type { SocialProfile } from './providers';
import { log } from '../../log';

/**
 * amr of a social login session: the provider authenticated the user ('social' is our own value, as
 * RFC 8176 allows; it carries no 'mfa', so a social sign-in alone never counts as a step-up).
 */
export const AMR_SOCIAL = ['social'];

/** 'Failed to authenticate' (seed 000 section 8): one answer for every failed check, the reason only logged. */
const failed = () => new AppError(ErrorCodes.socialLoginFailed, 401, 'Failed to authenticate');
const notEnabled = (provider: string) => new AppError(ErrorCodes.socialProviderNotEnabled, 404, `Social login with ${provider} is not enabled`);

/** A social sign-in's answer: the session (or mfaRequired), the social login result, and the refresh token for the cookie. */
export interface IssuedSocialLogin extends IssuedSession {
  response: IssuedSession['response'] & SocialLoginResult;
}

export interface SocialLoginService {
  /** Social providers v2 (seed 7.2): every built-in provider, active when configured and enabled. */
  providersV2(): SocialProvidersV2Response;
  /** Custom social providers (seed 7.2) that are configured. */
  customProviders(): CustomSocialProvidersResponse;
  /** True when at least one provider is on (the login box then loads its buttons). */
  hasProviders(): boolean;
  /** A new sign-in: the provider's authorization URL, and the browser-binding secret for the cookie. */
  start(provider: string, redirectUri: string, client: ClientInfo): Promise<{ url: string; binding: string }>;
  /** A form_post provider's answer: where to send the browser (the login box callback, with code and state). */
  formPostReturn(provider: string, form: { code?: string; state?: string; error?: string; user?: string }): Promise<string>;
  /** Finishes the sign-in the browser (`binding`: its cookie) started. */
  postLogin(provider: string, body: SocialPostLoginRequest, binding: string | undefined, client: ClientInfo): Promise<IssuedSocialLogin>;
}

/** Why a provider call failed, for the log: openid-client's message and the OAuth error code, never a token or secret. */
function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const e = err as Error & { error?: unknown; error_description?: unknown; cause?: { claim?: unknown } };
  const oauthError = typeof e.error === 'string' ? ` (${e.error}${typeof e.error_description === 'string' ? `: ${e.error_description.slice(0, 200)}` : ''})` : '';
  const claim = typeof e.cause?.claim === 'string' ? ` [claim ${e.cause.claim}]` : '';
  return `${err.message}${oauthError}${claim}`;
}

/** The sealing key of one sign-in: only the cookie's secret and the row id derive it. */
function sealingKey(binding: string, rowId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', binding, rowId, 'gatehouse social login state', 32));
}

function seal(value: { codeVerifier: string; nonce: string }, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), ct].map((b) => b.toString('base64url')).join('.');
}

function unseal(sealed: string, key: Buffer): { codeVerifier: string; nonce: string } {
  const [iv, tag, ct] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', key, iv!);
  decipher.setAuthTag(tag!);
  return JSON.parse(Buffer.concat([decipher.update(ct!), decipher.final()]).toString('utf8')) as { codeVerifier: string; nonce: string };
}

export function createSocialLoginService(deps: {
  db: Db;
  clock: Clock;
  auth: AuthService;
  limiter: RateLimiter;
  /** The MFA gate of a password sign-in: a pending-MFA answer replaces the session, null lets it through. */
  secondFactor?: (user: UserRow, client: ClientInfo) => Promise<IssuedSession | null>;
  config: Pick<Config, 'socialLogin' | 'allowedOrigins' | 'publicOrigin' | 'publicUrl'>;
}): SocialLoginService {
  const { db, clock, auth, limiter, config } = deps;
  const settings = new Map(config.socialLogin.providers.map((p) => [p.id, p]));
  const clients = new Map<string, ProviderClient>();

  function enabledProvider(id: string): SocialProviderSettings {
    const found = settings.get(id);
    if (!found?.enabled) throw notEnabled(id);
    return found;
  }

  function clientFor(provider: SocialProviderSettings): ProviderClient {
    let found = clients.get(provider.id);
    if (!found) clients.set(provider.id, (found = createProviderClient(provider)));
    return found;
  }

  /**
   * Where the provider may send the browser: an http(s) URL on the public origin or an allowed
   * origin, without credentials, query or fragment (the provider appends its own query). Anything
   * else is refused before a provider is ever asked, so no open redirect can be built through us.
   */
  function checkReturnTo(raw: string): string {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      url = new URL('invalid:');
    }
    const allowed = url.origin === config.publicOrigin || config.allowedOrigins.includes(url.origin);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !allowed || url.username || url.password || url.search || url.hash || /[\s\\]/.test(raw) || url.pathname.startsWith('//')) {
      throw new AppError(ErrorCodes.invalidSocialRedirectUri, 400, 'redirectUri must be a URL of the login box on an allowed origin, without query or fragment');
    }
    return url.href;
  }

  const loginOrigin = (provider: SocialProviderSettings) => (provider.custom ? LoginOrigins.customSocialLogin : LoginOrigins.socialLogin);

  /** A live state of this provider started by this browser; spent here, before the code is used. */
  async function spendState(provider: SocialProviderSettings, state: string, binding: string | undefined, redirectUri: string | undefined): Promise<SocialLoginStateRow> {
    const row = await findSocialLoginState(db, sha256(state));
    const now = clock.now();
    if (!row || row.provider !== provider.id || row.used_at !== null || row.expires_at <= now) throw failed();
    // The browser that started the sign-in, and no other (login CSRF, stolen codes).
    if (!binding || !safeEqual(row.binding_hash, sha256(binding))) throw failed();
    if (redirectUri !== undefined && redirectUri !== row.return_to) throw failed();
    // Single use, atomically: of two parallel callbacks only one gets here with true.
    if (!(await consumeSocialLoginState(db, row.id, now))) throw failed();
    return row;
  }

  /** The user this provider account signs in as; null when a new one may be created. */
  async function linkedUser(provider: SocialProviderSettings, profile: SocialProfile): Promise<{ user: UserRow | null; identityId: string | null }> {
    const identity = await findSocialIdentity(db, provider.id, profile.subject);
    if (identity) {
      const user = await findUserById(db, identity.user_id);
      if (user) return { user, identityId: identity.id };
    }
    if (!profile.email) throw new AppError(ErrorCodes.socialEmailMissing, 400, `${provider.displayName} did not share an email address, so Gatehouse cannot sign you in with it`);
    // The same refusal whether or not an account has this address: an unverified address neither
    // takes over an account nor claims the address for a new one.
    if (!profile.emailVerified) {
      throw new AppError(
        ErrorCodes.socialEmailNotVerified,
        403,
        `Your ${provider.displayName} email address is not verified, so it cannot be used to sign in. Verify it with ${provider.displayName}, or sign in another way.`,
      );
    }
    return { user: (await findUserByEmail(db, profile.email)) ?? null, identityId: null };
  }

  /** A first sign-in by social login: the account, its own tenant (as at sign-up), verified by the provider. */
  async function createUser(profile: SocialProfile & { email: string }, metadata: string | undefined): Promise<{ user: UserRow; created: boolean }> {
    const now = clock.now();
    const [local, domain] = profile.email.split('@') as [string, string];
    const userId = newId();
    try {
      await db.transaction().execute(async (trx) => {
        const created = await createTenantWithRoles(trx, domain, now);
        await insertUser(trx, {
          id: userId,
          email: profile.email,
          username: null,
          name: (profile.name ?? local).slice(0, 200),
          password_hash: null,
          verified: 1,
          super_user: 0,
          disabled: 0,
          phone_number: null,
          address: null,
          job_title: null,
          profile_picture_id: null,
          metadata: metadata ?? null,
          last_tenant_id: created.tenantId,
          created_at: now,
          last_login: null,
        });
        await addUserToTenant(trx, userId, created.tenantId, now);
        await assignRole(trx, userId, created.tenantId, created.roleIds.Admin!);
        await raiseUserCreated(trx, { tenantId: created.tenantId, user: { id: userId, email: profile.email, name: (profile.name ?? local).slice(0, 200) }, source: 'social', actor: { userId, email: profile.email } }, now);
      });
    } catch (err) {
      // Two first sign-ins with one address raced (or a sign-up did): the loser links to the winner.
      const existing = await findUserByEmail(db, profile.email);
      if (existing) return { user: existing, created: false };
      throw err;
    }
    return { user: (await findUserById(db, userId))!, created: true };
  }

  async function link(provider: SocialProviderSettings, profile: SocialProfile, user: UserRow): Promise<void> {
    const now = clock.now();
    try {
      await insertSocialIdentity(db, { id: newId(), user_id: user.id, provider: provider.id, subject: profile.subject, email: profile.email, created_at: now, last_login_at: now });
    } catch (err) {
      // A parallel first sign-in of the same account linked it already; that link must be this user's.
      const existing = await findSocialIdentity(db, provider.id, profile.subject);
      if (existing?.user_id !== user.id) throw err;
    }
  }

  return {
    providersV2: () =>
      SOCIAL_LOGIN_PROVIDERS.map((type) => {
        const provider = settings.get(type);
        return { type, active: provider?.enabled === true, displayName: provider?.displayName ?? type };
      }),

    customProviders: () => ({
      providers: [...settings.values()].filter((p) => p.custom).map((p) => ({ id: p.id, type: 'custom' as const, displayName: p.displayName, active: p.enabled })),
    }),

    hasProviders: () => [...settings.values()].some((p) => p.enabled),

    async start(providerId, redirectUri, info) {
      await limiter.consume('socialLoginPerIp', info.ip ?? UNKNOWN_CLIENT);
      const provider = enabledProvider(providerId);
      const returnTo = checkReturnTo(redirectUri);
      const now = clock.now();
      await deleteExpiredSocialLoginStates(db, now - 3_600_000);
      const id = newId();
      const binding = newSecret();
      // The provider is named in the state, so the login box's callback route knows where to post it.
      const state = `${provider.id}.${client.randomState()}`;
      const nonce = client.randomNonce();
      const codeVerifier = client.randomPKCECodeVerifier();
      // A form_post provider posts to this server, which passes code and state on to the login box.
      const providerRedirect = provider.responseMode === 'form_post' ? `${config.publicUrl}${SocialLoginPaths.formPostCallback.replace('{provider}', provider.id)}` : returnTo;
      let url: URL;
      try {
        url = await clientFor(provider).authorizationUrl({ redirectUri: providerRedirect, state, nonce, codeVerifier });
      } catch (err) {
        // Discovery failed (provider down or misconfigured): said once in the log, 503 to the browser.
        log.error(`Social login (${provider.id}): the provider's metadata could not be read:`, reasonOf(err));
        throw new AppError(ErrorCodes.socialLoginFailed, 503, `${provider.displayName} cannot be reached right now, please try again later`);
      }
      await insertSocialLoginState(db, {
        id,
        provider: provider.id,
        state_hash: sha256(state),
        binding_hash: sha256(binding),
        sealed: seal({ codeVerifier, nonce }, sealingKey(binding, id)),
        redirect_uri: providerRedirect,
        return_to: returnTo,
        provider_user: null,
        created_at: now,
        expires_at: now + config.socialLogin.stateTtl * 1000,
        used_at: null,
      });
      return { url: url.href, binding };
    },

    async formPostReturn(providerId, form) {
      const provider = enabledProvider(providerId);
      if (provider.responseMode !== 'form_post' || !form.state) throw failed();
      const row = await findSocialLoginState(db, sha256(form.state));
      // Only to the callback URL a live sign-in of this provider was started with (checked at start).
      if (!row || row.provider !== provider.id || row.used_at !== null || row.expires_at <= clock.now()) throw failed();
      if (form.user && form.user.length <= 2048) await setSocialLoginProviderUser(db, row.id, form.user);
      const target = new URL(row.return_to);
      if (form.code) target.searchParams.set('code', form.code);
      target.searchParams.set('state', form.state);
      if (form.error) target.searchParams.set('error', form.error.slice(0, 100));
      return target.href;
    },

    async postLogin(providerId, body, binding, info) {
      await limiter.consume('socialLoginPerIp', info.ip ?? UNKNOWN_CLIENT);
      const provider = enabledProvider(providerId);
      const row = await spendState(provider, body.state, binding, body.redirectUri);
      let profile: SocialProfile;
      try {
        const sealed = unseal(row.sealed, sealingKey(binding!, row.id));
        profile = await clientFor(provider).exchange({
          redirectUri: row.redirect_uri,
          code: body.code,
          state: body.state,
          ...(body.iss !== undefined ? { iss: body.iss } : {}),
          codeVerifier: sealed.codeVerifier,
          nonce: sealed.nonce,
          providerUser: row.provider_user,
        });
      } catch (err) {
        // Only the reason, never the code, tokens or secrets.
        log.error(`Social login (${provider.id}) refused:`, reasonOf(err));
        throw failed();
      }

      const found = await linkedUser(provider, profile);
      let user = found.user;
      let isNewUser = false;
      if (!user) {
        if (!config.socialLogin.allowSignUp) throw new AppError(ErrorCodes.signUpDisabled, 403, 'Sign up is disabled');
        ({ user, created: isNewUser } = await createUser(profile as SocialProfile & { email: string }, body.metadata));
      }
      if (user.disabled === 1) throw new AppError(ErrorCodes.userDisabled, 403, 'User is disabled');
      const now = clock.now();
      if (found.identityId) {
        await touchSocialIdentity(db, found.identityId, profile.email, now);
      } else {
        await link(provider, profile, user);
        if (user.verified !== 1) {
          // The provider proved the mailbox: the account is activated, and activation links from an
          // unfinished sign-up (perhaps someone else's, with their password) die.
          await updateUser(db, user.id, { verified: 1 });
          await invalidateUserTokens(db, user.id, 'activation', now);
          user = { ...user, verified: 1 };
        }
      }

      const signedIn: ClientInfo = { ...info, loginOrigin: loginOrigin(provider), signInMethod: SignInMethods.social };
      const issued = (await deps.secondFactor?.(user, signedIn)) ?? (await auth.startSession(user, signedIn, AMR_SOCIAL));
      const result: SocialLoginResult = {
        email: user.email ?? profile.email ?? '',
        isNewUser,
        userId: user.id,
        tenantId: issued.response.tenantId ?? user.last_tenant_id ?? '',
        name: user.name,
      };
      return { response: { ...issued.response, ...result }, refreshToken: issued.refreshToken };
    },
  };
}
