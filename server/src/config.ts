import { readFileSync } from 'node:fs';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import path from 'node:path';
import { CDN_MANIFEST_MAX_AGE, LOGIN_STRATEGIES, MfaStrategies, type LoginStrategy, type MfaStrategy } from '@gatehouse/shared/wire';
import { RATE_LIMIT_BUCKETS, type RateLimitBucket } from './config-options';
import { bool, ConfigError, int, oneOf, pemSetting, rateLimit, url, type RateLimitRule, type Source } from './config-readers';
import { passwordlessTypeOf, phoneSignUpOpen, type SignUpStrategies, type SignUpStrategy } from '@gatehouse/shared/wire';
import { socialLoginConfig, type SocialLoginConfig } from './services/social/config';
import { loadClientsFile, type OAuthClient } from './services/oauth/clients';

export type SigningAlg = 'ES256' | 'RS256';
export type SameSite = 'lax' | 'strict' | 'none';

/** Everything the server reads from its environment, validated once at start. */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  publicOrigin: string;
  dataDir: string;
  databaseUrl: string | null;
  databaseSchema: string | null;
  /** GATEHOUSE_SQLITE_SYNCHRONOUS: when SQLite waits for the disk (WAL mode): every commit (full) or each checkpoint (normal). */
  sqliteSynchronous: 'normal' | 'full';
  /** DATABASE_PREPARED_STATEMENTS: PostgreSQL connections prepare each statement once (db/pg-prepared.ts). */
  databasePreparedStatements: boolean;
  clientId: string;
  allowedOrigins: string[];
  appUrl: string;
  /** GATEHOUSE_APP_NAME: the product's name where no tenant name applies (emails, authenticator entries). */
  appName: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  activationTokenTtl: number;
  smtpUrl: string | null;
  mailFrom: string;
  /** Password recovery (seed 4.6): reset-link and SMS-code lifetimes in seconds. */
  resetPasswordTokenTtl: number;
  resetPasswordSmsCodeTtl: number;
  /** HTTP SMS provider; null keeps SMS in the dev outbox. */
  smsHttpUrl: string | null;
  smsHttpToken: string | null;
  /** STRIPE_API_URL: where the Stripe SDK calls (host, port, protocol); null is Stripe's own API. Tests point it at localstripe. */
  stripeApiUrl: string | null;
  dev: boolean;
  signingAlg: SigningAlg;
  keyEncryptionKey: Buffer | null;
  cookieSameSite: SameSite;
  cookieSecure: boolean;
  maxBodyBytes: number;
  cdnDir: string;
  /** Seconds browsers and CDNs may keep /cdn/cdn-manifest.json (0 to 60; default 30). */
  cdnManifestMaxAge: number;
  demoDir: string;
  flags: Record<string, string>;
  password: {
    minLength: number;
    maxLength: number;
    allowPassphrases: boolean;
    minPhraseLength: number;
    minOptionalTestsToPass: number;
  };
  allowSignups: boolean;
  /** SIGNUP_EMAIL / SIGNUP_PHONE_NUMBER (seed 000 section 3): which sign-up fields exist and which are required. */
  signUpStrategies: SignUpStrategies;
  trustProxy: boolean;
  /** The vendor's MFA policy (MFA_POLICY, MFA_REMEMBER_DEVICE_DAYS): every tenant's floor, which a tenant's MFA policy may tighten (services/security/policy-rules.ts). */
  mfa: { enforce: 'optional' | 'force'; rememberDeviceDays: number };
  /** MFA_STRATEGIES: the MFA methods users may enrol and use (SMS also needs a way to send SMS). */
  mfaStrategies: readonly MfaStrategy[];
  webauthn: WebauthnConfig;
  /** The vendor login policy (seed 000 section 1): how users sign in locally. */
  loginStrategy: LoginStrategy;
  rateLimits: Record<RateLimitBucket, RateLimitRule>;
  /** Lockout, rotation and breached-password policies (seed 000 sections 3, 4.2, 4.7). */
  passwordPolicies: PasswordPoliciesConfig;
  /** The reCAPTCHA v3 policy (seed 000 sections 7.2, 8); null when CAPTCHA_SITE_KEY and CAPTCHA_SECRET_KEY are unset. */
  captcha: CaptchaConfig | null;
  /** Invitations (seed 000 section 4.4): link lifetime (s) and whether the email also carries a code. */
  invitation: { tokenTtl: number; strategy: 'link' | 'code' };
  /** Impersonation (seed 000 section 4.7): token and session lifetimes (s). */
  impersonation: { tokenTtl: number; sessionTtl: number };
  /** The Slack app of the notification channel (SLACK_*; docs/connectivity.md). clientId and clientSecret are null until the operator sets both. */
  slack: SlackAppConfig;
  /** The connectivity worker (CONNECTIVITY_*; docs/connectivity.md): how long a claim of an event or delivery job holds before another process may take it over. */
  connectivity: { leaseMs: number };
  /**
   * The vendor's session policy (SESSION_*), the floor every tenant's sessions policy tightens: idle
   * timeout and forced re-login in seconds, and concurrent sessions per user; 0 turns each off.
   */
  sessionPolicy: { idleTimeout: number; forceRelogin: number; maxConcurrent: number };
  /** Whether admins may make users temporary (seed 001 section 4 "Temporary users"). */
  temporaryUsers: boolean;
  /** Social login (seed 000 sections 1, 7.2): the providers, sign-up by social login, state lifetime. */
  socialLogin: SocialLoginConfig;
  /** Enterprise SSO (SAML 2.0, OIDC): the SP signing key pair, DNS for domain validation, plain-http IdPs. */
  sso: SsoConfig;
  /** Hosted login: the OAuth clients of OAUTH_CLIENTS_FILE (the CLI's are in the database). */
  oauthClients: OAuthClient[];
}

