/**
 * The applications that may use hosted login (OAuth clients): from the OAUTH_CLIENTS_FILE config
 * file, from the database (`npm run gatehouse -- clients add`), and in dev mode the public client
 * `demo-spa`. Redirect URIs are compared exactly; only `demo-spa` takes any loopback URI (RFC 8252).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../clock';
import { newSecret, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { deleteOAuthClient, findOAuthClient, insertOAuthClient, listOAuthClients, type OAuthClientRow } from '../../db/queries/oauth';

/** The public client dev mode registers for the demo page and local experiments. */
export const DEV_CLIENT_ID = 'demo-spa';

export interface OAuthClient {
  clientId: string;
  name: string;
  /** SHA-256 (hex) of a confidential client's secret; null: a public client (PKCE only). */
  secretHash: string | null;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  /** RFC 8252 section 7.3: any port (and path) on localhost, 127.0.0.1 or [::1]; only the dev client. */
  anyLoopback: boolean;
  source: 'file' | 'database' | 'dev';
}

const CLIENT_ID = /^[A-Za-z0-9._~-]{1,128}$/;
const SECRET_HASH = /^(?:sha256:)?([0-9a-f]{64})$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname);
}

/** Why a redirect URI cannot be registered, or null when it can. */
export function redirectUriProblem(raw: string): string | null {
  if (raw.length > 2048) return 'is longer than 2048 characters';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not an absolute URL';
  }
  if (raw.includes('#')) return 'must not contain a fragment (#)';
  if (url.username || url.password) return 'must not contain a user name or password';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return null;
  return 'must be https (http only on localhost, 127.0.0.1 or [::1])';
}

