/**
 * SCIM provisioning connections (issue 15; seed 001 sections 3 "Provisioning connection", 7
 * "Directory: SCIM configuration CRUD with deleteAll"). A tenant admin creates a connection for a
 * source (frontegg, okta, azure-ad, other) and gets its bearer token once:
 * `ghscim.<connectionId>.<secret>`, the secret 256 random bits of which only the SHA-256 is stored,
 * compared in constant time. Rotating answers a new token and the old one stops working at once.
 * Deleting removes the connection; with `deleteAll` the users it provisioned leave the tenant (the
 * account goes only when SCIM created it and it was in no other tenant) and its groups are deleted, otherwise they are handed
 * back to the portal (no longer managedBy scim2). Every change is audited, never with a token.
 *
 * A tenant has at most MAX_SCIM_CONNECTIONS connections (each is a token to guard and a directory
 * to keep in step; more is a mistake or an abuse).
 *
 * The token alone decides the tenant of a SCIM call (`authenticate`): nothing in a SCIM request can
 * name another tenant.
 */
import { ProvisioningErrorCodes, ProvisioningPaths, SCIM_TOKEN_PREFIX, type CreatedScimConnection, type CreateScimConnectionRequest, type RotatedScimToken, type ScimConnection, type ScimRequestLogPage, type ScimSource, ScimSources } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, newSecret, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { countMemberships, deleteUserAccount, removeMembership, revokeTenantSessions } from '../../db/queries/admin-users';
import { deleteGroup } from '../../db/queries/groups';
import {
  deleteScimConnection,
  findScimConnectionById,
  findTenantScimConnection,
  insertScimConnection,
  listScimConnections,
  releaseScimResources,
  scimResourceCounts,
  scimResourceIdsOfConnection,
  scimUsersOfConnection,
  updateScimConnectionToken,
  type ScimConnectionRow,
} from '../../db/queries/scim-connections';
import { AppError } from '../../errors';
import type { AdminCaller } from '../admin/access';
import { recordAudit } from '../admin/audit-log';
import type { ScimRequestLog } from './request-log';

export const ScimAuditActions = {
  connectionCreated: 'SCIM connection created',
  tokenRotated: 'SCIM token rotated',
  connectionDeleted: 'SCIM connection deleted',
} as const;

export interface ScimConnectionService {
  list(caller: AdminCaller): Promise<ScimConnection[]>;
  create(caller: AdminCaller, body: CreateScimConnectionRequest): Promise<CreatedScimConnection>;
  rotate(caller: AdminCaller, id: string): Promise<RotatedScimToken>;
  remove(caller: AdminCaller, id: string, deleteAll: boolean): Promise<void>;
  requests(caller: AdminCaller, id: string, offset: number, limit: number): Promise<ScimRequestLogPage>;
  /** The connection a SCIM call's `Authorization: Bearer ghscim.…` proves, else null. */
  authenticate(authorization: string | undefined): Promise<ScimConnectionRow | null>;
}

/** Most provisioning connections a tenant may have. */
export const MAX_SCIM_CONNECTIONS = 10;

const notFound = () => new AppError(ProvisioningErrorCodes.connectionNotFound, 404, 'Provisioning connection not found');
const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
const sourceOf = (s: string): ScimSource => ((ScimSources as readonly string[]).includes(s) ? (s as ScimSource) : 'other');

function newToken(id: string): { token: string; hash: string } {
  const secret = newSecret();
  return { token: `${SCIM_TOKEN_PREFIX}${id}.${secret}`, hash: sha256(secret) };
}

