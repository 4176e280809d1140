/**
 * The framework-agnostic auth store (seed 000 section 4): jotai state exposed as
 * subscribe/getSnapshot, plus the sign-in side flows. Bundles render it; they never own this logic.
 */
import { createStore, type PrimitiveAtom } from 'jotai/vanilla';
import type { AuthRoutes, AuthUser, GatehouseApi, GatehouseStore } from '../core/types';
import type { LoginResponse, MeResponse } from '../wire';
import {
  AFTER_AUTH_REDIRECT_KEY,
  PROFILE_LOAD_RETRIES,
  PROFILE_LOAD_RETRY_DELAY_MS,
  TOKEN_REFRESH_MARGIN_MS,
} from '../constants';
import { toGatehouseError } from '../errors';
import { getAfterAuthTarget, getValidRedirectUrl } from '../redirect';
import { createAuthAtoms, initialLogin, initialPasskeys, initialProfile, initialSignUp } from './state';
import { createTrackedTimers, systemTimers, type Timers } from './timers';
import { isNoSessionAnswer, type SessionHint } from './session-hint';
import type { FlowContext } from './flow-context';
import type { ActivationFlow } from './flows/activation';
import type { RecoveryFlow } from './flows/recovery';
import type { PasskeysFlow } from './flows/passkeys';
import type { MfaFlow } from './flows/mfa';
import type { MfaFactorsFlow } from './flows/mfa-factors';
import type { PhoneChangeFlow } from './flows/phone-change';
import type { InvitationFlow } from './flows/invitations';
import type { ImpersonationFlow } from './flows/impersonation';
import type { SmsLoginFlow } from './flows/sms-login';
import type { SocialFlow } from './flows/social';
import type { InviteLinkFlow } from './flows/invite-link';
import { INVITE_LINK_KEY } from './flows/invite-link-key';
import { lazyFlow } from './flows/lazy';
import { createCaptchaFlow } from './flows/captcha';
import { createLazyPoliciesFlow } from './flows/policies-lazy';
import { createLazyPasswordlessFlow } from './flows/passwordless-lazy';
import type { SsoFlow } from './flows/sso';
import type { SsoPreLoginResponse } from '../wire/sso/sso';
import { SSO_PRELOGIN_PATH } from '../wire/sso/prelogin-path';
import { passwordlessTypeOf, usesUsername } from '../wire/auth/login-strategies';

/** The part of Web Storage the store uses. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface GatehouseStoreOptions {
  api: GatehouseApi;
  routes: AuthRoutes;
  navigate: (url: string, options?: { replace?: boolean }) => void;
  /** Where the after-auth redirect URL is kept (default `sessionStorage`; null: nowhere). */
  storage?: KeyValueStorage | null;
  now?: () => number;
  timers?: Timers;
  flags?: Record<string, string>;
  /** The page URL redirect targets are validated against (default `location.href`). */
  getCurrentUrl?: () => string;
  /** Other origins an after-auth redirect may go to. */
  allowedRedirectOrigins?: readonly string[];
  /** The "may have a session" mark the loader reads before asking refresh (session-hint.ts); none by default. */
  sessionHint?: SessionHint | null;
  /** After sign-in, a user in several tenants stays on the login box's signed-in step to choose one; continueNow() goes on. */
  chooseTenantAfterLogin?: boolean;
}

const BASE64_IMAGE = /^data:image\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/]+={0,2}$/i;

function defaultStorage(): KeyValueStorage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    // Access throws in sandboxed frames with storage disabled.
    return null;
  }
}