/** Enterprise SSO settings; the IdPs themselves are configured per tenant through the API. */
/** The operator's Slack app: its OAuth credentials and where Slack's Web API and authorize page are. */
export interface SlackAppConfig {
  clientId: string | null;
  clientSecret: string | null;
  /** SLACK_API_BASE_URL without a trailing slash, e.g. https://slack.com/api. */
  apiBaseUrl: string;
  authorizeUrl: string;
  /** SLACK_REDIRECT_URL: sent as redirect_uri on both legs of the OAuth flow when set. */
  redirectUrl: string | null;
}

export interface SsoConfig {
  /** PEM private key and certificate that sign SAML AuthnRequests of configurations with signRequest on. */
  spSigningKey: string | null;
  spSigningCert: string | null;
  /** Resolvers for domain-validation TXT lookups (`ip` or `ip:port`); empty: the system's. */
  dnsServers: string[];
  /** Dev mode only: IdP metadata URLs and OIDC issuers on a loopback host may be plain http. */
  allowHttpLoopback: boolean;
}

/** The vendor's password policies; 0 turns lockout or rotation off. */
export interface PasswordPoliciesConfig {
  lockoutMaxAttempts: number;
  unlockTokenTtl: number;
  expiresInDays: number;
  notificationDays: number;
  /** PASSWORD_HISTORY_SIZE: how many previous passwords a new one may not repeat; 0: off (tenants may turn it on). */
  historySize: number;
  rejectBreached: boolean;
}

/** reCAPTCHA v3: the keys, the accepted score, where tokens are verified and the script the box loads. */
export interface CaptchaConfig {
  siteKey: string;
  /** Sent only to verifyUrl; never served, logged or put in an error. */
  secretKey: string;
  minScore: number;
  verifyUrl: string;
  scriptUrl: string;
  /** Lowercased emails whose calls skip the check (e.g. accounts of automated tests). */
  ignoredEmails: string[];
  verifyTimeoutMs: number;
}

