/**
 * API paths of SMS and WebAuthn second factors, the MFA strategies config and phone-number changes
 * (seed 000 sections 7.2, 7.3). Plain data like `ApiPaths`, kept apart from it so the browser loads
 * them only with the flows that call them (ApiPaths is part of what loads before the login form).
 */
export const MfaFactorPaths = {
  // At sign-in and step-up, with the mfaToken (seed 000 section 7.2): pre-verify sends or challenges, verify finishes
  smsPreVerify: '/identity/resources/auth/v1/user/mfa/sms',
  smsVerify: '/identity/resources/auth/v1/user/mfa/sms/verify',
  loginSmsEnroll: '/identity/resources/auth/v1/user/mfa/sms/enroll',
  loginSmsEnrollVerify: '/identity/resources/auth/v1/user/mfa/sms/enroll/verify',
  webauthnPreVerify: '/identity/resources/auth/v1/user/mfa/webauthn',
  webauthnVerify: '/identity/resources/auth/v1/user/mfa/webauthn/verify',
  loginWebauthnEnroll: '/identity/resources/auth/v1/user/mfa/webauthn/enroll',
  loginWebauthnEnrollVerify: '/identity/resources/auth/v1/user/mfa/webauthn/enroll/verify',
  // The signed-in user's own factors (seed 000 section 7.3)
  smsEnroll: '/identity/resources/users/v1/mfa/sms/enroll',
  smsEnrollVerify: '/identity/resources/users/v1/mfa/sms/enroll/verify',
  smsDisable: '/identity/resources/users/v1/mfa/sms/{deviceId}/disable',
  smsDisableVerify: '/identity/resources/users/v1/mfa/sms/{deviceId}/disable/verify',
  webauthnEnroll: '/identity/resources/users/v1/mfa/webauthn/enroll',
  webauthnEnrollVerify: '/identity/resources/users/v1/mfa/webauthn/enroll/verify',
  webauthnDisable: '/identity/resources/users/v1/mfa/webauthn/{deviceId}/disable',
  webauthnDisableVerify: '/identity/resources/users/v1/mfa/webauthn/{deviceId}/disable/verify',
  /** "MFA strategies config is read": which methods the vendor has turned on. */
  strategiesConfig: '/identity/resources/configurations/v1/mfa-strategies',
  // Reset phone number (a lost phone) and the signed-in user's phone change (seed 000 section 7.3)
  phoneReset: '/identity/resources/users/v1/phone/reset',
  phoneResetVerify: '/identity/resources/users/v1/phone/reset/verify',
  phoneChange: '/identity/resources/users/v1/phone/change',
  phone: '/identity/resources/users/v1/phone',
  phoneVerify: '/identity/resources/users/v1/phone/verify',
} as const;

/** A new-device session's deviceType (seed 000 section 3): this device's own authenticator, or a roaming one. */
export const WebAuthnAttachments = { platform: 'platform', crossPlatform: 'cross-platform' } as const;
export type WebAuthnAttachment = (typeof WebAuthnAttachments)[keyof typeof WebAuthnAttachments];

/** MFA device types (seed 000 section 3). */
export const MfaDeviceTypes = { internal: 'internal', usbKey: 'usb-key', android: 'android', sms: 'sms' } as const;
export type MfaDeviceType = (typeof MfaDeviceTypes)[keyof typeof MfaDeviceTypes];
