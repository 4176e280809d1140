/**
 * Passwordless sign-in (seed 000 sections 2.2, 4.2, 7.2), chosen by the vendor's login policy:
 * preLogin -> magicLinkPreLoginSuccess (MagicLink) or loginWithOtc (Code); the magic-link callback
 * route -> magicLinkPostLoginSuccess for 5 s -> the after-auth URL. Loaded on first use (the store
 * imports this module dynamically), so it costs nothing before the login form is interactive.
 * Its runtime helpers come in through `deps` (the runtime already holds them), never through
 * imports: an import here would pull the shared module out of runtime.js into an extra chunk.
 */
import type { GatehouseStore } from '../../core/types';
import type { toGatehouseError } from '../../errors';
import type { LoginResponse } from '../../wire/auth/auth';
import type { passwordlessTypeOf, PasswordlessType, usesUsername } from '../../wire/auth/login-strategies';
import type { FlowContext } from '../flow-context';

/** The store methods this flow adds. */
export type PasswordlessFlow = Pick<GatehouseStore, 'passwordlessPreLogin' | 'loginWithOtc' | 'magicLinkPostLogin'>;

/** What the flow uses from the runtime (see passwordless-lazy.ts). */
export interface PasswordlessDeps {
  /** ApiPaths.passwordlessPreLogin / passwordlessPostLogin, with `{type}`. */
  preLoginPath: string;
  postLoginPath: string;
  /** MAGIC_LINK_SUCCESS_DELAY_MS (seed 000 section 9). */
  successDelayMs: number;
  toGatehouseError: typeof toGatehouseError;
  passwordlessTypeOf: typeof passwordlessTypeOf;
  usesUsername: typeof usesUsername;
}

const pathOf = (template: string, type: PasswordlessType) => template.replace('{type}', type);

export function createPasswordlessFlow(ctx: FlowContext, deps: PasswordlessDeps): PasswordlessFlow {
  const { api, atoms, get, set, patch } = ctx;
  const { toGatehouseError, passwordlessTypeOf, usesUsername } = deps;
  const initialLogin = { step: 'preLogin', email: '', loading: false, error: null } as const;
  // The token the callback route already used: a second effect run (StrictMode, re-mount) must not spend it again.
  let spentToken: string | null = null;

  const strategy = () => get(atoms.vendor)?.loginStrategy;
  /** A username where the strategy signs in with usernames (and the value is not an email), else an email. */
  const identifierBody = (identifier: string) => (usesUsername(strategy()) && !identifier.includes('@') ? { username: identifier } : { email: identifier });
  const fail = (error: unknown) => patch(atoms.login, { loading: false, error: toGatehouseError(error).message });

  /** Like a password sign-in: MFA first when required (no session until it is verified), else the session. */
  async function finish(response: LoginResponse, identifier: string): Promise<boolean> {
    if (response.mfaRequired) {
      await ctx.beginMfa(response, identifier);
      return false;
    }
    await ctx.establishSession(response);
    return true;
  }

  return {
    async passwordlessPreLogin(identifier) {
      const type = passwordlessTypeOf(strategy()) ?? 'magiclink';
      patch(atoms.login, { email: identifier, loading: true, error: null });
      try {
        await api.request<unknown>('POST', pathOf(deps.preLoginPath, type), { body: { ...identifierBody(identifier), recaptchaToken: await ctx.captchaToken('passwordless_login') } });
        set(atoms.login, { ...initialLogin, email: identifier, step: type === 'code' ? 'loginWithOtc' : 'magicLinkPreLoginSuccess' });
      } catch (error) {
        fail(error);
      }
    },

    async loginWithOtc(code) {
      const { email, loading } = get(atoms.login);
      if (loading) return;
      patch(atoms.login, { loading: true, error: null });
      try {
        const response = await api.request<LoginResponse>('POST', pathOf(deps.postLoginPath, 'code'), { body: { ...identifierBody(email), code: code.trim() } });
        if (response.mfaRequired) {
          await ctx.beginMfa(response, email);
          return;
        }
        await ctx.completeLogin(response);
      } catch (error) {
        fail(error);
      }
    },

    async magicLinkPostLogin(token) {
      if (!token || token === spentToken) return;
      spentToken = token;
      set(atoms.login, { ...initialLogin, loading: true });
      try {
        const response = await api.request<LoginResponse>('POST', pathOf(deps.postLoginPath, 'magiclink'), { body: { token } });
        if (!(await finish(response, ''))) {
          // The second factor is asked on the login route.
          ctx.go(ctx.routes.loginUrl);
          return;
        }
        set(atoms.login, { ...initialLogin, step: 'magicLinkPostLoginSuccess' });
        // Seed 4.2 and 9: the magic-link success step shows for 5000 ms, then the app navigates.
        ctx.goAfter(deps.successDelayMs, () => ctx.afterAuthTarget());
      } catch (error) {
        fail(error);
      }
    },
  };
}
