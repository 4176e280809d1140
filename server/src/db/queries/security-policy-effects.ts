/**
 * Counts behind a policy's dry run (issue 12): how many of a tenant's members a policy would touch
 * once saved, read from the same columns sign-in reads. Members: every user with a membership of the
 * tenant that is not disabled or locked by an admin.
 */
import { sql } from 'kysely';
import type { Db } from '../index';

function members(db: Db, tenantId: string) {
  return db
    .selectFrom('users')
    .innerJoin('user_tenants', 'user_tenants.user_id', 'users.id')
    .where('user_tenants.tenant_id', '=', tenantId)
    .where('user_tenants.disabled_at', 'is', null)
    .where('user_tenants.admin_locked_at', 'is', null);
}

const count = async (q: { executeTakeFirst(): Promise<{ n: string | number | bigint } | undefined> }) => Number((await q.executeTakeFirst())?.n ?? 0);

/** Members of the tenant. */
export function countMembers(db: Db, tenantId: string): Promise<number> {
  return count(members(db, tenantId).select((eb) => eb.fn.countAll<number>().as('n')));
}

/** Members with no active second factor: a forced MFA policy asks them to enrol at their next sign-in. */
export function countMembersWithoutMfa(db: Db, tenantId: string): Promise<number> {
  return count(
    members(db, tenantId)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('mfa_devices').select('mfa_devices.id').whereRef('mfa_devices.user_id', '=', 'users.id').where('mfa_devices.status', '=', 'active'))))
      .select((eb) => eb.fn.countAll<number>().as('n')),
  );
}

/** Browsers of members still remembered for MFA at `now`, remembered before `rememberedBefore` (ms). */
export function countRememberedDevices(db: Db, tenantId: string, now: number, rememberedBefore: number): Promise<number> {
  return count(
    members(db, tenantId)
      .innerJoin('mfa_remembered_devices', 'mfa_remembered_devices.user_id', 'users.id')
      .where('mfa_remembered_devices.expires_at', '>', now)
      .where('mfa_remembered_devices.created_at', '<', rememberedBefore)
      .select((eb) => eb.fn.countAll<number>().as('n')),
  );
}

/** Unlocked members whose wrong passwords in a row already reach `maxAttempts`: the next wrong one locks them. */
export function countMembersAtFailures(db: Db, tenantId: string, maxAttempts: number): Promise<number> {
  return count(members(db, tenantId).where('users.locked_at', 'is', null).where('users.failed_logins', '>=', maxAttempts).select((eb) => eb.fn.countAll<number>().as('n')));
}

/** Members with a password set at or before `cutoff` (ms): expired under a rotation period ending now. */
export function countPasswordsSetBefore(db: Db, tenantId: string, cutoff: number): Promise<number> {
  return count(
    members(db, tenantId)
      .where('users.password_hash', 'is not', null)
      .where(sql<number>`coalesce(${sql.ref('users.password_changed_at')}, ${sql.ref('users.created_at')})`, '<=', cutoff)
      .select((eb) => eb.fn.countAll<number>().as('n')),
  );
}

/** Members with a password (whom password rules and history apply to at their next change). */
export function countMembersWithPassword(db: Db, tenantId: string): Promise<number> {
  return count(members(db, tenantId).where('users.password_hash', 'is not', null).select((eb) => eb.fn.countAll<number>().as('n')));
}

/** Members whose email is not verified: a policy requiring a verified email keeps them out. */
export function countUnverifiedMembers(db: Db, tenantId: string): Promise<number> {
  return count(members(db, tenantId).where('users.verified', '<>', 1).select((eb) => eb.fn.countAll<number>().as('n')));
}
