/**
 * The browser half of adding a security key or passkey, with the platform API alone (no library in
 * the portal's bundle): the server's JSON options become `navigator.credentials.create()` options
 * (base64url strings to buffers), and the new credential goes back as its JSON form.
 */
import type { PasskeyRegistrationCredential, PasskeyRegistrationOptions } from '@gatehouse/shared/wire';

export type RegistrationCeremony = (options: PasskeyRegistrationOptions) => Promise<PasskeyRegistrationCredential>;

/** Thrown when the person cancels, or the browser refuses or times out. */
export class CeremonyCancelled extends Error {
  readonly kind = 'ceremonyCancelled';
}

export function isCeremonyCancelled(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'kind' in error && error.kind === 'ceremonyCancelled';
}

/** True where this browser can create credentials at all. */
export function webAuthnAvailable(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function' && typeof navigator.credentials?.create === 'function';
}

export function fromBase64url(value: string): ArrayBuffer {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (value.length % 4)) % 4);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

export function toBase64url(buffer: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `navigator.credentials.create()` with the server's options; the credential as JSON for the server. */
export const browserRegistration: RegistrationCeremony = async (options) => {
  const publicKey: PublicKeyCredentialCreationOptions = {
    ...(options as unknown as PublicKeyCredentialCreationOptions),
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
    excludeCredentials: options.excludeCredentials?.map((c) => ({ type: 'public-key' as const, id: fromBase64url(c.id), transports: c.transports as AuthenticatorTransport[] | undefined })),
  };
  let credential: Credential | null;
  try {
    credential = await navigator.credentials.create({ publicKey });
  } catch (error) {
    // NotAllowedError: cancelled, timed out or refused; InvalidStateError: this key is already registered.
    if (error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'AbortError')) throw new CeremonyCancelled(error.message);
    throw error;
  }
  if (!credential) throw new CeremonyCancelled('No credential');
  const key = credential as PublicKeyCredential;
  const response = key.response as AuthenticatorAttestationResponse;
  const attachment = key.authenticatorAttachment;
  return {
    id: key.id,
    rawId: toBase64url(key.rawId),
    type: 'public-key',
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      attestationObject: toBase64url(response.attestationObject),
      ...(typeof response.getTransports === 'function' ? { transports: response.getTransports() } : {}),
    },
    ...(attachment === 'platform' || attachment === 'cross-platform' ? { authenticatorAttachment: attachment } : {}),
    clientExtensionResults: key.getClientExtensionResults() as Record<string, unknown>,
  };
};
