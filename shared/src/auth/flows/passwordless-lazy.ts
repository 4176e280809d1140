/**
 * The store's side of passwordless sign-in: thin methods that load flows/passwordless.ts (its own
 * chunk) the first time they are used, so it adds nothing before the login form is interactive.
 */
import { MAGIC_LINK_SUCCESS_DELAY_MS } from '../../constants';
import { toGatehouseError } from '../../errors';
import { passwordlessTypeOf, usesUsername } from '../../wire/auth/login-strategies';
import { ApiPaths } from '../../wire/paths';
import type { FlowContext } from '../flow-context';
import type { PasswordlessFlow } from './passwordless';

export function createLazyPasswordlessFlow(ctx: FlowContext): PasswordlessFlow {
  let loaded: Promise<PasswordlessFlow | null> | null = null;
  const flow = () =>
    (loaded ??= import('./passwordless').then(
      (m) =>
        m.createPasswordlessFlow(ctx, {
          preLoginPath: ApiPaths.passwordlessPreLogin,
          postLoginPath: ApiPaths.passwordlessPostLogin,
          successDelayMs: MAGIC_LINK_SUCCESS_DELAY_MS,
          toGatehouseError,
          passwordlessTypeOf,
          usesUsername,
        }),
      (error: unknown) => {
        // A failed chunk load is shown and retried on the next call.
        loaded = null;
        ctx.patch(ctx.atoms.login, { loading: false, error: toGatehouseError(error).message });
        return null;
      },
    ));
  return {
    passwordlessPreLogin: async (identifier) => (await flow())?.passwordlessPreLogin(identifier),
    loginWithOtc: async (code) => (await flow())?.loginWithOtc(code),
    magicLinkPostLogin: async (token) => (await flow())?.magicLinkPostLogin(token),
  };
}
