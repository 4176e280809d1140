/**
 * SMS and WebAuthn second factors (seed 000 sections 2.2, 3, 4.8, 7.2, 7.3): the MFA steps
 * smsSetPhoneNumber and smsVerifyCode, a security key or this device's authenticator at sign-in and
 * step-up, enrolment (forceTwoFactor with the mfaToken, else for the signed-in user) ending in the
 * recoveryCode step, removal of a phone or key, and the MFA strategies config. Loaded on first use.
 * The WebAuthn ceremony itself comes from the bundle, which loads @simplewebauthn/browser lazily.
 */
import type { GatehouseStore, MfaState, PasskeyLoginCeremony } from '../../core/types';
import { MFA_REDIRECT_DELAY_MS } from '../../constants';
import { createGatehouseError, toGatehouseError } from '../../errors';
import type { LoginResponse } from '../../wire/auth/auth';
import type { LoginEnrollResponse, MfaDevices, RecoveryCodesResponse } from '../../wire/mfa/mfa';
import { MfaFactorPaths } from '../../wire/mfa/paths';
import type { MfaStrategiesConfigResponse, SmsCodeSentResponse, WebAuthnChallengeResponse, WebAuthnCreationResponse } from '../../wire/mfa/factors';
import { ApiPaths } from '../../wire/paths';
import type { FlowContext } from '../flow-context';
import { initialMfa } from '../state';

/** The store methods this flow adds. */
export type MfaFactorsFlow = Pick<
  GatehouseStore,
  'sendMfaSmsCode' | 'verifyMfaSmsCode' | 'startSmsEnrollment' | 'verifyMfaWebAuthn' | 'enrollMfaWebAuthn' | 'loadMfaStrategies' | 'removeMfaDevice'
>;

/** What the user sees when the browser's security-key dialog is cancelled, times out or is refused. */
export const SECURITY_KEY_CANCELLED_MESSAGE = 'The security key request was cancelled or timed out';

/** API errors keep their message; a DOMException from the ceremony becomes a plain sentence. */
function messageOf(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') return SECURITY_KEY_CANCELLED_MESSAGE;
  if (name === 'InvalidStateError') return 'This security key is already enrolled';
  if (name === 'NotSupportedError' || name === 'SecurityError') return 'Security keys are not available in this browser or on this page';
  return toGatehouseError(error).message;
}

const path = (template: string, deviceId: string) => template.replace('{deviceId}', encodeURIComponent(deviceId));

