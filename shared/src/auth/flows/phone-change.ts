/**
 * Reset phone number (seed 000 section 2.2: ResetPhoneNumber -> VerifyResetPhoneNumber ->
 * ChangePhoneNumber) and the signed-in user's phone change. The tokens between the steps live only
 * in this module, never in the snapshot. Loaded on first use.
 *
 * "Lost your phone?" on the SMS step of a sign-in leads here with that sign-in still pending: its
 * mfaToken (already in the store, never in the URL) goes with the emailed code, because the server
 * replaces an SMS second factor only for a reset that also proved the password.
 */
import type { GatehouseError, GatehouseStore, ResetPhoneNumberState } from '../../core/types';
import { toGatehouseError } from '../../errors';
import { ErrorCodes } from '../../wire/error-codes';
import { MfaFactorPaths } from '../../wire/mfa/paths';
import type { ChangePhoneNumberResponse, ResetPhoneNumberResponse, VerifyPhoneNumberResponse, VerifyResetPhoneNumberResponse } from '../../wire/mfa/factors';
import type { FlowContext } from '../flow-context';
import { initialLogin, initialMfa, initialResetPhoneNumber } from '../state';

/** The store methods this flow adds. */
export type PhoneChangeFlow = Pick<GatehouseStore, 'resetPhoneNumber' | 'verifyResetPhoneNumber' | 'changePhoneNumber' | 'verifyPhoneNumber'>;

export function createPhoneChangeFlow(ctx: FlowContext): PhoneChangeFlow {
  const { api, atoms, get, set, patch } = ctx;
  const state = () => get(atoms.resetPhoneNumber);
  const update = (changes: Partial<ResetPhoneNumberState>) => patch(atoms.resetPhoneNumber, changes);
  let resetToken: string | null = null;
  let changeToken: string | null = null;
  let changePhoneId: string | null = null;
  // The pending sign-in's mfaToken, taken when the reset starts; the server checks it, never spends it.
  let signInToken: string | null = null;

  /** The mfaToken of a sign-in waiting for its second factor, if one is. */
  const pendingSignIn = (): string | null => (!get(atoms.user) && get(atoms.login).step === 'loginWithTwoFactor' ? (get(atoms.mfa).mfaToken ?? get(atoms.login).mfaToken ?? null) : null);

  /** The waiting sign-in starts over from the identifier (its mfaToken is dead or belongs to the old factor). */
  function restartSignIn(): void {
    if (get(atoms.user)) return;
    set(atoms.login, { ...initialLogin, email: get(atoms.login).email });
    set(atoms.mfa, initialMfa);
  }

  async function attempt(run: () => Promise<void>, onError?: (error: GatehouseError) => void): Promise<void> {
    if (state().loading) return;
    update({ loading: true, error: null });
    try {
      await run();
    } catch (error) {
      const converted = toGatehouseError(error);
      onError?.(converted);
      update({ loading: false, error: converted.message });
    }
  }

  return {
    async resetPhoneNumber(email) {
      const value = email.trim();
      if (!value) {
        update({ error: 'Email is required' });
        return;
      }
      update({ email: value });
      signInToken = pendingSignIn();
      await attempt(async () => {
        const { resetPhoneNumberToken } = await api.request<ResetPhoneNumberResponse>('POST', MfaFactorPaths.phoneReset, { body: { email: value } });
        resetToken = resetPhoneNumberToken;
        changeToken = null;
        changePhoneId = null;
        set(atoms.resetPhoneNumber, { ...initialResetPhoneNumber, email: value, step: 'VerifyResetPhoneNumber' });
      });
    },

    verifyResetPhoneNumber: (code) =>
      attempt(
        async () => {
          const body = { resetPhoneNumberToken: resetToken ?? '', code: code.trim(), ...(signInToken ? { mfaToken: signInToken } : {}) };
          const { changePhoneNumberToken } = await api.request<VerifyResetPhoneNumberResponse>('POST', MfaFactorPaths.phoneResetVerify, { body });
          // The emailed code is spent and the server bound the reset to the sign-in: neither token stays here.
          resetToken = null;
          signInToken = null;
          changeToken = changePhoneNumberToken;
          set(atoms.resetPhoneNumber, { ...initialResetPhoneNumber, email: state().email, step: 'ChangePhoneNumber' });
        },
        (error) => {
          // The sign-in expired (or was not a password sign-in): "Back to sign in" must start a new one.
          if (error.errorCode === ErrorCodes.invalidMfaToken) {
            signInToken = null;
            restartSignIn();
          }
        },
      ),

    changePhoneNumber: (phoneNumber) =>
      attempt(async () => {
        const typed = phoneNumber.trim();
        // After a reset the token proves the emailed code; otherwise the signed-in user's session does.
        const sent = changeToken
          ? await api.request<ChangePhoneNumberResponse>('PUT', MfaFactorPaths.phoneChange, { body: { changePhoneNumberToken: changeToken, phoneNumber: typed } })
          : await api.request<ChangePhoneNumberResponse>('POST', MfaFactorPaths.phone, { body: { phoneNumber: typed } });
        changePhoneId = sent.changePhoneId;
        update({ loading: false, step: 'ChangePhoneNumber', phoneNumber: sent.phoneNumber, done: false });
      }),

    verifyPhoneNumber: (code) =>
      attempt(async () => {
        const { phoneNumber } = await api.request<VerifyPhoneNumberResponse>('POST', MfaFactorPaths.phoneVerify, { body: { changePhoneId: changePhoneId ?? '', code: code.trim() } });
        changePhoneId = null;
        changeToken = null;
        update({ loading: false, phoneNumber, done: true });
        // A sign-in left waiting for the lost phone's code starts over with the new phone.
        restartSignIn();
      }),
  };
}