/** Passkeys: the relying party and the origins a ceremony may come from. */
export interface WebauthnConfig {
  rpId: string;
  rpName: string;
  /** Allowed origins whose host is the RP ID or below it: what clientDataJSON.origin may be. */
  origins: string[];
  /** Whether the login policy has passkeys as an active secondary strategy (drives the prompt, seed 4.2). */
  passkeysPrompt: boolean;
}

export { CONFIG_OPTIONS, RATE_LIMIT_BUCKETS, renderConfigTable, type ConfigOption, type RateLimitBucket } from './config-options';
export { ConfigError, type RateLimitRule } from './config-readers';

function readFileSource(env: Source): Source {
  const file = env.GATEHOUSE_CONFIG;
  if (!file) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path.resolve(file), 'utf8'));
  } catch (err) {
    throw new ConfigError(`GATEHOUSE_CONFIG points to ${file}, which could not be read as JSON (${(err as Error).message}).`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`GATEHOUSE_CONFIG file ${file} must hold a JSON object of variable names to values.`);
  const out: Source = {};
  for (const [k, v] of Object.entries(parsed)) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

/** GATEHOUSE_CDN_MANIFEST_MAX_AGE: a rollout change must reach new page loads within a minute (issue 18). */
function cdnManifestMaxAge(src: Source): number {
  const seconds = int(src, 'GATEHOUSE_CDN_MANIFEST_MAX_AGE', CDN_MANIFEST_MAX_AGE, 0);
  if (seconds > 60) throw new ConfigError(`GATEHOUSE_CDN_MANIFEST_MAX_AGE must be at most 60 seconds (a rollout change must reach new page loads within a minute), got "${seconds}".`);
  return seconds;
}

/** SESSION_*: each 0 (off) or a value a tenant's policy can also hold (timeouts 60 s to 365 days, 1 to 100 sessions). */
function sessionPolicyConfig(src: Source): Config['sessionPolicy'] {
  const within = (name: string, min: number, max: number, unit: string): number => {
    const n = int(src, name, 0, 0);
    if (n !== 0 && (n < min || n > max)) throw new ConfigError(`${name} must be 0 (off) or between ${min} and ${max} ${unit}, got "${src[name]}".`);
    return n;
  };
  return {
    idleTimeout: within('SESSION_IDLE_TIMEOUT', 60, 365 * 86_400, 'seconds'),
    forceRelogin: within('SESSION_FORCE_RELOGIN', 60, 365 * 86_400, 'seconds'),
    maxConcurrent: within('SESSION_MAX_CONCURRENT', 1, 100, 'sessions'),
  };
}

const MFA_STRATEGY_NAMES: readonly MfaStrategy[] = Object.values(MfaStrategies);

/** MFA_STRATEGIES: a comma-separated subset of the MFA methods (case-insensitive names). */
function mfaStrategyList(src: Source): MfaStrategy[] {
  const raw = src.MFA_STRATEGIES;
  if (raw === undefined || raw.trim() === '') return [...MFA_STRATEGY_NAMES];
  return [
    ...new Set(
      raw.split(',').map((s) => s.trim()).filter(Boolean).map((name) => {
        const found = MFA_STRATEGY_NAMES.find((s) => s.toLowerCase() === name.toLowerCase());
        if (!found) throw new ConfigError(`MFA_STRATEGIES must list some of ${MFA_STRATEGY_NAMES.join(', ')}, got "${name}".`);
        return found;
      }),
    ),
  ];
}

/** SLACK_*: both credentials or neither (half a Slack app can never connect). */
function slackAppConfig(src: Source): SlackAppConfig {
  const clientId = src.SLACK_CLIENT_ID?.trim() || null;
  const clientSecret = src.SLACK_CLIENT_SECRET?.trim() || null;
  if ((clientId === null) !== (clientSecret === null)) throw new ConfigError(`SLACK_${clientId ? 'CLIENT_SECRET' : 'CLIENT_ID'} is not set but SLACK_${clientId ? 'CLIENT_ID' : 'CLIENT_SECRET'} is; set both (from the Slack app's Basic Information page), or neither.`);
  const apiBaseUrl = url('SLACK_API_BASE_URL', src.SLACK_API_BASE_URL?.trim() || 'https://slack.com/api').href.replace(/\/+$/, '');
  const authorizeUrl = url('SLACK_OAUTH_AUTHORIZE_URL', src.SLACK_OAUTH_AUTHORIZE_URL?.trim() || 'https://slack.com/oauth/v2/authorize').href;
  const redirectUrl = src.SLACK_REDIRECT_URL?.trim() ? url('SLACK_REDIRECT_URL', src.SLACK_REDIRECT_URL.trim()).href : null;
  return { clientId, clientSecret, apiBaseUrl, authorizeUrl, redirectUrl };
}

/** Reads the captcha policy: off unless both keys are set; a half-set policy stops the server. */
function captchaConfig(src: Source, production: boolean): CaptchaConfig | null {
  const siteKey = src.CAPTCHA_SITE_KEY?.trim();
  const secretKey = src.CAPTCHA_SECRET_KEY?.trim();
  if (!siteKey && !secretKey) return null;
  if (!siteKey || !secretKey) throw new ConfigError(`${siteKey ? 'CAPTCHA_SITE_KEY' : 'CAPTCHA_SECRET_KEY'} is set but ${siteKey ? 'CAPTCHA_SECRET_KEY' : 'CAPTCHA_SITE_KEY'} is not; set both to turn captcha on, or neither.`);
  // The site key goes into a script URL and the public policy; the secret is never echoed.
  if (!/^[\w.-]{1,256}$/.test(siteKey)) throw new ConfigError('CAPTCHA_SITE_KEY must be 1 to 256 letters, digits, dots, dashes or underscores.');
  const rawScore = src.CAPTCHA_MIN_SCORE?.trim();
  const minScore = rawScore ? Number(rawScore) : 0.5;
  if (!Number.isFinite(minScore) || minScore < 0 || minScore > 1) throw new ConfigError(`CAPTCHA_MIN_SCORE must be a number from 0.0 to 1.0, got "${rawScore}".`);
  const verifyUrl = url('CAPTCHA_VERIFY_URL', src.CAPTCHA_VERIFY_URL?.trim() || 'https://www.google.com/recaptcha/api/siteverify');
  const verifyTimeoutMs = int(src, 'CAPTCHA_VERIFY_TIMEOUT_MS', 5000, 100);
  if (verifyTimeoutMs > 60_000) throw new ConfigError(`CAPTCHA_VERIFY_TIMEOUT_MS must be at most 60000 (a sign-in waits for it), got ${verifyTimeoutMs}.`);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(verifyUrl.hostname);
  if (production && verifyUrl.protocol !== 'https:' && !loopback) throw new ConfigError('CAPTCHA_VERIFY_URL must be https in production: the secret key is sent to it.');
  return {
    siteKey,
    secretKey,
    minScore,
    verifyUrl: verifyUrl.href,
    scriptUrl: url('CAPTCHA_SCRIPT_URL', src.CAPTCHA_SCRIPT_URL?.trim() || 'https://www.google.com/recaptcha/api.js').href,
    ignoredEmails: (src.CAPTCHA_IGNORED_EMAILS ?? '').split(',').map((e) => e.trim().toLowerCase()).filter(Boolean),
    verifyTimeoutMs,
  };
}

/** Reads one sign-up strategy: required, optional or off. */
function signUpStrategy(src: Source, name: string, def: 'required' | 'optional' | 'off'): SignUpStrategy {
  const mode = oneOf(src, name, ['required', 'optional', 'off'] as const, def, (s) => s.toLowerCase());
  return { enabled: mode !== 'off', required: mode === 'required' };
}

/**
 * Reads SIGNUP_EMAIL and SIGNUP_PHONE_NUMBER, and checks them with the login policy: accounts made
 * by phone sign-up have neither an email nor a password, so they can only ever sign in with a code
 * texted to their phone number (SmsCodeV2), and texted codes need a provider outside dev mode.
 */
function signUpStrategiesConfig(src: Source, loginStrategy: LoginStrategy, canSendSms: boolean): SignUpStrategies {
  const strategies = { email: signUpStrategy(src, 'SIGNUP_EMAIL', 'required'), phoneNumber: signUpStrategy(src, 'SIGNUP_PHONE_NUMBER', 'off') };
  if (!strategies.email.enabled && !strategies.phoneNumber.enabled) {
    throw new ConfigError('SIGNUP_EMAIL and SIGNUP_PHONE_NUMBER are both off, so nobody could sign up; turn one on, or set ALLOW_SIGNUPS=false to close sign-up.');
  }
  if (phoneSignUpOpen(strategies) && loginStrategy !== 'SmsCodeV2') {
    throw new ConfigError(`SIGNUP_PHONE_NUMBER lets users sign up with a phone number alone, but LOGIN_STRATEGY is ${loginStrategy}, so they could never sign in again; set LOGIN_STRATEGY=SmsCodeV2 (or SIGNUP_EMAIL=required).`);
  }
  if (passwordlessTypeOf(loginStrategy) === 'smscode' && !canSendSms) {
    throw new ConfigError(`LOGIN_STRATEGY=${loginStrategy} texts sign-in codes, but SMS_HTTP_URL is not set (outside dev mode nobody reads the SMS outbox); set SMS_HTTP_URL.`);
  }
  return strategies;
}

/** Reads the passkey settings; the RP ID must cover at least one origin a ceremony can come from. */
function webauthnConfig(src: Source, publicUrl: URL, allowedOrigins: string[]): WebauthnConfig {
  const rpId = (src.WEBAUTHN_RP_ID?.trim() || publicUrl.hostname).toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(rpId) || rpId.startsWith('.') || rpId.endsWith('.')) throw new ConfigError(`WEBAUTHN_RP_ID must be a host name such as example.com, got "${src.WEBAUTHN_RP_ID}".`);
  const covers = (origin: string) => {
    const host = new URL(origin).hostname;
    return host === rpId || host.endsWith(`.${rpId}`);
  };
  const origins = [...new Set([publicUrl.origin, ...allowedOrigins])].filter(covers);
  if (origins.length === 0) {
    throw new ConfigError(`WEBAUTHN_RP_ID (${rpId}) is neither the host nor a parent domain of GATEHOUSE_PUBLIC_URL or any of GATEHOUSE_ALLOWED_ORIGINS, so no page could use passkeys.`);
  }
  return { rpId, rpName: src.WEBAUTHN_RP_NAME?.trim() || 'Gatehouse', origins, passkeysPrompt: bool(src, 'PASSKEYS_PROMPT', false) };
}

