/**
 * SCIM Users of a tenant (RFC 7643 section 4.1, RFC 7644 section 3): what an identity provider
 * provisions through a connection. The connection's token alone decides the tenant, so every read
 * and write here is within `caller.tenantId`.
 *
 * Rules (see resources.ts for the mapping of attributes to columns):
 * - userName is unique per tenant, any case (409 uniqueness); so is externalId.
 * - POST of an address that already has an account links it (`created_account` 0): a member of the
 *   tenant not yet provisioned is taken over (its membership becomes managedBy scim2; audited High),
 *   an account of no membership here joins the tenant, the latter only when the address's domain is
 *   one of the tenant's validated SSO domains (else 409: invite the user, or validate the domain).
 *   Never a super user, nor a member holding a permission the connection's creator does not hold
 *   (checked against the creator's permissions now; a creator gone refuses). Taking over a member an
 *   admin disabled does not enable it (the admin's disable wins until SCIM sets active=true).
 * - Of a linked member, only what grants access again is checked by that rule: active going from
 *   false to true (403 when refused). Disabling it (active=false), DELETE, and changes of SCIM's own
 *   record are never refused, whatever the member or the creator became since: offboarding always works.
 * - SCIM writes the account's own fields (name, email, job title) only of accounts it created, and
 *   only while this tenant is their only one; of a linked account it manages the membership alone
 *   (active, groups), and keeps the attributes the identity provider wrote in its own record.
 * - Joining the tenant passes its email-domain restrictions and its plan's seat limit (issue 13).
 * - `active` is the membership: false disables it (no sign-in to the tenant, its sessions there
 *   revoked at once); true enables it again (a seat is needed). Unset (a PUT without it, a PATCH
 *   removing it) is answered absent and means active.
 * - An account SCIM creates is activated (verified) only when its address's domain is one of the
 *   tenant's validated SSO domains: there the tenant's identity provider vouches for the person and
 *   its address, as an SSO assertion does. Any other address is created unverified (the person
 *   activates through SSO or the activation / reset flow). An address SCIM changes is verified by
 *   the same rule, and the change revokes the account's sessions and its open reset and activation links.
 * - DELETE removes the membership, and the account too when SCIM created it and it is in no other tenant.
 * - Every write bumps the version (the ETag) and writes an audit row; If-Match is checked first (412).
 */
import type { Clock } from '../../clock';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { countMemberships, deleteUserAccount, listMemberships, removeMembership, replaceUserRoles, revokeTenantSessions, updateMembershipState } from '../../db/queries/admin-users';
import { defaultRoleIds } from '../../db/queries/invitations';
import {
  deleteScimResource,
  findScimResource,
  findScimResourceByName,
  groupsOfUsers,
  insertScimResource,
  listScimResources,
  setMembershipManagedBy,
  updateScimResource,
  type ScimResourceRow,
} from '../../db/queries/scim-resources';
import { cancelEmailChanges } from '../../db/queries/email-changes';
import { invalidateUserTokens } from '../../db/queries/one-time-tokens';
import { revokeUserSessions } from '../../db/queries/sessions';
import { findConfigurationForDomain } from '../../db/queries/sso-configurations';
import { addUserToTenant, hasMembership, isMember } from '../../db/queries/tenants';
import { findUserByEmail, findUserById, insertUser, updateUser } from '../../db/queries/users';
import { recordAudit } from '../admin/audit-log';
import { covers, grantsOf } from '../admin/permissions';
import { RESET_PASSWORD } from '../recovery/recovery';
import type { EntitlementsService } from '../entitlements';
import type { EmailDomainRestrictionService } from '../security/email-domain-restrictions';
import { scimActor, ScimResourceAuditActions, type ScimCaller, type ScimChange } from './context';
import { assertIfMatch, etagOf } from './etag';
import { ScimErrors } from './errors';
import type { JsonObject } from './filter-match';
import { listResources, type ScimListPage, type ScimListQuery } from './list-query';
import { normalizeResource, type ResourceBody } from './normalize';
import { replaceAndPatch } from './replace-patch';
import { diffAttributes } from './request-log';
import { toScimUser, userColumns, type ScimUserRecord, type UserColumns } from './resources';
import { USER_RESOURCE } from './schemas';

