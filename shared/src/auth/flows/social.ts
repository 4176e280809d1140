/**
 * Social login (seed 000 sections 1, 2.2, 4.2, 7.2): the provider buttons, starting a sign-in (the
 * server keeps state, nonce and PKCE; the browser goes to the provider), and the social-login callback
 * route (socialLoginCallbackUrl), which posts the provider's code and state and then ends like a
 * password sign-in (MFA first when required). A failure shows loginWithSSOFailed and goes to the
 * authenticated URL after 1 s; its message waits in sessionStorage and shows with the buttons.
 * Loaded on first use (flows/lazy.ts): only vendors with social providers ever fetch it.
 */
import type { GatehouseStore, SocialLoginState, SocialProviderView } from '../../core/types';
import { SSO_FAILURE_REDIRECT_DELAY_MS } from '../../constants';
import { ErrorMessages, toGatehouseError } from '../../errors';
import type { CustomSocialProvidersResponse, SocialPostLoginResponse, SocialProvidersV2Response } from '../../wire/social/login';
import { SOCIAL_LOGIN_ERROR_KEY, SocialLoginPaths, socialProviderOfState } from '../../wire/social/paths';
import type { FlowContext } from '../flow-context';
import { initialLogin } from '../state';
import { createNativeBridge } from '../native-bridge';

export type SocialFlow = Pick<GatehouseStore, 'loadSocialProviders' | 'startSocialLogin' | 'socialLoginPostLogin'>;

const withProvider = (template: string, provider: string) => template.replace('{provider}', encodeURIComponent(provider));

/** The page's social-login callback route as an absolute URL, without query or fragment. */
function callbackUrl(route: string): string {
  const url = new URL(route, globalThis.location?.href ?? 'http://localhost/');
  url.search = '';
  url.hash = '';
  return url.href;
}

export function createSocialFlow(ctx: FlowContext): SocialFlow {
  const { api, atoms, get, set } = ctx;
  const empty: SocialLoginState = { providers: [], loading: false, error: null, result: null };
  const social = () => get(atoms.social) ?? empty;
  const patchSocial = (changes: Partial<SocialLoginState>) => set(atoms.social, { ...social(), ...changes });
  let loaded: Promise<void> | null = null;
  // The state the callback route already posted: a second effect run (StrictMode, re-mount) must not spend it again.
  let spentState: string | null = null;

  function fail(message: string): void {
    set(atoms.login, { ...initialLogin, step: 'loginWithSSOFailed', error: message });
    try {
      globalThis.sessionStorage?.setItem(SOCIAL_LOGIN_ERROR_KEY, message);
    } catch {
      // Storage disabled: the message shows here only, for the second before the redirect.
    }
    // Seed 4.2 and 9: after a social-login failure, the authenticated URL after 1000 ms.
    ctx.timers.after(SSO_FAILURE_REDIRECT_DELAY_MS, () => ctx.go(ctx.routes.authenticatedUrl));
  }

  return {
    loadSocialProviders() {
      // A failed social sign-in's message, kept across the redirect, shows once with the buttons.
      let notice: string | null = null;
      try {
        notice = globalThis.sessionStorage?.getItem(SOCIAL_LOGIN_ERROR_KEY) ?? null;
        globalThis.sessionStorage?.removeItem(SOCIAL_LOGIN_ERROR_KEY);
      } catch {
        notice = null;
      }
      if (notice) patchSocial({ error: notice });
      loaded ??= (async () => {
        try {
          const [builtIn, custom] = await Promise.all([
            api.request<SocialProvidersV2Response>('GET', SocialLoginPaths.providersV2),
            api.request<CustomSocialProvidersResponse>('GET', SocialLoginPaths.customProviders),
          ]);
          const providers: SocialProviderView[] = [
            ...builtIn.filter((p) => p.active).map((p) => ({ id: p.type, displayName: p.displayName, custom: false })),
            ...custom.providers.filter((p) => p.active).map((p) => ({ id: p.id, displayName: p.displayName, custom: true })),
          ];
          patchSocial({ providers });
        } catch (error) {
          // Shown with the buttons and tried again on the next call.
          loaded = null;
          patchSocial({ error: toGatehouseError(error).message });
        }
      })();
      return loaded;
    },

    async startSocialLogin(provider) {
      if (social().loading) return;
      // Inside a native app that signs in with this provider itself (seed 000 section 1), the app takes it from here.
      const native = createNativeBridge();
      const custom = social().providers.find((p) => p.id === provider)?.custom === true;
      const byApp = custom ? 'loginWithCustomSocialLoginProvider' : 'loginWithSocialLoginProvider';
      if (native.isAvailable(byApp)) {
        native[byApp](provider);
        return;
      }
      patchSocial({ loading: true, error: null });
      try {
        const { url } = await api.request<{ url: string }>('POST', withProvider(SocialLoginPaths.preLogin, provider), { body: { redirectUri: callbackUrl(ctx.routes.socialLoginCallbackUrl) } });
        // The page leaves for the provider (or the native app opens it); `loading` stays on until it has.
        if (native.isAvailable('loginWithSocialLogin')) native.loginWithSocialLogin(url);
        else ctx.go(url);
      } catch (error) {
        patchSocial({ loading: false, error: toGatehouseError(error).message });
      }
    },

    async socialLoginPostLogin(search) {
      const params = new URLSearchParams(search);
      const state = params.get('state') ?? '';
      if (state && state === spentState) return;
      spentState = state;
      const provider = socialProviderOfState(state);
      const code = params.get('code');
      // The provider said no (the user cancelled, or it refused the request), or the URL is not a provider's answer.
      if (params.get('error') || !code || !provider) {
        fail(ErrorMessages.failedToAuthenticate);
        return;
      }
      set(atoms.login, { ...initialLogin, loading: true });
      try {
        const iss = params.get('iss');
        const response = await api.request<SocialPostLoginResponse>('POST', withProvider(SocialLoginPaths.postLogin, provider), {
          body: { code, state, redirectUri: callbackUrl(ctx.routes.socialLoginCallbackUrl), ...(iss ? { iss } : {}) },
        });
        const { email, isNewUser, userId, tenantId, name } = response;
        patchSocial({ result: { email, isNewUser, userId, tenantId, name } });
        if (response.mfaRequired) {
          // Seed 4.2: no session until the second factor, which is asked on the login route.
          await ctx.beginMfa(response, email);
          ctx.go(ctx.routes.loginUrl);
          return;
        }
        await ctx.completeLogin(response);
        // The passkey prompt (seed 4.2) is a step of the login route.
        if (get(atoms.login).step === 'promptPasskeys') ctx.go(ctx.routes.loginUrl);
      } catch (error) {
        fail(toGatehouseError(error).message);
      }
    },
  };
}
