/**
 * Forgot and reset password, by email link or SMS code (seed 000 sections 4.6, 7.3, 8), and the
 * signed-in password change. Steps: forgotPassword -> (passwordRecoverySelector) ->
 * forgotPasswordEmailSuccess | resetPasswordViaSms -> resetPasswordPage -> resetPasswordSuccess.
 */
import type { ForgotPasswordState, GatehouseStore } from '../../core/types';
import type { LoginResponse } from '../../wire';
import { ACTIVATION_REDIRECT_DELAY_MS, MFA_REDIRECT_DELAY_MS } from '../../constants';
import { ErrorMessages, isGatehouseError } from '../../errors';
import { ApiPaths } from '../../wire/paths';
import type {
  ChangePasswordRequest,
  PasswordRecoveryStrategiesResponse,
  RecoveryIdentifierType,
  RecoveryStrategyName,
  ResetPasswordSmsResponse,
  ResetPasswordSmsVerifyResponse,
  ResetPasswordVerifyRequest,
} from '../../wire/recovery/recovery';
import type { FlowContext } from '../flow-context';
import { initialForgotPassword } from '../state';

/** The store methods this flow adds. */
export type RecoveryFlow = Pick<
  GatehouseStore,
  'startPasswordRecovery' | 'forgotPassword' | 'sendRecoveryEmail' | 'sendRecoverySms' | 'verifyPasswordViaSms' | 'resetPassword' | 'resetForgotPassword' | 'changePassword'
>;

/**
 * The server's sentence for a refusal the user can act on (a 4xx such as a weak password, an expired
 * link or a rate limit); the seed's message of this step for anything else (network, 5xx, unknown).
 */
function messageOf(error: unknown, fallback: string): string {
  if (isGatehouseError(error) && error.statusCode >= 400 && error.statusCode < 500 && error.message) return error.message;
  return fallback;
}

/** What kind of identifier the user typed: an email has an @, a phone number only digits and + ( ) - spaces. */
export function identifierTypeOf(identifier: string): RecoveryIdentifierType {
  if (identifier.includes('@')) return 'email';
  return /^\+?[\d\s()-]{6,}$/.test(identifier) ? 'phoneNumber' : 'username';
}

