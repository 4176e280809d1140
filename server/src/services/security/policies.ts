// SCAFFOLD (issue 12, to be replaced by the policies engineer): the interface is the contract other
// areas code against; the body below only answers the vendor's values.
import type {
  CaptchaPolicyBody, LockoutPolicyBody, MfaPolicyBody, PasswordHistoryPolicyBody, PasswordPolicyBody, PasswordRotationBody, UserEmailsPolicyBody,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db';

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

export interface SecurityPolicyService {
  /** The effective policies of `tenantId` (read from the database on every call, so every process agrees). */
  effective(tenantId: string): Promise<EffectivePolicies>;
}

export function createSecurityPolicyService(deps: { db: Db; clock: Clock; config: Config }): SecurityPolicyService {
  const { config } = deps;
  const p = config.password;
  const vendor: EffectivePolicies = {
    mfa: { enforceMFAType: config.mfa.enforce === 'force' ? 'Force' : 'DontForce', allowRememberMyDevice: config.mfa.rememberDeviceDays > 0, mfaDeviceExpiration: config.mfa.rememberDeviceDays * 86_400 },
    lockout: { enabled: config.passwordPolicies.lockoutMaxAttempts > 0, maxAttempts: Math.max(1, config.passwordPolicies.lockoutMaxAttempts || 5) },
    passwordHistory: { enabled: false, historySize: 1 },
    password: { minLength: p.minLength, maxLength: p.maxLength, allowPassphrases: p.allowPassphrases, minPhraseLength: p.minPhraseLength, minOptionalTestsToPass: p.minOptionalTestsToPass },
    rotation: { passwordExpiresIn: config.passwordPolicies.expiresInDays, notificationPeriod: config.passwordPolicies.notificationDays },
    captcha: { enabled: config.captcha !== null, minScore: config.captcha?.minScore ?? 0.5 },
    userEmails: { allowEmailChange: true, requireVerifiedEmailForLogin: true },
  };
  return { effective: async () => vendor };
}
