/**
 * The tighten-only rules of tenant policies (issue 12): the vendor's configuration is the floor, a
 * tenant's own policy may only be stricter. For every field this file says which way is stricter,
 * refuses a save that goes the other way (naming the vendor's value), and merges the vendor's and
 * the tenant's into the effective policy (field by field the stricter one, so a vendor who tightens
 * an environment variable later still wins over an older tenant row).
 */
import {
  SecurityErrorCodes, type CaptchaPolicyBody, type EnforceMfaType, type LockoutPolicyBody, type MfaPolicyBody, type PasswordHistoryPolicyBody,
  type PasswordPolicyBody, type PasswordRotationBody, type UserEmailsPolicyBody,
} from '@gatehouse/shared/wire';
import type { Config } from '../../config';
import { AppError, Errors } from '../../errors';

/** The policies a tenant may tighten, by their `tenant_security_policies.kind` (sessions has its own service). */
export interface PolicyBodies {
  mfa: MfaPolicyBody;
  lockout: LockoutPolicyBody;
  'password-history': PasswordHistoryPolicyBody;
  password: PasswordPolicyBody;
  'password-rotation': PasswordRotationBody;
  captcha: CaptchaPolicyBody;
  'user-emails': UserEmailsPolicyBody;
}
export type PolicyKind = keyof PolicyBodies;
export const POLICY_KINDS = ['mfa', 'lockout', 'password-history', 'password', 'password-rotation', 'captcha', 'user-emails'] as const satisfies readonly PolicyKind[];

/** Default size of the history when a tenant turns it on without the vendor's (PASSWORD_HISTORY_SIZE=0). */
const DEFAULT_HISTORY_SIZE = 5;
/** Lockout attempts shown when the vendor's lockout is off (LOCKOUT_MAX_ATTEMPTS=0). */
const DEFAULT_LOCKOUT_ATTEMPTS = 5;
/** reCAPTCHA's own default threshold, shown when the vendor has no captcha. */
const DEFAULT_CAPTCHA_SCORE = 0.5;

/** MFA enforcement from loosest to strictest. */
const MFA_ORDER: Record<EnforceMfaType, number> = { DontForce: 0, ForceExceptSAML: 1, Force: 2 };

type VendorConfig = Pick<Config, 'mfa' | 'password' | 'passwordPolicies' | 'captcha'>;

/** The vendor's policies, read from its configuration (environment variables): every tenant's floor. */
export function vendorPolicies(config: VendorConfig): PolicyBodies {
  const p = config.password;
  const pp = config.passwordPolicies;
  const history = Math.min(24, pp.historySize ?? 0);
  return {
    mfa: {
      enforceMFAType: config.mfa.enforce === 'force' ? 'Force' : 'DontForce',
      allowRememberMyDevice: config.mfa.rememberDeviceDays > 0,
      mfaDeviceExpiration: config.mfa.rememberDeviceDays * 86_400,
    },
    lockout: { enabled: pp.lockoutMaxAttempts > 0, maxAttempts: pp.lockoutMaxAttempts > 0 ? Math.min(100, pp.lockoutMaxAttempts) : DEFAULT_LOCKOUT_ATTEMPTS },
    'password-history': { enabled: history > 0, historySize: history > 0 ? history : DEFAULT_HISTORY_SIZE },
    password: { minLength: p.minLength, maxLength: p.maxLength, allowPassphrases: p.allowPassphrases, minPhraseLength: p.minPhraseLength, minOptionalTestsToPass: p.minOptionalTestsToPass },
    'password-rotation': { passwordExpiresIn: pp.expiresInDays, notificationPeriod: pp.notificationDays },
    captcha: { enabled: config.captcha !== null, minScore: config.captcha?.minScore ?? DEFAULT_CAPTCHA_SCORE },
    // Sign-in has always required a verified email (auth refuses unverified accounts): that is the vendor's floor.
    'user-emails': { allowEmailChange: true, requireVerifiedEmailForLogin: true },
  };
}

const looser = (message: string, field: string, vendorValue: unknown) =>
  new AppError(SecurityErrorCodes.policyLooserThanVendor, 400, message, { field, vendorValue });

/**
 * Refuses `body` when any field is looser than the vendor's (400 ER-02801 naming the field and the
 * vendor's value), or inconsistent in itself (400 naming the field). Captcha without the vendor's
 * keys is ER-02807.
 */
