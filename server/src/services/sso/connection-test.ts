/**
 * "Test connection" of the admin portal's SSO section (issue 15): a real sign-in through the IdP of a
 * SAML or OIDC configuration, started by a tenant admin before (or after) the configuration is turned
 * on, that signs nobody in and reports what the IdP sent and what real sign-ins would make of it.
 *
 * A test is an sso_requests row of kind `saml-test`: its id is the AuthnRequest ID and the RelayState,
 * bound by hash to the admin's session and the tenant, single use, 10 minutes. The ACS hands a
 * response whose RelayState names a test here; it gets every check of a real sign-in (signature with
 * the configured certificates, audience, time, Issuer, Destination, Recipient, InResponseTo = this
 * test, replay cache), but only a `saml-test` row satisfies InResponseTo here and only a `saml` row
 * satisfies it at a real sign-in, so neither can stand in for the other. The report (never a token
 * or an assertion) is answered once to the same session.
 *
 * OIDC: a test is an sso_requests row of kind `oidc-test` holding what a real OIDC sign-in holds (the
 * state's hash, the nonce, the PKCE verifier, the redirect URI: the login box's oidcRedirectUrl, the
 * one registered at the IdP), bound the same way to the admin's session and tenant. The login box's
 * callback posts code and state to oidc/postlogin as for a sign-in; a state naming a test comes here:
 * the same code exchange and ID token checks (issuer, audience, signature, nonce, state, PKCE), then
 * the report, and nobody signed in. Sign-ins find only `oidc` rows by state and tests only
 * `oidc-test` rows, so neither state can stand in for the other.
 */