export function createRecoveryFlow(ctx: FlowContext): RecoveryFlow {
  const { api, atoms, get, set, patch } = ctx;

  const state = (): ForgotPasswordState => get(atoms.forgotPassword);
  /** Starts a call: loading on, error cleared, identifier kept. */
  const begin = (identifier?: string): string => {
    const value = (identifier ?? state().identifier).trim();
    patch(atoms.forgotPassword, { identifier: value, loading: true, error: null });
    return value;
  };
  const fail = (message: string, errorCode?: string): void => patch(atoms.forgotPassword, { loading: false, error: message, ...(errorCode ? { errorCode } : {}) });
  /** A failed call: the server's sentence (and code) for a 4xx, else the seed's message of the step. */
  const failWith = (error: unknown, fallback: string): void => fail(messageOf(error, fallback), isGatehouseError(error) && error.statusCode < 500 ? error.errorCode : undefined);

  async function sendRecoveryEmail(identifier?: string): Promise<void> {
    const value = begin(identifier);
    try {
      await api.request<unknown>('POST', ApiPaths.passwordsResetEmailV2, { body: { identifier: value, identifierType: identifierTypeOf(value), recaptchaToken: await ctx.captchaToken('forgot_password') } });
      set(atoms.forgotPassword, { ...initialForgotPassword, identifier: value, step: 'forgotPasswordEmailSuccess' });
    } catch (error) {
      failWith(error, ErrorMessages.recoveryEmail);
    }
  }

  async function sendRecoverySms(identifier?: string): Promise<void> {
    const value = begin(identifier);
    try {
      const { sessionId } = await api.request<ResetPasswordSmsResponse>('POST', ApiPaths.passwordsResetSmsV2, { body: { identifier: value, identifierType: identifierTypeOf(value), recaptchaToken: await ctx.captchaToken('forgot_password') } });
      set(atoms.forgotPassword, { ...initialForgotPassword, identifier: value, step: 'resetPasswordViaSms', sessionId });
    } catch (error) {
      failWith(error, ErrorMessages.recoverySms);
    }
  }

  return {
    async startPasswordRecovery(identifier) {
      const value = identifier.trim();
      if (!value) {
        patch(atoms.forgotPassword, { error: 'Email is required' });
        return;
      }
      begin(value);
      let active: RecoveryStrategyName[];
      try {
        const { strategies } = await api.request<PasswordRecoveryStrategiesResponse>('GET', ApiPaths.passwordRecoveryStrategies);
        active = strategies.filter((s) => s.isActive).map((s) => s.strategy);
      } catch {
        fail(ErrorMessages.recoveryStrategy);
        return;
      }
      const email = active.includes('email');
      const sms = active.includes('sms');
      if (email && sms) set(atoms.forgotPassword, { ...initialForgotPassword, identifier: value, step: 'passwordRecoverySelector' });
      else if (email) await sendRecoveryEmail(value);
      else if (sms) await sendRecoverySms(value);
      else fail(ErrorMessages.noRecoveryMethods);
    },

    async forgotPassword(email) {
      const value = begin(email);
      try {
        await api.request<unknown>('POST', ApiPaths.passwordsReset, { body: { email: value, recaptchaToken: await ctx.captchaToken('forgot_password') } });
        set(atoms.forgotPassword, { ...initialForgotPassword, identifier: value, step: 'forgotPasswordEmailSuccess' });
      } catch (error) {
        fail(messageOf(error, ErrorMessages.unknown));
      }
    },

    sendRecoveryEmail,
    sendRecoverySms,

    async verifyPasswordViaSms(code) {
      const { sessionId } = state();
      if (!sessionId) {
        fail(ErrorMessages.sessionIdMissing);
        return;
      }
      begin();
      let response: ResetPasswordSmsVerifyResponse;
      try {
        response = await api.request<ResetPasswordSmsVerifyResponse>('POST', ApiPaths.passwordsResetSmsVerifyV2, { body: { otcToken: code.trim(), sessionId } });
      } catch (error) {
        failWith(error, ErrorMessages.verifyPasswordSms);
        return;
      }
      if (!response?.userId || !response?.token) {
        fail(ErrorMessages.invalidSmsResponse);
        return;
      }
      set(atoms.forgotPassword, { ...initialForgotPassword, identifier: state().identifier, step: 'resetPasswordPage', userId: response.userId, token: response.token });
    },

    async resetPassword(input) {
      patch(atoms.forgotPassword, { loading: true, error: null });
      let answer: Partial<LoginResponse> | null | undefined;
      try {
        const body: ResetPasswordVerifyRequest = { userId: input.userId, token: input.token, password: input.password };
        answer = await api.request<Partial<LoginResponse> | null>('POST', ApiPaths.passwordsResetVerify, { body });
      } catch (error) {
        failWith(error, ErrorMessages.unknown);
        return;
      }
      // The token is spent: it does not stay in memory.
      const done = (signedIn: boolean) => set(atoms.forgotPassword, { ...initialForgotPassword, identifier: state().identifier, step: 'resetPasswordSuccess', ...(signedIn ? { signedIn } : {}) });
      // The answer is a login's (seed 3): the user is signed in with the new password, unless the
      // second factor is still to come; an answer without a session means "sign in again" (the policy's call).
      if (answer?.mfaRequired && answer.mfaToken) {
        done(false);
        await ctx.beginMfa(answer as LoginResponse, state().identifier);
        ctx.goAfter(MFA_REDIRECT_DELAY_MS, () => ctx.routes.loginUrl);
        return;
      }
      if (answer?.accessToken) {
        try {
          await ctx.establishSession(answer as LoginResponse);
        } catch {
          // The password is set; only the profile load failed: signing in by hand still works.
          done(false);
          return;
        }
        done(true);
        // Shown like an activation's success (seed 4.5), with Continue to go at once.
        ctx.goAfter(ACTIVATION_REDIRECT_DELAY_MS, () => ctx.afterAuthTarget());
        return;
      }
      done(false);
    },

    resetForgotPassword() {
      set(atoms.forgotPassword, { ...initialForgotPassword, identifier: state().identifier });
    },

    async changePassword(input) {
      const body: ChangePasswordRequest = { password: input.password, newPassword: input.newPassword };
      await api.request<unknown>('POST', ApiPaths.passwordsChange, { body });
    },
  };
}
