/**
 * Start-up checks of a host's Gatehouse settings (seed 000 sections 7 and 8): a host calls
 * `checkEnvironment(process.env)` once as it starts, so a misconfiguration stops it with a sentence
 * naming the variable instead of failing at the first request.
 */

/** The environment variables @gatehouse/node reads. */
export const EnvVars = {
  baseUrl: 'GATEHOUSE_BASE_URL',
  clientId: 'GATEHOUSE_CLIENT_ID',
  clientSecret: 'GATEHOUSE_CLIENT_SECRET',
  encryptionPassword: 'GATEHOUSE_ENCRYPTION_PASSWORD',
  secureJwt: 'GATEHOUSE_SECURE_JWT_ENABLED',
  hostedLogin: 'GATEHOUSE_HOSTED_LOGIN',
  appUrl: 'GATEHOUSE_APP_URL',
} as const;

/** The settings, checked. */
export interface GatehouseEnvironment {
  baseUrl: string;
  clientId: string;
  clientSecret: string | undefined;
  /** 64 hex characters; undefined when the host said it keeps no session. */
  encryptionPassword: string | undefined;
  appUrl: string | undefined;
  secureJwt: boolean;
  hostedLogin: boolean;
}

export interface EnvironmentCheckOptions {
  /** The host keeps a sealed session cookie, so it needs the encryption password (default true). */
  session?: boolean;
  /** The host's own hosted-login option, when it sets one in code: it must agree with GATEHOUSE_HOSTED_LOGIN. */
  hostedLogin?: boolean;
}

/** Every problem found, one sentence each naming its variable; `message` joins them. */
export class GatehouseEnvironmentError extends Error {
  readonly kind = 'gatehouse-environment-error' as const;
  constructor(readonly problems: string[]) {
    super(problems.join(' '));
    this.name = 'GatehouseEnvironmentError';
  }
}

const HEX_64 = /^[0-9a-fA-F]{64}$/;

function flag(env: Record<string, string | undefined>, name: string, problems: string[]): boolean | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (/^(true|1)$/i.test(raw)) return true;
  if (/^(false|0)$/i.test(raw)) return false;
  problems.push(`${name} must be true or false.`);
  return undefined;
}

function httpUrl(env: Record<string, string | undefined>, name: string, problems: string[]): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return raw.replace(/\/+$/, '');
  } catch {
    // reported below
  }
  problems.push(`${name} is not a valid URL: it must be an http or https URL.`);
  return undefined;
}

/** Checks the environment; returns the settings or throws a GatehouseEnvironmentError naming each bad variable. */
export function checkEnvironment(env: Record<string, string | undefined>, options: EnvironmentCheckOptions = {}): GatehouseEnvironment {
  const problems: string[] = [];
  const baseUrl = httpUrl(env, EnvVars.baseUrl, problems);
  if (!env[EnvVars.baseUrl]?.trim()) problems.push(`${EnvVars.baseUrl} is required: the URL of your Gatehouse server.`);
  const clientId = env[EnvVars.clientId]?.trim();
  if (!clientId) problems.push(`${EnvVars.clientId} is required: the client id of your Gatehouse server.`);
  const secureJwt = flag(env, EnvVars.secureJwt, problems) ?? false;
  const clientSecret = env[EnvVars.clientSecret]?.trim() || undefined;
  if (secureJwt && !clientSecret) problems.push(`${EnvVars.clientSecret} is required when ${EnvVars.secureJwt} is on.`);
  const session = options.session ?? true;
  const encryptionPassword = env[EnvVars.encryptionPassword]?.trim() || undefined;
  if (session && !encryptionPassword) problems.push(`${EnvVars.encryptionPassword} is required: 64 hex characters (for example \`openssl rand -hex 32\`).`);
  else if (encryptionPassword && !HEX_64.test(encryptionPassword)) problems.push(`${EnvVars.encryptionPassword} must be 64 hex characters (for example \`openssl rand -hex 32\`).`);
  const appUrl = httpUrl(env, EnvVars.appUrl, problems);
  const hostedFromEnv = flag(env, EnvVars.hostedLogin, problems);
  if (options.hostedLogin !== undefined && hostedFromEnv !== undefined && options.hostedLogin !== hostedFromEnv) {
    problems.push(`${EnvVars.hostedLogin} is ${hostedFromEnv} but the hostedLogin option is ${options.hostedLogin}: set one of them, or make them agree.`);
  }
  if (problems.length > 0) throw new GatehouseEnvironmentError(problems);
  return {
    baseUrl: baseUrl!,
    clientId: clientId!,
    clientSecret,
    encryptionPassword,
    appUrl,
    secureJwt,
    hostedLogin: options.hostedLogin ?? hostedFromEnv ?? false,
  };
}
