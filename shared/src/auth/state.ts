/** Jotai atoms of the auth state and the memoized snapshot derived from them. */
import { atom } from 'jotai/vanilla';
import type { AuthSnapshot, AuthUser } from '../core/types';
import type { VendorPublicConfig } from '../wire';

export const initialLogin: AuthSnapshot['login'] = { step: 'preLogin', email: '', loading: false, error: null };
export const initialSignUp: AuthSnapshot['signUp'] = { stage: 'SignUp', loading: false, error: null };
export const initialActivate: AuthSnapshot['activate'] = { step: 'activating', loading: false, error: null, resendSent: false };
export const initialProfile: AuthSnapshot['profile'] = { saving: false, error: null, saved: false };
export const initialForgotPassword: AuthSnapshot['forgotPassword'] = { step: 'forgotPassword', identifier: '', loading: false, error: null };
export const initialPasskeys: AuthSnapshot['passkeys'] = { devices: null, loading: false, error: null, registered: false };
export const initialInvitation: AuthSnapshot['invitation'] = { step: 'validate', loading: false, error: null, shouldSetPassword: false, codeRequired: false, resendSent: false };
export const initialImpersonation: AuthSnapshot['impersonation'] = { step: 'impersonating', error: null };
export const initialResetPhoneNumber: AuthSnapshot['resetPhoneNumber'] = { step: 'ResetPhoneNumber', email: '', loading: false, error: null };
export const initialMfa: AuthSnapshot['mfa'] = {
  step: 'verify', context: 'login', loading: false, error: null, mfaToken: null, mfaDevices: null, mfaStrategies: [], qrCode: null, uri: null, secret: null,
  recoveryCodes: [], otcToken: null, allowRememberDevice: false, rememberDeviceDays: 0, maxAge: null, steppedUp: false,
};

/** One set of atoms per store instance (atoms are configs; values live in the jotai store). */
export function createAuthAtoms() {
  const isLoading = atom(true);
  const accessToken = atom<string | null>(null);
  const user = atom<AuthUser | null>(null);
  const login = atom(initialLogin);
  const signUp = atom(initialSignUp);
  const activate = atom(initialActivate);
  const profile = atom(initialProfile);
  const forgotPassword = atom(initialForgotPassword);
  const vendor = atom<VendorPublicConfig | null>(null);
  const passkeys = atom(initialPasskeys);
  const mfa = atom(initialMfa);
  const invitation = atom(initialInvitation);
  const impersonation = atom(initialImpersonation);
  const social = atom<AuthSnapshot['social']>(null);
  const resetPhoneNumber = atom(initialResetPhoneNumber);
  // Derived: jotai recomputes it only when a dependency changed, so getSnapshot returns the same
  // object between changes (what useSyncExternalStore requires).
  const snapshot = atom<AuthSnapshot>((get) => {
    const currentUser = get(user);
    return {
      isLoading: get(isLoading),
      isAuthenticated: currentUser !== null,
      user: currentUser,
      login: get(login),
      signUp: get(signUp),
      activate: get(activate),
      profile: get(profile),
      forgotPassword: get(forgotPassword),
      vendor: get(vendor),
      passkeys: get(passkeys),
      mfa: get(mfa),
      invitation: get(invitation),
      impersonation: get(impersonation),
      social: get(social),
      resetPhoneNumber: get(resetPhoneNumber),
    };
  });
  return { isLoading, accessToken, user, login, signUp, activate, profile, forgotPassword, vendor, passkeys, mfa, invitation, impersonation, social, resetPhoneNumber, snapshot };
}

export type AuthAtoms = ReturnType<typeof createAuthAtoms>;
