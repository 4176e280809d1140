/**
 * SSO sign-in (seed 000 sections 4.2, 7.2, 8): the lookup preLogin makes, the start of a sign-in at
 * the IdP, the SAML ACS, and the postlogin calls of the login box's callback routes.
 *
 * Every sign-in is an sso_requests row: random, single use, 10 minutes, bound by hash to an httpOnly
 * cookie of the browser that started it, so a callback URL (or a one-time code) carried to another
 * browser signs nobody in there. A proven identity then goes through JIT provisioning, the MFA gate
 * and a normal session. Callers learn only 'Failed to authenticate'; the reason goes to the log.
 */
import { SignInMethods } from '../auth/sign-in-methods';
import { ErrorCodes, type OidcPostLoginRequest, type SsoPreLoginRequest, type SsoPreLoginResponse, type SsoStartRequest, type SsoType } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, newSecret, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { findConfigurationForDomain, findSsoConfiguration, type SsoConfigurationRow } from '../../db/queries/sso-configurations';
import {
  completeSsoRequest, consumeSsoRequest, deleteExpiredSsoRows, findSsoRequest, findSsoRequestByResultCode, findSsoRequestByState, insertSsoRequest, rememberSsoAssertion,
  setSsoRequestResult, type SsoRequestRow,
} from '../../db/queries/sso-logins';
import type { UserRow } from '../../db/queries/users';
import { AppError, Errors } from '../../errors';
import type { AuthService, ClientInfo, IssuedSession } from '../auth/auth';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import { createOidcRelyingParty, OidcRejected, type OidcRelyingParty } from './oidc';
import { provisionSsoUser, ProvisioningRefused } from './provisioning';
import { authnRequestUrl, SamlRejected, verifySamlResponse, type ServiceProvider, type SsoIdentity } from './saml';
import { serviceProviderMetadata } from './saml-metadata';
import { acsUrl, checkAppRedirect, emailDomain, spEntityId } from './urls';
import { log, reasonOf } from '../../log';
import type { EntitlementsService } from '../entitlements';
import type { EmailDomainRestrictionService } from '../security/email-domain-restrictions';

/** How long a started sign-in may take at the IdP, and how long the ACS's one-time code lives. */
export const SSO_REQUEST_TTL_MS = 10 * 60_000;
export const SSO_RESULT_CODE_TTL_MS = 2 * 60_000;
/** amr of an SSO session: the user authenticated at their organisation's IdP. */
export const AMR_SSO = ['sso'];
/** The binding cookie's value: a base64url 256-bit secret. */
const BINDING = /^[A-Za-z0-9_-]{43}$/;

export const ssoFailed = () => new AppError(ErrorCodes.ssoFailed, 401, 'Failed to authenticate');
const noSso = () => new AppError(ErrorCodes.ssoNotConfigured, 404, 'SSO is not configured for this user');

/** Where the ACS sends the browser: the login box's samlCallbackUrl with a one-time code, or with an error. */
export interface AcsOutcome {
  redirect: string;
}

export interface SsoLoginService {
  /** The SSO of the identifier's validated email domain, if its configuration is enabled and complete; else both null. */
  lookup(body: SsoPreLoginRequest, client: ClientInfo): Promise<SsoPreLoginResponse>;
  /** Starts a sign-in: the IdP address to send the browser to, and the browser-binding cookie value. */
  start(type: SsoType, body: SsoStartRequest, binding: string | undefined, client: ClientInfo): Promise<{ address: string; binding: string }>;
  /** The SAML ACS: checks the IdP's response and sends the browser on to the login box. */
  acs(configId: string, form: { SAMLResponse?: string; RelayState?: string }, client: ClientInfo): Promise<AcsOutcome>;
  samlPostLogin(code: string, binding: string | undefined, client: ClientInfo): Promise<IssuedSession>;
  oidcPostLogin(body: OidcPostLoginRequest, binding: string | undefined, client: ClientInfo): Promise<IssuedSession>;
  /** Our SP metadata for a SAML configuration (public: the IdP admin imports it). */
  spMetadata(configId: string): Promise<string>;
}