export function createScimConnectionService(deps: { db: Db; clock: Clock; config: Pick<Config, 'publicUrl'>; requestLog: ScimRequestLog }): ScimConnectionService {
  const { db, clock, requestLog } = deps;
  const baseUrl = `${deps.config.publicUrl.replace(/\/+$/, '')}${ProvisioningPaths.scimBase}`;

  async function own(caller: AdminCaller, id: string): Promise<ScimConnectionRow> {
    const row = await findTenantScimConnection(db, caller.tenantId, id);
    if (!row) throw notFound();
    return row;
  }

  return {
    async list(caller) {
      const rows = await listScimConnections(db, caller.tenantId);
      const counts = await scimResourceCounts(db, rows.map((r) => r.id));
      return rows.map((r) => ({
        id: r.id,
        source: sourceOf(r.source),
        createdAt: iso(r.created_at)!,
        rotatedAt: iso(r.rotated_at),
        usersCount: counts.get(r.id)?.users ?? 0,
        groupsCount: counts.get(r.id)?.groups ?? 0,
        baseUrl,
      }));
    },

    async create(caller, body) {
      if ((await listScimConnections(db, caller.tenantId)).length >= MAX_SCIM_CONNECTIONS) {
        throw new AppError(ProvisioningErrorCodes.tooManyConnections, 409, `A tenant can have at most ${MAX_SCIM_CONNECTIONS} provisioning connections: delete one first`);
      }
      const id = newId();
      const now = clock.now();
      const { token, hash } = newToken(id);
      await db.transaction().execute(async (trx) => {
        await insertScimConnection(trx, { id, tenant_id: caller.tenantId, source: body.source, token_hash: hash, created_by: caller.userId, created_at: now, rotated_at: null });
        await recordAudit(trx, caller, { action: ScimAuditActions.connectionCreated, description: `SCIM provisioning connection (${body.source}) created`, json: { connectionId: id, source: body.source } }, now);
      });
      return { id, source: body.source, token, createdAt: iso(now)!, baseUrl };
    },

    async rotate(caller, id) {
      const row = await own(caller, id);
      const now = clock.now();
      const { token, hash } = newToken(row.id);
      await db.transaction().execute(async (trx) => {
        await updateScimConnectionToken(trx, row.id, hash, now);
        await recordAudit(trx, caller, { action: ScimAuditActions.tokenRotated, description: `Token of the SCIM provisioning connection (${row.source}) rotated`, severity: 'High', json: { connectionId: row.id, before: { rotatedAt: iso(row.rotated_at) }, after: { rotatedAt: iso(now) } } }, now);
      });
      return { id: row.id, token, rotatedAt: iso(now)! };
    },

    async remove(caller, id, deleteAll) {
      const row = await own(caller, id);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        let removedUsers = 0;
        let removedGroups = 0;
        if (deleteAll) {
          for (const groupId of await scimResourceIdsOfConnection(trx, row.id, 'Group')) {
            await deleteGroup(trx, caller.tenantId, groupId);
            removedGroups += 1;
          }
          for (const { userId, createdAccount } of await scimUsersOfConnection(trx, row.id)) {
            await revokeTenantSessions(trx, caller.tenantId, userId, now);
            await removeMembership(trx, caller.tenantId, userId);
            // A linked account (it existed before SCIM) loses this membership only.
            if (createdAccount && (await countMemberships(trx, userId)) === 0) await deleteUserAccount(trx, userId);
            removedUsers += 1;
          }
        } else {
          await releaseScimResources(trx, caller.tenantId, row.id);
        }
        await deleteScimConnection(trx, row.id);
        await recordAudit(
          trx,
          caller,
          {
            action: ScimAuditActions.connectionDeleted,
            description: deleteAll ? `SCIM provisioning connection (${row.source}) deleted with its ${removedUsers} users and ${removedGroups} groups` : `SCIM provisioning connection (${row.source}) deleted; its users and groups are kept`,
            severity: 'High',
            json: { connectionId: row.id, source: row.source, deleteAll, removedUsers, removedGroups },
          },
          now,
        );
      });
    },

    async requests(caller, id, offset, limit) {
      const row = await own(caller, id);
      return requestLog.page(row.id, offset, limit);
    },

    async authenticate(authorization) {
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
      if (!bearer?.startsWith(SCIM_TOKEN_PREFIX)) return null;
      const [id = '', secret = '', ...rest] = bearer.slice(SCIM_TOKEN_PREFIX.length).split('.');
      const row = id && id.length <= 64 && rest.length === 0 ? await findScimConnectionById(db, id) : undefined;
      // Hashed and compared in constant time; an unknown id still hashes and compares, so timing tells nothing.
      const ok = safeEqual(row?.token_hash ?? sha256(''), sha256(secret));
      return ok && row && secret ? row : null;
    },
  };
}
