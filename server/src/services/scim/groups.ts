/**
 * SCIM Groups of a tenant (RFC 7643 section 4.2): a group of the tenant managed by SCIM (managedBy
 * scim2, read-only in the admin API), its displayName unique in the tenant (409 uniqueness, also
 * against the tenant's own groups), its members users of the tenant (another id is invalidValue).
 * Membership changes come by PATCH (Entra ID, Okta) or PUT (Okta's group push). Every write bumps
 * the version (ETag), is checked against If-Match first (412) and writes an audit row.
 */
import type { Clock } from '../../clock';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { addGroupUsers, deleteGroup, findGroupByName, listGroups, insertGroup, removeGroupUsers, tenantMemberIds, updateGroup } from '../../db/queries/groups';
import { deleteScimResource, findScimResource, findScimResourceByName, insertScimResource, membersOfGroups, updateScimResource, type ScimResourceRow } from '../../db/queries/scim-resources';
import { recordAudit } from '../admin/audit-log';
import { scimActor, ScimResourceAuditActions, type ScimCaller, type ScimChange } from './context';
import { assertIfMatch, etagOf } from './etag';
import { ScimErrors } from './errors';
import { listResources, type ScimListPage, type ScimListQuery } from './list-query';
import { normalizeResource, type ResourceBody } from './normalize';
import { replaceAndPatch } from './replace-patch';
import { diffAttributes } from './request-log';
import { groupColumns, toScimGroup, type GroupColumns, type ScimGroupRecord } from './resources';
import { GROUP_RESOURCE } from './schemas';
import type { ScimResult } from './users';

export interface ScimGroupService {
  list(caller: ScimCaller, query: ScimListQuery): Promise<ScimListPage>;
  get(caller: ScimCaller, id: string): Promise<ScimResult>;
  create(caller: ScimCaller, body: unknown): Promise<ScimResult>;
  replace(caller: ScimCaller, id: string, body: unknown, ifMatch: string | undefined): Promise<ScimResult>;
  patch(caller: ScimCaller, id: string, body: unknown, ifMatch: string | undefined): Promise<ScimResult>;
  remove(caller: ScimCaller, id: string, ifMatch: string | undefined): Promise<ScimChange>;
}

const notFound = (id: string) => ScimErrors.notFound(`Group ${id} not found`);
const MAX_NAME = 200;

/** What the request log shows of a group: its name, externalId and member ids. */
const logged = (cols: GroupColumns) => ({ displayName: cols.displayName, externalId: cols.externalId, members: cols.memberIds });