import { ErrorCodes, type OidcPostLoginRequest, type SsoTestProblem, type SsoTestReport, type SsoTestStartRequest, type SsoTestStartResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { findSsoConfiguration, listSsoDomains, listSsoGroupMappings, type SsoConfigurationRow, type SsoDomainRow, type SsoGroupMappingRow } from '../../db/queries/sso-configurations';
import { completeSsoRequest, consumeSsoRequest, deleteExpiredSsoRows, findSsoRequest, findSsoRequestByState, insertSsoRequest, rememberSsoAssertion, setSsoTestResult } from '../../db/queries/sso-logins';
import { AppError, Errors } from '../../errors';
import { log, reasonOf } from '../../log';
import type { AdminCaller } from '../admin/access';
import { recordAudit } from '../admin/audit-log';
import type { ClientInfo } from '../auth/auth';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import { parseIds } from './configurations';
import { createOidcRelyingParty, identityFromClaims, OidcRejected, type OidcRelyingParty } from './oidc';
import { authnRequestUrl, SamlRejected, verifySamlResponse, type ServiceProvider, type SsoIdentity, type VerifiedResponse } from './saml';
import { certificateExpiry } from './saml-metadata';
import { acsUrl, checkAppRedirect, emailDomain, spEntityId } from './urls';

/** How long a test waits for the IdP's answer (as a real sign-in), and how long its report then stays readable. */
export const SSO_TEST_TTL_MS = 10 * 60_000;
export const SSO_TEST_REPORT_TTL_MS = 2 * 60_000;
/** The sso_requests kind of a connection test: SAML, and OIDC. */
export const SSO_TEST_KIND = 'saml-test';
export const OIDC_TEST_KIND = 'oidc-test';
/** An IdP certificate expiring within this is reported, as the portal flags it. */
const CERTIFICATE_WARNING_MS = 30 * 24 * 3600_000;

export const SsoTestAuditActions = { started: 'SSO connection test started' } as const;

/** What the ACS made of a test's response: recorded (passed or failed, the admin reads it), or no live test. */
export type TestAnswer = 'recorded' | 'stale';

export interface SsoConnectionTestService {
  /**
   * Starts a test sign-in of a SAML or OIDC configuration (enabled or not) for the caller's session;
   * audited. OIDC needs `redirectUri`: the login box's oidcRedirectUrl, as real sign-ins send it.
   */
  start(ctx: AdminCaller, configId: string, body?: SsoTestStartRequest): Promise<SsoTestStartResponse>;
  /** The report: pending, or (once, to the same session in the same tenant) the result; else 404. */
  report(ctx: AdminCaller, configId: string, testId: string): Promise<SsoTestReport>;
  /** Whether the ACS's RelayState names a connection test of this configuration. */
  isTest(configId: string, relayState: string | undefined): Promise<boolean>;
  /** The ACS's handling of a test's response: checked as a real sign-in, reported, nobody signed in. */
  answer(configId: string, form: { SAMLResponse?: string; RelayState?: string }, client: ClientInfo): Promise<TestAnswer>;
  /** Whether oidc/postlogin's state names an OIDC connection test (live or not). */
  isOidcTest(state: string): Promise<boolean>;
  /** oidc/postlogin's handling of a test's callback: the code exchange and ID token checks of a real sign-in, reported, nobody signed in. */
  answerOidc(body: OidcPostLoginRequest, client: ClientInfo): Promise<TestAnswer>;
}

type Stored = Omit<SsoTestReport, 'testId' | 'status' | 'expiresAt'> & { status: 'passed' | 'failed' };

const EMPTY: Omit<Stored, 'status'> = { error: null, subject: null, email: null, name: null, attributes: [], groups: [], roleMappings: [], defaultRoleIds: [], problems: [] };

/** A session's binding: the hash of its id and the tenant acted in (a super user testing tenant B from A binds to B). */
/** The wire name of the first SAML IdP field a test needs that is not set (null once all are). */
export function samlIdpMissing(row: Pick<SsoConfigurationRow, 'idp_entity_id' | 'idp_sso_url' | 'idp_certificates'>): 'idpEntityId' | 'ssoEndpoint' | 'publicCertificate' | null {
  if (!row.idp_entity_id) return 'idpEntityId';
  if (!row.idp_sso_url) return 'ssoEndpoint';
  if (!parseIds(row.idp_certificates).length) return 'publicCertificate';
  return null;
}

const bindingOf = (ctx: AdminCaller) => sha256(`sso-test\n${ctx.auth.sessionId}\n${ctx.tenantId}`);

/**
 * The report of a response that passed every check: what it carried, the roles it would get, and
 * what would refuse or weaken real sign-ins.
 */
export function buildTestReport(input: {
  row: Pick<SsoConfigurationRow, 'default_role_ids' | 'idp_certificates'>;
  domains: Pick<SsoDomainRow, 'domain' | 'validated'>[];
  mappings: Pick<SsoGroupMappingRow, 'group_name' | 'role_ids'>[];
  verified: Pick<VerifiedResponse, 'identity' | 'nameId' | 'attributes'> & { emailNotVerified?: string };
  now: number;
}): Stored {
  const { row, domains, mappings, verified, now } = input;
  const identity = verified.identity;
  const problems: SsoTestProblem[] = [];
  // OIDC: an IdP saying email_verified=false is refused at sign-in; the address is reported as the problem's value.
  if (verified.emailNotVerified !== undefined) problems.push({ code: 'emailNotVerified', severity: 'error', values: [verified.emailNotVerified] });
  else if (!identity) problems.push({ code: 'noEmail', severity: 'error', values: [] });
  else {
    const domain = emailDomain(identity.email);
    if (!domain || !domains.some((d) => d.validated === 1 && d.domain === domain)) problems.push({ code: 'emailDomainNotValidated', severity: 'error', values: [domain ?? identity.email] });
  }
  const missing = [...(identity && !identity.name ? ['name'] : []), ...(identity && mappings.length > 0 && identity.groups.length === 0 ? ['groups'] : [])];
  if (missing.length) problems.push({ code: 'missingAttributes', severity: 'warning', values: missing });
  const groups = identity?.groups ?? [];
  const mapped = new Set(mappings.map((m) => m.group_name));
  const unknown = groups.filter((g) => !mapped.has(g));
  if (unknown.length) problems.push({ code: 'unknownGroups', severity: 'warning', values: unknown });
  const expiries = parseIds(row.idp_certificates).map(certificateExpiry).filter((e): e is string => e !== null);
  // The latest certificate counts: an IdP rolling over lists the new one beside the old.
  const latest = expiries.sort().at(-1);
  if (latest && Date.parse(latest) <= now) problems.push({ code: 'certificateExpired', severity: 'error', values: [latest] });
  else if (latest && Date.parse(latest) - now <= CERTIFICATE_WARNING_MS) problems.push({ code: 'certificateExpiring', severity: 'warning', values: [latest] });
  return {
    ...EMPTY,
    status: 'passed',
    subject: verified.nameId,
    email: identity?.email ?? null,
    name: identity?.name ?? null,
    attributes: verified.attributes,
    groups,
    roleMappings: mappings.filter((m) => groups.includes(m.group_name)).map((m) => ({ group: m.group_name, roleIds: parseIds(m.role_ids) })),
    defaultRoleIds: parseIds(row.default_role_ids),
    problems,
  };
}

// Bounds of what a report keeps of an ID token's and UserInfo's claims: an IdP may send anything.
const MAX_CLAIMS = 100;
const MAX_VALUES = 50;
const MAX_VALUE_LENGTH = 512;
/** Claims of the protocol itself, not of the person: left out of the report. */
const PROTOCOL_CLAIMS = new Set(['nonce', 'at_hash', 'c_hash', 's_hash', 'sid']);

/** The claims as name -> text values (a list per array, JSON for an object), bounded, protocol claims left out. */
export function claimsAsAttributes(claims: Record<string, unknown>): { name: string; values: string[] }[] {
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '').slice(0, MAX_VALUE_LENGTH);
  return Object.keys(claims)
    .filter((name) => !PROTOCOL_CLAIMS.has(name))
    .slice(0, MAX_CLAIMS)
    .map((name) => {
      const value = claims[name];
      const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
      return { name: name.slice(0, MAX_VALUE_LENGTH), values: list.slice(0, MAX_VALUES).map(text) };
    });
}

