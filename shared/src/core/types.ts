/**
 * The browser-side contract between the runtime (loader stage 2) and the bundles.
 * A bundle's `./mount` export receives {@link MountProps}; everything it needs comes from here.
 * No React in this folder: bundles wrap the store with `useSyncExternalStore`.
 */
import type { LoginResponse, MeResponse, SignUpRequest, SignUpResponse, UpdateMeRequest, ActivateRequest, ActivateWithCodeRequest, PasswordConfig, VendorPublicConfig, MeTenantsV3Response } from '../wire';
import type { MfaDevices, MfaStrategyState } from '../wire/mfa/mfa';
import type { PhoneSignUpRequest } from '../wire/users/signup';
import type { SocialLoginResult } from '../wire/social/login';
import type { CaptchaAction, CaptchaPolicyResponse } from '../wire/platform/captcha';
import type { PasskeyAuthenticationCredential, PasskeyAuthenticationOptions, PasskeyDevice, PasskeyRegistrationCredential, PasskeyRegistrationOptions } from '../wire/passwordless/webauthn';
import type { ResolvedTheme } from '../theme';

/** Error object of seed 000 section 3, produced by the API client for every failed call. */
export interface GatehouseError {
  kind: 'GatehouseError';
  message: string;
  statusCode: number;
  traceId?: string;
  errorCode?: string;
  errorContext?: Record<string, unknown>;
}

/** Route settings (seed 000 section 2.1); all configurable through `authOptions.routes`. */
export interface AuthRoutes {
  authenticatedUrl: string;
  loginUrl: string;
  stepUpUrl: string;
  logoutUrl: string;
  activateUrl: string;
  activateWithOTCUrl: string;
  impersonationUrl: string;
  acceptInvitationUrl: string;
  acceptInvitationWithOTCUrl: string;
  forgetPasswordUrl: string;
  resetPasswordUrl: string;
  resetPhoneNumberUrl: string;
  socialLoginCallbackUrl: string;
  signUpUrl: string;
  oidcRedirectUrl: string;
  samlCallbackUrl: string;
  magicLinkCallbackUrl: string;
  hostedLoginRedirectUrl: string;
  openAppUrl: string;
  unlockAccountUrl: string;
  mfaMobileAuthenticator: string;
  customLoginUrl?: string;
  signUpSuccessUrl?: string;
}

export type LoginStep =
  | 'preLogin' | 'magicLinkPreLoginSuccess' | 'loginWithSmsOtc' | 'loginWithQuickSmsOtc' | 'loginWithOtc'
  | 'loginWithPassword' | 'loginWithTwoFactor' | 'redirectToSSO' | 'loginWithSSOFailed' | 'success'
  | 'forceTwoFactor' | 'recoverTwoFactor' | 'promptPasskeys' | 'breachedPassword' | 'breachedPasswordSuccess'
  | 'passwordRotationExpired' | 'passwordRotationNotification' | 'magicLinkPostLoginSuccess'
  /** The oidcRedirectUrl route answered an SSO connection test an admin started (issue 15): nobody signed in, the window can be closed. */
  | 'ssoTestComplete';

export type SignUpStage = 'SignUp' | 'SignUpSuccess' | 'VerifyPhone';
/** Login modes (seed 000 section 2.2): registerQuickLogin is the SMS code login that finishes a phone sign-up. */
export type LoginMode = 'login' | 'registerQuickLogin';
export type ActivateStep = 'activating' | 'activatingForm' | 'success' | 'resend' | 'failed';
/** Forgot/reset password steps (seed 000 section 4.6). */
export type ForgotPasswordStep = 'forgotPassword' | 'resetPasswordViaSms' | 'passwordRecoverySelector' | 'resetPasswordPage' | 'forgotPasswordEmailSuccess' | 'resetPasswordSuccess';

/** Forgot-password state: the typed identifier, the SMS session, and the reset token an SMS code gave. */
export interface ForgotPasswordState {
  step: ForgotPasswordStep;
  identifier: string;
  loading: boolean;
  error: string | null;
  /** The API's errorCode of `error`, when a call failed (the UI words known codes itself). */
  errorCode?: string;
  sessionId?: string;
  userId?: string;
  token?: string;
  /** resetPasswordSuccess: the reset also signed the user in. */
  signedIn?: boolean;
}

