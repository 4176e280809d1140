/**
 * MFA and step-up flow (seed 000 sections 4.2, 4.8, 4.9): the second step of a sign-in
 * (loginWithTwoFactor, recoverTwoFactor, forceTwoFactor), the MFA steps (verify, emailVerifyCode,
 * authenticatorApp, recoveryCode, noMFAEnrolledStepUp) and step-up of a running session.
 * The session is set only after the server accepted the second factor.
 */
import type { GatehouseStore, MfaState, MfaStep } from '../../core/types';
import { MFA_REDIRECT_DELAY_MS } from '../../constants';
import { toGatehouseError } from '../../errors';
import type { LoginResponse } from '../../wire/auth/auth';
import { ErrorCodes } from '../../wire/error-codes';
import type { AuthenticatorEnrollResponse, LoginEnrollResponse, MfaDevices, MfaEmailCodePreVerifyResponse, MfaRequiredResponse, RecoveryCodesResponse, StepUpGenerateResponse } from '../../wire/mfa/mfa';
import { ApiPaths } from '../../wire/paths';
import { isSteppedUp, type StepUpClaims } from '../../wire/mfa/step-up';
import type { FlowContext } from '../flow-context';
import { initialLogin, initialMfa } from '../state';

export type MfaFlowMethods = Pick<
  GatehouseStore,
  | 'verifyMfa' | 'recoverMfa' | 'sendMfaEmailCode' | 'verifyMfaEmailCode' | 'setMfaStep' | 'setLoginMfaStep' | 'startAuthenticatorEnrollment'
  | 'verifyAuthenticatorEnrollment' | 'confirmRecoveryCodesSaved' | 'startStepUp' | 'loadMfaDevices' | 'disableMfa'
>;

export interface MfaFlow extends MfaFlowMethods {
  /** A sign-in answered mfaRequired: keep the mfaToken and show loginWithTwoFactor or forceTwoFactor. */
  beginMfa(response: LoginResponse, email: string): void | Promise<void>;
}

/** The access token's claims, read without verification (the UI only decides what to show; the server verifies). */
export function readClaims(accessToken: string | null): StepUpClaims | null {
  const payload = accessToken?.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    return JSON.parse(atob(base64)) as StepUpClaims;
  } catch {
    return null;
  }
}