export function createSsoLoginService(deps: {
  db: Db;
  clock: Clock;
  auth: AuthService;
  limiter: RateLimiter;
  config: Pick<Config, 'publicUrl' | 'publicOrigin' | 'allowedOrigins' | 'keyEncryptionKey' | 'sso'>;
  /** The MFA gate: a pending-MFA answer replaces the session, null lets it through. */
  secondFactor?: (user: UserRow, client: ClientInfo) => Promise<IssuedSession | null>;
  oidc?: OidcRelyingParty;
  /** The tenant's email-domain restrictions, at an SSO user's first sign-in into it. */
  emailDomains?: Pick<EmailDomainRestrictionService, 'assertAllowed'>;
  /** The seat limit of the tenant's plan, at just-in-time provisioning (403 ER-03009). */
  seats?: Pick<EntitlementsService, 'assertSeatsAvailable'>;
}): SsoLoginService {
  const { db, clock, auth, limiter, config } = deps;
  const oidc = deps.oidc ?? createOidcRelyingParty(config);
  const signing = config.sso.spSigningKey && config.sso.spSigningCert ? { key: config.sso.spSigningKey, cert: config.sso.spSigningCert } : null;
  let lastSweep = Number.NEGATIVE_INFINITY;

  const sp = (configId: string): ServiceProvider => ({ entityId: spEntityId(config, configId), acsUrl: acsUrl(config, configId), signing });

  /** Complete enough to sign in with: SAML needs the IdP's metadata, OIDC its issuer and client. */
  function ready(row: SsoConfigurationRow | undefined): row is SsoConfigurationRow {
    if (!row || row.enabled !== 1) return false;
    return row.type === 'saml' ? Boolean(row.idp_sso_url && row.idp_entity_id && row.idp_certificates) : Boolean(row.oidc_issuer && row.oidc_client_id && row.oidc_client_secret);
  }

  /**
   * The configuration for an identifier, by the domain of the email. A plain username is not looked
   * up: the answer would tell whether that username exists, which no other sign-in call reveals.
   */
  async function configurationFor(body: Pick<SsoPreLoginRequest, 'email' | 'username' | 'tenantId'>): Promise<SsoConfigurationRow | undefined> {
    const email = body.email || (body.username?.includes('@') ? body.username : undefined);
    const domain = email ? emailDomain(email) : null;
    const row = domain ? await findConfigurationForDomain(db, domain) : undefined;
    if (!ready(row) || (body.tenantId && row.tenant_id !== body.tenantId)) return undefined;
    return row;
  }

  /** Sweeps expired requests and replay-cache entries, at most once a minute per process. */
  async function sweep(now: number): Promise<void> {
    if (now - lastSweep < 60_000) return;
    lastSweep = now;
    await deleteExpiredSsoRows(db, now).catch((err: unknown) => log.error('SSO cleanup failed:', reasonOf(err)));
  }

  function refuse(what: string, reason: string): AppError {
    // The reason helps the IdP's admin; it never carries tokens, codes or assertions.
    log.warn(`SSO sign-in refused (${what}): ${reason}`);
    return ssoFailed();
  }

  function checkBinding(row: SsoRequestRow, binding: string | undefined): boolean {
    return typeof binding === 'string' && BINDING.test(binding) && safeEqual(sha256(binding), row.binding_hash);
  }

  /** Proven: provisioning, then the MFA gate (no session until it is passed), else a session. */
  async function signIn(row: SsoConfigurationRow, identity: SsoIdentity, client: ClientInfo): Promise<IssuedSession> {
    let user: UserRow;
    try {
      user = await provisionSsoUser({ db, clock, emailDomains: deps.emailDomains, seats: deps.seats }, row, identity);
    } catch (err) {
      if (err instanceof ProvisioningRefused) throw refuse(`configuration ${row.id}`, err.message);
      throw err;
    }
    // The method is kept on a pending mfaToken, so the finished sign-in's audit record still names SSO.
    const signingIn: ClientInfo = { ...client, signInMethod: SignInMethods.sso, ssoProtocol: row.type === 'saml' ? 'saml' : 'oidc' };
    const pendingMfa = await deps.secondFactor?.(user, signingIn);
    if (pendingMfa) return pendingMfa;
    return auth.startSession(user, signingIn, AMR_SSO);
  }

  return {
    async lookup(body, client) {
      await limiter.consume('ssoPerIp', client.ip ?? UNKNOWN_CLIENT);
      const row = await configurationFor(body);
      // No SSO is the common answer, and a success: the login box goes on to the password step.
      if (!row) return { type: null, address: null };
      return { type: row.type as SsoType, address: row.type === 'saml' ? row.idp_sso_url! : row.oidc_issuer! };
    },

    async start(type, body, binding, client) {
      await limiter.consume('ssoPerIp', client.ip ?? UNKNOWN_CLIENT);
      const redirectUri = checkAppRedirect(body.redirectUri, config);
      const row = await configurationFor(body);
      if (!row || row.type !== type) throw noSso();
      const now = clock.now();
      await sweep(now);
      // One cookie per browser serves every tab's sign-in; each request stores its hash.
      const cookie = binding && BINDING.test(binding) ? binding : newSecret();
      const base = { config_id: row.id, kind: type, binding_hash: sha256(cookie), redirect_uri: redirectUri, result: null, result_code_hash: null, created_at: now, expires_at: now + SSO_REQUEST_TTL_MS, used_at: null, completed_at: null };
      try {
        if (type === 'saml') {
          // An xs:ID must not start with a digit.
          const id = `_${newId()}`;
          await insertSsoRequest(db, { ...base, id, state_hash: null, nonce: null, code_verifier: null });
          return { address: await authnRequestUrl(row, sp(row.id), id, id), binding: cookie };
        }
        const { url, secrets } = await oidc.authorizationUrl(row, redirectUri, body.email);
        await insertSsoRequest(db, { ...base, id: newId(), state_hash: sha256(secrets.state), nonce: secrets.nonce, code_verifier: secrets.codeVerifier });
        return { address: url, binding: cookie };
      } catch (err) {
        if (err instanceof AppError) throw err;
        log.warn(`SSO sign-in could not start (configuration ${row.id}):`, reasonOf(err));
        throw new AppError(ErrorCodes.ssoFailed, 502, 'The identity provider could not be reached');
      }
    },

    async acs(configId, form, client) {
      await limiter.consume('ssoPerIp', client.ip ?? UNKNOWN_CLIENT);
      const row = await findSsoConfiguration(db, configId);
      if (!ready(row) || row.type !== 'saml') throw refuse(`configuration ${configId}`, 'no enabled SAML configuration has this ACS');
      if (!form.SAMLResponse) throw Errors.validation('SAMLResponse is required');
      const now = clock.now();
      const isPending = async (id: string) => {
        const request = await findSsoRequest(db, id);
        return Boolean(request && request.config_id === row.id && request.kind === 'saml' && request.used_at === null && request.expires_at > now);
      };
      try {
        const verified = await verifySamlResponse(row, sp(row.id), form.SAMLResponse, isPending);
        if (!verified.identity) throw new SamlRejected('the assertion names no email (NameID or an email attribute)');
        // Replay cache first: an assertion accepted once is refused forever after (until it expires anyway).
        if (!(await rememberSsoAssertion(db, row.id, verified.assertionId, now, Math.max(verified.validUntil, now + SSO_REQUEST_TTL_MS)))) {
          throw new SamlRejected(`assertion ${verified.assertionId} was already used (replay)`);
        }
        if (!(await consumeSsoRequest(db, verified.requestId, now))) throw new SamlRejected('the request was already answered');
        const request = (await findSsoRequest(db, verified.requestId))!;
        const code = newSecret();
        await setSsoRequestResult(db, request.id, JSON.stringify(verified.identity), sha256(code), now + SSO_RESULT_CODE_TTL_MS);
        const target = new URL(request.redirect_uri);
        target.searchParams.set('code', code);
        return { redirect: target.href };
      } catch (err) {
        if (!(err instanceof SamlRejected)) throw err;
        log.warn(`SSO sign-in refused (configuration ${row.id}): SAML response: ${err.message}`);
        // Back to the login box that started it, when RelayState names a pending request of ours (it
        // is spent: a forged answer must not leave it usable); otherwise there is nowhere safe to go.
        const relay = typeof form.RelayState === 'string' && form.RelayState.length <= 64 ? form.RelayState : '';
        const request = relay && (await isPending(relay)) ? await findSsoRequest(db, relay) : undefined;
        if (request && (await consumeSsoRequest(db, request.id, now))) {
          const target = new URL(request.redirect_uri);
          target.searchParams.set('error', 'sso_failed');
          return { redirect: target.href };
        }
        throw ssoFailed();
      }
    },

    async samlPostLogin(code, binding, client) {
      await limiter.consume('ssoPerIp', client.ip ?? UNKNOWN_CLIENT);
      const now = clock.now();
      const request = await findSsoRequestByResultCode(db, sha256(code));
      // Spent before the binding is compared: a code tried from the wrong browser is gone.
      if (!request || !(await completeSsoRequest(db, request.id, now))) throw refuse('saml/postlogin', 'unknown, used or expired code');
      if (!checkBinding(request, binding)) throw refuse('saml/postlogin', 'the code was redeemed by another browser than the one that started the sign-in');
      const row = await findSsoConfiguration(db, request.config_id);
      if (!ready(row)) throw refuse('saml/postlogin', 'the configuration was turned off or removed');
      return signIn(row, JSON.parse(request.result!) as SsoIdentity, client);
    },

    async oidcPostLogin(body, binding, client) {
      await limiter.consume('ssoPerIp', client.ip ?? UNKNOWN_CLIENT);
      const now = clock.now();
      const request = await findSsoRequestByState(db, sha256(body.RelayState));
      if (!request || !(await consumeSsoRequest(db, request.id, now))) throw refuse('oidc/postlogin', 'unknown, used or expired state');
      if (!checkBinding(request, binding)) throw refuse('oidc/postlogin', 'the callback came to another browser than the one that started the sign-in');
      if (body.redirectUri !== request.redirect_uri) throw refuse('oidc/postlogin', 'redirectUri differs from the one the sign-in started with');
      const row = await findSsoConfiguration(db, request.config_id);
      if (!ready(row) || row.type !== 'oidc') throw refuse('oidc/postlogin', 'the configuration was turned off or removed');
      let identity: SsoIdentity;
      try {
        identity = await oidc.finish(row, { redirectUri: request.redirect_uri, code: body.code, state: body.RelayState, iss: body.iss }, {
          state: body.RelayState,
          nonce: request.nonce ?? '',
          codeVerifier: request.code_verifier ?? '',
        });
      } catch (err) {
        if (err instanceof OidcRejected) throw refuse(`configuration ${row.id}`, err.message);
        throw err;
      }
      return signIn(row, identity, client);
    },

    async spMetadata(configId) {
      const row = await findSsoConfiguration(db, configId);
      if (!row || row.type !== 'saml') throw Errors.notFound('SAML configuration not found');
      return serviceProviderMetadata({ spEntityId: spEntityId(config, row.id), acsUrl: acsUrl(config, row.id), signing: row.sign_request === 1 ? signing : null });
    },
  };
}
