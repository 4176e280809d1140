import type { Insertable } from 'kysely';
import type { Db } from '../index';
import type { AuditsTable } from '../schema-admin';

export async function insertAudit(db: Db, row: Insertable<AuditsTable>): Promise<void> {
  await db.insertInto('audits').values(row).execute();
}

/** A tenant's newest audit records first (the audits list of a later slice pages through these). */
export function listTenantAudits(db: Db, tenantId: string, limit: number) {
  return db.selectFrom('audits').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
