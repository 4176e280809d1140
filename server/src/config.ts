import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LOGIN_STRATEGIES, type LoginStrategy } from '@gatehouse/shared/wire';

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
  clientId: string;
  allowedOrigins: string[];
  appUrl: string;
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
  dev: boolean;
  signingAlg: SigningAlg;
  keyEncryptionKey: Buffer | null;
  cookieSameSite: SameSite;
  cookieSecure: boolean;
  maxBodyBytes: number;
  cdnDir: string;
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
  trustProxy: boolean;
  /** Default MFA policy of every tenant without its own row in mfa_policies. */
  mfa: { enforce: 'optional' | 'force'; rememberDeviceDays: number };
  webauthn: WebauthnConfig;
  /** The vendor login policy (seed 000 section 1): how users sign in locally. */
  loginStrategy: LoginStrategy;
  rateLimits: Record<RateLimitBucket, RateLimitRule>;
  /** Lockout, rotation and breached-password policies (seed 000 sections 3, 4.2, 4.7). */
  passwordPolicies: PasswordPoliciesConfig;
}

/** The vendor's password policies; 0 turns lockout or rotation off. */
export interface PasswordPoliciesConfig {
  lockoutMaxAttempts: number;
  unlockTokenTtl: number;
  expiresInDays: number;
  notificationDays: number;
  rejectBreached: boolean;
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

/** At most `limit` hits per fixed window of `windowSeconds`. */
export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

/** Every rate-limit bucket: the variable that sets it, its default (`<count>/<seconds>`) and what it counts. */
export const RATE_LIMIT_BUCKETS = {
  loginPerIp: { env: 'RATE_LIMIT_LOGIN_PER_IP', default: '30/600', counts: 'Sign-in attempts per client IP' },
  loginFailuresPerAccount: {
    env: 'RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT',
    default: '10/900',
    counts: 'Failed sign-ins (wrong password or unknown user) per account, or per typed identifier when no account matches; after that many failures every further attempt, even with the right password, gets 429 until the window ends; a successful sign-in clears the count',
  },
  signUpPerIp: { env: 'RATE_LIMIT_SIGNUP_PER_IP', default: '20/3600', counts: 'Sign-ups per client IP' },
  activationPerIp: { env: 'RATE_LIMIT_ACTIVATION_PER_IP', default: '60/600', counts: 'Activation calls (strategy and activate) per client IP' },
  resendPerIp: { env: 'RATE_LIMIT_RESEND_PER_IP', default: '10/3600', counts: 'Resend-activation calls per client IP' },
  resendPerEmail: {
    env: 'RATE_LIMIT_RESEND_PER_EMAIL',
    default: '3/3600',
    counts: 'Resend-activation calls per target email; over it the call still answers 200 but sends nothing',
  },
  refreshPerIp: { env: 'RATE_LIMIT_REFRESH_PER_IP', default: '120/60', counts: 'Token refreshes per client IP' },
  passwordResetPerIp: { env: 'RATE_LIMIT_PASSWORD_RESET_PER_IP', default: '20/3600', counts: 'Password-recovery requests (email or SMS) per client IP' },
  passwordResetPerIdentifier: {
    env: 'RATE_LIMIT_PASSWORD_RESET_PER_IDENTIFIER',
    default: '3/3600',
    counts: 'Password-recovery requests per typed email, username or phone number; over it the call still answers 200 but sends nothing',
  },
  passwordResetVerifyPerIp: { env: 'RATE_LIMIT_PASSWORD_RESET_VERIFY_PER_IP', default: '60/600', counts: 'Reset-link and SMS-code checks per client IP' },
  passwordChangeFailuresPerUser: { env: 'RATE_LIMIT_PASSWORD_CHANGE_FAILURES_PER_USER', default: '5/900', counts: 'Password changes with a wrong current password per user' },
  mfaAttemptsPerUser: {
    env: 'RATE_LIMIT_MFA_ATTEMPTS_PER_USER',
    default: '10/900',
    counts: 'Second-factor code checks per user (authenticator, emailed and recovery codes at sign-in or step-up, and codes given to disable MFA), over all of its mfaTokens; counted before the comparison so parallel guesses cannot slip past it, cleared by a right code; over it every attempt gets 429 until the window ends',
  },
  unlockPerIp: { env: 'RATE_LIMIT_UNLOCK_PER_IP', default: '30/600', counts: 'Account-unlock link checks per client IP' },
  passwordlessPerIp: { env: 'RATE_LIMIT_PASSWORDLESS_PER_IP', default: '30/600', counts: 'Passwordless calls (magic-link or code request, and sign-in with a link or code) per client IP' },
  passwordlessPerIdentifier: {
    env: 'RATE_LIMIT_PASSWORDLESS_PER_IDENTIFIER',
    default: '5/3600',
    counts: 'Magic links and sign-in codes sent per typed email or username; over it the call still answers 200 but sends nothing',
  },
} as const satisfies Record<string, { env: string; default: string; counts: string }>;

export type RateLimitBucket = keyof typeof RATE_LIMIT_BUCKETS;

/** One configuration option: its variable name, default (as text) and meaning. */
export interface ConfigOption {
  name: string;
  default: string;
  description: string;
}

/** Machine-readable list of every option, for the README's configuration table. */
export const CONFIG_OPTIONS: readonly ConfigOption[] = [
  { name: 'GATEHOUSE_CONFIG', default: '(unset)', description: 'Path to a JSON file whose keys are these variable names; real environment variables win over it.' },
  { name: 'PORT', default: '8787', description: 'TCP port to listen on.' },
  { name: 'HOST', default: '127.0.0.1', description: 'Interface to listen on.' },
  { name: 'GATEHOUSE_PUBLIC_URL', default: 'http://localhost:<PORT>', description: 'URL browsers use to reach this server; token issuer and base of public links.' },
  { name: 'GATEHOUSE_DATA_DIR', default: './data', description: 'Folder of the SQLite file `gatehouse.db` (created if missing).' },
  { name: 'DATABASE_URL', default: '(unset)', description: 'postgres://... to use PostgreSQL instead of SQLite.' },
  { name: 'DATABASE_SCHEMA', default: '(unset)', description: 'PostgreSQL schema to use (search_path); created if missing.' },
  { name: 'GATEHOUSE_CLIENT_ID', default: 'demo-client', description: 'Client id: access-token audience and refresh-cookie name suffix.' },
  { name: 'GATEHOUSE_ALLOWED_ORIGINS', default: 'origin of the public URL', description: 'Comma-separated origins allowed to call the API with credentials (CORS) and to post to cookie endpoints.' },
  { name: 'GATEHOUSE_APP_URL', default: 'the public URL', description: 'Where links in emails point, unless the request came from an allowed origin.' },
  { name: 'ACCESS_TOKEN_TTL', default: '300', description: 'Access-token lifetime in seconds.' },
  { name: 'REFRESH_TOKEN_TTL', default: '2592000', description: 'Refresh-token (session) lifetime in seconds.' },
  { name: 'ACTIVATION_TOKEN_TTL', default: '86400', description: 'Activation-link lifetime in seconds.' },
  { name: 'SMTP_URL', default: '(unset)', description: 'smtp(s)://user:pass@host:port for real mail; unset keeps mail in the dev outbox.' },
  { name: 'MAIL_FROM', default: 'Gatehouse <no-reply@localhost>', description: 'Sender of every email.' },
  { name: 'RESET_PASSWORD_TOKEN_TTL', default: '1800', description: 'Password-reset link lifetime in seconds (single use; a newer request kills older links).' },
  { name: 'RESET_PASSWORD_SMS_CODE_TTL', default: '300', description: 'Password-reset SMS code lifetime in seconds (single use, 5 attempts).' },
  { name: 'SMS_HTTP_URL', default: '(unset)', description: 'http(s) endpoint of an SMS provider: each SMS is a POST of JSON `{"to","body"}`; unset keeps SMS in the dev outbox.' },
  { name: 'SMS_HTTP_TOKEN', default: '(unset)', description: 'Sent as `Authorization: Bearer <token>` to SMS_HTTP_URL.' },
  { name: 'GATEHOUSE_DEV', default: '0', description: "'1' turns on dev mode (demo page, /dev/mailbox); always off when NODE_ENV=production." },
  { name: 'GATEHOUSE_SIGNING_ALG', default: 'ES256', description: 'ES256 or RS256 (2048-bit keys) for access tokens.' },
  { name: 'GATEHOUSE_KEY_ENCRYPTION_KEY', default: '(unset)', description: '64 hex characters; when set, private signing keys are stored AES-256-GCM encrypted.' },
  { name: 'COOKIE_SAMESITE', default: 'lax', description: 'lax, strict or none (none forces Secure).' },
  { name: 'COOKIE_SECURE', default: 'auto', description: 'auto (Secure when the public URL is https or localhost), true or false.' },
  { name: 'MAX_BODY_BYTES', default: '1048576', description: "Largest request body; bigger ones get 413 'Error request is too large'." },
  { name: 'GATEHOUSE_CDN_DIR', default: './dist/cdn', description: 'Folder served at /cdn (relative to the working directory).' },
  { name: 'GATEHOUSE_DEMO_DIR', default: './demo', description: 'Folder holding the demo host page index.html (dev mode only).' },
  { name: 'GATEHOUSE_FLAGS', default: '{}', description: "JSON object of feature flag -> value served at /flags ('on' means on)." },
  { name: 'PASSWORD_MIN_LENGTH', default: '8', description: 'Shortest password accepted.' },
  { name: 'PASSWORD_MAX_LENGTH', default: '128', description: 'Longest password accepted.' },
  { name: 'PASSWORD_ALLOW_PASSPHRASES', default: 'true', description: 'Long passphrases skip the optional character tests.' },
  { name: 'PASSWORD_MIN_PHRASE_LENGTH', default: '20', description: 'Length from which a password counts as a passphrase.' },
  { name: 'PASSWORD_MIN_OPTIONAL_TESTS', default: '0', description: 'How many of lowercase, uppercase, digit, symbol a password must contain.' },
  { name: 'ALLOW_SIGNUPS', default: 'true', description: 'Whether anyone may sign up.' },
  { name: 'TRUST_PROXY', default: 'false', description: 'Read the client IP from X-Forwarded-For (only behind a trusted proxy).' },
  { name: 'MFA_POLICY', default: 'optional', description: "optional: users may enrol a second factor and are asked for it at sign-in once enrolled; force: users without one must enrol at sign-in (forceTwoFactor). Default for tenants without their own MFA policy." },
  { name: 'MFA_REMEMBER_DEVICE_DAYS', default: '30', description: "Days a browser may skip MFA after the user ticks 'Remember this device' (an httpOnly cookie bound to the user); 0 turns the option off." },
  { name: 'WEBAUTHN_RP_ID', default: 'host name of the public URL', description: 'Passkeys relying-party ID: a domain that is, or is a parent of, the host of the pages that show the login box (e.g. example.com for app.example.com). Passkeys are bound to it; changing it orphans existing passkeys.' },
  { name: 'WEBAUTHN_RP_NAME', default: 'Gatehouse', description: 'Name shown by the browser and the authenticator when a passkey is created.' },
  { name: 'LOGIN_STRATEGY', default: 'EmailAndPassword', description: `The login policy: ${LOGIN_STRATEGIES.join(', ')}. MagicLink and Code email a sign-in link (15 minutes) or a 6-digit code (10 minutes) instead of asking for a password; Username* sign in with a username; NoLocalAuthentication refuses password, link and code sign-in.` },
  { name: 'PASSKEYS_PROMPT', default: 'off', description: "'on' makes passkeys an active secondary login strategy: after a password sign-in users without a passkey are offered to add one (also needs the feature flag show-passkeys-new set to on in GATEHOUSE_FLAGS)." },
  { name: 'LOCKOUT_MAX_ATTEMPTS', default: '0', description: "Wrong passwords in a row after which the account is locked until the user opens the emailed unlock link (or resets the password); 0 turns lockout off. Counted in the database, so every server process agrees. Separate from the rate limits, which only slow guessing down." },
  { name: 'UNLOCK_TOKEN_TTL', default: '86400', description: 'Unlock-link lifetime in seconds (single use).' },
  { name: 'PASSWORD_EXPIRES_IN_DAYS', default: '0', description: 'Password rotation: days a password stays valid (counted from when it was set); an expired one must be replaced at sign-in (passwordRotationExpired). 0 turns rotation off.' },
  { name: 'PASSWORD_ROTATION_NOTIFICATION_DAYS', default: '0', description: 'Sign-ins warn (passwordRotationNotification) when days to expiry are at or below this.' },
  { name: 'BREACHED_PASSWORD_CHECK', default: 'true', description: "Refuse passwords on the shipped breached-password list at sign-up, activation, reset and change. At sign-in, a breached password is caught only when the feature flag breached-password is 'on' in GATEHOUSE_FLAGS (breachedPassword step)." },
  ...Object.values(RATE_LIMIT_BUCKETS).map((b) => ({
    name: b.env,
    default: b.default,
    description: `${b.counts}. Format \`<count>/<seconds>\`: at most count per window of that many seconds (counters are kept in the database).`,
  })),
];

/** Markdown table of CONFIG_OPTIONS; the README holds its output. */
export function renderConfigTable(): string {
  const rows = CONFIG_OPTIONS.map((o) => `| \`${o.name}\` | ${o.default.includes('<') ? o.default.replace(/</g, '&lt;') : `\`${o.default}\``} | ${o.description} |`);
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** Thrown at start when the configuration cannot work; the message says what to fix. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Source = Record<string, string | undefined>;

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

function int(src: Source, name: string, def: number, min = 0): number {
  const raw = src[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be a whole number of at least ${min}, got "${raw}".`);
  return n;
}