/** Creates the auth store. */
export function createGatehouseStore(options: GatehouseStoreOptions): GatehouseStore {
  const { api, routes, navigate } = options;
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  const now = options.now ?? Date.now;
  const timers = createTrackedTimers(options.timers ?? systemTimers);
  const getCurrentUrl = options.getCurrentUrl ?? (() => globalThis.location?.href ?? 'http://localhost/');
  const sessionHint = options.sessionHint ?? null;
  const jotai = createStore();
  const atoms = createAuthAtoms();
  const unsubscribers = new Set<() => void>();
  let refreshTimer: unknown = null;
  let disposed = false;
  let vendorPromise: Promise<void> | null = null;
  // Bumped whenever the session is replaced or cleared, so a late result of an older flow is dropped.
  let sessionEpoch = 0;

  const get = jotai.get;
  function set<T>(target: PrimitiveAtom<T>, value: T): void {
    if (!disposed) jotai.set(target, value);
  }
  function patch<T extends object>(target: PrimitiveAtom<T>, changes: Partial<T>): void {
    const next = { ...get(target), ...changes };
    // A new (or cleared) error without a code must not keep the code of the one it replaces.
    if ('error' in changes && !('errorCode' in changes)) delete (next as { errorCode?: unknown }).errorCode;
    set(target, next);
  }
  function go(url: string): void {
    if (!disposed) navigate(url);
  }
  // The one delayed navigation of a success state (seed 9's fixed waits); continueNow() takes it at once.
  let pendingGo: { timer: unknown; target: () => string } | null = null;
  function goAfter(ms: number, target: () => string): void {
    if (pendingGo) timers.cancel(pendingGo.timer);
    const entry = { target, timer: timers.after(ms, () => {
      if (pendingGo === entry) pendingGo = null;
      go(target());
    }) };
    pendingGo = entry;
  }

  // ---- session -------------------------------------------------------------------------------

  function setUser(me: MeResponse, login: LoginResponse): AuthUser {
    const user: AuthUser = { ...me, accessToken: login.accessToken, expiresAt: now() + login.expiresIn * 1000 };
    set(atoms.accessToken, login.accessToken);
    set(atoms.user, user);
    set(atoms.isLoading, false);
    scheduleRefresh(login.expiresIn);
    // Every way in ends here (hydrate included): the next page load asks refresh again.
    if (!disposed) sessionHint?.set();
    return user;
  }

  /** Signed out locally; `error` is why, when the server answered that there is no session. */
  function clearSession(error?: unknown): void {
    // Only the server's word ends the hint: a network failure leaves it, and the next load asks again.
    if (error !== undefined && isNoSessionAnswer(toGatehouseError(error).statusCode)) sessionHint?.clear();
    sessionEpoch += 1;
    timers.cancel(refreshTimer);
    refreshTimer = null;
    set(atoms.accessToken, null);
    set(atoms.user, null);
    set(atoms.isLoading, false);
  }

  function scheduleRefresh(expiresInSeconds: number): void {
    timers.cancel(refreshTimer);
    const lifetime = Math.max(0, expiresInSeconds * 1000);
    const delay = Math.max(1000, lifetime - Math.min(TOKEN_REFRESH_MARGIN_MS, lifetime * 0.2));
    refreshTimer = timers.after(delay, () => {
      refreshTimer = null;
      void refreshToken();
    });
  }

  async function refreshToken(): Promise<void> {
    const epoch = sessionEpoch;
    try {
      const login = await api.refresh();
      if (disposed || epoch !== sessionEpoch) return;
      set(atoms.accessToken, login.accessToken);
      const user = get(atoms.user);
      if (user) set(atoms.user, { ...user, accessToken: login.accessToken, expiresAt: now() + login.expiresIn * 1000 });
      scheduleRefresh(login.expiresIn);
    } catch (error) {
      // Seed 4.10: a refresh failure clears the token and the user.
      if (epoch === sessionEpoch) clearSession(error);
    }
  }

  /** GET me, retried (seed 4.10: 3 attempts, 2000 ms apart); 401/403 are final. */
  async function loadMe(): Promise<MeResponse> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= PROFILE_LOAD_RETRIES; attempt += 1) {
      try {
        return await api.me();
      } catch (error) {
        lastError = error;
        const status = toGatehouseError(error).statusCode;
        if (status === 401 || status === 403 || attempt === PROFILE_LOAD_RETRIES || disposed) break;
        await timers.sleep(PROFILE_LOAD_RETRY_DELAY_MS);
      }
    }
    throw lastError;
  }

  /** Token -> me -> user. The token is set first because `me` needs it. */
  async function establishSession(login: LoginResponse): Promise<AuthUser> {
    sessionEpoch += 1;
    set(atoms.accessToken, login.accessToken);
    try {
      // Every sign-in ends here: a kept invite link is joined first (flows/invite-link.ts, its own
      // chunk; if that chunk cannot load, the sign-in goes on without joining).
      if (pendingInvite()) login = (await inviteLinkFlow.joinInviteLink(login)) ?? login;
      return setUser(await loadMe(), login);
    } catch (error) {
      clearSession();
      throw error;
    }
  }

  function afterAuthTarget(): string {
    let stored: string | null = null;
    try {
      stored = storage?.getItem(AFTER_AUTH_REDIRECT_KEY) ?? null;
      storage?.removeItem(AFTER_AUTH_REDIRECT_KEY);
    } catch {
      stored = null;
    }
    const valid = stored ? getValidRedirectUrl(stored, { currentUrl: getCurrentUrl(), allowedOrigins: options.allowedRedirectOrigins ?? [], enforceSameSite: true }) : null;
    return getAfterAuthTarget(valid, routes);
  }

  async function completeLogin(response: LoginResponse): Promise<void> {
    const user = await establishSession(response);
    // Seed 4.2: with every other post-login step done, the passkey prompt comes before navigating.
    if (await passkeysFlow.shouldPromptPasskeys()) {
      patch(atoms.login, { step: 'promptPasskeys', loading: false, error: null });
      return;
    }
    patch(atoms.login, { step: 'success', loading: false, error: null });
    // The login box's account choice (chooseTenantAfterLogin): the navigation waits for its Continue (continueNow).
    if (options.chooseTenantAfterLogin && user.tenants.length > 1) pendingGo = { timer: null, target: afterAuthTarget };
    else go(afterAuthTarget());
  }

  const captcha = createCaptchaFlow(api);
  const pendingInvite = () => storage?.getItem(INVITE_LINK_KEY) || undefined;

  const flowContext: FlowContext = {
    api,
    routes,
    atoms,
    timers,
    now,
    flags: options.flags ?? {},
    get,
    set,
    patch,
    go,
    goAfter,
    establishSession,
    afterAuthTarget,
    completeLogin,
    beginMfa: (response, email) => mfaFlow.beginMfa(response, email),
    captchaToken: captcha.token,
  };

  // ---- flows ---------------------------------------------------------------------------------

  // Each flow module is its own chunk, loaded on first use (flows/lazy.ts): most sign-ins never
  // reach MFA, passkeys, recovery or activation, so those bytes stay off the login form's path.
  const passkeysFlow = lazyFlow<PasskeysFlow>(flowContext, () => import('./flows/passkeys').then((m) => m.createPasskeysFlow(flowContext)), [
    'loginWithPasskey', 'registerPasskey', 'loadPasskeys', 'removePasskey', 'shouldPromptPasskeys', 'dismissPasskeyPrompt',
  ]);
  const mfaFlow = lazyFlow<MfaFlow>(flowContext, () => import('./flows/mfa').then((m) => m.createMfaFlow(flowContext)), [
    'beginMfa', 'verifyMfa', 'recoverMfa', 'sendMfaEmailCode', 'verifyMfaEmailCode', 'setMfaStep', 'setLoginMfaStep', 'startAuthenticatorEnrollment',
    'verifyAuthenticatorEnrollment', 'confirmRecoveryCodesSaved', 'startStepUp', 'loadMfaDevices', 'disableMfa',
  ]);
  const recoveryFlow = lazyFlow<RecoveryFlow>(flowContext, () => import('./flows/recovery').then((m) => m.createRecoveryFlow(flowContext)), [
    'startPasswordRecovery', 'forgotPassword', 'sendRecoveryEmail', 'sendRecoverySms', 'verifyPasswordViaSms', 'resetPassword', 'resetForgotPassword', 'changePassword',
  ]);
  const activationFlow = lazyFlow<ActivationFlow>(flowContext, () => import('./flows/activation').then((m) => m.createActivationFlow(flowContext)), [
    'startActivation', 'activate', 'activateWithCode', 'resendActivation',
  ]);
  const policiesFlow = createLazyPoliciesFlow(flowContext);
  const inviteLinkFlow = lazyFlow<InviteLinkFlow>(flowContext, () => import('./flows/invite-link').then((m) => m.createInviteLinkFlow(flowContext, storage)), ['verifyInviteLink', 'joinInviteLink']);
  const ssoFlow = lazyFlow<SsoFlow>(flowContext, () => import('./flows/sso').then((m) => m.createSsoFlow(flowContext)), ['redirectToSso', 'ssoPostLogin']);

  const store: GatehouseStore = {
    subscribe(listener) {
      if (disposed) return () => undefined;
      const unsubscribe = jotai.sub(atoms.snapshot, listener);
      unsubscribers.add(unsubscribe);
      return () => {
        unsubscribe();
        unsubscribers.delete(unsubscribe);
      };
    },

    getSnapshot: () => get(atoms.snapshot),

    getAccessToken: () => get(atoms.accessToken),

    hydrate(session) {
      if (!session) {
        clearSession();
        return;
      }
      sessionEpoch += 1;
      setUser(session.me, session.login);
    },

    async loadSession() {
      // Known signed out (no hint): asking would only earn a 401 in the console.
      if (sessionHint && !sessionHint.mayHaveSession()) return clearSession();
      set(atoms.isLoading, true);
      const epoch = ++sessionEpoch;
      try {
        const login = await api.refresh();
        if (disposed || epoch !== sessionEpoch) return;
        set(atoms.accessToken, login.accessToken);
        const me = await loadMe();
        if (disposed || epoch !== sessionEpoch) return;
        setUser(me, login);
      } catch (error) {
        // No refresh cookie or an expired session: signed out, not an error.
        if (epoch === sessionEpoch) clearSession(error);
      }
    },

    dispose() {
      timers.cancelAll();
      refreshTimer = null;
      for (const unsubscribe of unsubscribers) unsubscribe();
      unsubscribers.clear();
      disposed = true;
    },

    async preLogin(email) {
      const trimmed = email.trim();
      if (!trimmed) {
        patch(atoms.login, { error: 'Email is required', email: '' });
        return;
      }
      // A head start: the captcha policy (and, when on, its script) loads while the user goes on.
      captcha.prepare();
      if (!get(atoms.vendor) && vendorPromise) await vendorPromise;
      // Seed 4.2: SSO first. A failed lookup is swallowed (seed 8): no SSO, sign-in goes on below.
      patch(atoms.login, { loading: true, error: null });
      const sso = await api.request<SsoPreLoginResponse>('POST', SSO_PRELOGIN_PATH, { body: { email: trimmed } }).catch(() => null);
      if (sso?.address && sso.type) return ssoFlow.redirectToSso(trimmed, { address: sso.address, type: sso.type });
      // NoLocalAuthentication: no password step (the server refuses it anyway); only SSO signs in.
      if (get(atoms.vendor)?.loginStrategy === 'NoLocalAuthentication') return patch(atoms.login, { loading: false, error: 'Sign-in with a password, link or code is turned off for this application; use single sign-on instead' });
      // The login policy decides: MagicLink and Code (and their Username variants) email a link or a code, SMS strategies text one.
      const type = passwordlessTypeOf(get(atoms.vendor)?.loginStrategy);
      if (type === 'smscode') return store.smsPreLogin(trimmed);
      if (type) return store.passwordlessPreLogin(trimmed);
      set(atoms.login, { ...initialLogin, email: trimmed, step: 'loginWithPassword' });
    },

    async login({ email, password }) {
      patch(atoms.login, { email, loading: true, error: null });
      try {
        // Username* strategies: what was typed is a username unless it is an email.
        const response = await api.login({ ...(usesUsername(get(atoms.vendor)?.loginStrategy) && !email.includes('@') ? { username: email } : { email }), password, recaptchaToken: await captcha.token('login') });
        if (response.mfaRequired) {
          // Seed 4.2: the session is not set until MFA is verified.
          await mfaFlow.beginMfa(response, email);
          return;
        }
        // Expired, breached or about to expire: the password-policy steps (seed 4.2).
        if (await policiesFlow.afterLogin(response, { email, password })) return;
        await completeLogin(response);
      } catch (error) {
        const { message, errorCode } = toGatehouseError(error);
        patch(atoms.login, { loading: false, error: message, errorCode, email });
      }
    },

    resetLogin() {
      set(atoms.login, { ...initialLogin, email: get(atoms.login).email });
    },

    continueNow() {
      const pending = pendingGo;
      if (!pending) return;
      pendingGo = null;
      timers.cancel(pending.timer);
      go(pending.target());
    },

    async signUp(input) {
      set(atoms.signUp, { ...initialSignUp, loading: true, email: input.email });
      try {
        const response = await api.signUp({ ...input, invitationToken: pendingInvite(), recaptchaToken: await captcha.token('signup') });
        if (!response.shouldActivate && response.authResponse) {
          if (response.authResponse.mfaRequired) {
            set(atoms.signUp, { ...initialSignUp, email: input.email });
            const mfaToken = response.authResponse.mfaToken;
            set(atoms.login, { ...initialLogin, email: input.email, step: 'loginWithTwoFactor', ...(mfaToken ? { mfaToken } : {}) });
            go(routes.loginUrl);
            return;
          }
          await establishSession(response.authResponse);
          set(atoms.signUp, { ...initialSignUp, email: input.email });
          go(afterAuthTarget());
          return;
        }
        // The link went with the sign-up (the server joins at activation): used up, never a later sign-in's.
        storage?.removeItem(INVITE_LINK_KEY);
        if (response.shouldActivate && response.activationToken) {
          const query = new URLSearchParams({ userId: response.userId, token: response.activationToken });
          set(atoms.signUp, { ...initialSignUp, email: input.email });
          go(`${routes.activateWithOTCUrl}?${query.toString()}`);
          return;
        }
        set(atoms.signUp, { stage: 'SignUpSuccess', loading: false, error: null, email: input.email });
      } catch (error) {
        const { message, errorCode } = toGatehouseError(error);
        set(atoms.signUp, { ...initialSignUp, email: input.email, error: message, ...(errorCode ? { errorCode } : {}) });
      }
    },

    async logout() {
      // First: hosted login's logout leaves the page and never comes back to this method.
      sessionHint?.clear();
      try {
        await api.logout();
      } catch {
        // Signing out locally must work offline too; the refresh cookie expires on its own.
      }
      clearSession();
      set(atoms.login, initialLogin);
      set(atoms.profile, initialProfile);
      set(atoms.passkeys, initialPasskeys);
      go(routes.loginUrl);
    },

    async updateProfile({ profileImage, ...changes }) {
      set(atoms.profile, { saving: true, error: null, saved: false });
      try {
        const current = get(atoms.user);
        const body = { ...changes };
        // Seed 001 section 5: upload only a base64 image data URL that differs from the current picture.
        if (profileImage && BASE64_IMAGE.test(profileImage) && profileImage !== current?.profilePictureUrl) {
          const { profilePictureUrl } = await api.uploadProfileImage(profileImage);
          body.profilePictureUrl = profilePictureUrl;
        }
        const me = await api.updateMe(body);
        const user = get(atoms.user);
        if (user) set(atoms.user, { ...user, ...me });
        set(atoms.profile, { saving: false, error: null, saved: true });
      } catch (error) {
        set(atoms.profile, { saving: false, error: toGatehouseError(error).message, saved: false });
      }
    },

    async switchTenant(tenantId) {
      await api.switchTenant(tenantId);
      const login = await api.refresh(tenantId);
      await establishSession(login);
    },

    loadVendor() {
      vendorPromise ??= api.vendorPublic().then(
        (vendor) => set(atoms.vendor, vendor),
        () => {
          vendorPromise = null;
        },
      );
      return vendorPromise;
    },

    // Flow modules (shared/src/auth/flows/*) add their methods here, loaded on demand (flows/lazy.ts).
    ...captcha.methods,
    ...activationFlow,
    ...recoveryFlow,
    ...passkeysFlow,
    ...mfaFlow,
    ...policiesFlow.methods,
    ...createLazyPasswordlessFlow(flowContext),
    ...ssoFlow,
    ...inviteLinkFlow,
    ...lazyFlow<MfaFactorsFlow>(flowContext, () => import('./flows/mfa-factors').then((m) => m.createMfaFactorsFlow(flowContext)), [
      'sendMfaSmsCode', 'verifyMfaSmsCode', 'startSmsEnrollment', 'verifyMfaWebAuthn', 'enrollMfaWebAuthn', 'loadMfaStrategies', 'removeMfaDevice',
    ]),
    ...lazyFlow<PhoneChangeFlow>(flowContext, () => import('./flows/phone-change').then((m) => m.createPhoneChangeFlow(flowContext)), ['resetPhoneNumber', 'verifyResetPhoneNumber', 'changePhoneNumber', 'verifyPhoneNumber']),
    ...lazyFlow<InvitationFlow>(flowContext, () => import('./flows/invitations').then((m) => m.createInvitationFlow(flowContext)), ['startInvitation', 'acceptInvitation', 'resendInvitation']),
    ...lazyFlow<ImpersonationFlow>(flowContext, () => import('./flows/impersonation').then((m) => m.createImpersonationFlow(flowContext)), ['impersonate']),
    ...lazyFlow<SmsLoginFlow>(flowContext, () => import('./flows/sms-login').then((m) => m.createSmsLoginFlow(flowContext)), ['smsPreLogin', 'loginWithSmsOtc', 'signUpWithPhone', 'sendSignUpPhoneCode']),
    ...lazyFlow<SocialFlow>(flowContext, () => import('./flows/social').then((m) => m.createSocialFlow(flowContext)), ['loadSocialProviders', 'startSocialLogin', 'socialLoginPostLogin']),
  };
  void flowContext;
  return store;
}