export function createSsoConnectionTestService(deps: {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  config: Pick<Config, 'publicUrl' | 'publicOrigin' | 'allowedOrigins' | 'keyEncryptionKey' | 'sso'>;
  oidc?: OidcRelyingParty;
}): SsoConnectionTestService {
  const { db, clock, limiter, config } = deps;
  const oidc = deps.oidc ?? createOidcRelyingParty(config);
  const signing = config.sso.spSigningKey && config.sso.spSigningCert ? { key: config.sso.spSigningKey, cert: config.sso.spSigningCert } : null;
  const sp = (configId: string): ServiceProvider => ({ entityId: spEntityId(config, configId), acsUrl: acsUrl(config, configId), signing });

  /** A live test row of this configuration (any state), or undefined. */
  async function testRow(configId: string, testId: string) {
    const row = await findSsoRequest(db, testId);
    return row && (row.kind === SSO_TEST_KIND || row.kind === OIDC_TEST_KIND) && row.config_id === configId && row.expires_at > clock.now() ? row : undefined;
  }

  /** Starts an OIDC test: the authorization request of a real sign-in (PKCE S256, state, nonce) to the login box's callback route. */
  async function startOidc(ctx: AdminCaller, row: SsoConfigurationRow, body: SsoTestStartRequest | undefined): Promise<SsoTestStartResponse> {
    if (!row.oidc_issuer || !row.oidc_client_id || !row.oidc_client_secret) {
      throw new AppError(ErrorCodes.ssoConfigurationInvalid, 400, 'oidc: the identity provider (issuer, client id and client secret) is not set yet');
    }
    if (!body?.redirectUri) throw Errors.validation("redirectUri: the login box's oidcRedirectUrl (the redirect URI registered at the identity provider) is required to test an OIDC configuration");
    const redirectUri = checkAppRedirect(body.redirectUri, config);
    const now = clock.now();
    await deleteExpiredSsoRows(db, now).catch((err: unknown) => log.error('SSO cleanup failed:', reasonOf(err)));
    let started: Awaited<ReturnType<OidcRelyingParty['authorizationUrl']>>;
    try {
      started = await oidc.authorizationUrl(row, redirectUri);
    } catch (err) {
      if (err instanceof AppError) throw err;
      log.warn(`SSO connection test could not start (configuration ${row.id}):`, reasonOf(err));
      throw new AppError(ErrorCodes.ssoFailed, 502, 'The identity provider could not be reached');
    }
    const id = newId();
    const expiresAt = now + SSO_TEST_TTL_MS;
    await insertSsoRequest(db, {
      id, config_id: row.id, kind: OIDC_TEST_KIND, state_hash: sha256(started.secrets.state), nonce: started.secrets.nonce, code_verifier: started.secrets.codeVerifier,
      binding_hash: bindingOf(ctx), redirect_uri: redirectUri, result: null, result_code_hash: null, created_at: now, expires_at: expiresAt, used_at: null, completed_at: null,
    });
    await recordAudit(db, ctx, { action: SsoTestAuditActions.started, description: `Connection test of SSO configuration ${row.id} started`, json: { configId: row.id, testId: id, enabled: row.enabled === 1 } }, now);
    return { testId: id, address: started.url, expiresAt: new Date(expiresAt).toISOString(), expiresInMs: SSO_TEST_TTL_MS };
  }

  async function record(id: string, stored: Stored, now: number): Promise<void> {
    await setSsoTestResult(db, id, JSON.stringify(stored), now + SSO_TEST_REPORT_TTL_MS);
  }

  return {
    async start(ctx, configId, body) {
      const row = await findSsoConfiguration(db, configId);
      if (!row || row.tenant_id !== ctx.tenantId) throw Errors.notFound('SSO configuration not found');
      if (row.type === 'oidc') return startOidc(ctx, row, body);
      const missing = samlIdpMissing(row);
      if (missing) throw new AppError(ErrorCodes.ssoConfigurationInvalid, 400, `${missing}: the identity provider (sign-in URL, entity id and certificate) is not set yet`);
      const now = clock.now();
      await deleteExpiredSsoRows(db, now).catch((err: unknown) => log.error('SSO cleanup failed:', reasonOf(err)));
      // An xs:ID must not start with a digit; the same value is the RelayState the ACS recognises.
      const id = `_${newId()}`;
      const expiresAt = now + SSO_TEST_TTL_MS;
      await insertSsoRequest(db, {
        id, config_id: row.id, kind: SSO_TEST_KIND, state_hash: null, nonce: null, code_verifier: null, binding_hash: bindingOf(ctx), redirect_uri: '',
        result: null, result_code_hash: null, created_at: now, expires_at: expiresAt, used_at: null, completed_at: null,
      });
      let address: string;
      try {
        address = await authnRequestUrl(row, sp(row.id), id, id);
      } catch (err) {
        log.warn(`SSO connection test could not start (configuration ${row.id}):`, reasonOf(err));
        throw new AppError(ErrorCodes.ssoFailed, 502, 'The identity provider could not be reached');
      }
      await recordAudit(db, ctx, { action: SsoTestAuditActions.started, description: `Connection test of SSO configuration ${row.id} started`, json: { configId: row.id, testId: id, enabled: row.enabled === 1 } }, now);
      return { testId: id, address, expiresAt: new Date(expiresAt).toISOString(), expiresInMs: SSO_TEST_TTL_MS };
    },

    async report(ctx, configId, testId) {
      const config = await findSsoConfiguration(db, configId);
      const row = config && config.tenant_id === ctx.tenantId ? await testRow(configId, testId) : undefined;
      // Another session's or tenant's test is as unknown as one that never was.
      if (!row || row.completed_at !== null || !safeEqual(row.binding_hash, bindingOf(ctx))) throw Errors.notFound('Connection test not found');
      const expiresAt = new Date(row.expires_at).toISOString();
      if (row.result === null) return { ...EMPTY, testId, status: 'pending', expiresAt };
      // Read once: only the first reader gets it.
      if (!(await completeSsoRequest(db, row.id, clock.now()))) throw Errors.notFound('Connection test not found');
      return { ...(JSON.parse(row.result) as Stored), testId, expiresAt };
    },

    async isTest(configId, relayState) {
      if (typeof relayState !== 'string' || relayState.length > 64) return false;
      const row = await findSsoRequest(db, relayState);
      return Boolean(row && row.kind === SSO_TEST_KIND && row.config_id === configId);
    },

    async answer(configId, form, client) {
      await limiter.consume('ssoPerIp', client.ip ?? UNKNOWN_CLIENT);
      const now = clock.now();
      const testId = form.RelayState ?? '';
      const config = await findSsoConfiguration(db, configId);
      const test = await testRow(configId, testId);
      // Spent before anything is checked: a test is answered once, whatever the answer.
      if (!config || config.type !== 'saml' || !test || test.kind !== SSO_TEST_KIND || !(await consumeSsoRequest(db, test.id, now))) return 'stale';
      if (!form.SAMLResponse) {
        await record(test.id, { ...EMPTY, status: 'failed', error: 'The identity provider posted no SAMLResponse' }, now);
        return 'recorded';
      }
      try {
        // InResponseTo must be this very test: a response to anything else (a real sign-in) is refused.
        const verified = await verifySamlResponse(config, sp(config.id), form.SAMLResponse, async (id) => id === test.id);
        if (!(await rememberSsoAssertion(db, config.id, verified.assertionId, now, Math.max(verified.validUntil, now + SSO_TEST_TTL_MS)))) {
          throw new SamlRejected(`assertion ${verified.assertionId} was already used (replay)`);
        }
        const [domains, mappings] = await Promise.all([listSsoDomains(db, [config.id]), listSsoGroupMappings(db, [config.id])]);
        await record(test.id, buildTestReport({ row: config, domains, mappings, verified, now }), now);
      } catch (err) {
        if (!(err instanceof SamlRejected)) throw err;
        log.warn(`SSO connection test failed (configuration ${config.id}): SAML response: ${err.message}`);
        // The reason is for the admin who set the IdP up; it names checks, never tokens or assertions.
        await record(test.id, { ...EMPTY, status: 'failed', error: err.message.slice(0, 1000) }, now);
      }
      return 'recorded';
    },

    async isOidcTest(state) {
      return Boolean(await findSsoRequestByState(db, sha256(state), OIDC_TEST_KIND));
    },

    async answerOidc(body, client) {
      await limiter.consume('ssoPerIp', client.ip ?? UNKNOWN_CLIENT);
      const now = clock.now();
      const test = await findSsoRequestByState(db, sha256(body.RelayState), OIDC_TEST_KIND);
      const config = test && test.expires_at > now ? await findSsoConfiguration(db, test.config_id) : undefined;
      // Spent before anything is checked: a test is answered once, whatever the answer.
      if (!test || !config || config.type !== 'oidc' || !(await consumeSsoRequest(db, test.id, now))) return 'stale';
      const failed = (reason: string) => record(test.id, { ...EMPTY, status: 'failed', error: reason.slice(0, 1000) }, now);
      if (body.redirectUri !== test.redirect_uri) {
        await failed('the callback came to another redirect URI than the one the test started with');
        return 'recorded';
      }
      let claims: Record<string, unknown>;
      try {
        // Every check of a real sign-in: the state, the PKCE verifier, the ID token's signature, issuer, audience, time and nonce.
        claims = await oidc.exchange(config, { redirectUri: test.redirect_uri, code: body.code, state: body.RelayState, iss: body.iss }, {
          state: body.RelayState,
          nonce: test.nonce ?? '',
          codeVerifier: test.code_verifier ?? '',
        });
      } catch (err) {
        if (!(err instanceof OidcRejected)) throw err;
        log.warn(`SSO connection test failed (configuration ${config.id}): OIDC: ${err.message}`);
        // The reason is for the admin who set the IdP up; it names checks, never codes or tokens.
        await failed(err.message);
        return 'recorded';
      }
      let identity: SsoIdentity | null = null;
      try {
        identity = identityFromClaims(claims);
      } catch (err) {
        if (!(err instanceof OidcRejected)) throw err;
      }
      const unverified = !identity && claims.email_verified === false && typeof claims.email === 'string' && claims.email.trim() ? claims.email.trim().toLowerCase() : undefined;
      const [domains, mappings] = await Promise.all([listSsoDomains(db, [config.id]), listSsoGroupMappings(db, [config.id])]);
      const subject = typeof claims.sub === 'string' ? claims.sub : null;
      const report = buildTestReport({ row: config, domains, mappings, verified: { identity, nameId: subject, attributes: claimsAsAttributes(claims), ...(unverified ? { emailNotVerified: unverified } : {}) }, now });
      await record(test.id, report, now);
      return 'recorded';
    },
  };
}