/** The signed-in user: `me` plus the token the API client uses. */
export interface AuthUser extends MeResponse {
  accessToken: string;
  expiresAt: number;
}

/** Immutable snapshot of the auth state; a new object on every change. */
export interface AuthSnapshot {
  isLoading: boolean;
  isAuthenticated: boolean;
  user: AuthUser | null;
  /** `email` holds the typed identifier (email, username or phone number); `phoneNumber` where an SMS code went (masked). */
  login: { step: LoginStep; email: string; loading: boolean; error: string | null; errorCode?: string; mfaToken?: string; tenants?: unknown[]; isBreachedPassword?: boolean; passwordExpiresInDays?: number; mode?: LoginMode; phoneNumber?: string };
  signUp: { stage: SignUpStage; loading: boolean; error: string | null; errorCode?: string; email?: string; phoneNumber?: string };
  activate: { step: ActivateStep; loading: boolean; error: string | null; errorCode?: string; resendSent: boolean };
  forgotPassword: ForgotPasswordState;
  profile: { saving: boolean; error: string | null; saved: boolean };
  vendor: VendorPublicConfig | null;
  passkeys: PasskeysState;
  mfa: MfaState;
  invitation: InvitationState;
  impersonation: ImpersonationState;
  /** Social login: null until the providers are first loaded (only when the vendor has some). */
  social: SocialLoginState | null;
  resetPhoneNumber: ResetPhoneNumberState;
}

/** A social login button: a built-in provider (`google`...) or a custom provider's id. */
export interface SocialProviderView {
  id: string;
  displayName: string;
  custom: boolean;
}

/** The social login slice: the enabled providers, a sign-in being started, and the last result (seed 000 section 3). */
export interface SocialLoginState {
  providers: SocialProviderView[];
  loading: boolean;
  error: string | null;
  result: SocialLoginResult | null;
}

/** Accept-invitation steps (seed 000 section 4.4); `invalid`: the link lacks its token or userId. */
export type AcceptInvitationStep = 'validate' | 'invalid' | 'pending' | 'success' | 'failed';

/** The accept-invitation slice: the greeting the link verified to, and how acceptance ended. */
export interface InvitationState {
  step: AcceptInvitationStep;
  loading: boolean;
  error: string | null;
  name?: string;
  email?: string;
  tenantName?: string;
  /** A new account chooses its password on acceptance. */
  shouldSetPassword: boolean;
  /** The emailed code is needed too (the code route). */
  codeRequired: boolean;
  /** signedIn: the new account is signed in; joined: an existing account joined and signs in next. */
  outcome?: 'signedIn' | 'joined';
  resendSent: boolean;
}

/** Impersonation steps (seed 000 section 4.7): impersonating (exchanging the token, or its error), success. */
export interface ImpersonationState {
  step: 'impersonating' | 'success';
  error: string | null;
}