/** Reads the SSO settings; a half-set or mismatched SP key pair stops the server. */
function ssoConfig(src: Source, dev: boolean): SsoConfig {
  const spSigningKey = pemSetting(src, 'SSO_SAML_SP_KEY');
  const spSigningCert = pemSetting(src, 'SSO_SAML_SP_CERT');
  if (!spSigningKey !== !spSigningCert) throw new ConfigError(`${spSigningKey ? 'SSO_SAML_SP_KEY' : 'SSO_SAML_SP_CERT'} is set but ${spSigningKey ? 'SSO_SAML_SP_CERT' : 'SSO_SAML_SP_KEY'} is not; set both (or neither).`);
  if (spSigningKey && spSigningCert) {
    let matches = false;
    try {
      matches = new X509Certificate(spSigningCert).checkPrivateKey(createPrivateKey(spSigningKey));
    } catch (err) {
      throw new ConfigError(`SSO_SAML_SP_KEY / SSO_SAML_SP_CERT could not be read as a PEM private key and certificate (${(err as Error).message}).`);
    }
    if (!matches) throw new ConfigError('SSO_SAML_SP_CERT is not the certificate of SSO_SAML_SP_KEY.');
  }
  const dnsServers = (src.SSO_DNS_SERVERS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const server of dnsServers) {
    if (!/^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-fA-F:]+\](:\d{1,5})?|[0-9a-fA-F:]+)$/.test(server)) throw new ConfigError(`SSO_DNS_SERVERS must list IP addresses (ip or ip:port), got "${server}".`);
  }
  return { spSigningKey, spSigningCert, dnsServers, allowHttpLoopback: dev };
}

