/**
 * Machine-to-machine tokens: a backend exchanges an API token's client id and secret (made in the
 * admin portal, "API tokens") at the server's `POST /oauth/token` with the client_credentials grant,
 * and sends the access token it gets to the Gatehouse API or to another service.
 */
import type { FetchLike } from './verify/key-set.js';
import { issuerOf } from './verify/verify-access-token.js';

export interface ClientCredentialsOptions {
  /** The Gatehouse server URL. */
  baseUrl: string;
  /** The API token's client id (`CLIENT_ID_…`). */
  clientId: string;
  /** The API token's secret. Never logged. */
  clientSecret: string;
  /** A token is fetched again this many seconds before it expires (default 30, at most half its lifetime). */
  refreshBeforeSeconds?: number;
  fetch?: FetchLike;
  /** Milliseconds since the epoch; replaceable in tests. */
  now?: () => number;
}

export interface ClientCredentialsClient {
  /** A valid access token: the cached one, or a new one when it is near expiry. Concurrent callers share one request. */
  getToken(): Promise<string>;
  /** `Bearer <token>`, for an Authorization header. */
  authorizationHeader(): Promise<string>;
  /** Forgets the cached token (after the API refused it, for example). */
  clear(): void;
}

/** The token endpoint refused the credentials or answered something else than a token. */
export class ClientCredentialsError extends Error {
  readonly kind = 'gatehouse-client-credentials-error' as const;
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ClientCredentialsError';
  }
}

const TOKEN_TIMEOUT_MS = 10_000;

/** A client-credentials token source, cached until near expiry. */
export function createClientCredentialsClient(options: ClientCredentialsOptions): ClientCredentialsClient {
  for (const name of ['baseUrl', 'clientId', 'clientSecret'] as const) {
    if (typeof options?.[name] !== 'string' || !options[name]) throw new TypeError(`createClientCredentialsClient: ${name} is required.`);
  }
  const now = options.now ?? Date.now;
  const url = `${issuerOf(options.baseUrl)}/oauth/token`;
  let cached: { token: string; refreshAt: number } | null = null;
  let inflight: Promise<string> | null = null;

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`).toString('base64');
    const res = await (options.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'client_credentials' }).toString(),
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
    const body = (await res.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } | null;
    if (!res.ok || typeof body?.access_token !== 'string' || typeof body.expires_in !== 'number') {
      const reason = typeof body?.error_description === 'string' ? body.error_description : typeof body?.error === 'string' ? body.error : `status ${res.status}`;
      throw new ClientCredentialsError(`The Gatehouse token endpoint refused the client credentials: ${reason}.`, res.status);
    }
    const margin = Math.min(options.refreshBeforeSeconds ?? 30, body.expires_in / 2);
    cached = { token: body.access_token, refreshAt: now() + (body.expires_in - margin) * 1000 };
    return body.access_token;
  }

  async function getToken(): Promise<string> {
    if (cached && now() < cached.refreshAt) return cached.token;
    inflight ??= fetchToken().finally(() => (inflight = null));
    return inflight;
  }

  return {
    getToken,
    authorizationHeader: async () => `Bearer ${await getToken()}`,
    clear: () => void (cached = null),
  };
}
