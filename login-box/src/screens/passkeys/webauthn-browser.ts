/**
 * The browser half of the WebAuthn ceremonies, through @simplewebauthn/browser. Loaded only by
 * `ceremonies.ts` with a dynamic import, so it stays out of what loads before the form is usable.
 */
import { startAuthentication, startRegistration, type PublicKeyCredentialCreationOptionsJSON, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { PasskeyLoginCeremony, PasskeyRegistrationCeremony } from '@gatehouse/shared';

export const loginCeremony: PasskeyLoginCeremony = async (options) => {
  const credential = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
  return credential as Awaited<ReturnType<PasskeyLoginCeremony>>;
};

export const registrationCeremony: PasskeyRegistrationCeremony = async (options) => {
  const credential = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
  return credential as Awaited<ReturnType<PasskeyRegistrationCeremony>>;
};
