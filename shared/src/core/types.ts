/**
 * The browser-side contract between the runtime (loader stage 2) and the bundles.
 * A bundle's `./mount` export receives {@link MountProps}; everything it needs comes from here.
 * No React in this folder: bundles wrap the store with `useSyncExternalStore`.
 */
import type { LoginResponse, MeResponse, SignUpRequest, SignUpResponse, UpdateMeRequest, ActivateRequest, PasswordConfig, VendorPublicConfig, MeTenantsV3Response } from '../wire';

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
  | 'passwordRotationExpired' | 'passwordRotationNotification' | 'magicLinkPostLoginSuccess';

export type SignUpStage = 'SignUp' | 'SignUpSuccess' | 'VerifyPhone';
export type ActivateStep = 'activating' | 'activatingForm' | 'success' | 'resend' | 'failed';

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
  login: { step: LoginStep; email: string; loading: boolean; error: string | null; mfaToken?: string; tenants?: unknown[] };
  signUp: { stage: SignUpStage; loading: boolean; error: string | null; email?: string };
  activate: { step: ActivateStep; loading: boolean; error: string | null; resendSent: boolean };
  profile: { saving: boolean; error: string | null; saved: boolean };
  vendor: VendorPublicConfig | null;
}

/** Framework-agnostic auth store: subscribe/snapshot plus the flows. Bundles never own auth logic. */
export interface GatehouseStore {
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
  signUp(input: SignUpRequest): Promise<void>;
  /** Reads activate/strategy and moves to `activatingForm` or activates directly. */
  startActivation(input: { userId: string; token: string }): Promise<void>;
  activate(input: ActivateRequest): Promise<void>;
  resendActivation(email: string): Promise<void>;
  logout(): Promise<void>;
  updateProfile(input: UpdateMeRequest & { profileImage?: string }): Promise<void>;
  switchTenant(tenantId: string): Promise<void>;
  /** Loads the vendor's public config into `snapshot.vendor` once (sign-up allowed, password policy). Never throws. */
  loadVendor(): Promise<void>;
}

/** Typed calls of the identity API used by the flows (shared/src/api). */
export interface GatehouseApi {
  request<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, options?: { body?: unknown; query?: Record<string, unknown>; responseType?: 'json' | 'text' | 'blob' | 'stream' }): Promise<T>;
  login(body: { email: string; password: string; recaptchaToken?: string; invitationToken?: string }): Promise<LoginResponse>;
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

/** Theme tokens the loader applies from metadata through the bundle's themeSetter. */
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
  setThemeSetter(setter: (theme: ThemeTokens) => void): void;
}