export function createMfaFactorsFlow(ctx: FlowContext): MfaFactorsFlow {
  const { api, atoms, get, set, patch } = ctx;
  const mfa = () => get(atoms.mfa);
  const update = (changes: Partial<MfaState>) => patch(atoms.mfa, changes);
  // What the texted code in smsVerifyCode is for; kept here, the snapshot only shows where it went.
  let smsPurpose: { kind: 'verify' } | { kind: 'enroll' } | { kind: 'remove'; deviceId: string } = { kind: 'verify' };

  /** The pending mfaToken: the MFA slice's, else the one the sign-in left in the login slice. */
  const mfaToken = () => mfa().mfaToken ?? get(atoms.login).mfaToken ?? '';
  /** forceTwoFactor enrols with the sign-in's mfaToken; the step-up route and account screens as the signed-in user. */
  const atSignIn = () => mfa().context === 'login';

  async function attempt(run: () => Promise<void>): Promise<void> {
    if (mfa().loading) return;
    update({ loading: true, error: null });
    try {
      await run();
    } catch (error) {
      update({ loading: false, error: messageOf(error) });
    }
  }

  /** After the server accepted the second factor: a step-up upgrades the session, a sign-in completes. */
  async function finish(response: LoginResponse): Promise<void> {
    if (mfa().context === 'stepUp') {
      await ctx.establishSession(response);
      update({ loading: false, error: null, steppedUp: true, mfaToken: null, otcToken: null });
      // Seed 9: the MFA delay before leaving the screen.
      ctx.timers.after(MFA_REDIRECT_DELAY_MS, () => ctx.go(ctx.afterAuthTarget()));
      return;
    }
    set(atoms.mfa, initialMfa);
    await ctx.completeLogin(response);
  }

  /** After an enrolment: at sign-in the answer is the session itself; either way the codes show once (seed 4.8). */
  async function enrolled(response: LoginEnrollResponse | RecoveryCodesResponse): Promise<void> {
    if (atSignIn()) await ctx.establishSession(response as LoginEnrollResponse);
    if (response.recoveryCodes.length > 0 || atSignIn()) {
      update({ loading: false, step: 'recoveryCode', recoveryCodes: response.recoveryCodes, otcToken: null, phoneNumber: null, ...(atSignIn() ? { mfaToken: null } : {}) });
      return;
    }
    // A further factor of an account that already had one: no new codes; back to the device list.
    await reloadDevices();
  }

  async function reloadDevices(): Promise<void> {
    const mfaDevices = await api.request<MfaDevices>('GET', ApiPaths.mfaDevices);
    set(atoms.mfa, { ...initialMfa, context: mfa().context === 'login' ? 'manage' : mfa().context, mfaDevices, mfaStrategies: mfa().mfaStrategies });
  }

  const codeSent = (sent: SmsCodeSentResponse) => update({ loading: false, step: 'smsVerifyCode', otcToken: sent.otcToken, phoneNumber: sent.phoneNumber });

  return {
    sendMfaSmsCode: () =>
      attempt(async () => {
        const sent = await api.request<SmsCodeSentResponse>('POST', MfaFactorPaths.smsPreVerify, { body: { mfaToken: mfaToken() } });
        smsPurpose = { kind: 'verify' };
        codeSent(sent);
      }),

    startSmsEnrollment: (phoneNumber) =>
      attempt(async () => {
        const typed = phoneNumber.trim();
        const sent = atSignIn()
          ? await api.request<SmsCodeSentResponse>('POST', MfaFactorPaths.loginSmsEnroll, { body: { mfaToken: mfaToken(), phoneNumber: typed } })
          : await api.request<SmsCodeSentResponse>('POST', MfaFactorPaths.smsEnroll, { body: { phoneNumber: typed } });
        smsPurpose = { kind: 'enroll' };
        codeSent(sent);
      }),

    verifyMfaSmsCode: ({ code, rememberDevice }) =>
      attempt(async () => {
        const value = code.trim();
        const otcToken = mfa().otcToken ?? '';
        const purpose = smsPurpose;
        if (purpose.kind === 'enroll') {
          await enrolled(
            atSignIn()
              ? await api.request<LoginEnrollResponse>('POST', MfaFactorPaths.loginSmsEnrollVerify, { body: { mfaToken: mfaToken(), otcToken, code: value } })
              : await api.request<RecoveryCodesResponse>('POST', MfaFactorPaths.smsEnrollVerify, { body: { otcToken, token: value } }),
          );
        } else if (purpose.kind === 'remove') {
          await api.request<unknown>('POST', path(MfaFactorPaths.smsDisableVerify, purpose.deviceId), { body: { otcToken, code: value } });
          smsPurpose = { kind: 'verify' };
          await reloadDevices();
        } else {
          await finish(await api.request<LoginResponse>('POST', MfaFactorPaths.smsVerify, { body: { mfaToken: mfaToken(), otcToken, code: value, rememberDevice: rememberDevice ?? false } }));
        }
      }),

    verifyMfaWebAuthn: (ceremony, input) =>
      attempt(async () => {
        const token = mfaToken();
        const { options } = await api.request<WebAuthnChallengeResponse>('POST', MfaFactorPaths.webauthnPreVerify, { body: { mfaToken: token } });
        const credential = await ceremony(options);
        await finish(await api.request<LoginResponse>('POST', MfaFactorPaths.webauthnVerify, { body: { mfaToken: token, credential, rememberDevice: input?.rememberDevice ?? false } }));
      }),

    enrollMfaWebAuthn: (ceremony, deviceType) =>
      attempt(async () => {
        if (atSignIn()) {
          const token = mfaToken();
          const { options } = await api.request<WebAuthnCreationResponse>('POST', MfaFactorPaths.loginWebauthnEnroll, { body: { mfaToken: token, deviceType } });
          const credential = await ceremony(options);
          await enrolled(await api.request<LoginEnrollResponse>('POST', MfaFactorPaths.loginWebauthnEnrollVerify, { body: { mfaToken: token, credential } }));
          return;
        }
        const { options } = await api.request<WebAuthnCreationResponse>('POST', MfaFactorPaths.webauthnEnroll, { body: { deviceType } });
        const credential = await ceremony(options);
        await enrolled(await api.request<RecoveryCodesResponse>('POST', MfaFactorPaths.webauthnEnrollVerify, { body: { credential } }));
      }),

    async loadMfaStrategies() {
      try {
        const { strategies } = await api.request<MfaStrategiesConfigResponse>('GET', MfaFactorPaths.strategiesConfig);
        update({ mfaStrategies: strategies });
      } catch {
        // Without the config the screens offer what the sign-in answer listed.
      }
    },

    removeMfaDevice: (deviceId: string, ceremony?: PasskeyLoginCeremony) =>
      attempt(async () => {
        const devices = mfa().mfaDevices ?? (await api.request<MfaDevices>('GET', ApiPaths.mfaDevices));
        if (devices.phones.some((d) => d.id === deviceId)) {
          const sent = await api.request<SmsCodeSentResponse>('POST', path(MfaFactorPaths.smsDisable, deviceId));
          smsPurpose = { kind: 'remove', deviceId };
          codeSent(sent);
          return;
        }
        if (!devices.webauthn.some((d) => d.id === deviceId) || !ceremony) throw createGatehouseError('MFA device not found', 404);
        const { options } = await api.request<WebAuthnChallengeResponse>('POST', path(MfaFactorPaths.webauthnDisable, deviceId));
        const credential = await ceremony(options);
        await api.request<unknown>('POST', path(MfaFactorPaths.webauthnDisableVerify, deviceId), { body: { credential } });
        await reloadDevices();
      }),
  };
}
