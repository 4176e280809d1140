/**
 * Enterprise SSO at sign-in (seed 000 sections 4.2, 7.2, 8, 9): after preLogin found SSO for the
 * identifier, redirectToSSO shows for 2 s while the sign-in is started, then the browser goes to the
 * IdP; on the samlCallbackUrl / oidcRedirectUrl routes the IdP's answer finishes the sign-in, or
 * loginWithSSOFailed shows ('Failed to authenticate') and the authenticated URL follows after 1 s.
 * Loaded on first use (flows/lazy.ts): sign-ins without SSO never download it.
 */
import type { GatehouseStore } from '../../core/types';
import { SSO_FAILURE_REDIRECT_DELAY_MS, SSO_REDIRECT_DELAY_MS } from '../../constants';
import { toGatehouseError } from '../../errors';
import type { LoginResponse } from '../../wire/auth/auth';
import type { SsoFound, SsoStartResponse, SsoTestCompleteResponse } from '../../wire/sso/sso';
import { SsoPaths } from '../../wire/sso/paths';
import type { FlowContext } from '../flow-context';
import { initialLogin } from '../state';
import { createNativeBridge } from '../native-bridge';

/** Seed 000 section 8: the message of a failed SSO (and OIDC) sign-in. */
export const SSO_FAILED_MESSAGE = 'Failed to authenticate';

export type SsoFlow = Pick<GatehouseStore, 'ssoPostLogin'> & {
  /** preLogin found SSO: redirectToSSO, start the sign-in, and after 2 s send the browser to the IdP. */
  redirectToSso(identifier: string, lookup: SsoFound): Promise<void>;
};

export function createSsoFlow(ctx: FlowContext): SsoFlow {
  const { api, atoms, routes, timers, set } = ctx;
  // The query the callback route already used: a second effect run (StrictMode, re-mount) must not send it again.
  let spent: string | null = null;
  /** A route of the login box as the absolute URL the IdP sends the browser back to. */
  const absolute = (route: string) => {
    const url = new URL(route, globalThis.location?.href ?? 'http://localhost/');
    return `${url.origin}${url.pathname}`;
  };

  function failed(): void {
    set(atoms.login, { ...initialLogin, step: 'loginWithSSOFailed', error: SSO_FAILED_MESSAGE });
    // Seed 4.2 and 9: after 1000 ms on to the authenticated URL.
    timers.after(SSO_FAILURE_REDIRECT_DELAY_MS, () => ctx.go(routes.authenticatedUrl));
  }

  return {
    async redirectToSso(identifier, lookup) {
      set(atoms.login, { ...initialLogin, email: identifier, step: 'redirectToSSO', loading: true });
      const shownAt = ctx.now();
      try {
        const saml = lookup.type === 'saml';
        const { address } = await api.request<SsoStartResponse>('POST', saml ? SsoPaths.samlPreLogin : SsoPaths.oidcPreLogin, {
          body: { email: identifier, redirectUri: absolute(saml ? routes.samlCallbackUrl : routes.oidcRedirectUrl) },
        });
        // The step stays 2000 ms in all (seed 9), counting the time the start took.
        await timers.sleep(Math.max(0, SSO_REDIRECT_DELAY_MS - (ctx.now() - shownAt)));
        // "Use a different email" in the meantime cancels the redirect.
        // Seed 4.2: inside a native app that takes SSO itself, the app opens the IdP.
        if (ctx.get(atoms.login).step !== 'redirectToSSO') return;
        const native = createNativeBridge();
        if (native.isAvailable('loginWithSSO')) native.loginWithSSO(address);
        else ctx.go(address);
      } catch (error) {
        // The IdP could not be reached: back to the identifier, saying why.
        set(atoms.login, { ...initialLogin, email: identifier, error: toGatehouseError(error).message });
      }
    },

    async ssoPostLogin(type, search) {
      const key = `${type}${search}`;
      if (key === spent) return;
      spent = key;
      const params = new URLSearchParams(search);
      const code = params.get('code');
      set(atoms.login, { ...initialLogin, loading: true });
      try {
        // The IdP or our ACS said no (error=...), or the route was opened without an answer.
        if (!code || params.has('error')) throw new Error(SSO_FAILED_MESSAGE);
        const response =
          type === 'saml'
            ? await api.request<LoginResponse>('POST', SsoPaths.samlPostLogin, { body: { code } })
            : await api.request<LoginResponse | SsoTestCompleteResponse>('POST', SsoPaths.oidcPostLogin, {
                body: { code, redirectUri: absolute(routes.oidcRedirectUrl), RelayState: params.get('state') ?? '', ...(params.get('iss') ? { iss: params.get('iss') } : {}) },
              });
        // An admin's connection test (issue 15): reported to the admin portal, nobody signed in, nowhere to go.
        if ('connectionTest' in response) {
          set(atoms.login, { ...initialLogin, step: 'ssoTestComplete' });
          return;
        }
        if (response.mfaRequired) {
          // Seed 4.2: no session until the second factor; it is asked on the login route.
          await ctx.beginMfa(response, '');
          ctx.go(routes.loginUrl);
          return;
        }
        await ctx.completeLogin(response);
      } catch {
        failed();
      }
    },
  };
}
