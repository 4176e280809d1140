/**
 * What saving a policy would do (issue 12, `?dryRun=true`): each effect counted from the tenant's
 * real data, with the sentence the admin reads before saving.
 */
import type {
  LockoutPolicyBody, MfaPolicyBody, PasswordHistoryPolicyBody, PasswordPolicyBody, PasswordRotationBody, PolicyEffect, UserEmailsPolicyBody,
} from '@gatehouse/shared/wire';
import type { Db } from '../../db';
import {
  countMembers, countMembersAtFailures, countMembersWithoutMfa, countMembersWithPassword, countPasswordsSetBefore, countRememberedDevices, countUnverifiedMembers,
} from '../../db/queries/security-policy-effects';
import type { PolicyBodies, PolicyKind } from './policy-rules';

const DAY_MS = 86_400_000;
const users = (n: number) => `${n} ${n === 1 ? 'user' : 'users'}`;

/** The effects of replacing the effective policy `before` of `kind` by `after`, in the tenant `tenantId`, at `now`. */
export async function policyEffects<K extends PolicyKind>(db: Db, now: number, tenantId: string, kind: K, before: PolicyBodies[K], after: PolicyBodies[K]): Promise<PolicyEffect[]> {
  const effects: PolicyEffect[] = [];
  switch (kind) {
    case 'mfa': {
      const [b, a] = [before as MfaPolicyBody, after as MfaPolicyBody];
      if (a.enforceMFAType !== 'DontForce' && b.enforceMFAType === 'DontForce') {
        const [affected, total] = [await countMembersWithoutMfa(db, tenantId), await countMembers(db, tenantId)];
        const exceptSaml = a.enforceMFAType === 'ForceExceptSAML' ? ' (except when they sign in with SAML SSO)' : '';
        effects.push({ code: 'MFA_ENROLMENT_REQUIRED', affected, total, message: `Forcing MFA will ask ${affected} of ${users(total)} to enrol at their next sign-in${exceptSaml}.` });
      }
      if (b.allowRememberMyDevice && (!a.allowRememberMyDevice || a.mfaDeviceExpiration < b.mfaDeviceExpiration)) {
        // Under a shorter expiry a browser counts only when remembered within it (services/mfa/mfa.ts).
        const before = a.allowRememberMyDevice ? now - a.mfaDeviceExpiration * 1000 : now + 1;
        const affected = await countRememberedDevices(db, tenantId, now, before);
        effects.push({ code: 'REMEMBERED_DEVICES_FORGOTTEN', affected, message: `${affected} remembered ${affected === 1 ? 'browser' : 'browsers'} will ask for the second factor again at the next sign-in.` });
      }
      return effects;
    }
    case 'lockout': {
      const a = after as LockoutPolicyBody;
      if (!a.enabled) return effects;
      const [affected, total] = [await countMembersAtFailures(db, tenantId, a.maxAttempts), await countMembers(db, tenantId)];
      effects.push({ code: 'USERS_LOCKED_OUT', affected, total, message: `${affected} of ${users(total)} already ${affected === 1 ? 'has' : 'have'} ${a.maxAttempts} or more wrong passwords in a row: the next wrong one locks ${affected === 1 ? 'the account' : 'their accounts'}.` });
      return effects;
    }
    case 'password-history': {
      const a = after as PasswordHistoryPolicyBody;
      if (!a.enabled) return effects;
      const affected = await countMembersWithPassword(db, tenantId);
      effects.push({ code: 'PASSWORD_REUSE_REFUSED', affected, message: `From now on ${users(affected)} with a password cannot reuse any of their last ${a.historySize} passwords.` });
      return effects;
    }
    case 'password': {
      const [b, a] = [before as PasswordPolicyBody, after as PasswordPolicyBody];
      if (JSON.stringify(a) === JSON.stringify(b)) return effects;
      const affected = await countMembersWithPassword(db, tenantId);
      effects.push({ code: 'PASSWORD_RULES_CHANGED', affected, message: `The new rules apply to new passwords: ${users(affected)} keep their password until they next change or reset it.` });
      return effects;
    }
    case 'password-rotation': {
      const a = after as PasswordRotationBody;
      if (a.passwordExpiresIn <= 0) return effects;
      const [affected, total] = [await countPasswordsSetBefore(db, tenantId, now - a.passwordExpiresIn * DAY_MS), await countMembersWithPassword(db, tenantId)];
      effects.push({ code: 'PASSWORDS_EXPIRED', affected, total, message: `${affected} of ${users(total)} with a password set more than ${a.passwordExpiresIn} days ago must change it at their next sign-in.` });
      return effects;
    }
    case 'user-emails': {
      const [b, a] = [before as UserEmailsPolicyBody, after as UserEmailsPolicyBody];
      if (a.requireVerifiedEmailForLogin) {
        const affected = await countUnverifiedMembers(db, tenantId);
        effects.push({ code: 'UNVERIFIED_CANNOT_SIGN_IN', affected, total: await countMembers(db, tenantId), message: `${users(affected)} without a verified email cannot sign in until they verify it.` });
      }
      if (b.allowEmailChange && !a.allowEmailChange) {
        const total = await countMembers(db, tenantId);
        effects.push({ code: 'EMAIL_CHANGE_REFUSED', affected: total, total, message: `${users(total)} can no longer change their email address themselves.` });
      }
      return effects;
    }
    case 'captcha':
      return effects;
  }
  return effects;
}