/** Framework-agnostic auth store: subscribe/snapshot plus the flows. Bundles never own auth logic. */
export interface GatehouseStore extends MfaFactorMethods {
  subscribe(listener: () => void): () => void;
  getSnapshot(): AuthSnapshot;
  /** The current access token (also while MFA or the profile load is pending), for the API client. */
  getAccessToken(): string | null;
  /** Session restore at start: refresh cookie -> access token -> me. Never throws. */
  loadSession(): Promise<void>;
  /** Seeds the store with a session the loader already fetched (null: no user). */
  hydrate(session: { login: LoginResponse; me: MeResponse } | null): void;
  /** Stops timers (token refresh) and listeners; the store is unusable afterwards. */
  dispose(): void;
  preLogin(email: string): Promise<void>;
  login(input: { email: string; password: string }): Promise<void>;
  /** Back to preLogin, keeping the email. */
  resetLogin(): void;
  /** A success state waiting out the seed's delay (activation, magic link, invitation, unlock, reset): navigates now instead. */
  continueNow(): void;
  /** passwordRotationExpired: sets a new password with the sign-in's reset token, then signs in with it. */
  setRotatedPassword(password: string): Promise<void>;
  /** passwordRotationNotification: goes on to the app (after changing the password or not). */
  continueAfterRotationNotice(): Promise<void>;
  /** breachedPassword: emails a link to set a new password, then breachedPasswordSuccess. */
  sendBreachedPasswordReset(): Promise<void>;
  /** Unlock account (seed 4.7): posts the emailed token, then navigates to the login route after 5 s; rejects with a GatehouseError. */
  unlockAccount(token: string): Promise<void>;
  /** Passwordless strategies: emails a magic link (magicLinkPreLoginSuccess) or a code (loginWithOtc) to the email or username. */
  passwordlessPreLogin(identifier: string): Promise<void>;
  /** The loginWithOtc step: signs in with the emailed code. */
  loginWithOtc(code: string): Promise<void>;
  /** The magic-link callback route: signs in with the link's token, shows magicLinkPostLoginSuccess for 5 s, then navigates. */
  magicLinkPostLogin(token: string): Promise<void>;
  /** The samlCallbackUrl / oidcRedirectUrl routes: finishes an SSO sign-in from the route's query; a failure shows loginWithSSOFailed, then the authenticated URL after 1 s. */
  ssoPostLogin(type: 'saml' | 'oidc', search: string): Promise<void>;
  /** SMS strategies (SmsCode: email, SmsCodeV2: phone number, UsernameAndSms: username): texts a code and moves to loginWithSmsOtc (loginWithQuickSmsOtc in registerQuickLogin mode). */
  smsPreLogin(identifier: string, options?: { mode?: LoginMode }): Promise<void>;
  /** loginWithSmsOtc and loginWithQuickSmsOtc: signs in with the texted code (a phone sign-up's code also verifies the number). */
  loginWithSmsOtc(code: string): Promise<void>;
  /** Sign-up by phone number, then (VerifyPhone) the texted code: moves to loginWithQuickSmsOtc on the login route (seed 4.2). */
  signUpWithPhone(input: PhoneSignUpRequest): Promise<void>;
  /** VerifyPhone: texts the phone sign-up's code (again) and moves to loginWithQuickSmsOtc. */
  sendSignUpPhoneCode(): Promise<void>;
  signUp(input: SignUpRequest): Promise<void>;
  /** Reads activate/strategy and moves to `activatingForm` or activates directly. */
  startActivation(input: { userId: string; token: string }): Promise<void>;
  activate(input: ActivateRequest): Promise<void>;
  /** Activation by the emailed code (activateWithOTCUrl): signed in as by the link, or the form kept with the error. */
  activateWithCode(input: ActivateWithCodeRequest): Promise<void>;
  resendActivation(email: string): Promise<void>;
  /** Forgot password: reads the recovery strategies; one active channel sends at once, two show passwordRecoverySelector. */
  startPasswordRecovery(identifier: string): Promise<void>;
  /** v1 forgot password: emails a reset link to `email` (forgotPasswordEmailSuccess). */
  forgotPassword(email: string): Promise<void>;
  /** v2: emails a reset link to the account of the identifier (default: the one in state). */
  sendRecoveryEmail(identifier?: string): Promise<void>;
  /** v2: texts a code to the account's phone and moves to resetPasswordViaSms. */
  sendRecoverySms(identifier?: string): Promise<void>;
  /** Exchanges the SMS code for a reset token and moves to resetPasswordPage. */
  verifyPasswordViaSms(code: string): Promise<void>;
  /** Sets the new password with a reset link's (or SMS code's) userId and token: resetPasswordSuccess. */
  resetPassword(input: { userId: string; token: string; password: string }): Promise<void>;
  /** Back to the forgotPassword step, keeping the identifier. */
  resetForgotPassword(): void;
  /** The signed-in user's password change; rejects with a GatehouseError (e.g. wrong current password). */
  changePassword(input: { password: string; newPassword: string }): Promise<void>;
  logout(): Promise<void>;
  updateProfile(input: UpdateMeRequest & { profileImage?: string }): Promise<void>;
  switchTenant(tenantId: string): Promise<void>;
  /** Loads the vendor's public config into `snapshot.vendor` once (sign-up allowed, password policy). Never throws. */
  loadVendor(): Promise<void>;
  /** The public captcha policy, fetched on first use; null when it cannot be loaded (seed 8: swallowed, sign-in then goes on without captcha). */
  loadCaptchaPolicy(): Promise<CaptchaPolicy | null>;
  /** The bundle's reCAPTCHA client, asked for a token before each protected call while the policy is on; null removes it. */
  setCaptchaProvider(provider: CaptchaTokenProvider | null): void;
  /** Passkey sign-in (prelogin, the browser ceremony, postlogin); `email` limits it to that user's passkeys. */
  loginWithPasskey(ceremony: PasskeyLoginCeremony, email?: string): Promise<void>;
  /** Adds a passkey for the signed-in user; true when it was stored. */
  registerPasskey(ceremony: PasskeyRegistrationCeremony): Promise<boolean>;
  /** Loads the signed-in user's passkeys into `snapshot.passkeys.devices`. */
  loadPasskeys(): Promise<void>;
  removePasskey(id: string): Promise<void>;
  /** Whether the passkey prompt should follow this sign-in (seed 000 section 4.2; all five conditions). */
  shouldPromptPasskeys(): Promise<boolean>;
  /** Leaves the promptPasskeys step ("Not now", "Don't show again", or Continue after adding one). */
  dismissPasskeyPrompt(options?: { dontShowAgain?: boolean }): void;
  /** MFA at sign-in or step-up: checks an authenticator-app code against the pending mfaToken. */
  verifyMfa(input: { code: string; rememberDevice?: boolean }): Promise<void>;
  /** recoverTwoFactor: finishes the sign-in with a one-time recovery code. */
  recoverMfa(recoveryCode: string): Promise<void>;
  /** EmailCode pre-verify: emails a code and moves to emailVerifyCode. */
  sendMfaEmailCode(): Promise<void>;
  verifyMfaEmailCode(input: { code: string; rememberDevice?: boolean }): Promise<void>;
  /** Switches between the MFA steps the user may choose (verify, emailVerifyCode). */
  setMfaStep(step: MfaStep): void;
  /** Between loginWithTwoFactor and recoverTwoFactor. */
  setLoginMfaStep(step: 'loginWithTwoFactor' | 'recoverTwoFactor'): void;
  /** Authenticator enrolment (forceTwoFactor with the mfaToken, else for the signed-in user): QR, URI, secret. */
  startAuthenticatorEnrollment(): Promise<void>;
  /** Confirms the enrolment with the app's first code; moves to the recoveryCode step (seed 4.8). */
  verifyAuthenticatorEnrollment(code: string): Promise<void>;
  /** "I have saved them": leaves the recoveryCode step (navigates, or continues the step-up). */
  confirmRecoveryCodesSaved(): void;
  /** Step-up (seed 4.9): done at once when already stepped up within maxAge, else asks for a second factor. */
  startStepUp(input: { maxAge?: number }): Promise<void>;
  /** Loads the signed-in user's MFA devices into `snapshot.mfa.mfaDevices`. */
  loadMfaDevices(): Promise<void>;
  /** Removes every factor of the signed-in user (needs a current code or a recovery code). */
  disableMfa(code: string): Promise<void>;
  /** Accept invitation (seed 4.4): `invalid` without token or userId, else verifies the link and greets by name (`validate`), or `failed`. */
  startInvitation(input: { userId?: string | null; token?: string | null }): Promise<void>;
  /** `pending`, then `success` (signed in, or joined and sent to sign in); a failure goes back to `validate` (fixable, and always with a code) or to `failed`. */
  acceptInvitation(input: { userId: string; token: string; password?: string; code?: string }): Promise<void>;
  /** Emails a new invitation link; the same answer for any address. */
  resendInvitation(email: string): Promise<void>;
  /**
   * Invite link (`invitationToken` in the URL): the tenant's name for a live link, which is then kept
   * (sessionStorage) for the sign-up or the next sign-in of this tab; rejects with
   * 'We couldn't verify your invitation' (and forgets it) otherwise.
   */
  verifyInviteLink(token: string): Promise<{ name: string }>;
  /** After any sign-in with a kept invite link: joins its tenant and answers the session moved into it (else the login unchanged). */
  joinInviteLink(login: LoginResponse): Promise<LoginResponse>;
  /** Impersonation route (seed 4.7): exchanges the token (`impersonating`), shows `success`, navigates after 1 s. */
  impersonate(token: string | null): Promise<void>;
  /** Loads the enabled social login providers (v2 and custom) into `snapshot.social`. */
  loadSocialProviders(): Promise<void>;
  /** Starts a social sign-in: the server keeps state, nonce and PKCE, then the browser goes to the provider. */
  startSocialLogin(provider: string): Promise<void>;
  /** The social-login callback route: posts the provider's code and state; on failure loginWithSSOFailed, then the authenticated URL after 1 s. */
  socialLoginPostLogin(search: string): Promise<void>;
}

