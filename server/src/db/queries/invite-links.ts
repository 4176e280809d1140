import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index';
import { changesOf } from '../patch';
import type { InviteLinksTable } from '../schema-admin';

export type InviteLinkRow = Selectable<InviteLinksTable>;

export function findInviteLink(db: Db, tenantId: string): Promise<InviteLinkRow | undefined> {
  return db.selectFrom('invite_links').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
}

export function findInviteLinkByToken(db: Db, tokenHash: string): Promise<InviteLinkRow | undefined> {
  return db.selectFrom('invite_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function insertInviteLink(db: Db, row: Insertable<InviteLinksTable>): Promise<void> {
  await db.insertInto('invite_links').values(row).execute();
}

export async function updateInviteLink(db: Db, tenantId: string, patch: Updateable<InviteLinksTable>): Promise<void> {
  const changes = changesOf(patch);
  if (!changes) return;
  await db.updateTable('invite_links').set(changes).where('tenant_id', '=', tenantId).execute();
}

export async function deleteInviteLink(db: Db, tenantId: string): Promise<number> {
  const res = await db.deleteFrom('invite_links').where('tenant_id', '=', tenantId).executeTakeFirst();
  return Number(res.numDeletedRows);
}
