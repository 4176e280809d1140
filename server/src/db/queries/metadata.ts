import type { Db } from '../index';

export async function findMetadata(db: Db, entityName: string): Promise<unknown | undefined> {
  const row = await db.selectFrom('metadata').select('configuration').where('entity_name', '=', entityName).executeTakeFirst();
  return row ? JSON.parse(row.configuration) : undefined;
}

/** Inserts only when missing, so an operator's edits survive restarts. */
export async function ensureMetadata(db: Db, entityName: string, configuration: unknown, now: number): Promise<void> {
  await db
    .insertInto('metadata')
    .values({ entity_name: entityName, configuration: JSON.stringify(configuration), updated_at: now })
    .onConflict((oc) => oc.column('entity_name').doNothing())
    .execute();
}