function bool(src: Source, name: string, def: boolean): boolean {
  const raw = src[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return def;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${src[name]}".`);
}

function oneOf<T extends string>(src: Source, name: string, values: readonly T[], def: T, normalise = (s: string) => s): T {
  const raw = src[name];
  if (raw === undefined || raw === '') return def;
  const v = normalise(raw.trim()) as T;
  if (!values.includes(v)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}".`);
  return v;
}

/** Reads `<count>/<seconds>`, e.g. `30/600` for 30 per 10 minutes. */
function rateLimit(src: Source, name: string, def: string): RateLimitRule {
  const raw = src[name]?.trim() || def;
  const match = /^(\d+)\s*\/\s*(\d+)$/.exec(raw);
  if (!match) throw new ConfigError(`${name} must be <count>/<seconds>, such as "30/600" for 30 per 10 minutes, got "${src[name]}".`);
  const limit = Number(match[1]);
  const windowSeconds = Number(match[2]);
  if (limit < 1 || limit > 1_000_000_000) throw new ConfigError(`${name} must allow between 1 and 1000000000 requests per window, got "${src[name]}".`);
  if (windowSeconds < 1 || windowSeconds > 31 * 86400) throw new ConfigError(`${name} must have a window between 1 second and 31 days, got "${src[name]}".`);
  return { limit, windowSeconds };
}

function url(name: string, raw: string): URL {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
    return u;
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}".`);
  }
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
    clientId: src.GATEHOUSE_CLIENT_ID?.trim() || 'demo-client',
    allowedOrigins,
    appUrl,
    accessTokenTtl: int(src, 'ACCESS_TOKEN_TTL', 300, 10),
    refreshTokenTtl: int(src, 'REFRESH_TOKEN_TTL', 2592000, 60),
    activationTokenTtl: int(src, 'ACTIVATION_TOKEN_TTL', 86400, 60),
    smtpUrl,
    mailFrom: src.MAIL_FROM?.trim() || 'Gatehouse <no-reply@localhost>',
    resetPasswordTokenTtl: int(src, 'RESET_PASSWORD_TOKEN_TTL', 1800, 60),
    resetPasswordSmsCodeTtl: int(src, 'RESET_PASSWORD_SMS_CODE_TTL', 300, 30),
    smsHttpUrl,
    smsHttpToken,
    dev: !production && bool(src, 'GATEHOUSE_DEV', false),
    signingAlg: oneOf(src, 'GATEHOUSE_SIGNING_ALG', ['ES256', 'RS256'] as const, 'ES256', (s) => s.toUpperCase()),
    keyEncryptionKey: kekRaw ? Buffer.from(kekRaw, 'hex') : null,
    cookieSameSite,
    cookieSecure,
    maxBodyBytes: int(src, 'MAX_BODY_BYTES', 1048576, 1024),
    cdnDir: path.resolve(src.GATEHOUSE_CDN_DIR || './dist/cdn'),
    demoDir: path.resolve(src.GATEHOUSE_DEMO_DIR || './demo'),
    mfa: { enforce: oneOf(src, 'MFA_POLICY', ['optional', 'force'] as const, 'optional', (s) => s.toLowerCase()), rememberDeviceDays: int(src, 'MFA_REMEMBER_DEVICE_DAYS', 30, 0) },
    flags,
    password,
    allowSignups: bool(src, 'ALLOW_SIGNUPS', true),
    trustProxy: bool(src, 'TRUST_PROXY', false),
    webauthn: webauthnConfig(src, publicUrlObj, allowedOrigins),
    loginStrategy: oneOf(src, 'LOGIN_STRATEGY', LOGIN_STRATEGIES, 'EmailAndPassword'),
    passwordPolicies: {
      lockoutMaxAttempts: int(src, 'LOCKOUT_MAX_ATTEMPTS', 0, 0),
      unlockTokenTtl: int(src, 'UNLOCK_TOKEN_TTL', 86400, 60),
      expiresInDays: int(src, 'PASSWORD_EXPIRES_IN_DAYS', 0, 0),
      notificationDays: int(src, 'PASSWORD_ROTATION_NOTIFICATION_DAYS', 0, 0),
      rejectBreached: bool(src, 'BREACHED_PASSWORD_CHECK', true),
    },
    rateLimits: Object.fromEntries(
      Object.entries(RATE_LIMIT_BUCKETS).map(([bucket, b]) => [bucket, rateLimit(src, b.env, b.default)]),
    ) as Record<RateLimitBucket, RateLimitRule>,
  };
}
