/**
 * Passkey ceremonies for the store, loading @simplewebauthn/browser on first use: the login form
 * must be interactive within the 120 KB budget, and most visits never touch a passkey.
 */
import type { PasskeyLoginCeremony, PasskeyRegistrationCeremony } from '@gatehouse/shared';

const load = () => import('./webauthn-browser');

export const passkeyLogin: PasskeyLoginCeremony = async (options) => (await load()).loginCeremony(options);
export const passkeyRegistration: PasskeyRegistrationCeremony = async (options) => (await load()).registrationCeremony(options);