/** The public captcha policy (GET captcha-policy/public). */
export type CaptchaPolicy = CaptchaPolicyResponse;

/**
 * Gives a reCAPTCHA v3 token for `action`, loading the script first if needed (with the page's CSP
 * nonce); without an action it only loads the script (a head start). Rejects with a GatehouseError
 * whose message the user can act on when the script cannot load or answer.
 */
export type CaptchaTokenProvider = (policy: CaptchaPolicy, action?: CaptchaAction) => Promise<string | undefined>;

/** MFA steps (seed 000 section 2.2). */
export type MfaStep = 'verify' | 'recoveryCode' | 'authenticatorApp' | 'smsSetPhoneNumber' | 'smsVerifyCode' | 'emailVerifyCode' | 'noMFAEnrolledStepUp';

/** The MFA slice of the snapshot (seed 000 section 3 "MFA state"). */
export interface MfaState {
  step: MfaStep;
  /** login: a sign-in waiting for its second factor; stepUp: the step-up route; manage: the signed-in user's own enrolment. */
  context: 'login' | 'stepUp' | 'manage';
  loading: boolean;
  error: string | null;
  mfaToken: string | null;
  mfaDevices: MfaDevices | null;
  mfaStrategies: MfaStrategyState[];
  /** Enrolment: QR code image (data URL), otpauth:// URI and base32 secret for manual entry. */
  qrCode: string | null;
  uri: string | null;
  secret: string | null;
  /** Shown once after enrolment. */
  recoveryCodes: string[];
  otcToken: string | null;
  allowRememberDevice: boolean;
  rememberDeviceDays: number;
  /** The step-up's maxAge in seconds, if the route gave one. */
  maxAge: number | null;
  /** Step-up finished (verified now, or already within maxAge). */
  steppedUp: boolean;
  /** smsVerifyCode: the number the code went to, masked. */
  phoneNumber?: string | null;
}

