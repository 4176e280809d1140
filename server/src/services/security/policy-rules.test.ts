import { SecurityErrorCodes } from '@gatehouse/shared/wire';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { assertTighter, strictest, vendorPolicies } from './policy-rules';

const vendor = (env: Record<string, string> = {}) => vendorPolicies(loadConfig({ GATEHOUSE_DEV: '1', ...env }));

describe('tenant policy rules', () => {
  it("keeps the vendor's stricter value over an older tenant row when the vendor tightens later", () => {
    const v = vendor({ LOCKOUT_MAX_ATTEMPTS: '3', PASSWORD_MIN_LENGTH: '14', MFA_POLICY: 'force', MFA_REMEMBER_DEVICE_DAYS: '1', PASSWORD_HISTORY_SIZE: '8' });
    expect(strictest('lockout', v.lockout, { enabled: true, maxAttempts: 5 })).toEqual({ enabled: true, maxAttempts: 3 });
    expect(strictest('password', v.password, { minLength: 10, maxLength: 64, allowPassphrases: true, minPhraseLength: 20, minOptionalTestsToPass: 1 }))
      .toEqual({ minLength: 14, maxLength: 64, allowPassphrases: true, minPhraseLength: 20, minOptionalTestsToPass: 1 });
    expect(strictest('mfa', v.mfa, { enforceMFAType: 'ForceExceptSAML', allowRememberMyDevice: true, mfaDeviceExpiration: 7 * 86_400 }))
      .toEqual({ enforceMFAType: 'Force', allowRememberMyDevice: true, mfaDeviceExpiration: 86_400 });
    expect(strictest('password-history', v['password-history'], { enabled: true, historySize: 3 })).toEqual({ enabled: true, historySize: 8 });
  });

  it('takes the smaller non-zero rotation period of the vendor and the tenant', () => {
    const off = vendor();
    const on = vendor({ PASSWORD_EXPIRES_IN_DAYS: '90' });
    expect(strictest('password-rotation', off['password-rotation'], { passwordExpiresIn: 30, notificationPeriod: 5 })).toEqual({ passwordExpiresIn: 30, notificationPeriod: 5 });
    expect(strictest('password-rotation', on['password-rotation'], { passwordExpiresIn: 120, notificationPeriod: 10 })).toEqual({ passwordExpiresIn: 90, notificationPeriod: 10 });
    expect(strictest('password-rotation', on['password-rotation'], { passwordExpiresIn: 0, notificationPeriod: 0 })).toEqual({ passwordExpiresIn: 90, notificationPeriod: 0 });
  });

  it('a lockout or history the vendor leaves off is the tenant\'s to turn on with any value', () => {
    const v = vendor();
    expect(() => assertTighter('lockout', { enabled: true, maxAttempts: 50 }, v)).not.toThrow();
    expect(() => assertTighter('password-history', { enabled: true, historySize: 1 }, v)).not.toThrow();
    expect(strictest('lockout', v.lockout, { enabled: true, maxAttempts: 50 })).toEqual({ enabled: true, maxAttempts: 50 });
  });

  it("names the field and the vendor's value when a save would loosen it", () => {
    const v = vendor({ CAPTCHA_SITE_KEY: 'site', CAPTCHA_SECRET_KEY: 'secret', CAPTCHA_MIN_SCORE: '0.6' });
    const refusal = (() => {
      try {
        assertTighter('captcha', { enabled: true, minScore: 0.5 }, v);
        return undefined;
      } catch (err) {
        return err;
      }
    })();
    expect(refusal).toMatchObject({ code: SecurityErrorCodes.policyLooserThanVendor, status: 400, message: "minScore cannot be less than the vendor's 0.6", context: { field: 'minScore', vendorValue: 0.6 } });
  });
});
