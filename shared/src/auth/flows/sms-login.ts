/**
 * SMS sign-in and sign-up by phone number (seed 000 sections 2.2, 3, 4.2, 5, 7.2, 7.3).
 * Login (SmsCode, SmsCodeV2, UsernameAndSms): preLogin -> loginWithSmsOtc (the texted code) -> the
 * usual end of a sign-in (MFA when required, else the session and navigation).
 * Phone sign-up: SignUp -> VerifyPhone (the code is being texted) -> the login route's
 * loginWithQuickSmsOtc step in registerQuickLogin mode, whose code verifies the number and signs
 * the new user in. Loaded on first use (flows/lazy.ts): sites on other strategies never fetch it.
 */
import type { GatehouseStore, LoginMode } from '../../core/types';
import { toGatehouseError } from '../../errors';
import type { LoginResponse } from '../../wire/auth/auth';
import { usesUsername } from '../../wire/auth/login-strategies';
import type { PasswordlessPreLoginResponse } from '../../wire/passwordless/passwordless';
import { ApiPaths } from '../../wire/paths';
import { PHONE_SIGNUP_REQUIRED_MESSAGE } from '../../wire/users/sign-up-strategies';
import type { FlowContext } from '../flow-context';
import { initialLogin, initialSignUp } from '../state';

/** The store methods this flow adds. */
export type SmsLoginFlow = Pick<GatehouseStore, 'smsPreLogin' | 'loginWithSmsOtc' | 'signUpWithPhone' | 'sendSignUpPhoneCode'>;

const PRE_LOGIN = ApiPaths.passwordlessPreLogin.replace('{type}', 'smscode');
const POST_LOGIN = ApiPaths.passwordlessPostLogin.replace('{type}', 'smscode');

export function createSmsLoginFlow(ctx: FlowContext): SmsLoginFlow {
  const { api, atoms, get, set, patch } = ctx;

  /** A phone number (SmsCodeV2, and every phone sign-up), a username (UsernameAndSms) or an email. */
  function identifierBody(identifier: string, mode: LoginMode): { phoneNumber?: string; username?: string; email?: string } {
    const strategy = get(atoms.vendor)?.loginStrategy;
    if (mode === 'registerQuickLogin' || strategy === 'SmsCodeV2') return { phoneNumber: identifier };
    return usesUsername(strategy) && !identifier.includes('@') ? { username: identifier } : { email: identifier };
  }

  /** Texts the code; the answer names the (masked) number only when the user typed a number. */
  async function textCode(identifier: string, mode: LoginMode): Promise<void> {
    const body = { ...identifierBody(identifier, mode), recaptchaToken: await ctx.captchaToken('passwordless_login') };
    const answer = await api.request<PasswordlessPreLoginResponse | null>('POST', PRE_LOGIN, { body });
    set(atoms.login, {
      ...initialLogin,
      email: identifier,
      step: mode === 'registerQuickLogin' ? 'loginWithQuickSmsOtc' : 'loginWithSmsOtc',
      mode,
      ...(answer?.phoneNumber ? { phoneNumber: answer.phoneNumber } : {}),
    });
  }

  const flow: SmsLoginFlow = {
    async smsPreLogin(identifier, options = {}) {
      const mode = options.mode ?? 'login';
      patch(atoms.login, { email: identifier, loading: true, error: null });
      try {
        await textCode(identifier, mode);
      } catch (error) {
        patch(atoms.login, { loading: false, error: toGatehouseError(error).message });
      }
    },

    async loginWithSmsOtc(code) {
      const { email, loading, mode = 'login' } = get(atoms.login);
      if (loading) return;
      patch(atoms.login, { loading: true, error: null });
      try {
        const response = await api.request<LoginResponse>('POST', POST_LOGIN, { body: { ...identifierBody(email, mode), code: code.trim() } });
        if (response.mfaRequired) {
          // Seed 4.2: the session is not set until MFA is verified.
          await ctx.beginMfa(response, email);
          return;
        }
        await ctx.completeLogin(response);
      } catch (error) {
        patch(atoms.login, { loading: false, error: toGatehouseError(error).message });
      }
    },

    async signUpWithPhone(input) {
      const phoneNumber = input.phoneNumber?.trim() ?? '';
      // Seed 000 section 5: phone sign-up requires a phone number.
      if (!phoneNumber) {
        set(atoms.signUp, { ...initialSignUp, error: PHONE_SIGNUP_REQUIRED_MESSAGE });
        return;
      }
      set(atoms.signUp, { ...initialSignUp, loading: true, phoneNumber });
      try {
        await api.request<unknown>('POST', ApiPaths.signUpPhoneNumber, { body: { ...input, phoneNumber, recaptchaToken: await ctx.captchaToken('signup') } });
      } catch (error) {
        set(atoms.signUp, { ...initialSignUp, phoneNumber, error: toGatehouseError(error).message });
        return;
      }
      // Seed 4.2: phone sign-up then triggers an SMS one-time-code login.
      await flow.sendSignUpPhoneCode();
    },

    async sendSignUpPhoneCode() {
      const { phoneNumber } = get(atoms.signUp);
      if (!phoneNumber) return;
      set(atoms.signUp, { ...initialSignUp, stage: 'VerifyPhone', loading: true, phoneNumber });
      try {
        await textCode(phoneNumber, 'registerQuickLogin');
        // The sign-up screen is done; a later visit starts a new sign-up.
        set(atoms.signUp, initialSignUp);
        ctx.go(ctx.routes.loginUrl);
      } catch (error) {
        set(atoms.signUp, { ...initialSignUp, stage: 'VerifyPhone', phoneNumber, error: toGatehouseError(error).message });
      }
    },
  };
  return flow;
}