export function createScimGroupService(deps: { db: Db; clock: Clock; /** Most groups a tenant may have for a filter SQL cannot narrow (FILTER_SCAN_LIMIT). */ scanLimit?: number }): ScimGroupService {
  const { db, clock } = deps;

  /** The records of these rows, in their order; a row whose group is gone (deleted another way) is no SCIM group. */
  async function recordsOf(tenantId: string, rows: ScimResourceRow[], trx: Db = db): Promise<ScimGroupRecord[]> {
    const ids = rows.map((r) => r.resource_id);
    const groups = new Map((await listGroups(trx, tenantId, ids)).map((g) => [g.id, g]));
    const members = await membersOfGroups(trx, ids);
    return rows.flatMap((row) => {
      const group = groups.get(row.resource_id);
      if (!group) return [];
      return [{ id: group.id, displayName: group.name, externalId: row.external_id, members: members.get(group.id) ?? [], created: Number(row.created_at), lastModified: Number(row.updated_at), version: row.version }];
    });
  }

  async function load(caller: ScimCaller, id: string, trx: Db = db): Promise<ScimGroupRecord> {
    const row = id.length <= 64 ? await findScimResource(trx, caller.tenantId, 'Group', id) : undefined;
    const record = row ? (await recordsOf(caller.tenantId, [row], trx))[0] : undefined;
    if (!record) throw notFound(id);
    return record;
  }

  const result = (caller: ScimCaller, record: ScimGroupRecord, change: ScimChange | null): ScimResult => ({ resource: toScimGroup(record, caller.baseUrl), etag: etagOf(record.version), change });

  async function checked(trx: Db, caller: ScimCaller, body: ResourceBody, exceptId: string | null): Promise<GroupColumns> {
    const cols = groupColumns(body);
    if (cols.displayName.length > MAX_NAME) throw ScimErrors.invalidValue(`displayName is longer than ${MAX_NAME} characters`);
    const byName = await findScimResourceByName(trx, caller.tenantId, 'Group', cols.displayName);
    const own = await findGroupByName(trx, caller.tenantId, cols.displayName);
    if ((byName && byName.resource_id !== exceptId) || (own && own.id !== exceptId)) throw ScimErrors.uniqueness(`displayName ${cols.displayName} is already taken in this tenant`);
    const known = new Set(await tenantMemberIds(trx, caller.tenantId, cols.memberIds));
    const unknown = cols.memberIds.find((id) => !known.has(id));
    if (unknown !== undefined) throw ScimErrors.invalidValue(`members: ${unknown} is not a user of this tenant`);
    return cols;
  }

  async function write(caller: ScimCaller, id: string, next: ResourceBody, ifMatch: string | undefined, kind: 'PUT' | 'PATCH'): Promise<ScimResult> {
    const now = clock.now();
    const done = await db.transaction().execute(async (trx) => {
      const fresh = await load(caller, id, trx);
      assertIfMatch(ifMatch, etagOf(fresh.version));
      const cols = await checked(trx, caller, next, fresh.id);
      const before = fresh.members.map((m) => m.id);
      const had = new Set(before);
      const has = new Set(cols.memberIds);
      const added = cols.memberIds.filter((m) => !had.has(m));
      const removed = before.filter((m) => !has.has(m));
      if (cols.displayName !== fresh.displayName) await updateGroup(trx, caller.tenantId, fresh.id, { name: cols.displayName, updated_at: now });
      await addGroupUsers(trx, fresh.id, added, now);
      await removeGroupUsers(trx, fresh.id, removed);
      await updateScimResource(trx, caller.tenantId, 'Group', fresh.id, { attributes: JSON.stringify(next), name_key: cols.displayName.toLowerCase(), external_id: cols.externalId, version: fresh.version + 1, updated_at: now });
      const diff = diffAttributes({ displayName: fresh.displayName, externalId: fresh.externalId, members: before }, logged(cols));
      await recordAudit(
        trx,
        scimActor(caller),
        { action: ScimResourceAuditActions.groupUpdated, description: `Group ${cols.displayName} updated by SCIM (${caller.connection.source}, ${kind})`, json: { connectionId: caller.connection.id, groupId: fresh.id, addedUserIds: added, removedUserIds: removed } },
        now,
      );
      return { record: await load(caller, fresh.id, trx), diff };
    });
    return result(caller, done.record, { resourceType: 'Group', resourceId: id, diff: done.diff });
  }

  const updates = replaceAndPatch<ScimGroupRecord, ScimResult>({
    resource: GROUP_RESOURCE,
    load: (caller, id) => load(caller, id),
    toScim: toScimGroup,
    write: (caller, current, next, ifMatch, kind) => write(caller, current.id, next, ifMatch, kind),
    unchanged: (caller, current) => result(caller, current, null),
  });

  return {
    async list(caller, query) {
      return listResources({ db, scanLimit: deps.scanLimit }, caller.tenantId, GROUP_RESOURCE, query, async (rows) => (await recordsOf(caller.tenantId, rows)).map((r) => toScimGroup(r, caller.baseUrl)));
    },

    async get(caller, id) {
      return result(caller, await load(caller, id), null);
    },

    async create(caller, body) {
      const attributes = normalizeResource(body, GROUP_RESOURCE);
      const now = clock.now();
      const id = newId();
      const cols = await db.transaction().execute(async (trx) => {
        const c = await checked(trx, caller, attributes, null);
        await insertGroup(trx, { id, tenant_id: caller.tenantId, name: c.displayName, description: null, color: null, metadata: null, managed_by: 'scim2', created_at: now, updated_at: now });
        await addGroupUsers(trx, id, c.memberIds, now);
        await insertScimResource(trx, { connection_id: caller.connection.id, tenant_id: caller.tenantId, resource_type: 'Group', resource_id: id, name_key: c.displayName.toLowerCase(), external_id: c.externalId, attributes: JSON.stringify(attributes), version: 1, created_at: now, updated_at: now });
        await recordAudit(trx, scimActor(caller), { action: ScimResourceAuditActions.groupProvisioned, description: `Group ${c.displayName} provisioned by SCIM (${caller.connection.source})`, json: { connectionId: caller.connection.id, groupId: id, userIds: c.memberIds } }, now);
        return c;
      });
      return result(caller, await load(caller, id), { resourceType: 'Group', resourceId: id, diff: diffAttributes(null, logged(cols)) });
    },

    ...updates,

    async remove(caller, id, ifMatch) {
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        const current = await load(caller, id, trx);
        assertIfMatch(ifMatch, etagOf(current.version));
        await deleteGroup(trx, caller.tenantId, id);
        await deleteScimResource(trx, caller.tenantId, 'Group', id);
        await recordAudit(trx, scimActor(caller), { action: ScimResourceAuditActions.groupDeprovisioned, description: `Group ${current.displayName} deprovisioned by SCIM (${caller.connection.source})`, severity: 'High', json: { connectionId: caller.connection.id, groupId: id, name: current.displayName } }, now);
        return { resourceType: 'Group' as const, resourceId: id, diff: diffAttributes({ displayName: current.displayName, externalId: current.externalId, members: current.members.map((m) => m.id) }, null) };
      });
    },
  };
}
