/**
 * The impersonation route (seed 000 sections 2.1, 4.7, 9): exchanges the admin's single-use token for
 * a session of the user (`impersonating`), shows `success`, and navigates to the authenticated URL
 * after 1 s. A refused token stays on `impersonating` with the server's sentence. Loaded on first use.
 */
import type { GatehouseStore } from '../../core/types';
import { IMPERSONATION_REDIRECT_DELAY_MS } from '../../constants';
import { toGatehouseError } from '../../errors';
import type { LoginResponse } from '../../wire/auth/auth';
import { ApiPaths } from '../../wire/paths';
import type { FlowContext } from '../flow-context';

/** The store method this flow adds. */
export type ImpersonationFlow = Pick<GatehouseStore, 'impersonate'>;

/** What the route shows for a link without a token (the server says the same for a bad one). */
export const MISSING_IMPERSONATION_TOKEN = 'The impersonation link is invalid or has expired';

export function createImpersonationFlow(ctx: FlowContext): ImpersonationFlow {
  const { api, atoms, set } = ctx;
  // The token already sent: it is single use, so a second effect run (StrictMode, re-mount) must not spend it again.
  let spent: string | null = null;

  return {
    async impersonate(token) {
      if (!token) {
        set(atoms.impersonation, { step: 'impersonating', error: MISSING_IMPERSONATION_TOKEN });
        return;
      }
      if (token === spent) return;
      spent = token;
      set(atoms.impersonation, { step: 'impersonating', error: null });
      try {
        const response = await api.request<LoginResponse>('POST', ApiPaths.impersonate, { body: { token } });
        await ctx.establishSession(response);
        set(atoms.impersonation, { step: 'success', error: null });
        ctx.timers.after(IMPERSONATION_REDIRECT_DELAY_MS, () => ctx.go(ctx.routes.authenticatedUrl));
      } catch (error) {
        set(atoms.impersonation, { step: 'impersonating', error: toGatehouseError(error).message });
      }
    },
  };
}
