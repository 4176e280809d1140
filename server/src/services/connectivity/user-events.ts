/**
 * Events about a user that have no audit record of their own (sign-up, activation, profile edits,
 * accounts made at an SSO or social sign-in): raised by the service that makes the change, in its
 * transaction, in the tenant(s) whose admins care.
 */
import type { EventData } from '@gatehouse/shared/wire';
import type { Db } from '../../db';
import { tenantIdsOfUser } from '../../db/queries/connectivity-queue';
import { raiseEvent, type EventActor } from './events';

type UserSource = EventData<'user.created'>['source'];

/** `user.created` in `tenantId`: an account became a member there. */
export async function raiseUserCreated(
  db: Db,
  input: { tenantId: string; user: { id: string; email: string | null; name: string | null }; source: UserSource; actor: EventActor | null },
  now: number,
): Promise<void> {
  const { user } = input;
  await raiseEvent(db, { tenantId: input.tenantId, key: 'user.created', data: { userId: user.id, email: user.email, name: user.name, source: input.source }, actor: input.actor }, now);
}

/** `user.activated` (or `user.updated`) in every tenant the user belongs to, the user acting. */
export async function raiseInUserTenants(
  db: Db,
  user: { id: string; email: string | null },
  event: { key: 'user.activated' } | { key: 'user.updated'; changedFields: string[] },
  actor: EventActor | null,
  now: number,
  onlyTenantId?: string,
): Promise<void> {
  const tenants = (await tenantIdsOfUser(db, user.id)).filter((id) => !onlyTenantId || id === onlyTenantId);
  const data = event.key === 'user.updated' ? { userId: user.id, email: user.email, changedFields: event.changedFields } : { userId: user.id, email: user.email };
  for (const tenantId of tenants) await raiseEvent(db, { tenantId, key: event.key, data, actor }, now);
}
