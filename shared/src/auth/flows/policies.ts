/**
 * Password policies after a password sign-in (seed 000 sections 4.2, 4.7): passwordRotationExpired,
 * passwordRotationNotification, breachedPassword -> breachedPasswordSuccess, and unlock account.
 * Loaded on first use (see policies-lazy.ts), so none of it is fetched before the login form.
 */
import type { GatehouseStore } from '../../core/types';
import { UNLOCK_REDIRECT_DELAY_MS } from '../../constants';
import { isGatehouseError, toGatehouseError } from '../../errors';
import type { LoginResponse } from '../../wire/auth/auth';
import { ApiPaths } from '../../wire/paths';
import type { FlowContext } from '../flow-context';

/** The store methods this flow adds. */
export type PoliciesFlow = Pick<GatehouseStore, 'setRotatedPassword' | 'continueAfterRotationNotice' | 'sendBreachedPasswordReset' | 'unlockAccount'>;

/** Plus the step a sign-in's answer leads to; `input` is what the user signed in with. */
export interface PoliciesFlowModule extends PoliciesFlow {
  applyLoginPolicies(response: LoginResponse, input: { email: string; password: string }): Promise<void>;
}

/** A refusal the user can act on (4xx: a weak or breached password, an expired token) keeps its sentence. */
function messageOf(error: unknown): string {
  if (isGatehouseError(error) && error.statusCode >= 400 && error.statusCode < 500 && error.message) return error.message;
  return toGatehouseError(error).message;
}

export function createPoliciesFlow(ctx: FlowContext): PoliciesFlowModule {
  const { api, atoms, patch, get } = ctx;
  // The forced reset's token lives only here, never in the snapshot; it is single use.
  let reset: { userId: string; token: string } | null = null;
  let notified: LoginResponse | null = null;

  return {
    async applyLoginPolicies(response, { email }) {
      const base = { email, loading: false, error: null };
      if (response.resetPasswordToken && response.userId) {
        // Expired rotation (or any forced reset): no session until a new password is set (seed 4.2).
        reset = { userId: response.userId, token: response.resetPasswordToken };
        patch(atoms.login, { ...base, step: 'passwordRotationExpired' });
        return;
      }
      if (response.isBreachedPassword) {
        patch(atoms.login, { ...base, step: 'breachedPassword', isBreachedPassword: true });
        return;
      }
      // Signed in, inside the notification period: the session is set, the warning comes first.
      await ctx.establishSession(response);
      notified = response;
      patch(atoms.login, { ...base, step: 'passwordRotationNotification', passwordExpiresInDays: response.passwordRotation?.daysToExpiry ?? 0 });
    },

    async setRotatedPassword(password) {
      const pending = reset;
      const { email } = get(atoms.login);
      if (!pending) return;
      patch(atoms.login, { loading: true, error: null });
      try {
        await api.request<unknown>('POST', ApiPaths.passwordsResetVerify, { body: { userId: pending.userId, token: pending.token, password } });
      } catch (error) {
        patch(atoms.login, { loading: false, error: messageOf(error) });
        return;
      }
      reset = null;
      try {
        const response = await api.login({ email, password, recaptchaToken: await ctx.captchaToken('login') });
        if (response.mfaRequired) await ctx.beginMfa(response, email);
        else await ctx.completeLogin(response);
      } catch (error) {
        patch(atoms.login, { loading: false, error: messageOf(error), step: 'loginWithPassword' });
      }
    },

    async continueAfterRotationNotice() {
      const response = notified;
      notified = null;
      if (response) await ctx.completeLogin(response);
      else ctx.go(ctx.afterAuthTarget());
    },

    async sendBreachedPasswordReset() {
      const { email } = get(atoms.login);
      patch(atoms.login, { loading: true, error: null });
      try {
        await api.request<unknown>('POST', ApiPaths.passwordsResetEmailV2, { body: { identifier: email, identifierType: 'email', recaptchaToken: await ctx.captchaToken('forgot_password') } });
        patch(atoms.login, { loading: false, step: 'breachedPasswordSuccess' });
      } catch (error) {
        patch(atoms.login, { loading: false, error: messageOf(error) });
      }
    },

    async unlockAccount(token) {
      await api.request<unknown>('POST', ApiPaths.unlockAccount, { body: { token } });
      // Seed 4.7 / 9: the success message stays 5 s, then the login route.
      ctx.goAfter(UNLOCK_REDIRECT_DELAY_MS, () => ctx.routes.loginUrl);
    },
  };
}