/** One resource as answered, its ETag, and what the write changed (null for reads and no-op writes). */
export interface ScimResult {
  resource: JsonObject;
  etag: string;
  change: ScimChange | null;
}

export interface ScimUserService {
  list(caller: ScimCaller, query: ScimListQuery): Promise<ScimListPage>;
  get(caller: ScimCaller, id: string): Promise<ScimResult>;
  create(caller: ScimCaller, body: unknown): Promise<ScimResult>;
  replace(caller: ScimCaller, id: string, body: unknown, ifMatch: string | undefined): Promise<ScimResult>;
  patch(caller: ScimCaller, id: string, body: unknown, ifMatch: string | undefined): Promise<ScimResult>;
  remove(caller: ScimCaller, id: string, ifMatch: string | undefined): Promise<ScimChange>;
}

export interface ScimUserDeps {
  db: Db;
  clock: Clock;
  seats?: Pick<EntitlementsService, 'assertSeatsAvailable'>;
  emailDomains?: Pick<EmailDomainRestrictionService, 'assertAllowed'>;
  /** Most users a tenant may have for a filter SQL cannot narrow (FILTER_SCAN_LIMIT). */
  scanLimit?: number;
}

const notFound = (id: string) => ScimErrors.notFound(`User ${id} not found`);
const ACTIVATION = 'activation';

/** Whether the address's domain is one of the tenant's validated SSO domains (its identity provider vouches for it). */
async function vouchedFor(db: Db, tenantId: string, email: string | null): Promise<boolean> {
  const domain = email?.split('@')[1];
  if (!domain) return false;
  const config = await findConfigurationForDomain(db, domain.toLowerCase());
  return config?.tenant_id === tenantId;
}

/**
 * The rule of assertManageable for a SCIM write that grants access (linking an account, or enabling
 * a linked member again): never a super user, never someone holding a permission the connection's
 * creator does not hold in the tenant now (a creator gone refuses linking). Taking access away
 * (active=false, DELETE) is never refused: the identity provider's offboarding must always work.
 */
async function assertLinkable(db: Db, caller: ScimCaller, userId: string, email: string | null, linking: boolean, now: number): Promise<void> {
  const target = await grantsOf(db, userId, caller.tenantId);
  if (target.superUser) throw ScimErrors.forbidden(`The account with email ${email ?? userId} is an operator account and cannot be provisioned by SCIM`);
  const creatorId = caller.connection.created_by;
  const creatorUser = creatorId !== null ? await findUserById(db, creatorId) : undefined;
  // An operator (super user) may have made it without being a member; anyone else must still be one
  // as the admin guard counts it (enabled, not expired): a membership an admin disabled is gone.
  const creatorLive = creatorUser !== undefined && creatorUser.disabled !== 1 && (creatorUser.super_user === 1 || (await isMember(db, creatorUser.id, caller.tenantId, now)));
  // A creator gone holds nothing: no account is linked any more, and a linked one holding any permission is no longer SCIM's to enable again.
  const creator = creatorLive ? await grantsOf(db, creatorUser.id, caller.tenantId) : { superUser: false, keys: [] as string[] };
  if (!creatorLive && linking) throw ScimErrors.forbidden('The admin who created this provisioning connection is no longer in the tenant: an existing account cannot be linked; create a new connection');
  if (creator.superUser) return;
  if (target.keys.some((key) => !covers(creator.keys, key))) {
    throw ScimErrors.forbidden(`The user with email ${email ?? userId} holds permissions the creator of this provisioning connection does not hold, and cannot be provisioned by SCIM`);
  }
}