/** Reads the configuration from the environment (and the optional GATEHOUSE_CONFIG file). */
export function loadConfig(env: Source = process.env): Config {
  const src: Source = { ...readFileSource(env), ...Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) };
  const port = int(src, 'PORT', 8787, 0);
  if (port > 65535) throw new ConfigError(`PORT must be at most 65535, got ${port}.`);
  const publicUrlObj = url('GATEHOUSE_PUBLIC_URL', src.GATEHOUSE_PUBLIC_URL || `http://localhost:${port}`);
  const publicUrl = publicUrlObj.href.replace(/\/$/, '');
  const publicOrigin = publicUrlObj.origin;
  const allowedOrigins = (src.GATEHOUSE_ALLOWED_ORIGINS ? src.GATEHOUSE_ALLOWED_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean) : [publicOrigin]).map(
    (o) => url('GATEHOUSE_ALLOWED_ORIGINS', o).origin,
  );
  const appUrl = src.GATEHOUSE_APP_URL ? url('GATEHOUSE_APP_URL', src.GATEHOUSE_APP_URL).href.replace(/\/$/, '') : publicUrl;

  const databaseUrl = src.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new ConfigError(`DATABASE_URL must start with postgres:// (or be unset for SQLite), got "${databaseUrl.split('@').pop()}".`);
  const databaseSchema = src.DATABASE_SCHEMA?.trim() || null;
  if (databaseSchema && !/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) throw new ConfigError('DATABASE_SCHEMA must be a lowercase identifier (letters, digits, underscore).');

  const kekRaw = src.GATEHOUSE_KEY_ENCRYPTION_KEY?.trim();
  if (kekRaw && !/^[0-9a-fA-F]{64}$/.test(kekRaw)) throw new ConfigError('GATEHOUSE_KEY_ENCRYPTION_KEY must be exactly 64 hex characters (32 bytes); generate one with `openssl rand -hex 32`.');

  const smtpUrl = src.SMTP_URL?.trim() || null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new ConfigError('SMTP_URL must start with smtp:// or smtps://.');
  const smsHttpUrl = src.SMS_HTTP_URL?.trim() ? url('SMS_HTTP_URL', src.SMS_HTTP_URL.trim()).href : null;
  const smsHttpToken = src.SMS_HTTP_TOKEN?.trim() || null;
  const stripeApiUrl = src.STRIPE_API_URL?.trim() ? url('STRIPE_API_URL', src.STRIPE_API_URL.trim()).origin : null;
  if (smsHttpToken && !smsHttpUrl) throw new ConfigError('SMS_HTTP_TOKEN is set but SMS_HTTP_URL is not; set the provider URL too, or remove the token.');

  let flags: Record<string, string> = {};
  if (src.GATEHOUSE_FLAGS) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(src.GATEHOUSE_FLAGS);
    } catch {
      throw new ConfigError('GATEHOUSE_FLAGS must be a JSON object such as {"passkeys":"on"}.');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError('GATEHOUSE_FLAGS must be a JSON object such as {"passkeys":"on"}.');
    flags = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
  }

  const cookieSameSite = oneOf(src, 'COOKIE_SAMESITE', ['lax', 'strict', 'none'] as const, 'lax', (s) => s.toLowerCase());
  const secureMode = oneOf(src, 'COOKIE_SECURE', ['auto', 'true', 'false'] as const, 'auto', (s) => s.toLowerCase());
  const localHost = ['localhost', '127.0.0.1', '[::1]'].includes(publicUrlObj.hostname);
  let cookieSecure = secureMode === 'auto' ? publicUrlObj.protocol === 'https:' || localHost : secureMode === 'true';
  if (!cookieSecure && src.NODE_ENV === 'production') {
    throw new ConfigError(`The refresh cookie would be sent without Secure: GATEHOUSE_PUBLIC_URL (${publicUrlObj.origin}) must be https in production, or set COOKIE_SECURE=true.`);
  }
  if (cookieSameSite === 'none') {
    if (secureMode === 'false') throw new ConfigError('COOKIE_SAMESITE=none needs Secure cookies; remove COOKIE_SECURE=false.');
    cookieSecure = true;
  }

  const password = {
    minLength: int(src, 'PASSWORD_MIN_LENGTH', 8, 1),
    maxLength: int(src, 'PASSWORD_MAX_LENGTH', 128, 1),
    allowPassphrases: bool(src, 'PASSWORD_ALLOW_PASSPHRASES', true),
    minPhraseLength: int(src, 'PASSWORD_MIN_PHRASE_LENGTH', 20, 1),
    minOptionalTestsToPass: int(src, 'PASSWORD_MIN_OPTIONAL_TESTS', 0, 0),
  };
  if (password.minLength > password.maxLength) throw new ConfigError(`PASSWORD_MIN_LENGTH (${password.minLength}) is larger than PASSWORD_MAX_LENGTH (${password.maxLength}).`);
  if (password.maxLength > 1024) throw new ConfigError('PASSWORD_MAX_LENGTH must be at most 1024.');
  if (password.minOptionalTestsToPass > 4) throw new ConfigError('PASSWORD_MIN_OPTIONAL_TESTS must be between 0 and 4 (lowercase, uppercase, digit, symbol).');

  const production = src.NODE_ENV === 'production';
  return {
    port,
    host: src.HOST?.trim() || '127.0.0.1',
    publicUrl,
    publicOrigin,
    dataDir: path.resolve(src.GATEHOUSE_DATA_DIR || './data'),
    databaseUrl,
    databaseSchema,
    databasePreparedStatements: bool(src, 'DATABASE_PREPARED_STATEMENTS', true),
    sqliteSynchronous: oneOf(src, 'GATEHOUSE_SQLITE_SYNCHRONOUS', ['normal', 'full'] as const, 'normal', (v) => v.toLowerCase()),
    clientId: src.GATEHOUSE_CLIENT_ID?.trim() || 'demo-client',
    allowedOrigins,
    appUrl,
    appName: (src.GATEHOUSE_APP_NAME ?? '').trim().slice(0, 100) || 'Gatehouse',
    accessTokenTtl: int(src, 'ACCESS_TOKEN_TTL', 300, 10),
    refreshTokenTtl: int(src, 'REFRESH_TOKEN_TTL', 2592000, 60),
    activationTokenTtl: int(src, 'ACTIVATION_TOKEN_TTL', 86400, 60),
    smtpUrl,
    mailFrom: src.MAIL_FROM?.trim() || 'Gatehouse <no-reply@localhost>',
    resetPasswordTokenTtl: int(src, 'RESET_PASSWORD_TOKEN_TTL', 1800, 60),
    resetPasswordSmsCodeTtl: int(src, 'RESET_PASSWORD_SMS_CODE_TTL', 300, 30),
    smsHttpUrl,
    smsHttpToken,
    stripeApiUrl,
    dev: !production && bool(src, 'GATEHOUSE_DEV', false),
    signingAlg: oneOf(src, 'GATEHOUSE_SIGNING_ALG', ['ES256', 'RS256'] as const, 'ES256', (s) => s.toUpperCase()),
    keyEncryptionKey: kekRaw ? Buffer.from(kekRaw, 'hex') : null,
    cookieSameSite,
    cookieSecure,
    maxBodyBytes: int(src, 'MAX_BODY_BYTES', 1048576, 1024),
    cdnDir: path.resolve(src.GATEHOUSE_CDN_DIR || './dist/cdn'),
    cdnManifestMaxAge: cdnManifestMaxAge(src),
    demoDir: path.resolve(src.GATEHOUSE_DEMO_DIR || './demo'),
    mfa: { enforce: oneOf(src, 'MFA_POLICY', ['optional', 'force'] as const, 'optional', (s) => s.toLowerCase()), rememberDeviceDays: int(src, 'MFA_REMEMBER_DEVICE_DAYS', 30, 0) },
    flags,
    password,
    allowSignups: bool(src, 'ALLOW_SIGNUPS', true),
    signUpStrategies: signUpStrategiesConfig(src, oneOf(src, 'LOGIN_STRATEGY', LOGIN_STRATEGIES, 'EmailAndPassword'), smsHttpUrl !== null || (!production && bool(src, 'GATEHOUSE_DEV', false))),
    trustProxy: bool(src, 'TRUST_PROXY', false),
    webauthn: webauthnConfig(src, publicUrlObj, allowedOrigins),
    loginStrategy: oneOf(src, 'LOGIN_STRATEGY', LOGIN_STRATEGIES, 'EmailAndPassword'),
    mfaStrategies: mfaStrategyList(src),
    passwordPolicies: {
      lockoutMaxAttempts: int(src, 'LOCKOUT_MAX_ATTEMPTS', 0, 0),
      unlockTokenTtl: int(src, 'UNLOCK_TOKEN_TTL', 86400, 60),
      expiresInDays: int(src, 'PASSWORD_EXPIRES_IN_DAYS', 0, 0),
      notificationDays: int(src, 'PASSWORD_ROTATION_NOTIFICATION_DAYS', 0, 0),
      historySize: Math.min(24, int(src, 'PASSWORD_HISTORY_SIZE', 0, 0)),
      rejectBreached: bool(src, 'BREACHED_PASSWORD_CHECK', true),
    },
    captcha: captchaConfig(src, production),
    invitation: { tokenTtl: int(src, 'INVITATION_TOKEN_TTL', 604800, 60), strategy: oneOf(src, 'INVITATION_STRATEGY', ['link', 'code'] as const, 'link', (s) => s.toLowerCase()) },
    impersonation: { tokenTtl: int(src, 'IMPERSONATION_TOKEN_TTL', 120, 10), sessionTtl: int(src, 'IMPERSONATION_SESSION_TTL', 1800, 60) },
    slack: slackAppConfig(src),
    connectivity: { leaseMs: int(src, 'CONNECTIVITY_LEASE_MS', 60_000, 1_000) },
    sessionPolicy: sessionPolicyConfig(src),
    temporaryUsers: bool(src, 'TEMPORARY_USERS', true),
    socialLogin: socialLoginConfig(
      { providers: src.SOCIAL_LOGIN_PROVIDERS, allowSignUp: bool(src, 'ALLOW_SIGNUPS', true) && bool(src, 'SOCIAL_LOGIN_ALLOW_SIGNUP', true), stateTtl: int(src, 'SOCIAL_LOGIN_STATE_TTL', 600, 60) },
      (message) => new ConfigError(message),
    ),
    sso: ssoConfig(src, !production && bool(src, 'GATEHOUSE_DEV', false)),
    oauthClients: loadClientsFile(src.OAUTH_CLIENTS_FILE, src.GATEHOUSE_CLIENT_ID?.trim() || 'demo-client', (message) => new ConfigError(message)),
    rateLimits: Object.fromEntries(
      Object.entries(RATE_LIMIT_BUCKETS).map(([bucket, b]) => [bucket, rateLimit(src, b.env, b.default)]),
    ) as Record<RateLimitBucket, RateLimitRule>,
  };
}