/** Reset phone number steps (seed 000 section 2.2). */
export type ResetPhoneNumberStep = 'ResetPhoneNumber' | 'VerifyResetPhoneNumber' | 'ChangePhoneNumber';

/** Reset phone number (and the signed-in phone change, which uses ChangePhoneNumber). Tokens stay in the flow, never here. */
export interface ResetPhoneNumberState {
  step: ResetPhoneNumberStep;
  email: string;
  loading: boolean;
  error: string | null;
  /** ChangePhoneNumber: set (masked) once a code was texted to the new number. */
  phoneNumber?: string;
  /** The new number is proven and replaced the old one. */
  done?: boolean;
}

/** SMS and WebAuthn second factors, and phone-number reset and change (flows/mfa-factors.ts, flows/phone-change.ts). */
export interface MfaFactorMethods {
  /** SMS pre-verify at sign-in or step-up: texts a code, then smsVerifyCode. */
  sendMfaSmsCode(): Promise<void>;
  /** smsVerifyCode: finishes the sign-in or step-up, the SMS enrolment, or the phone's removal the code was sent for. */
  verifyMfaSmsCode(input: { code: string; rememberDevice?: boolean }): Promise<void>;
  /** smsSetPhoneNumber: texts the first code to the number (forceTwoFactor with the mfaToken, else for the signed-in user). */
  startSmsEnrollment(phoneNumber: string): Promise<void>;
  /** Signs in or steps up with an enrolled security key or this device's authenticator (the bundle runs the ceremony). */
  verifyMfaWebAuthn(ceremony: PasskeyLoginCeremony, input?: { rememberDevice?: boolean }): Promise<void>;
  /** Enrols WebAuthnPlatform (`platform`) or WebAuthnCrossPlatform (`cross-platform`); then the recoveryCode step. */
  enrollMfaWebAuthn(ceremony: PasskeyRegistrationCeremony, deviceType: 'platform' | 'cross-platform'): Promise<void>;
  /** Reads the MFA strategies config into `snapshot.mfa.mfaStrategies` (which methods are on). Never throws. */
  loadMfaStrategies(): Promise<void>;
  /** Removes one of the signed-in user's phones (a code is texted to it first: smsVerifyCode) or security keys (the key answers `ceremony`). */
  removeMfaDevice(deviceId: string, ceremony?: PasskeyLoginCeremony): Promise<void>;
  /** ResetPhoneNumber: emails a code to the account; then VerifyResetPhoneNumber (the same for any address). */
  resetPhoneNumber(email: string): Promise<void>;
  /** VerifyResetPhoneNumber: the emailed code; then ChangePhoneNumber. */
  verifyResetPhoneNumber(code: string): Promise<void>;
  /** ChangePhoneNumber: texts a code to the new number (after a reset, or for the signed-in user). */
  changePhoneNumber(phoneNumber: string): Promise<void>;
  /** The texted code: the new number replaces the old one (`done`). */
  verifyPhoneNumber(code: string): Promise<void>;
}

