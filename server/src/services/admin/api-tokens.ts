/**
 * API tokens (issue 5; seed 001 sections 3, 5, 6, 7): personal tokens act in one tenant with their
 * owner's current permissions there; tenant tokens act with the roles given at creation, which the
 * creator must hold every permission of (no escalation, like invitations). Each is either
 *
 * - ClientCredentials: `clientId` (CLIENT_ID_ + 128 random bits) and a 256-bit `secret`, exchanged at
 *   the OAuth token endpoint (grant_type=client_credentials) for an access token (a JWT carrying
 *   `apiTokenId`, the tenant, roles and permissions, living ACCESS_TOKEN_TTL at most); or
 * - AccessToken: the secret `gh_at.<id>.<random>` is itself the bearer token.
 *
 * Only the secret's SHA-256 is stored, compared in constant time; the secret is answered once, by the
 * POST. The admin guard (access.ts) re-reads the token row on every call, so a deleted or
 * expired token stops working at once, exchanged access tokens included; its permissions are read
 * from the database at each call too (a role taken away counts at once), and it acts only in its own
 * tenant. The exchange keeps what it read of a token for at most 1 s per process (issue 17), so a
 * deletion stops new exchanges within 1 s everywhere. API tokens cannot manage API tokens.
 */
import { ACCESS_TOKEN_PREFIX, ErrorCodes, type ApiToken, type ApiTokenType, type CreatedApiToken, type CreateTenantApiTokenRequest, type CreateUserApiTokenRequest } from '@gatehouse/shared/wire';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, newSecret, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { findTenantRolesByIds } from '../../db/queries/admin-roles';
import { apiTokenRoleIds, deleteApiToken, findApiTokenByClientId, findApiTokenById, insertApiToken, listApiTokens, type ApiTokenRow } from '../../db/queries/api-tokens';
import { listRolePermissions } from '../../db/queries/roles';
import { isMember } from '../../db/queries/tenants';
import { findUserById } from '../../db/queries/users';
import { AppError, Errors } from '../../errors';
import { assertCovers, type AdminCaller } from './access';
import { recordAudit } from './audit-log';
import type { KeyService } from '../platform/keys';
import { grantsOf } from './permissions';
import type { IpRestrictionService } from '../security/ip-restrictions';
import { AUTHORIZATION_CACHE_MAX_TTL_MS, createTtlCache } from '../platform/ttl-cache';

export type ApiTokenKind = 'user' | 'tenant';

/** ClientCredentials tokens whose exchange material one process keeps (each for at most 1 s). */
const EXCHANGE_CACHE_MAX = 1_000;

/** What an exchange reads about a token: its row and the grants it carries now (null: none, or its user is disabled). */
interface ExchangeMaterial {
  row: ApiTokenRow;
  grants: { keys: string[]; roles: string[] } | null;
}

export const ApiTokenAuditActions = {
  created: 'API token created',
  deleted: 'API token deleted',
} as const;

export interface ApiTokenService {
  list(caller: AdminCaller, kind: ApiTokenKind, type: ApiTokenType): Promise<ApiToken[]>;
  create(caller: AdminCaller, kind: ApiTokenKind, type: ApiTokenType, body: CreateUserApiTokenRequest | CreateTenantApiTokenRequest): Promise<CreatedApiToken>;
  remove(caller: AdminCaller, kind: ApiTokenKind, type: ApiTokenType, tokenId: string): Promise<void>;
  /**
   * The client_credentials grant: a short access token for a live ClientCredentials token, else null.
   * Throws 403 ER-IP-RESTRICTED when the token's tenant keeps `ip` out.
   */
  exchange(clientId: string, secret: string, ip: string | null): Promise<{ accessToken: string; expiresIn: number } | null>;
}

/** Who an API token acts as, once its bearer was proven. */
export interface ApiTokenPrincipal {
  token: ApiTokenRow;
  /** Permission keys it holds in its tenant, now. */
  keys: string[];
  roles: string[];
  /** The owner's (personal) or creator's (tenant) email, for the audit log. */
  email: string | null;
}

const notFound = () => Errors.notFound('API token not found');
const notWithApiToken = () => new AppError(ErrorCodes.forbidden, 403, 'API tokens cannot be managed with an API token');

function newClientId(): string {
  return `CLIENT_ID_${randomBytes(16).toString('hex')}`;
}

