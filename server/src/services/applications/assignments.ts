/**
 * Assignment of the vendor's applications to a tenant's users (issue 15; seed 001 sections 3
 * "Application: id, accessType, userIds", 7 "user app ids, app data, tenant apps, users of apps,
 * assign or unassign (userId, appIds, tenantId)"), by the tenant's admins.
 *
 * - Every application of the vendor may be given to the users of any tenant ("tenant apps").
 * - Assignments are per tenant: the caller's (the token's, or `?tenantId=`). The body's `tenantId`
 *   must name that tenant, so a call never means one tenant and acts in another.
 * - The user must be a member of the tenant (404 otherwise, as for users of other tenants); every
 *   application named must exist (400 naming appIds).
 * - An assign or unassign that changes something writes one audit row with the user's applications
 *   before and after; one that changes nothing writes nothing.
 */
import { ErrorCodes, type ApplicationAccessType, type ApplicationData, type ApplicationUsers, type AssignApplicationsBody, type TenantApplications, type UserApplicationIds } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { listMemberships } from '../../db/queries/admin-users';
import { deleteAssignments, findApplications, insertAssignments, listApplications, listAssignments, listUserApplicationIds } from '../../db/queries/applications';
import { hasMembership } from '../../db/queries/tenants';
import { AppError, Errors } from '../../errors';
import { assertManageable, type AdminCaller } from '../admin/access';
import { AuditActions, recordAudit } from '../admin/audit-log';
import type { ApplicationService } from './applications';

export interface AssignmentService {
  tenantApps(caller: AdminCaller): Promise<TenantApplications>;
  /** "App data" of these applications (every one without ids); unknown ids are left out. */
  apps(caller: AdminCaller, ids: string[] | undefined): Promise<ApplicationData[]>;
  userApps(caller: AdminCaller, userId: string): Promise<UserApplicationIds>;
  /** Per user of the tenant among `userIds` (others are left out, as unknown ids). */
  usersApps(caller: AdminCaller, userIds: string[]): Promise<UserApplicationIds[]>;
  /** Per application (every one without ids): the tenant's users assigned to it. */
  appsUsers(caller: AdminCaller, appIds: string[] | undefined): Promise<ApplicationUsers[]>;
  assign(caller: AdminCaller, body: AssignApplicationsBody): Promise<UserApplicationIds>;
  unassign(caller: AdminCaller, body: AssignApplicationsBody): Promise<UserApplicationIds>;
}

const userNotFound = () => Errors.notFound('User not found in this account');

export function createAssignmentService(deps: { db: Db; clock: Clock; applications: Pick<ApplicationService, 'list'> }): AssignmentService {
  const { db, clock, applications } = deps;

  async function member(caller: AdminCaller, userId: string): Promise<void> {
    if (!(await hasMembership(db, userId, caller.tenantId))) throw userNotFound();
  }

  /** Checks the body against the caller's tenant, the user and the applications. */
  async function checked(caller: AdminCaller, body: AssignApplicationsBody): Promise<void> {
    if (body.tenantId !== caller.tenantId) {
      throw new AppError(ErrorCodes.validation, 400, 'tenantId: must be the account this call acts in (name another account with ?tenantId=)', { field: 'tenantId' });
    }
    await member(caller, body.userId);
    // Nobody changes the access of a user above them (a super user, or a holder of permissions the
    // caller lacks); their own applications they may change.
    if (body.userId !== caller.userId) await assertManageable(db, caller, body.userId, 'change the applications of');
    const found = new Set((await findApplications(db, body.appIds)).map((a) => a.id));
    const missing = body.appIds.filter((id) => !found.has(id));
    if (missing.length) throw new AppError(ErrorCodes.validation, 400, `appIds: no application ${missing.map((id) => JSON.stringify(id)).join(', ')}`, { field: 'appIds', missing });
  }

  async function change(caller: AdminCaller, body: AssignApplicationsBody, kind: 'assign' | 'unassign'): Promise<UserApplicationIds> {
    await checked(caller, body);
    return db.transaction().execute(async (trx) => {
      const before = await listUserApplicationIds(trx, caller.tenantId, body.userId);
      if (kind === 'assign') await insertAssignments(trx, caller.tenantId, body.userId, body.appIds, clock.now());
      else await deleteAssignments(trx, caller.tenantId, body.userId, body.appIds);
      const after = await listUserApplicationIds(trx, caller.tenantId, body.userId);
      const changed = kind === 'assign' ? after.filter((id) => !before.includes(id)) : before.filter((id) => !after.includes(id));
      if (changed.length) {
        await recordAudit(
          trx,
          caller,
          {
            action: kind === 'assign' ? AuditActions.userApplicationsAssigned : AuditActions.userApplicationsUnassigned,
            description: `User ${body.userId} ${kind === 'assign' ? 'assigned to' : 'unassigned from'} ${changed.length} application${changed.length === 1 ? '' : 's'}`,
            json: { userId: body.userId, appIds: changed, old: before, new: after },
          },
          clock.now(),
        );
      }
      return { userId: body.userId, appIds: after };
    });
  }

  return {
    async tenantApps(caller) {
      return { tenantId: caller.tenantId, appIds: (await listApplications(db)).map((a) => a.id) };
    },

    async apps(_caller, ids) {
      const all = await applications.list();
      const wanted = ids ? all.filter((a) => ids.includes(a.id)) : all;
      return wanted.map(({ id, name, url, logo, accessType }) => ({ id, name, url, logo, accessType }));
    },

    async userApps(caller, userId) {
      await member(caller, userId);
      return { userId, appIds: await listUserApplicationIds(db, caller.tenantId, userId) };
    },

    async usersApps(caller, userIds) {
      const members = new Set((await listMemberships(db, caller.tenantId, userIds)).map((m) => m.user_id));
      const rows = await listAssignments(db, caller.tenantId, { userIds: [...members] });
      return userIds.filter((id) => members.has(id)).map((userId) => ({ userId, appIds: rows.filter((r) => r.user_id === userId).map((r) => r.app_id) }));
    },

    async appsUsers(caller, appIds) {
      const apps = appIds ? await findApplications(db, appIds) : await listApplications(db);
      const rows = await listAssignments(db, caller.tenantId, { appIds: apps.map((a) => a.id) });
      return apps.map((a) => ({ id: a.id, accessType: a.access_type as ApplicationAccessType, userIds: rows.filter((r) => r.app_id === a.id).map((r) => r.user_id) }));
    },

    assign: (caller, body) => change(caller, body, 'assign'),
    unassign: (caller, body) => change(caller, body, 'unassign'),
  };
}
