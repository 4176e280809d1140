/**
 * Per-tenant security policies (issue 12; seed 001 sections 3, 5, 7): MFA, lockout, password
 * history, password rules, rotation, captcha and user emails. The vendor's configuration is the
 * floor (policy-rules.ts); a tenant's own row may only tighten it. Every entry point asks
 * `effective` / `effectiveForUser`, which read the database on each call so every process agrees.
 */
import {
  AuthMethods, ErrorCodes, SecurityErrorCodes, type CaptchaPolicyBody, type LockoutPolicyBody, type MfaPolicyBody, type PasswordHistoryPolicyBody, type PasswordPolicyBody,
  type PasswordRotationBody, type PolicyDryRun, type UserEmailsPolicyBody,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { recentPasswordHashes, rememberPassword } from '../../db/queries/password-history';
import { findOwnPolicy, listOwnPolicies, upsertOwnPolicy } from '../../db/queries/security-policies';
import { createTableCache } from '../platform/table-cache';
import { tenantsOfUser } from '../users/memberships';
import { AppError } from '../../errors';
import type { AdminCaller } from '../admin/access';
import { recordAudit } from '../admin/audit-log';
import { findLiveInviteLink } from '../admin/invite-links';
import { checkPasswordPolicy, verifyPassword } from '../platform/passwords';
import { policyEffects } from './policy-effects';
import { assertTighter, POLICY_KINDS, strictest, vendorPolicies, type PolicyBodies, type PolicyKind } from './policy-rules';

export type { PolicyBodies, PolicyKind } from './policy-rules';

/** A tenant's effective policies: the vendor's configuration (the floor) tightened by the tenant's own. (The sessions policy has its own service: session-policy.ts, owned by the sessions engineer.) */
export interface EffectivePolicies {
  mfa: MfaPolicyBody;
  lockout: LockoutPolicyBody;
  passwordHistory: PasswordHistoryPolicyBody;
  password: PasswordPolicyBody;
  rotation: PasswordRotationBody;
  captcha: CaptchaPolicyBody;
  userEmails: UserEmailsPolicyBody;
}

/** The audit action of a saved policy. */
export const SECURITY_POLICY_UPDATED = 'Security policy updated';
/** Previous passwords kept per user, whatever the policy (the largest history a tenant may ask for). */
export const PASSWORD_HISTORY_KEEP = 24;

/** How a policy of one kind reads on the wire: the effective body, with the tenant's own row id when it has one. */
export type PolicyView<K extends PolicyKind> = PolicyBodies[K] & { id?: string };

/** The user whose sign-in tenant decides the policy: their last tenant while still an active membership, else their oldest. */
export interface PolicySubject {
  id: string;
  last_tenant_id: string | null;
}

export interface SecurityPolicyService {
  /** The effective policies of `tenantId` (read from the database on every call, so every process agrees). */
  effective(tenantId: string): Promise<EffectivePolicies>;
  /** The effective policies of the tenant `user` signs in to (`tenantId` when the caller knows it); the vendor's when they have none. */
  effectiveForUser(user: PolicySubject, tenantId?: string | null): Promise<EffectivePolicies>;
  /** The vendor's policies: every tenant's floor. */
  vendor(): EffectivePolicies;
  /** The effective policy of one kind for the caller's tenant, with `id` when the tenant has its own. */
  read<K extends PolicyKind>(caller: AdminCaller, kind: K): Promise<PolicyView<K>>;
  /**
   * Saves the tenant's policy of `kind` (`partial`: merged over the current effective one), tighten
   * only, with an audit row of the old and new values; `dryRun` answers the effects and saves nothing.
   */
  save<K extends PolicyKind>(caller: AdminCaller, kind: K, input: Partial<PolicyBodies[K]>, options: { dryRun: boolean }): Promise<PolicyView<K> | PolicyDryRun>;
  /** The sentence a password breaking the effective password rules gets, or null. */
  passwordRuleError(password: string, policies: EffectivePolicies): AppError | null;
  /** Refuses (400 ER-02804) a new password equal to one of the user's last N, the current one included, when the history policy is on. */
  assertNotReused(user: PolicySubject & { password_hash: string | null }, password: string, policies: EffectivePolicies): Promise<void>;
  /** The captcha minimum score of the tenant an invite link token joins (undefined for a dead link: the vendor's applies). */
  captchaMinScoreOfInvitation(invitationToken: string): Promise<number | undefined>;
  /** Refuses (403 ER-02806) a self-service email change in a tenant whose user-emails policy does not allow it. */
  assertEmailChangeAllowed(tenantId: string): Promise<void>;
  /** Remembers a password the user just set (its hash), keeping the newest PASSWORD_HISTORY_KEEP; `db` may be the transaction that set it. */
  rememberPassword(db: Db, userId: string, passwordHash: string): Promise<void>;
}

const FIELD: Record<PolicyKind, keyof EffectivePolicies> = {
  mfa: 'mfa', lockout: 'lockout', 'password-history': 'passwordHistory', password: 'password', 'password-rotation': 'rotation', captcha: 'captcha', 'user-emails': 'userEmails',
};

/**
 * Whether a session signed in with `amr` meets an MFA policy: a second factor, or a passkey (itself
 * two factors); under ForceExceptSAML an SSO sign-in too (a SAML one never asks MFA; an OIDC one since
 * the policy asked it at sign-in). Used where an existing session is reused for a new sign-in (hosted login).
 */
export function sessionMeetsMfaPolicy(mfa: MfaPolicyBody, amr: readonly string[]): boolean {
  if (mfa.enforceMFAType === 'DontForce') return true;
  if (amr.includes(AuthMethods.mfa) || amr.includes(AuthMethods.hardwareKey)) return true;
  return mfa.enforceMFAType === 'ForceExceptSAML' && amr.includes(AMR_SSO_METHOD);
}

/** The amr of an SSO sign-in (services/sso/login.ts AMR_SSO). */
const AMR_SSO_METHOD = 'sso';

/** Builds the policy service over the database, the clock and the vendor's configuration. */
export function createSecurityPolicyService(deps: { db: Db; clock: Clock; config: Config }): SecurityPolicyService {
  const { db, clock, config } = deps;
  const floor = vendorPolicies(config);
  // A user row's effective policies, shared by the services one request hands the row to (at most 1 s;
  // emptied by this server's writes to policies or memberships, like users/memberships.ts).
  const policiesOfRow = createTableCache<object, EffectivePolicies>({ db, clock, max: 10_000, tables: ['tenant_security_policies', 'user_tenants', 'tenants'] });
  const asEffective = (bodies: PolicyBodies): EffectivePolicies =>
    Object.fromEntries(POLICY_KINDS.map((k) => [FIELD[k], bodies[k]])) as unknown as EffectivePolicies;

  async function effective(tenantId: string): Promise<EffectivePolicies> {
    const own = await listOwnPolicies(db, tenantId);
    const bodies = Object.fromEntries(POLICY_KINDS.map((k) => [k, strictest(k, floor[k], own.get(k)?.body as PolicyBodies[typeof k] | undefined)])) as unknown as PolicyBodies;
    return asEffective(bodies);
  }

  async function effectiveOf<K extends PolicyKind>(tenantId: string, kind: K): Promise<{ id?: string; body: PolicyBodies[K] }> {
    const own = await findOwnPolicy<PolicyBodies[K]>(db, tenantId, kind);
    return { id: own?.id, body: strictest(kind, floor[kind], own?.body) };
  }

  return {
    effective,

    async effectiveForUser(user, tenantId) {
      if (tenantId) return effective(tenantId);
      // One sign-in asks for the same row's policies from several services (password, MFA): read once per row.
      return policiesOfRow.get(user, async () => {
        // The tenant a sign-in lands in, chosen as auth chooses it: the last one if still an active membership, else the oldest.
        const tenants = await tenantsOfUser(db, user, clock.now());
        const tenant = tenants.find((t) => t.id === user.last_tenant_id) ?? tenants[0];
        return tenant ? effective(tenant.id) : asEffective(floor);
      });
    },

    vendor: () => asEffective(floor),

    async read(caller, kind) {
      const { id, body } = await effectiveOf(caller.tenantId, kind);
      return { ...body, ...(id ? { id } : {}) };
    },

    async save(caller, kind, input, { dryRun }) {
      const current = await effectiveOf(caller.tenantId, kind);
      const next = { ...current.body, ...input } as PolicyBodies[typeof kind];
      assertTighter(kind, next, floor);
      if (dryRun) {
        const after = strictest(kind, floor[kind], next);
        return { dryRun: true, policy: after as unknown as Record<string, unknown>, effects: await policyEffects(db, clock.now(), caller.tenantId, kind, current.body, after) } satisfies PolicyDryRun;
      }
      const now = clock.now();
      const id = await db.transaction().execute(async (trx) => {
        const saved = await upsertOwnPolicy(trx, caller.tenantId, kind, next, newId(), now);
        await recordAudit(trx, caller, {
          action: SECURITY_POLICY_UPDATED,
          description: `The ${kind} policy was ${current.id ? 'updated' : 'set'}`,
          severity: 'High',
          json: { policy: kind, id: saved, old: current.body, new: next },
        }, now);
        return saved;
      });
      return { ...strictest(kind, floor[kind], next), id };
    },

    passwordRuleError(password, policies) {
      const message = checkPasswordPolicy(password, policies.password);
      return message ? new AppError(ErrorCodes.passwordPolicy, 400, message) : null;
    },

    async assertNotReused(user, password, policies) {
      const { enabled, historySize } = policies.passwordHistory;
      if (!enabled) return;
      const previous = await recentPasswordHashes(db, user.id, historySize);
      // Accounts from before the history was kept have their current password only in users.password_hash.
      const hashes = user.password_hash && !previous.includes(user.password_hash) ? [user.password_hash, ...previous].slice(0, historySize) : previous;
      // Every hash is checked (no early exit), so the time taken does not tell which one matched.
      const matches = await Promise.all(hashes.map((h) => verifyPassword(h, password)));
      if (matches.some(Boolean)) {
        throw new AppError(SecurityErrorCodes.passwordReused, 400, `Choose a password you have not used recently: this one is one of your last ${historySize}`, { historySize });
      }
    },

    async captchaMinScoreOfInvitation(invitationToken) {
      const link = await findLiveInviteLink(db, sha256(invitationToken), clock.now());
      return link ? (await effective(link.tenantId)).captcha.minScore : undefined;
    },

    async assertEmailChangeAllowed(tenantId) {
      const { userEmails } = await effective(tenantId);
      if (!userEmails.allowEmailChange) throw new AppError(SecurityErrorCodes.emailChangeNotAllowed, 403, 'Your account administrator does not allow changing your email address');
    },

    async rememberPassword(trx, userId, passwordHash) {
      await rememberPassword(trx, { id: newId(), userId, passwordHash, now: clock.now() }, PASSWORD_HISTORY_KEEP);
    },
  };
}