export function createScimUserService(deps: ScimUserDeps): ScimUserService {
  const { db, clock } = deps;

  async function recordsOf(tenantId: string, rows: ScimResourceRow[], trx: Db = db): Promise<ScimUserRecord[]> {
    const ids = rows.map((r) => r.resource_id);
    const memberships = new Map((await listMemberships(trx, tenantId, ids)).map((m) => [m.user_id, m]));
    const groups = await groupsOfUsers(trx, tenantId, ids);
    // A row whose membership is gone (the account was deleted another way) is no longer a SCIM user.
    return rows.filter((r) => memberships.has(r.resource_id)).map((r) => ({
      id: r.resource_id,
      attributes: JSON.parse(r.attributes) as ResourceBody,
      active: memberships.get(r.resource_id)?.disabled_at === null,
      groups: groups.get(r.resource_id) ?? [],
      created: Number(r.created_at),
      lastModified: Number(r.updated_at),
      version: r.version,
      createdAccount: Number(r.created_account) === 1,
    }));
  }

  async function load(caller: ScimCaller, id: string, trx: Db = db): Promise<ScimUserRecord> {
    const row = id.length <= 64 ? await findScimResource(trx, caller.tenantId, 'User', id) : undefined;
    const record = row ? (await recordsOf(caller.tenantId, [row], trx))[0] : undefined;
    if (!record) throw notFound(id);
    return record;
  }

  const result = (caller: ScimCaller, record: ScimUserRecord, change: ScimChange | null): ScimResult => ({ resource: toScimUser(record, caller.baseUrl), etag: etagOf(record.version), change });

  async function assertUnique(trx: Db, caller: ScimCaller, cols: UserColumns, exceptId: string | null): Promise<void> {
    let byName = await findScimResourceByName(trx, caller.tenantId, 'User', cols.userName);
    // A record whose membership is gone (left behind before memberships took their record with them) holds no userName.
    if (byName && !(await hasMembership(trx, byName.resource_id, caller.tenantId))) {
      await deleteScimResource(trx, caller.tenantId, 'User', byName.resource_id);
      byName = undefined;
    }
    if (byName && byName.resource_id !== exceptId) throw ScimErrors.uniqueness(`userName ${cols.userName} is already taken in this tenant`);
    if (cols.externalId) {
      const byExternal = await listScimResources(trx, caller.tenantId, 'User', { column: 'external_id', value: cols.externalId });
      if (byExternal.some((r) => r.resource_id !== exceptId)) throw ScimErrors.uniqueness(`externalId ${cols.externalId} is already taken in this tenant`);
    }
  }

  /**
   * The account's own fields, only of an account SCIM created and while this tenant is its only one;
   * an address another account holds is a uniqueness error. A new address is verified only in a
   * validated SSO domain of the tenant, and ends the account's sessions and its reset and activation links.
   */
  async function writeAccount(trx: Db, caller: ScimCaller, userId: string, cols: UserColumns, now: number): Promise<void> {
    if ((await countMemberships(trx, userId)) !== 1) return;
    const user = await findUserById(trx, userId);
    if (!user || user.super_user === 1) return;
    const emailChanged = cols.email !== null && cols.email !== user.email;
    if (emailChanged) {
      const holder = await findUserByEmail(trx, cols.email!);
      if (holder && holder.id !== userId) throw ScimErrors.uniqueness(`The email ${cols.email} belongs to another account`);
    }
    await updateUser(trx, userId, {
      ...(cols.name && cols.name !== user.name ? { name: cols.name.slice(0, 200) } : {}),
      ...(emailChanged ? { email: cols.email, verified: (await vouchedFor(trx, caller.tenantId, cols.email)) ? 1 : 0 } : {}),
      ...(cols.jobTitle !== user.job_title ? { job_title: cols.jobTitle?.slice(0, 200) ?? null } : {}),
    });
    if (emailChanged) {
      // Sessions, reset and activation links were made for the old address: none outlives the change.
      await revokeUserSessions(trx, userId, now);
      await invalidateUserTokens(trx, userId, RESET_PASSWORD, now);
      await invalidateUserTokens(trx, userId, ACTIVATION, now);
      await cancelEmailChanges(trx, userId, now);
    }
  }

  /** Applies `active` to the membership: off revokes the tenant's sessions at once; on needs a seat. */
  async function writeActive(trx: Db, caller: ScimCaller, userId: string, was: boolean, active: boolean, now: number): Promise<void> {
    if (was === active) return;
    if (active) await deps.seats?.assertSeatsAvailable(caller.tenantId, 1, { joiningUserId: userId, trx });
    await updateMembershipState(trx, caller.tenantId, userId, { disabled_at: active ? null : now });
    if (!active) await revokeTenantSessions(trx, caller.tenantId, userId, now);
  }

  async function write(caller: ScimCaller, current: ScimUserRecord, next: ResourceBody, ifMatch: string | undefined, kind: 'PUT' | 'PATCH'): Promise<ScimResult> {
    const cols = userColumns(next);
    const now = clock.now();
    const updated = await db.transaction().execute(async (trx) => {
      // Read again inside the transaction: the version If-Match names must be the one written over.
      const fresh = await load(caller, current.id, trx);
      assertIfMatch(ifMatch, etagOf(fresh.version));
      await assertUnique(trx, caller, cols, fresh.id);
      if (fresh.createdAccount) await writeAccount(trx, caller, fresh.id, cols, now);
      // Of a linked account only enabling it again grants access: checked then; disabling it, or a
      // change of SCIM's own record, never is (offboarding must work whoever the member became).
      else if (!fresh.active && cols.active) await assertLinkable(trx, caller, fresh.id, cols.email, false, now);
      await writeActive(trx, caller, fresh.id, fresh.active, cols.active, now);
      // An unset `active` (a PUT without it, a PATCH that removed it) stays unset: the membership is active.
      const attributes = next.active === undefined ? next : { ...next, active: cols.active };
      await updateScimResource(trx, caller.tenantId, 'User', fresh.id, { attributes: JSON.stringify(attributes), name_key: cols.userName.toLowerCase(), external_id: cols.externalId, version: fresh.version + 1, updated_at: now });
      const diff = diffAttributes({ ...fresh.attributes, active: fresh.active }, attributes);
      await recordAudit(
        trx,
        scimActor(caller),
        { action: ScimResourceAuditActions.userUpdated, description: `${cols.userName} updated by SCIM (${caller.connection.source}, ${kind})`, severity: fresh.active && !cols.active ? 'High' : 'Info', json: { connectionId: caller.connection.id, userId: fresh.id, changed: diff ? Object.keys(diff) : [] } },
        now,
      );
      return { record: await load(caller, fresh.id, trx), diff };
    });
    return result(caller, updated.record, { resourceType: 'User', resourceId: current.id, diff: updated.diff });
  }

  const updates = replaceAndPatch<ScimUserRecord, ScimResult>({ resource: USER_RESOURCE, load: (caller, id) => load(caller, id), toScim: toScimUser, write, unchanged: (caller, current) => result(caller, current, null) });

  return {
    async list(caller, query) {
      return listResources({ db, scanLimit: deps.scanLimit }, caller.tenantId, USER_RESOURCE, query, async (rows) => (await recordsOf(caller.tenantId, rows)).map((r) => toScimUser(r, caller.baseUrl)));
    },

    async get(caller, id) {
      return result(caller, await load(caller, id), null);
    },

    async create(caller, body) {
      const attributes = normalizeResource(body, USER_RESOURCE);
      const cols = userColumns(attributes);
      await assertUnique(db, caller, cols, null);
      const existing = cols.email ? await findUserByEmail(db, cols.email) : undefined;
      const member = existing ? await hasMembership(db, existing.id, caller.tenantId) : false;
      if (existing && member && (await findScimResource(db, caller.tenantId, 'User', existing.id))) {
        throw ScimErrors.uniqueness(`The user with email ${cols.email} is already provisioned in this tenant`);
      }
      const vouched = await vouchedFor(db, caller.tenantId, cols.email);
      if (existing) {
        // Another tenant's account joins this one only when this tenant's identity provider owns its domain; which tenant holds it is not said.
        if (!member && !vouched) throw ScimErrors.uniqueness(`An account with the email ${cols.email} already exists: invite the user from the portal, or validate the email's domain for SSO`);
        await assertLinkable(db, caller, existing.id, cols.email, true, clock.now());
      }
      if (!member) {
        if (cols.email) await deps.emailDomains?.assertAllowed(caller.tenantId, cols.email);
        if (cols.active) await deps.seats?.assertSeatsAvailable(caller.tenantId, 1, existing ? { joiningUserId: existing.id } : {});
      }
      const now = clock.now();
      const userId = existing?.id ?? newId();
      const stored = await db.transaction().execute(async (trx) => {
        await assertUnique(trx, caller, cols, null);
        if (existing) await assertLinkable(trx, caller, existing.id, cols.email, true, now);
        else {
          await insertUser(trx, {
            id: userId, email: cols.email, username: null, name: (cols.name || cols.userName).slice(0, 200), password_hash: null, verified: vouched ? 1 : 0, super_user: 0, disabled: 0,
            phone_number: null, address: null, job_title: cols.jobTitle?.slice(0, 200) ?? null, profile_picture_id: null, metadata: null, last_tenant_id: caller.tenantId, created_at: now, last_login: null,
          });
        }
        if (!member) {
          if (cols.active) await deps.seats?.assertSeatsAvailable(caller.tenantId, 1, { joiningUserId: userId, trx });
          await addUserToTenant(trx, userId, caller.tenantId, now);
          await replaceUserRoles(trx, caller.tenantId, userId, await defaultRoleIds(trx, caller.tenantId));
        }
        await setMembershipManagedBy(trx, caller.tenantId, userId, 'scim2');
        const wasActive = member ? (await listMemberships(trx, caller.tenantId, [userId]))[0]?.disabled_at === null : true;
        // Taking over a member an admin disabled leaves it disabled: SCIM enables it only by a later active=true.
        const active = member && !wasActive ? false : cols.active;
        await writeActive(trx, caller, userId, wasActive, active, now);
        const kept = { ...attributes, active };
        await insertScimResource(trx, { connection_id: caller.connection.id, tenant_id: caller.tenantId, resource_type: 'User', resource_id: userId, name_key: cols.userName.toLowerCase(), external_id: cols.externalId, attributes: JSON.stringify(kept), version: 1, created_at: now, updated_at: now, created_account: existing ? 0 : 1 });
        await recordAudit(
          trx,
          scimActor(caller),
          {
            action: ScimResourceAuditActions.userProvisioned,
            description: `${cols.userName} provisioned by SCIM (${caller.connection.source})${member ? ': an existing member, now managed by SCIM' : existing ? ': an existing account, now a member managed by SCIM' : ''}`,
            // Taking over an account that existed before is the step an attack would take: High.
            severity: existing ? 'High' : 'Info',
            json: { connectionId: caller.connection.id, userId, linkedExistingAccount: Boolean(existing), createdAccount: !existing, verified: existing ? undefined : vouched, active },
          },
          now,
        );
        return kept;
      });
      const record = await load(caller, userId);
      return result(caller, record, { resourceType: 'User', resourceId: userId, diff: diffAttributes(null, stored) });
    },

    ...updates,

    async remove(caller, id, ifMatch) {
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        const current = await load(caller, id, trx);
        assertIfMatch(ifMatch, etagOf(current.version));
        await revokeTenantSessions(trx, caller.tenantId, id, now);
        await removeMembership(trx, caller.tenantId, id);
        await deleteScimResource(trx, caller.tenantId, 'User', id);
        // Only an account SCIM created goes with its last membership; a linked one keeps its account.
        const accountDeleted = current.createdAccount && (await countMemberships(trx, id)) === 0;
        // The address, for the user.deleted event, read before the account may go.
        const email = (await findUserById(trx, id))?.email ?? null;
        if (accountDeleted) await deleteUserAccount(trx, id);
        const userName = String(current.attributes.userName ?? id);
        await recordAudit(trx, scimActor(caller), { action: ScimResourceAuditActions.userDeprovisioned, description: `${userName} deprovisioned by SCIM (${caller.connection.source})`, severity: 'High', json: { connectionId: caller.connection.id, userId: id, email, accountDeleted } }, now);
        return { resourceType: 'User' as const, resourceId: id, diff: diffAttributes({ ...current.attributes, active: current.active }, null) };
      });
    },
  };
}
