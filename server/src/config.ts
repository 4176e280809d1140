import { readFileSync } from 'node:fs';
import path from 'node:path';

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
}

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

function url(name: string, raw: string): URL {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
    return u;
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}".`);
  }
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
    dev: !production && bool(src, 'GATEHOUSE_DEV', false),
    signingAlg: oneOf(src, 'GATEHOUSE_SIGNING_ALG', ['ES256', 'RS256'] as const, 'ES256', (s) => s.toUpperCase()),
    keyEncryptionKey: kekRaw ? Buffer.from(kekRaw, 'hex') : null,
    cookieSameSite,
    cookieSecure,
    maxBodyBytes: int(src, 'MAX_BODY_BYTES', 1048576, 1024),
    cdnDir: path.resolve(src.GATEHOUSE_CDN_DIR || './dist/cdn'),
    demoDir: path.resolve(src.GATEHOUSE_DEMO_DIR || './demo'),
    flags,
    password,
    allowSignups: bool(src, 'ALLOW_SIGNUPS', true),
    trustProxy: bool(src, 'TRUST_PROXY', false),
  };
}