/** The passkeys slice of the snapshot. `devices` is null until loaded. */
export interface PasskeysState {
  devices: PasskeyDevice[] | null;
  loading: boolean;
  error: string | null;
  /** A passkey was just added in this session (the prompt shows its success). */
  registered: boolean;
}

/**
 * The browser half of a WebAuthn ceremony, given by the bundle (which loads @simplewebauthn/browser
 * lazily), so the core stays free of it: options in, the credential's JSON out.
 */
export type PasskeyLoginCeremony = (options: PasskeyAuthenticationOptions) => Promise<PasskeyAuthenticationCredential>;
export type PasskeyRegistrationCeremony = (options: PasskeyRegistrationOptions) => Promise<PasskeyRegistrationCredential>;

/** Typed calls of the identity API used by the flows (shared/src/api). */
export interface GatehouseApi {
  request<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, options?: { body?: unknown; query?: Record<string, unknown>; responseType?: 'json' | 'text' | 'blob' | 'stream' }): Promise<T>;
  /** Password sign-in by email, or by username under the Username* login strategies. */
  login(body: { email?: string; username?: string; password: string; recaptchaToken?: string; invitationToken?: string }): Promise<LoginResponse>;
  refresh(tenantId?: string): Promise<LoginResponse>;
  logout(): Promise<void>;
  me(): Promise<MeResponse>;
  updateMe(body: UpdateMeRequest): Promise<MeResponse>;
  uploadProfileImage(dataUrl: string): Promise<{ profilePictureUrl: string }>;
  meTenants(): Promise<MeTenantsV3Response>;
  switchTenant(tenantId: string): Promise<void>;
  signUp(body: SignUpRequest): Promise<SignUpResponse>;
  activate(body: ActivateRequest): Promise<LoginResponse>;
  activateStrategy(userId: string, token: string): Promise<{ shouldSetPassword: boolean }>;
  resendActivation(email: string): Promise<void>;
  passwordConfig(): Promise<PasswordConfig>;
  vendorPublic(): Promise<VendorPublicConfig>;
  flags(): Promise<Record<string, string>>;
  metadata(entityName: string): Promise<Record<string, unknown>>;
}

/** The flat legacy theme tokens (metadata and host options may still use them; see theme.ts). */
export interface ThemeTokens {
  primaryColor?: string;
  backgroundColor?: string;
  textColor?: string;
  borderRadius?: string;
  fontFamily?: string;
}

/** What every bundle's `mount` receives (DESIGN.md "Bundle contract"). */
export interface MountProps {
  /** A div inside the custom element's shadow root (or light DOM); styles go to its root node. */
  domElement: HTMLElement;
  store: GatehouseStore;
  api: GatehouseApi;
  routes: AuthRoutes;
  options: { flags: Record<string, string>; metadata: Record<string, unknown>; adminPortal?: Record<string, unknown>; [key: string]: unknown };
  /** Navigate within the host page (pushState + popstate) or, for a full URL, assign. */
  navigate(url: string, options?: { replace?: boolean }): void;
  /** The loader calls the setter with the theme it resolved from metadata (theme.ts). */
  setThemeSetter(setter: (theme: ResolvedTheme) => void): void;
  /** The checkout dialog (`app.showCheckoutDialog`/`hideCheckoutDialog`), so a bundle (the portal's plan cards) opens it without reaching for window. */
  checkout?: { show(options: { planId: string }): Promise<void>; hide(): void };
  /** The admin portal in multi-app mode (`app.showMultiAppsAdminPortal()`, only while the flag `multi-apps-admin-portal` is on). */
  multiApps?: boolean;
}