/** Role keys and permission keys a token holds now: the owner's grants, or its roles' permissions. */
async function grantsOfToken(db: Db, row: ApiTokenRow, now: number): Promise<{ keys: string[]; roles: string[] } | null> {
  if (row.kind === 'user') {
    if (!(await isMember(db, row.user_id, row.tenant_id, now))) return null;
    const grants = await grantsOf(db, row.user_id, row.tenant_id);
    return { keys: grants.keys, roles: [] };
  }
  const roleIds = (await apiTokenRoleIds(db, [row.id])).get(row.id) ?? [];
  const roles = await findTenantRolesByIds(db, row.tenant_id, roleIds);
  const perms = await listRolePermissions(db, roles.map((r) => r.id));
  return { keys: perms.map((p) => p.key), roles: roles.map((r) => r.key).sort() };
}

function live(row: ApiTokenRow | undefined, now: number): row is ApiTokenRow {
  return !!row && (row.expires_at === null || row.expires_at > now);
}

/** The payload of a JWT, unverified: only to tell an exchanged API-token access token from a session's. */
function peekPayload(jwt: string): Record<string, unknown> | null {
  const part = jwt.split('.')[1];
  if (!part) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The bearer of an admin call, if it is an API token: an AccessToken type secret, or an access token
 * exchanged from a ClientCredentials token. Null for anything else (a session's access token), which
 * the normal authentication then handles; throws 401 for a bad, deleted or expired API token.
 */
export async function authenticateApiToken(deps: { db: Db; keys: KeyService }, authorization: string | undefined, now: number): Promise<ApiTokenPrincipal | null> {
  const { db, keys } = deps;
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!bearer) return null;
  let row: ApiTokenRow | undefined;
  if (bearer.startsWith(ACCESS_TOKEN_PREFIX)) {
    const [id = '', secret = ''] = bearer.slice(ACCESS_TOKEN_PREFIX.length).split('.');
    row = id ? await findApiTokenById(db, id) : undefined;
    // Hash compared in constant time; an unknown id still hashes, so timing tells nothing.
    const ok = safeEqual(row?.secret_hash ?? sha256(''), sha256(secret)) && row?.type === 'AccessToken';
    if (!ok) throw Errors.unauthorized();
  } else {
    const peeked = peekPayload(bearer);
    if (typeof peeked?.apiTokenId !== 'string') return null;
    let payload: Record<string, unknown>;
    try {
      payload = (await keys.verify(bearer)) as Record<string, unknown>;
    } catch {
      throw Errors.unauthorized();
    }
    row = typeof payload.apiTokenId === 'string' ? await findApiTokenById(db, payload.apiTokenId) : undefined;
    if (row?.type !== 'ClientCredentials' || payload.tenantId !== row.tenant_id) throw Errors.unauthorized();
  }
  if (!live(row, now)) throw Errors.unauthorized();
  const grants = await grantsOfToken(db, row, now);
  if (!grants) throw Errors.unauthorized();
  const user = await findUserById(db, row.user_id);
  if (!user || user.disabled === 1) throw Errors.unauthorized();
  return { token: row, keys: grants.keys, roles: grants.roles, email: user.email };
}

export function createApiTokenService(deps: {
  db: Db;
  clock: Clock;
  keys: KeyService;
  config: Pick<Config, 'accessTokenTtl'>;
  /** The tenant's IP restrictions, at the exchange of a ClientCredentials token. */
  ipRestrictions?: Pick<IpRestrictionService, 'assertAllowed'>;
}): ApiTokenService {
  const { db, clock, keys, config } = deps;

  function present(row: ApiTokenRow, roleIds: string[], now: number): ApiToken {
    return {
      id: row.id,
      clientId: row.client_id,
      type: row.type as ApiTokenType,
      description: row.description,
      createdAt: new Date(row.created_at).toISOString(),
      roleIds,
      expiresInMinutes: row.expires_at === null ? null : Math.max(0, Math.ceil((row.expires_at - now) / 60_000)),
      expires: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
      userId: row.kind === 'user' ? row.user_id : null,
    };
  }

  /**
   * The token row and its grants, read at most once a second per ClientCredentials token and process
   * (a backend exchanging its token many times a second costs no more reads): a deleted token, a
   * removed role or membership, or a disabled user takes effect within 1 s in every process, and at
   * once in the process that deleted the token. Unknown client ids are not kept.
   */
  const exchangeCache = createTtlCache<string, ExchangeMaterial>({ clock, ttlMs: AUTHORIZATION_CACHE_MAX_TTL_MS, max: EXCHANGE_CACHE_MAX });
  async function exchangeMaterial(clientId: string, now: number): Promise<ExchangeMaterial | undefined> {
    const cached = exchangeCache.get(clientId);
    if (cached) return cached;
    const row = await findApiTokenByClientId(db, clientId);
    if (row?.type !== 'ClientCredentials') return row && { row, grants: null };
    const grants = await grantsOfToken(db, row, now);
    const user = grants ? await findUserById(db, row.user_id) : undefined;
    const material = { row, grants: grants && user && user.disabled !== 1 ? grants : null };
    exchangeCache.set(clientId, material);
    return material;
  }

  /** Personal tokens are the caller's own; tenant tokens are the tenant's. */
  const scope = (caller: AdminCaller, kind: ApiTokenKind) => ({ tenantId: caller.tenantId, kind, ...(kind === 'user' ? { userId: caller.userId } : {}) });

  return {
    async list(caller, kind, type) {
      if (caller.apiTokenId) throw notWithApiToken();
      const now = clock.now();
      const rows = await listApiTokens(db, { ...scope(caller, kind), type });
      const roles = await apiTokenRoleIds(db, rows.map((r) => r.id));
      return rows.map((r) => present(r, roles.get(r.id) ?? [], now));
    },

    async create(caller, kind, type, body) {
      if (caller.apiTokenId) throw notWithApiToken();
      const now = clock.now();
      const wanted = kind === 'tenant' && 'roleIds' in body ? [...new Set(body.roleIds)] : [];
      if (wanted.length > 0) {
        const roles = await findTenantRolesByIds(db, caller.tenantId, wanted);
        if (roles.length !== wanted.length) throw Errors.notFound('Role not found in this account');
        assertCovers(caller, (await listRolePermissions(db, wanted)).map((p) => p.key), 'You cannot give a token a role with permissions you do not have');
      }
      const id = newId();
      const random = newSecret();
      const secret = type === 'AccessToken' ? `${ACCESS_TOKEN_PREFIX}${id}.${random}` : random;
      const row: ApiTokenRow = {
        id,
        client_id: newClientId(),
        kind,
        type,
        tenant_id: caller.tenantId,
        user_id: caller.userId,
        description: body.description,
        secret_hash: sha256(type === 'AccessToken' ? random : secret),
        created_at: now,
        expires_at: body.expiresInMinutes === undefined ? null : now + body.expiresInMinutes * 60_000,
      };
      await db.transaction().execute(async (trx) => {
        await insertApiToken(trx, row, wanted);
        await recordAudit(
          trx,
          caller,
          {
            action: ApiTokenAuditActions.created,
            description: `${kind === 'user' ? 'Personal' : 'Account'} API token "${body.description}" created`,
            json: { tokenId: id, clientId: row.client_id, kind, type, description: body.description, roleIds: wanted, expiresInMinutes: body.expiresInMinutes ?? null },
          },
          now,
        );
      });
      return { ...present(row, wanted.sort(), now), secret };
    },

    async remove(caller, kind, type, tokenId) {
      if (caller.apiTokenId) throw notWithApiToken();
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        if ((await deleteApiToken(trx, { ...scope(caller, kind), type, id: tokenId })) === 0) throw notFound();
        await recordAudit(trx, caller, { action: ApiTokenAuditActions.deleted, description: `${kind === 'user' ? 'Personal' : 'Account'} API token deleted`, severity: 'High', json: { tokenId, kind, type } }, now);
      });
      // Deletions are rare: this process forgets every token it keeps, so the deleted one stops here at once.
      exchangeCache.clear();
    },

    async exchange(clientId, secret, ip) {
      const now = clock.now();
      const material = await exchangeMaterial(clientId, now);
      const row = material?.row;
      const ok = safeEqual(row?.secret_hash ?? sha256(''), sha256(secret)) && row?.type === 'ClientCredentials';
      if (!ok || !live(row, now)) return null;
      const grants = material?.grants;
      if (!grants) return null;
      await deps.ipRestrictions?.assertAllowed(row.tenant_id, ip);
      const expiresAt = Math.min(now + config.accessTokenTtl * 1000, row.expires_at ?? Infinity);
      const claims = {
        sub: row.kind === 'user' ? row.user_id : row.client_id,
        azp: row.client_id,
        apiTokenId: row.id,
        type: row.kind === 'user' ? 'userApiToken' : 'tenantApiToken',
        tenantId: row.tenant_id,
        tenantIds: [row.tenant_id],
        roles: grants.roles,
        permissions: grants.keys,
      };
      const accessToken = await keys.sign(claims, expiresAt);
      return { accessToken, expiresIn: Math.max(0, Math.floor((expiresAt - now) / 1000)) };
    },
  };
}