/** Creates the MFA flow's store methods. */
export function createMfaFlow(ctx: FlowContext): MfaFlow {
  const { api, atoms, get, set, patch } = ctx;
  const mfa = () => get(atoms.mfa);
  const update = (changes: Partial<MfaState>) => patch(atoms.mfa, changes);
  const fail = (error: unknown) => update({ loading: false, error: toGatehouseError(error).message });

  /** The pending mfaToken: the MFA slice's, else the one the sign-in left in the login slice. */
  const mfaToken = () => mfa().mfaToken ?? get(atoms.login).mfaToken ?? '';

  /** After the server accepted the second factor. */
  async function finish(response: LoginResponse): Promise<void> {
    if (mfa().context === 'stepUp') {
      await ctx.establishSession(response);
      update({ loading: false, error: null, steppedUp: true, mfaToken: null });
      // Seed 9: the MFA delay before leaving the screen.
      ctx.timers.after(MFA_REDIRECT_DELAY_MS, () => ctx.go(ctx.afterAuthTarget()));
      return;
    }
    set(atoms.mfa, initialMfa);
    await ctx.completeLogin(response);
  }

  async function attempt(run: () => Promise<void>): Promise<void> {
    if (mfa().loading) return;
    update({ loading: true, error: null });
    try {
      await run();
    } catch (error) {
      fail(error);
    }
  }

  const flow: MfaFlow = {
    beginMfa(response, email) {
      const r = response as LoginResponse & Partial<MfaRequiredResponse>;
      const enrolled = r.mfaEnrolled !== false;
      set(atoms.mfa, {
        ...initialMfa,
        context: 'login',
        step: enrolled ? 'verify' : 'authenticatorApp',
        mfaToken: r.mfaToken ?? null,
        mfaDevices: r.mfaDevices ?? null,
        mfaStrategies: r.mfaStrategies ?? [],
        allowRememberDevice: r.allowRememberDevice ?? false,
        rememberDeviceDays: r.rememberDeviceDays ?? 0,
      });
      set(atoms.login, { ...initialLogin, email, step: enrolled ? 'loginWithTwoFactor' : 'forceTwoFactor', ...(r.mfaToken ? { mfaToken: r.mfaToken } : {}) });
    },

    verifyMfa: ({ code, rememberDevice }) =>
      attempt(async () => {
        const response = await api.request<LoginResponse>('POST', ApiPaths.mfaVerify, { body: { mfaToken: mfaToken(), value: code.trim(), rememberDevice: rememberDevice ?? false } });
        await finish(response);
      }),

    recoverMfa: (recoveryCode) =>
      attempt(async () => {
        const response = await api.request<LoginResponse>('POST', ApiPaths.mfaRecover, { body: { mfaToken: mfaToken(), recoveryCode: recoveryCode.trim() } });
        await finish(response);
      }),

    sendMfaEmailCode: () =>
      attempt(async () => {
        const { otcToken } = await api.request<MfaEmailCodePreVerifyResponse>('POST', ApiPaths.mfaEmailCodePreVerify, { body: { mfaToken: mfaToken() } });
        update({ loading: false, step: 'emailVerifyCode', otcToken });
      }),

    verifyMfaEmailCode: ({ code, rememberDevice }) =>
      attempt(async () => {
        const body = { mfaToken: mfaToken(), otcToken: mfa().otcToken ?? '', code: code.trim(), rememberDevice: rememberDevice ?? false };
        await finish(await api.request<LoginResponse>('POST', ApiPaths.mfaEmailCodeVerify, { body }));
      }),

    setMfaStep(step: MfaStep) {
      update({ step, error: null });
    },

    setLoginMfaStep(step) {
      patch(atoms.login, { step, error: null });
      update({ error: null });
    },

    startAuthenticatorEnrollment: () =>
      attempt(async () => {
        const forced = mfa().context === 'login';
        const enrol = forced
          ? await api.request<AuthenticatorEnrollResponse>('POST', ApiPaths.mfaLoginAuthenticatorEnroll, { body: { mfaToken: mfaToken() } })
          : await api.request<AuthenticatorEnrollResponse>('POST', ApiPaths.mfaAuthenticatorEnroll);
        update({ loading: false, step: 'authenticatorApp', qrCode: enrol.qrCode, uri: enrol.uri, secret: enrol.secret });
      }),

    verifyAuthenticatorEnrollment: (code) =>
      attempt(async () => {
        if (mfa().context === 'login') {
          // forceTwoFactor: the answer is the session itself, plus the codes to show once.
          const response = await api.request<LoginEnrollResponse>('POST', ApiPaths.mfaLoginAuthenticatorEnrollVerify, { body: { mfaToken: mfaToken(), token: code.trim() } });
          await ctx.establishSession(response);
          update({ loading: false, step: 'recoveryCode', recoveryCodes: response.recoveryCodes, qrCode: null, uri: null, secret: null, mfaToken: null });
          return;
        }
        const { recoveryCodes } = await api.request<RecoveryCodesResponse>('POST', ApiPaths.mfaAuthenticatorEnrollVerify, { body: { token: code.trim() } });
        update({ loading: false, step: 'recoveryCode', recoveryCodes, qrCode: null, uri: null, secret: null });
      }),

    confirmRecoveryCodesSaved() {
      const { context, maxAge } = mfa();
      update({ recoveryCodes: [] });
      if (context === 'login') {
        set(atoms.mfa, initialMfa);
        patch(atoms.login, { step: 'success', loading: false, error: null });
        ctx.go(ctx.afterAuthTarget());
      } else if (context === 'stepUp') {
        // Enrolled from noMFAEnrolledStepUp: now the step-up itself.
        void flow.startStepUp(maxAge === null ? {} : { maxAge });
      } else {
        set(atoms.mfa, initialMfa);
      }
    },

    async startStepUp({ maxAge }) {
      const max = maxAge !== undefined && Number.isFinite(maxAge) ? maxAge : null;
      set(atoms.mfa, { ...initialMfa, context: 'stepUp', maxAge: max, loading: true });
      if (isSteppedUp(readClaims(get(atoms.accessToken)), { ...(max === null ? {} : { maxAge: max }), now: ctx.now() })) {
        update({ loading: false, steppedUp: true });
        ctx.go(ctx.afterAuthTarget());
        return;
      }
      try {
        const generated = await api.request<StepUpGenerateResponse>('POST', ApiPaths.stepUpGenerate);
        update({ loading: false, step: 'verify', mfaToken: generated.mfaToken, mfaDevices: generated.mfaDevices, mfaStrategies: generated.mfaStrategies });
      } catch (error) {
        const gatehouseError = toGatehouseError(error);
        if (gatehouseError.errorCode === ErrorCodes.noMfaEnrolled) {
          update({ loading: false, step: 'noMFAEnrolledStepUp' });
          return;
        }
        // Seed 4.9: any other step-up failure signs the user out.
        await signOut();
      }
    },

    async loadMfaDevices() {
      try {
        update({ mfaDevices: await api.request<MfaDevices>('GET', ApiPaths.mfaDevices) });
      } catch (error) {
        fail(error);
      }
    },

    disableMfa: (code) =>
      attempt(async () => {
        await api.request('POST', ApiPaths.mfaDisable, { body: { code: code.trim() } });
        set(atoms.mfa, { ...initialMfa, context: 'manage', mfaDevices: { webauthn: [], phones: [], authenticators: [], emails: [] } });
      }),
  };

  async function signOut(): Promise<void> {
    try {
      await api.logout();
    } catch {
      // Signed out locally regardless; the refresh cookie dies with its session or expires.
    }
    set(atoms.accessToken, null);
    set(atoms.user, null);
    set(atoms.mfa, initialMfa);
    set(atoms.login, initialLogin);
    ctx.go(ctx.routes.loginUrl);
  }

  return flow;
}
