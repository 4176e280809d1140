/**
 * API paths, relative to the base URL (seed 000 section 7). Plain data shared by the server's
 * routes and the browser's API client, so the two can never drift apart.
 */
/**
 * The four calls the stage-1 loader makes, as separate constants: a bundler cannot drop unused
 * properties of one object, and the loader must stay within its 4 KB budget.
 */
export const BootPaths = {
  flags: '/flags',
  metadata: '/metadata',
  refresh: '/identity/resources/auth/v1/user/token/refresh',
  me: '/identity/resources/users/v2/me',
} as const;

export const ApiPaths = {
  jwks: '/.well-known/jwks.json',
  openapi: '/openapi.json',
  flags: BootPaths.flags,
  metadata: BootPaths.metadata,
  metadataIp: '/metadata/ip',
  vendorPublic: '/vendors/public',
  accountSettingsPublic: '/tenants/resources/account-settings/v1/public',
  captchaPolicyPublic: '/identity/resources/configurations/v1/captcha-policy/public',

  login: '/identity/resources/auth/v1/user',
  refresh: BootPaths.refresh,
  logout: '/identity/resources/auth/v1/logout',

  me: BootPaths.me,
  meAuthorization: '/identity/resources/users/v1/me/authorization',
  meTenantsV1: '/identity/resources/users/v1/me/tenants',
  meTenantsV2: '/identity/resources/users/v2/me/tenants',
  meTenantsV3: '/identity/resources/users/v3/me/tenants',
  switchTenant: '/identity/resources/users/v1/tenant',
  profileImage: '/team/resources/profile/me/image/v1',
  profilePicture: '/identity/resources/users/v1/profile-pictures', // + '/:id'

  signUp: '/identity/resources/users/v1/signUp',
  signUpStrategies: '/identity/resources/users/v1/signUp/strategies',
  signUpPhoneNumber: '/identity/resources/users/v1/signUp/phoneNumber',
  activate: '/identity/resources/users/v1/activate',
  activateResend: '/identity/resources/users/v1/activate/reset',
  activateStrategy: '/identity/resources/users/v1/activate/strategy',
  passwordsConfig: '/identity/resources/users/v1/passwords/config',
  passwordsReset: '/identity/resources/users/v1/passwords/reset',
  passwordsResetVerify: '/identity/resources/users/v1/passwords/reset/verify',
  passwordsChange: '/identity/resources/users/v1/passwords/change',
  passwordsResetEmailV2: '/identity/resources/users/v2/passwords/reset/email',
  passwordsResetSmsV2: '/identity/resources/users/v2/passwords/reset/sms',
  passwordsResetSmsVerifyV2: '/identity/resources/users/v2/passwords/reset/sms/verify',
  passwordRecoveryStrategies: '/identity/resources/users/v1/passwords/recovery/strategies',
  unlockAccount: '/identity/resources/users/v3/me/unlock',

  // Invitations (seed 000 sections 4.4, 7.3) and impersonation (seed 000 section 4.7, seed 001 section 7)
  inviteUser: '/identity/resources/users/v1',
  invitationVerify: '/identity/resources/users/v1/invitation/verify',
  invitationAccept: '/identity/resources/users/v1/invitation/accept',
  invitationAcceptCode: '/identity/resources/users/v1/invitation/accept/code',
  invitationResend: '/identity/resources/users/v1/invitation/reset',
  impersonation: '/identity/resources/impersonation/v1',
  impersonate: '/identity/resources/auth/v1/impersonate',

  // Passwordless sign-in (seed 000 section 7.2); {type} is magiclink, code or smscode
  passwordlessPreLogin: '/identity/resources/auth/v1/passwordless/{type}/prelogin',
  passwordlessPostLogin: '/identity/resources/auth/v1/passwordless/{type}/postlogin',

  // Passkeys (seed 000 section 7.2): sign-in, and the signed-in user's own passkeys
  webauthnPreLogin: '/identity/resources/auth/v1/webauthn/prelogin',
  webauthnPostLogin: '/identity/resources/auth/v1/webauthn/postlogin',
  webauthnDevices: '/identity/resources/users/webauthn/v1/devices',
  webauthnDevicesVerify: '/identity/resources/users/webauthn/v1/devices/verify',
  webauthnDevice: '/identity/resources/users/webauthn/v1/devices/{deviceId}',

  // MFA at sign-in and step-up (seed 000 section 7.2)
  mfaVerify: '/identity/resources/auth/v1/user/mfa/verify',
  mfaRecover: '/identity/resources/auth/v1/user/mfa/recover',
  mfaEmailCodePreVerify: '/identity/resources/auth/v1/user/mfa/emailcode',
  mfaEmailCodeVerify: '/identity/resources/auth/v1/user/mfa/emailcode/verify',
  mfaLoginAuthenticatorEnroll: '/identity/resources/auth/v1/user/mfa/authenticator/enroll',
  mfaLoginAuthenticatorEnrollVerify: '/identity/resources/auth/v1/user/mfa/authenticator/enroll/verify',
  mfaRememberDevice: '/identity/resources/auth/v1/user/mfa/remember-device',
  stepUpGenerate: '/identity/resources/auth/v1/user/step-up/generate',
  // MFA management of the signed-in user (seed 000 section 7.3)
  mfaStatus: '/identity/resources/users/v1/mfa',
  mfaDevices: '/identity/resources/users/v1/mfa/devices',
  mfaDeviceDisable: '/identity/resources/users/v1/mfa/devices/{deviceId}/disable',
  mfaDisable: '/identity/resources/users/v1/mfa/disable',
  mfaAuthenticatorEnroll: '/identity/resources/users/v1/mfa/authenticator/enroll',
  mfaAuthenticatorEnrollVerify: '/identity/resources/users/v1/mfa/authenticator/enroll/verify',
  mfaEmailCodeEnroll: '/identity/resources/users/v1/mfa/emailcode/enroll',
  mfaEmailCodeEnrollVerify: '/identity/resources/users/v1/mfa/emailcode/enroll/verify',
} as const;

/** Cookie path that covers refresh and logout, so the refresh token is sent nowhere else. */
export const REFRESH_COOKIE_PATH = '/identity/resources/auth';

/** Name of the httpOnly refresh-token cookie for a client id (dashes removed, seed 000 section 9). */
export function refreshCookieName(clientId: string): string {
  return `gatehouse-refresh-${clientId.replace(/-/g, '')}`;
}
