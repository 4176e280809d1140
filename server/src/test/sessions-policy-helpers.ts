/** Helpers of the sessions policy tests: a policy body, generous rate limits, a tenant's live sessions. */
import type { SessionsPolicyBody } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../app';

/** A sessions policy body: each setting active when its value is given (seconds; sessions). */
export function sessionsPolicy(p: { idle?: number; relogin?: number; max?: number } = {}): SessionsPolicyBody {
  return {
    sessionIdleTimeoutConfiguration: { isActive: p.idle !== undefined, timeout: p.idle ?? 1800 },
    sessionTimeoutConfiguration: { isActive: p.relogin !== undefined, timeout: p.relogin ?? 86_400 },
    sessionConcurrentConfiguration: { isActive: p.max !== undefined, maxSessions: p.max ?? 10 },
  };
}

/** Rate limits these tests never reach (they sign in and refresh many times from one address). */
export const RATE_LIMITS = {
  RATE_LIMIT_SIGNUP_PER_IP: '1000/3600',
  RATE_LIMIT_LOGIN_PER_IP: '1000/600',
  RATE_LIMIT_ACTIVATION_PER_IP: '1000/600',
  RATE_LIMIT_REFRESH_PER_IP: '1000/600',
  RATE_LIMIT_PASSWORDLESS_PER_IP: '1000/600',
};

/** Ids of the tenant's live sessions (not revoked, not expired at `now`), sorted. */
export async function liveSessionIds(server: GatehouseServer, tenantId: string, now: number): Promise<string[]> {
  const rows = await server.db.selectFrom('sessions').select('id').where('tenant_id', '=', tenantId).where('revoked_at', 'is', null).where('expires_at', '>', now).execute();
  return rows.map((r) => r.id).sort();
}