export function assertTighter<K extends PolicyKind>(kind: K, body: PolicyBodies[K], vendor: PolicyBodies): void {
  switch (kind) {
    case 'mfa': {
      const b = body as MfaPolicyBody;
      const v = vendor.mfa;
      if (MFA_ORDER[b.enforceMFAType] < MFA_ORDER[v.enforceMFAType]) throw looser(`enforceMFAType cannot be ${b.enforceMFAType}: the vendor's is ${v.enforceMFAType}`, 'enforceMFAType', v.enforceMFAType);
      if (b.allowRememberMyDevice && !v.allowRememberMyDevice) throw looser("allowRememberMyDevice cannot be turned on: the vendor's is off", 'allowRememberMyDevice', false);
      if (b.allowRememberMyDevice && b.mfaDeviceExpiration > v.mfaDeviceExpiration) throw looser(`mfaDeviceExpiration cannot be more than the vendor's ${v.mfaDeviceExpiration} seconds`, 'mfaDeviceExpiration', v.mfaDeviceExpiration);
      if (b.allowRememberMyDevice && b.mfaDeviceExpiration === 0) throw Errors.validation('mfaDeviceExpiration must be more than 0 seconds when allowRememberMyDevice is on', { field: 'mfaDeviceExpiration' });
      return;
    }
    case 'lockout': {
      const b = body as LockoutPolicyBody;
      const v = vendor.lockout;
      if (!v.enabled) return;
      if (!b.enabled) throw looser(`enabled cannot be turned off: the vendor locks accounts after ${v.maxAttempts} attempts`, 'enabled', true);
      if (b.maxAttempts > v.maxAttempts) throw looser(`maxAttempts cannot be more than the vendor's ${v.maxAttempts}`, 'maxAttempts', v.maxAttempts);
      return;
    }
    case 'password-history': {
      const b = body as PasswordHistoryPolicyBody;
      const v = vendor['password-history'];
      if (!v.enabled) return;
      if (!b.enabled) throw looser(`enabled cannot be turned off: the vendor remembers the last ${v.historySize} passwords`, 'enabled', true);
      if (b.historySize < v.historySize) throw looser(`historySize cannot be less than the vendor's ${v.historySize}`, 'historySize', v.historySize);
      return;
    }
    case 'password': {
      const b = body as PasswordPolicyBody;
      const v = vendor.password;
      if (b.minLength < v.minLength) throw looser(`minLength cannot be less than the vendor's ${v.minLength}`, 'minLength', v.minLength);
      if (b.maxLength > v.maxLength) throw looser(`maxLength cannot be more than the vendor's ${v.maxLength}`, 'maxLength', v.maxLength);
      if (b.maxLength < b.minLength) throw Errors.validation(`maxLength (${b.maxLength}) cannot be less than minLength (${b.minLength})`, { field: 'maxLength' });
      if (b.allowPassphrases && !v.allowPassphrases) throw looser("allowPassphrases cannot be turned on: the vendor's is off", 'allowPassphrases', false);
      if (b.minPhraseLength < v.minPhraseLength) throw looser(`minPhraseLength cannot be less than the vendor's ${v.minPhraseLength}`, 'minPhraseLength', v.minPhraseLength);
      if (b.minOptionalTestsToPass < v.minOptionalTestsToPass) throw looser(`minOptionalTestsToPass cannot be less than the vendor's ${v.minOptionalTestsToPass}`, 'minOptionalTestsToPass', v.minOptionalTestsToPass);
      return;
    }
    case 'password-rotation': {
      const b = body as PasswordRotationBody;
      const v = vendor['password-rotation'];
      // Any period is allowed (the effective one is the smaller non-zero), but not switching a vendor rotation off.
      if (v.passwordExpiresIn > 0 && b.passwordExpiresIn === 0) throw looser(`passwordExpiresIn cannot be 0 (off): the vendor's passwords expire after ${v.passwordExpiresIn} days`, 'passwordExpiresIn', v.passwordExpiresIn);
      if (b.passwordExpiresIn > 0 && b.notificationPeriod > b.passwordExpiresIn) throw Errors.validation(`notificationPeriod (${b.notificationPeriod}) cannot be more than passwordExpiresIn (${b.passwordExpiresIn})`, { field: 'notificationPeriod' });
      return;
    }
    case 'captcha': {
      const b = body as CaptchaPolicyBody;
      const v = vendor.captcha;
      if (b.enabled && !v.enabled) throw new AppError(SecurityErrorCodes.captchaNotConfigured, 400, 'enabled: captcha cannot be turned on, the vendor has not configured CAPTCHA_SITE_KEY and CAPTCHA_SECRET_KEY', { field: 'enabled' });
      if (!b.enabled && v.enabled) throw looser("enabled cannot be turned off: the vendor's captcha is on", 'enabled', true);
      if (b.minScore < v.minScore) throw looser(`minScore cannot be less than the vendor's ${v.minScore}`, 'minScore', v.minScore);
      return;
    }
    case 'user-emails': {
      const b = body as UserEmailsPolicyBody;
      const v = vendor['user-emails'];
      if (!b.requireVerifiedEmailForLogin && v.requireVerifiedEmailForLogin) throw looser('requireVerifiedEmailForLogin cannot be turned off: the vendor requires a verified email to sign in', 'requireVerifiedEmailForLogin', true);
      if (b.allowEmailChange && !v.allowEmailChange) throw looser("allowEmailChange cannot be turned on: the vendor's is off", 'allowEmailChange', false);
      return;
    }
  }
}

