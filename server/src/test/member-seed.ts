/** Members written straight to the tables for the users-list tests (the triggers fill the read model and the counts). */
import type { GatehouseServer } from '../app';

const DAY = 86_400_000;
const NAMES = ['ada', 'Ada', 'Émile', 'zoë', 'Bob', 'bob', 'Carol', 'dave', 'Eve', 'Zed'];

export interface MemberSeed {
  /** The domain of the members' emails. */
  domain: string;
  /** Whether member `i` is a phone-only account (no email): the dialects sort null emails at opposite ends. */
  phoneOnly?: (i: number) => boolean;
  /** How many days ago member `i` was created. */
  createdDaysAgo: (i: number) => number;
  /** How many days ago member `i` last signed in, or null for never. */
  lastLoginDaysAgo: (i: number) => number | null;
}

/**
 * `n` members of the tenant with ids `<prefix>-0000`...: repeated names (ties broken by user id, in both
 * directions), every 2nd verified, every 3rd breached, every 4th with MFA, dates and emails as `seed` says.
 */
export async function seedMembers(server: GatehouseServer, tenantId: string, n: number, prefix: string, seed: MemberSeed): Promise<void> {
  const now = Date.now();
  const phoneOnly = seed.phoneOnly ?? (() => false);
  const users = Array.from({ length: n }, (_, i) => {
    const lastLogin = seed.lastLoginDaysAgo(i);
    return {
      id: `${prefix}-${String(i).padStart(4, '0')}`,
      email: phoneOnly(i) ? null : `${prefix}-${(i * 7919) % n}@${seed.domain}`,
      username: null,
      name: `${NAMES[i % NAMES.length]} ${i % 4}`,
      password_hash: null,
      verified: i % 2,
      super_user: 0,
      disabled: 0,
      phone_number: phoneOnly(i) ? `+1555000${String(i).padStart(4, '0')}` : null,
      address: null,
      job_title: null,
      profile_picture_id: null,
      metadata: null,
      last_tenant_id: tenantId,
      created_at: now - seed.createdDaysAgo(i) * DAY,
      last_login: lastLogin === null ? null : now - lastLogin * DAY,
      is_breached_password: i % 3 === 0 ? 1 : 0,
    };
  });
  await server.db.insertInto('users').values(users).execute();
  await server.db.insertInto('user_tenants').values(users.map((u) => ({ user_id: u.id, tenant_id: tenantId, created_at: u.created_at }))).execute();
  const devices = users.filter((_, i) => i % 4 === 0).map((u) => ({ id: `dev-${u.id}`, user_id: u.id, type: 'authenticator', status: 'active', secret: null, email: null, last_used_step: null, created_at: now, verified_at: now }));
  await server.db.insertInto('mfa_devices').values(devices).execute();
}
