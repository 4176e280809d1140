/**
 * The Privacy section's self-service calls (issue 11 section 3; seed 000 sections 7.3): a new
 * password, a new email address (proven by the emailed code before it replaces the old one), new
 * recovery codes, and adding a second factor (an authenticator app, a texted code, or a security
 * key or this device's authenticator) or a passkey.
 */
import { MfaFactorPaths, SelfServicePaths } from '@gatehouse/shared/admin-paths';
import type {
  AuthenticatorEnrollResponse,
  ChangeEmailResponse,
  PasskeyDevice,
  PasskeyRegistrationOptionsResponse,
  RecoveryCodesResponse,
  SmsCodeSentResponse,
  VerifyEmailChangeResponse,
  WebAuthnCreationResponse,
} from '@gatehouse/shared/wire';
import { ApiPaths, type GatehouseApi } from '../../contract';
import type { RegistrationCeremony } from './webauthn';

export function createSecurityApi(api: GatehouseApi) {
  return {
    /** Needs the current password; with MFA enrolled, a recent step-up too (ER-01307). */
    changePassword: (password: string, newPassword: string) => api.request<unknown>('POST', ApiPaths.passwordsChange, { body: { password, newPassword } }),
    /** Emails a link and a 6-digit code to the new address; nothing changes yet. */
    changeEmail: (email: string) => api.request<ChangeEmailResponse>('POST', SelfServicePaths.changeEmail, { body: { email } }),
    /** The emailed code: the new address replaces the old one (which is told). */
    verifyEmailChange: (code: string) => api.request<VerifyEmailChangeResponse>('POST', SelfServicePaths.verifyEmailChange, { body: { code } }),
    /** A new set of recovery codes; the old ones stop working. Needs a recent step-up. */
    regenerateRecoveryCodes: () => api.request<RecoveryCodesResponse>('POST', SelfServicePaths.regenerateRecoveryCodes),
    enrollAuthenticator: () => api.request<AuthenticatorEnrollResponse>('POST', ApiPaths.mfaAuthenticatorEnroll),
    verifyAuthenticator: (code: string) => api.request<RecoveryCodesResponse>('POST', ApiPaths.mfaAuthenticatorEnrollVerify, { body: { token: code } }),
    enrollSms: (phoneNumber: string) => api.request<SmsCodeSentResponse>('POST', MfaFactorPaths.smsEnroll, { body: { phoneNumber } }),
    verifySms: (otcToken: string, code: string) => api.request<RecoveryCodesResponse>('POST', MfaFactorPaths.smsEnrollVerify, { body: { otcToken, token: code } }),
    /** A security key (`cross-platform`) or this device's authenticator (`platform`) as a second factor. */
    async enrollSecurityKey(deviceType: 'platform' | 'cross-platform', ceremony: RegistrationCeremony): Promise<RecoveryCodesResponse> {
      const { options } = await api.request<WebAuthnCreationResponse>('POST', MfaFactorPaths.webauthnEnroll, { body: { deviceType } });
      const credential = await ceremony(options);
      return api.request<RecoveryCodesResponse>('POST', MfaFactorPaths.webauthnEnrollVerify, { body: { credential } });
    },
    /** A passkey: signs the user in without a password. */
    async addPasskey(ceremony: RegistrationCeremony): Promise<PasskeyDevice> {
      const { options } = await api.request<PasskeyRegistrationOptionsResponse>('POST', ApiPaths.webauthnDevices);
      const credential = await ceremony(options);
      return api.request<PasskeyDevice>('POST', ApiPaths.webauthnDevicesVerify, { body: { credential } });
    },
  };
}

export type SecurityApi = ReturnType<typeof createSecurityApi>;