const smallerNonZero = (a: number, b: number) => (a === 0 ? b : b === 0 ? a : Math.min(a, b));

/** The effective policy of one kind: field by field the stricter of the vendor's and the tenant's own. */
export function strictest<K extends PolicyKind>(kind: K, vendor: PolicyBodies[K], own: PolicyBodies[K] | undefined): PolicyBodies[K] {
  if (!own) return vendor;
  const merged = ((): PolicyBodies[PolicyKind] => {
    switch (kind) {
      case 'mfa': {
        const [v, o] = [vendor as MfaPolicyBody, own as MfaPolicyBody];
        const allow = v.allowRememberMyDevice && o.allowRememberMyDevice;
        return {
          enforceMFAType: MFA_ORDER[o.enforceMFAType] > MFA_ORDER[v.enforceMFAType] ? o.enforceMFAType : v.enforceMFAType,
          allowRememberMyDevice: allow,
          mfaDeviceExpiration: allow ? Math.min(v.mfaDeviceExpiration, o.mfaDeviceExpiration) : o.mfaDeviceExpiration,
        };
      }
      case 'lockout':
      case 'password-history': {
        const [v, o] = [vendor as LockoutPolicyBody & PasswordHistoryPolicyBody, own as LockoutPolicyBody & PasswordHistoryPolicyBody];
        const enabled = v.enabled || o.enabled;
        const pick = (f: (a: number, b: number) => number, key: 'maxAttempts' | 'historySize') => (v.enabled && o.enabled ? f(v[key], o[key]) : o.enabled ? o[key] : v[key]);
        return kind === 'lockout' ? { enabled, maxAttempts: pick(Math.min, 'maxAttempts') } : { enabled, historySize: pick(Math.max, 'historySize') };
      }
      case 'password': {
        const [v, o] = [vendor as PasswordPolicyBody, own as PasswordPolicyBody];
        const minLength = Math.max(v.minLength, o.minLength);
        return {
          minLength,
          maxLength: Math.max(minLength, Math.min(v.maxLength, o.maxLength)),
          allowPassphrases: v.allowPassphrases && o.allowPassphrases,
          minPhraseLength: Math.max(v.minPhraseLength, o.minPhraseLength),
          minOptionalTestsToPass: Math.max(v.minOptionalTestsToPass, o.minOptionalTestsToPass),
        };
      }
      case 'password-rotation': {
        const [v, o] = [vendor as PasswordRotationBody, own as PasswordRotationBody];
        const passwordExpiresIn = smallerNonZero(v.passwordExpiresIn, o.passwordExpiresIn);
        return { passwordExpiresIn, notificationPeriod: Math.min(passwordExpiresIn, o.notificationPeriod) };
      }
      case 'captcha': {
        const [v, o] = [vendor as CaptchaPolicyBody, own as CaptchaPolicyBody];
        // Without the vendor's keys there is nothing to check a token against, whatever the row says.
        return { enabled: v.enabled, minScore: Math.max(v.minScore, o.minScore) };
      }
      case 'user-emails': {
        const [v, o] = [vendor as UserEmailsPolicyBody, own as UserEmailsPolicyBody];
        return { allowEmailChange: v.allowEmailChange && o.allowEmailChange, requireVerifiedEmailForLogin: v.requireVerifiedEmailForLogin || o.requireVerifiedEmailForLogin };
      }
    }
  })();
  return merged as PolicyBodies[K];
}
