/** SQL of applications (migration 030): the vendor's applications, their uploaded logos and their assignment to users per tenant. */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index';
import { changesOf } from '../patch';
import type { ApplicationLogosTable, ApplicationsTable } from '../schema-applications';

export type ApplicationRow = Selectable<ApplicationsTable>;
export type ApplicationLogoRow = Selectable<ApplicationLogosTable>;

export function listApplications(db: Db): Promise<ApplicationRow[]> {
  return db.selectFrom('applications').selectAll().orderBy('name').orderBy('id').execute();
}

export function findApplications(db: Db, ids: readonly string[]): Promise<ApplicationRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('applications').selectAll().where('id', 'in', [...ids]).orderBy('name').orderBy('id').execute();
}

export function findApplication(db: Db, id: string): Promise<ApplicationRow | undefined> {
  return db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The application a hosted-login client is linked to, if any. */
export function findApplicationByClient(db: Db, clientId: string): Promise<ApplicationRow | undefined> {
  return db.selectFrom('applications').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

export async function insertApplication(db: Db, row: Insertable<ApplicationsTable>): Promise<void> {
  await db.insertInto('applications').values(row).execute();
}

export async function updateApplication(db: Db, id: string, patch: Updateable<ApplicationsTable>): Promise<void> {
  const changes = changesOf(patch);
  if (!changes) return;
  await db.updateTable('applications').set(changes).where('id', '=', id).execute();
}

/** Deletes the application; its logos and assignments go with it (foreign keys). True when it existed. */
export async function deleteApplication(db: Db, id: string): Promise<boolean> {
  // Explicit deletes too: SQLite enforces the cascade only with foreign_keys on.
  await db.deleteFrom('application_users').where('app_id', '=', id).execute();
  await db.deleteFrom('application_logos').where('application_id', '=', id).execute();
  const result = await db.deleteFrom('applications').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertApplicationLogo(db: Db, row: Insertable<ApplicationLogosTable>): Promise<void> {
  await db.insertInto('application_logos').values(row).execute();
}

export function findApplicationLogo(db: Db, id: string): Promise<ApplicationLogoRow | undefined> {
  return db.selectFrom('application_logos').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Drops the application's uploaded logos other than `keepId` (a replaced logo's URL then answers 404). */
export async function deleteApplicationLogosExcept(db: Db, applicationId: string, keepId: string | null): Promise<void> {
  let query = db.deleteFrom('application_logos').where('application_id', '=', applicationId);
  if (keepId) query = query.where('id', '!=', keepId);
  await query.execute();
}

/** The ids of the applications the user is assigned in the tenant. */
export async function listUserApplicationIds(db: Db, tenantId: string, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('application_users').select('app_id').where('tenant_id', '=', tenantId).where('user_id', '=', userId).orderBy('app_id').execute();
  return rows.map((r) => r.app_id);
}

/** Assignments in the tenant of these users (all applications), or of these applications (all users). */
export function listAssignments(db: Db, tenantId: string, by: { userIds: readonly string[] } | { appIds?: readonly string[] }): Promise<{ app_id: string; user_id: string }[]> {
  let query = db.selectFrom('application_users').select(['app_id', 'user_id']).where('tenant_id', '=', tenantId);
  if ('userIds' in by) {
    if (by.userIds.length === 0) return Promise.resolve([]);
    query = query.where('user_id', 'in', [...by.userIds]);
  } else if (by.appIds) {
    if (by.appIds.length === 0) return Promise.resolve([]);
    query = query.where('app_id', 'in', [...by.appIds]);
  }
  return query.orderBy('app_id').orderBy('user_id').execute();
}

/** Whether the user is assigned to the application in the tenant. */
export async function isAssigned(db: Db, appId: string, tenantId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('application_users').select('app_id').where('app_id', '=', appId).where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

/** Assigns the user to the applications in the tenant; an existing assignment stays as it is. */
export async function insertAssignments(db: Db, tenantId: string, userId: string, appIds: readonly string[], now: number): Promise<void> {
  if (appIds.length === 0) return;
  await db
    .insertInto('application_users')
    .values(appIds.map((appId) => ({ app_id: appId, tenant_id: tenantId, user_id: userId, created_at: now })))
    .onConflict((oc) => oc.columns(['app_id', 'tenant_id', 'user_id']).doNothing())
    .execute();
}

export async function deleteAssignments(db: Db, tenantId: string, userId: string, appIds: readonly string[]): Promise<void> {
  if (appIds.length === 0) return;
  await db.deleteFrom('application_users').where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('app_id', 'in', [...appIds]).execute();
}