/** A well-formed http URI on a loopback host, any port (the dev client's rule). */
function isLoopbackUri(raw: string): boolean {
  if (raw.length > 2048 || raw.includes('#') || !raw.startsWith('http://')) return false;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' && isLoopbackHost(url.hostname) && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** Whether `uri` is one of the client's redirect (or post-logout redirect) URIs, compared exactly. */
export function isRegisteredUri(client: OAuthClient, uri: string, kind: 'redirect' | 'postLogout'): boolean {
  if (client.anyLoopback && isLoopbackUri(uri)) return true;
  return (kind === 'redirect' ? client.redirectUris : client.postLogoutRedirectUris).includes(uri);
}

/** Whether a browser page on `origin` may call the token and silent endpoints for this public client. */
export function isClientOrigin(client: OAuthClient, origin: string): boolean {
  if (client.anyLoopback && isLoopbackUri(`${origin}/`)) return true;
  return [...client.redirectUris, ...client.postLogoutRedirectUris].some((uri) => {
    try {
      return new URL(uri).origin === origin;
    } catch {
      return false;
    }
  });
}

/** Constant-time check of a confidential client's secret. */
export function verifyClientSecret(client: OAuthClient, secret: string): boolean {
  return client.secretHash !== null && safeEqual(sha256(secret), client.secretHash);
}

/** The stored form of a client secret (`sha256:<hex>`), as OAUTH_CLIENTS_FILE takes it. */
export function hashClientSecret(secret: string): string {
  return `sha256:${sha256(secret)}`;
}

/** A new confidential-client secret: 256 random bits, base64url. */
export function newClientSecret(): string {
  return newSecret();
}

export interface ClientInput {
  clientId: string;
  name?: string;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  secretHash?: string | null;
}

/** Checks one client definition; throws `fail(sentence)` naming what is wrong. */
export function checkClient(input: ClientInput, reservedId: string, fail: (message: string) => Error): Omit<OAuthClient, 'source' | 'anyLoopback'> {
  const where = `client "${input.clientId}"`;
  if (typeof input.clientId !== 'string' || !CLIENT_ID.test(input.clientId)) throw fail(`clientId must be 1 to 128 letters, digits or . _ ~ -, got ${JSON.stringify(input.clientId)}.`);
  // A client named like the API audience would get ID tokens that pass as access tokens.
  if (input.clientId === reservedId) throw fail(`${where}: the id ${reservedId} is GATEHOUSE_CLIENT_ID, the access tokens' audience; choose another id.`);
  if (!Array.isArray(input.redirectUris) || input.redirectUris.length === 0) throw fail(`${where} needs at least one redirect URI.`);
  const post = input.postLogoutRedirectUris ?? [];
  if (!Array.isArray(post)) throw fail(`${where}: postLogoutRedirectUris must be an array of URIs.`);
  for (const uri of [...input.redirectUris, ...post]) {
    const problem = typeof uri === 'string' ? redirectUriProblem(uri) : 'is not a string';
    if (problem) throw fail(`${where}: the redirect URI ${JSON.stringify(uri)} ${problem}.`);
  }
  let secretHash: string | null = null;
  if (input.secretHash !== undefined && input.secretHash !== null) {
    const match = typeof input.secretHash === 'string' ? SECRET_HASH.exec(input.secretHash.trim().toLowerCase()) : null;
    if (!match) throw fail(`${where}: clientSecretHash must be sha256:<64 hex characters> (npm run gatehouse -- clients secret prints one).`);
    secretHash = match[1]!;
  }
  const name = typeof input.name === 'string' && input.name.trim() ? input.name.trim().slice(0, 200) : input.clientId;
  return { clientId: input.clientId, name, secretHash, redirectUris: [...input.redirectUris], postLogoutRedirectUris: [...post] };
}

/**
 * Reads OAUTH_CLIENTS_FILE: `{ "clients": [{ "clientId", "name", "redirectUris", "postLogoutRedirectUris",
 * "clientSecretHash" }] }`. A client without clientSecretHash is public (PKCE only).
 */
export function loadClientsFile(file: string | undefined, reservedId: string, fail: (message: string) => Error): OAuthClient[] {
  if (!file?.trim()) return [];
  const resolved = path.resolve(file.trim());
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(resolved, 'utf8'));
  } catch (err) {
    throw fail(`OAUTH_CLIENTS_FILE (${resolved}) could not be read as JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const list = (parsed as { clients?: unknown } | null)?.clients;
  if (!Array.isArray(list)) throw fail(`OAUTH_CLIENTS_FILE (${resolved}) must hold {"clients": [...]}.`);
  const seen = new Set<string>();
  return list.map((entry: Record<string, unknown>) => {
    const client = checkClient(
      {
        clientId: entry?.clientId as string,
        name: entry?.name as string | undefined,
        redirectUris: entry?.redirectUris as string[],
        postLogoutRedirectUris: entry?.postLogoutRedirectUris as string[] | undefined,
        secretHash: entry?.clientSecretHash as string | undefined,
      },
      reservedId,
      (message) => fail(`OAUTH_CLIENTS_FILE: ${message}`),
    );
    if (seen.has(client.clientId)) throw fail(`OAUTH_CLIENTS_FILE lists client "${client.clientId}" twice.`);
    seen.add(client.clientId);
    return { ...client, anyLoopback: false, source: 'file' as const };
  });
}

function fromRow(row: OAuthClientRow): OAuthClient {
  return {
    clientId: row.client_id,
    name: row.name,
    secretHash: row.secret_hash,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    postLogoutRedirectUris: JSON.parse(row.post_logout_redirect_uris) as string[],
    anyLoopback: false,
    source: 'database',
  };
}

export interface ClientRegistry {
  /** The client of that id: the config file's first, then the database's, then (dev) demo-spa. */
  find(clientId: string | undefined): Promise<OAuthClient | null>;
  list(): Promise<OAuthClient[]>;
  /** Registers a client in the database; returns the secret of a confidential one (shown once). */
  add(input: Omit<ClientInput, 'secretHash'> & { confidential: boolean }, fail: (message: string) => Error): Promise<{ client: OAuthClient; secret: string | null }>;
  remove(clientId: string): Promise<boolean>;
}

export function createClientRegistry(deps: { db: Db; clock: Clock; config: { dev: boolean; clientId: string; oauthClients: OAuthClient[] } }): ClientRegistry {
  const { db, clock, config } = deps;
  const devClient: OAuthClient = { clientId: DEV_CLIENT_ID, name: 'Gatehouse demo (dev mode)', secretHash: null, redirectUris: [], postLogoutRedirectUris: [], anyLoopback: true, source: 'dev' };

  return {
    async find(clientId) {
      if (!clientId || !CLIENT_ID.test(clientId)) return null;
      const fromFile = config.oauthClients.find((c) => c.clientId === clientId);
      if (fromFile) return fromFile;
      const row = await findOAuthClient(db, clientId);
      if (row) return fromRow(row);
      return config.dev && clientId === DEV_CLIENT_ID ? devClient : null;
    },
    async list() {
      const rows = (await listOAuthClients(db)).map(fromRow).filter((c) => !config.oauthClients.some((f) => f.clientId === c.clientId));
      return [...config.oauthClients, ...rows, ...(config.dev ? [devClient] : [])];
    },
    async add(input, fail) {
      const secret = input.confidential ? newClientSecret() : null;
      const checked = checkClient({ ...input, secretHash: secret ? hashClientSecret(secret) : null }, config.clientId, fail);
      if (config.oauthClients.some((c) => c.clientId === checked.clientId) || (await findOAuthClient(db, checked.clientId))) throw fail(`A client "${checked.clientId}" is already registered.`);
      const now = clock.now();
      await insertOAuthClient(db, {
        client_id: checked.clientId,
        name: checked.name,
        secret_hash: checked.secretHash,
        redirect_uris: JSON.stringify(checked.redirectUris),
        post_logout_redirect_uris: JSON.stringify(checked.postLogoutRedirectUris),
        created_at: now,
        updated_at: now,
      });
      return { client: { ...checked, anyLoopback: false, source: 'database' }, secret };
    },
    remove: (clientId) => deleteOAuthClient(db, clientId),
  };
}
