/**
 * Passkeys / WebAuthn wire shapes (seed 000 sections 3 and 7.2). Options travel as the WebAuthn
 * JSON forms (base64url strings for every buffer), so the browser can hand them to
 * `navigator.credentials` through @simplewebauthn/browser and send its JSON result back unchanged.
 */
import { z } from 'zod';

const base64url = z.string().max(16_384).regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');
const transports = z.array(z.string().max(32)).max(10);

export { PASSKEYS_FLAG, PASSKEYS_STRATEGY } from './passkeys';

/** Options of `navigator.credentials.create()` (PublicKeyCredentialCreationOptionsJSON); built by the server. */
export const PasskeyRegistrationOptions = z
  .object({
    challenge: z.string(),
    rp: z.object({ id: z.string().optional(), name: z.string() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ type: z.literal('public-key'), alg: z.number() })),
    timeout: z.number().optional(),
    excludeCredentials: z.array(z.object({ id: z.string(), type: z.literal('public-key'), transports: transports.optional() })).optional(),
    authenticatorSelection: z.record(z.string(), z.unknown()).optional(),
    attestation: z.string().optional(),
    extensions: z.record(z.string(), z.unknown()).optional(),
    hints: z.array(z.string()).optional(),
  })
  .loose();
export type PasskeyRegistrationOptions = z.infer<typeof PasskeyRegistrationOptions>;

/** Options of `navigator.credentials.get()` (PublicKeyCredentialRequestOptionsJSON); built by the server. */
export const PasskeyAuthenticationOptions = z
  .object({
    challenge: z.string(),
    timeout: z.number().optional(),
    rpId: z.string().optional(),
    allowCredentials: z.array(z.object({ id: z.string(), type: z.literal('public-key'), transports: transports.optional() })).optional(),
    userVerification: z.string().optional(),
    extensions: z.record(z.string(), z.unknown()).optional(),
    hints: z.array(z.string()).optional(),
  })
  .loose();
export type PasskeyAuthenticationOptions = z.infer<typeof PasskeyAuthenticationOptions>;

/** The browser's `PublicKeyCredential.toJSON()` after create() (RegistrationResponseJSON). */
export const PasskeyRegistrationCredential = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    authenticatorData: base64url.optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().optional(),
    publicKey: base64url.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});
export type PasskeyRegistrationCredential = z.input<typeof PasskeyRegistrationCredential>;

/** The browser's `PublicKeyCredential.toJSON()` after get() (AuthenticationResponseJSON). */
export const PasskeyAuthenticationCredential = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});
export type PasskeyAuthenticationCredential = z.input<typeof PasskeyAuthenticationCredential>;

/** POST auth v1 webauthn/prelogin: no identifier for discoverable credentials, or one to list its passkeys. */
export const PasskeyPreLoginRequest = z.object({ email: z.string().trim().min(1).max(320).optional() }).partial();
export type PasskeyPreLoginRequest = z.infer<typeof PasskeyPreLoginRequest>;

/** POST auth v1 webauthn/prelogin answer. */
export const PasskeyPreLoginResponse = z.object({ options: PasskeyAuthenticationOptions });
export type PasskeyPreLoginResponse = z.infer<typeof PasskeyPreLoginResponse>;

/** POST auth v1 webauthn/postlogin: the assertion; answers a LoginResponse. */
export const PasskeyPostLoginRequest = z.object({ credential: PasskeyAuthenticationCredential });
export type PasskeyPostLoginRequest = z.input<typeof PasskeyPostLoginRequest>;

/** POST users webauthn v1 devices answer: creation options for the signed-in user. */
export const PasskeyRegistrationOptionsResponse = z.object({ options: PasskeyRegistrationOptions });
export type PasskeyRegistrationOptionsResponse = z.infer<typeof PasskeyRegistrationOptionsResponse>;

/** POST users webauthn v1 devices/verify: the attestation, with an optional name for the list. */
export const PasskeyRegistrationVerifyRequest = z.object({ credential: PasskeyRegistrationCredential, name: z.string().trim().max(100).optional() });
export type PasskeyRegistrationVerifyRequest = z.input<typeof PasskeyRegistrationVerifyRequest>;

/** Passkey device (seed 000 section 3: id), with what a list of one's passkeys shows. */
export const PasskeyDevice = z.object({
  id: z.string(),
  name: z.string().nullable(),
  deviceType: z.enum(['singleDevice', 'multiDevice']),
  backedUp: z.boolean(),
  transports: z.array(z.string()),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type PasskeyDevice = z.infer<typeof PasskeyDevice>;

/** GET users webauthn v1 devices */
export const PasskeyDevicesResponse = z.object({ devices: z.array(PasskeyDevice) });
export type PasskeyDevicesResponse = z.infer<typeof PasskeyDevicesResponse>;
