/**
 * WebAuthn as a second factor (seed 000 section 3: WebAuthnPlatform and WebAuthnCrossPlatform,
 * device types internal, usb-key, android; a new-device session has deviceType platform or
 * cross-platform): enrolment at sign-in and by the signed-in user, the assertion at sign-in and
 * step-up (amr 'hwk'), and removal with an assertion by the key itself. @simplewebauthn/server does
 * the verification, as for passkeys; unlike a passkey, such a key never signs in on its own (it is
 * stored in mfa_devices, and only an mfaToken's ceremony accepts it).
 * Challenges: 256-bit, stored as SHA-256, single use, 5 minutes, bound to the mfaToken of the sign-in
 * (or to the signed-in session). No HTTP and no SQL here.
 */
import { getRandomValues } from 'node:crypto';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  AuthMethods,
  ErrorCodes,
  MfaDeviceTypes,
  MfaStrategies,
  WebAuthnAttachments,
  type LoginEnrollResponse,
  type MfaDeviceType,
  type PasskeyAuthenticationCredential,
  type PasskeyAuthenticationOptions,
  type PasskeyRegistrationCredential,
  type PasskeyRegistrationOptions,
  type WebAuthnAttachment,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { insertMfaDevice, listMfaDevices, type MfaDeviceRow } from '../../db/queries/mfa-devices';
import { advanceMfaDeviceCounter, findMfaDeviceByCredentialId } from '../../db/queries/mfa-factor-devices';
import type { MfaTokenRow } from '../../db/queries/mfa-tokens';
import { consumeChallenge, deleteExpiredChallenges, insertChallenge, type WebauthnChallengeRow } from '../../db/queries/webauthn';
import { findUserById, type UserRow } from '../../db/queries/users';
import { AppError, Errors } from '../../errors';
import type { AuthContext, ClientInfo } from '../auth/auth';
import type { MfaCompletion } from './mfa';
import { MFA_ATTEMPTS_BUCKET, type MfaCore } from './core';
import { factorName } from './factor-audit';
import { requireActiveStrategy, strategyOfDevice } from './strategies';
import type { RateLimiter } from '../platform/rate-limit';
import { requireFreshAuthForNewFactor, requireRecentAuth } from '../auth/recent-auth';
import { signedChallenge, simpleWebAuthn, WEBAUTHN_CHALLENGE_TTL_MS } from '../passwordless/webauthn';

type Purpose = 'mfa-registration' | 'mfa-authentication' | 'mfa-disable';

export interface MfaWebauthnService {
  /** Pre-verify at sign-in or step-up: request options listing the user's enrolled keys. */
  loginOptions(mfaToken: string): Promise<PasskeyAuthenticationOptions>;
  verifyLogin(input: { mfaToken: string; credential: PasskeyAuthenticationCredential; rememberDevice?: boolean }, client: ClientInfo): Promise<MfaCompletion>;
  /** forceTwoFactor: creation options for a platform or cross-platform authenticator. */
  loginEnrollOptions(input: { mfaToken: string; deviceType: WebAuthnAttachment }): Promise<PasskeyRegistrationOptions>;
  /** forceTwoFactor: stores the key and ends signed in, with recovery codes. */
  loginEnrollVerify(input: { mfaToken: string; credential: PasskeyRegistrationCredential; name?: string }, client: ClientInfo): Promise<MfaCompletion & { response: LoginEnrollResponse }>;
  /** The signed-in user's enrolment (recent sign-in, or a recent step-up once the account has a factor). */
  enrollOptions(ctx: AuthContext, deviceType: WebAuthnAttachment): Promise<PasskeyRegistrationOptions>;
  verifyEnrollment(ctx: AuthContext, credential: PasskeyRegistrationCredential, name?: string): Promise<{ recoveryCodes: string[] }>;
  /** Removing a key: a recent sign-in, then an assertion by that key. */
  disableOptions(ctx: AuthContext, deviceId: string): Promise<PasskeyAuthenticationOptions>;
  disable(ctx: AuthContext, deviceId: string, credential: PasskeyAuthenticationCredential): Promise<void>;
}

const challengeInvalid = () => new AppError(ErrorCodes.passkeyChallengeInvalid, 400, 'The security key request expired or was already used, please try again');
const verificationFailed = () => new AppError(ErrorCodes.invalidMfaCode, 400, 'Security key verification failed, please try again');
const notEnrolled = () => new AppError(ErrorCodes.noMfaEnrolled, 400, 'No security key is enrolled');

const strategyFor = (deviceType: WebAuthnAttachment) => (deviceType === WebAuthnAttachments.platform ? MfaStrategies.webAuthnPlatform : MfaStrategies.webAuthnCrossPlatform);

/**
 * The seed's device type of a new key: internal for this device's own authenticator, android for a
 * phone used over the hybrid transport, usb-key for any other roaming key (USB, NFC, BLE).
 */
export function deviceTypeOf(requested: WebAuthnAttachment, reported: string | undefined, transports: string[]): MfaDeviceType {
  const attachment = reported ?? requested;
  if (attachment === WebAuthnAttachments.platform || (reported === undefined && transports.includes('internal'))) return MfaDeviceTypes.internal;
  return transports.includes('hybrid') ? MfaDeviceTypes.android : MfaDeviceTypes.usbKey;
}

export function createMfaWebauthnService(deps: { db: Db; clock: Clock; limiter: RateLimiter; core: MfaCore; config: Pick<Config, 'webauthn'> }): MfaWebauthnService {
  const { db, clock, limiter, core } = deps;
  const { rpId, rpName, origins } = deps.config.webauthn;

  /** A fresh challenge bound to what may answer it; returns its bytes. */
  async function newChallenge(purpose: Purpose, binding: { userId: string; sessionId?: string; mfaTokenHash?: string; attachment?: WebAuthnAttachment }): Promise<Uint8Array<ArrayBuffer>> {
    const bytes = new Uint8Array(32);
    getRandomValues(bytes);
    const now = clock.now();
    await deleteExpiredChallenges(db, now);
    await insertChallenge(db, {
      challenge_hash: sha256(Buffer.from(bytes).toString('base64url')),
      purpose,
      user_id: binding.userId,
      session_id: binding.sessionId ?? null,
      mfa_token_hash: binding.mfaTokenHash ?? null,
      attachment: binding.attachment ?? null,
      created_at: now,
      expires_at: now + WEBAUTHN_CHALLENGE_TTL_MS,
      used_at: null,
    });
    return bytes;
  }

  /** Spends the challenge the browser signed; it is gone whatever the verification says next. */
  async function spend(clientDataJSON: string, purpose: Purpose): Promise<{ challenge: string; row: WebauthnChallengeRow }> {
    const challenge = signedChallenge(clientDataJSON);
    const row = await consumeChallenge(db, sha256(challenge), purpose, clock.now());
    if (!row) throw challengeInvalid();
    return { challenge, row };
  }

  /** The user's active keys whose method is on (a key of a method turned off is not offered nor accepted). */
  async function usableKeys(userId: string): Promise<MfaDeviceRow[]> {
    return (await listMfaDevices(db, userId, 'active')).filter((d) => d.type === 'webauthn' && d.credential_id && core.active.has(strategyOfDevice(d)!));
  }

  async function creationOptions(user: UserRow, deviceType: WebAuthnAttachment, challenge: Uint8Array<ArrayBuffer>): Promise<PasskeyRegistrationOptions> {
    const existing = (await listMfaDevices(db, user.id)).filter((d) => d.type === 'webauthn' && d.credential_id);
    const label = user.email ?? user.phone_number ?? user.id;
    const { generateRegistrationOptions } = await simpleWebAuthn();
    const options = await generateRegistrationOptions({
      rpName,
      rpID: rpId,
      userName: label,
      userDisplayName: user.name || label,
      userID: new TextEncoder().encode(user.id),
      challenge,
      timeout: WEBAUTHN_CHALLENGE_TTL_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((d) => ({ id: d.credential_id!, transports: JSON.parse(d.transports ?? '[]') as string[] })),
      // A second factor: possession is the proof, so no discoverable credential and no required user verification.
      authenticatorSelection: { authenticatorAttachment: deviceType, residentKey: 'discouraged', requireResidentKey: false, userVerification: 'preferred' },
    });
    return options as PasskeyRegistrationOptions;
  }

  /** Verifies an attestation for a spent registration challenge and stores the key as an active device. */
  /** Verifies the registration and stores the key; returns the key's name for the audit log. */
  async function store(userId: string, row: WebauthnChallengeRow, challenge: string, credential: PasskeyRegistrationCredential, name: string | undefined): Promise<string> {
    const { verifyRegistrationResponse } = await simpleWebAuthn();
    let info;
    try {
      const result = await verifyRegistrationResponse({ response: credential as RegistrationResponseJSON, expectedChallenge: challenge, expectedOrigin: origins, expectedRPID: rpId, requireUserVerification: false });
      if (!result.verified) throw verificationFailed();
      info = result.registrationInfo;
    } catch {
      throw verificationFailed();
    }
    if (await findMfaDeviceByCredentialId(db, info.credential.id)) throw new AppError(ErrorCodes.mfaAlreadyEnrolled, 409, 'This security key is already enrolled');
    const requested = row.attachment === WebAuthnAttachments.platform ? WebAuthnAttachments.platform : WebAuthnAttachments.crossPlatform;
    const transports = info.credential.transports ?? credential.response.transports ?? [];
    const now = clock.now();
    await insertMfaDevice(db, {
      id: newId(),
      user_id: userId,
      type: 'webauthn',
      status: 'active',
      secret: null,
      email: null,
      last_used_step: null,
      created_at: now,
      verified_at: now,
      credential_id: info.credential.id,
      public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: JSON.stringify(transports),
      device_type: deviceTypeOf(requested, credential.authenticatorAttachment, transports),
      name: name?.trim() || null,
    });
    return factorName({ type: 'webauthn', phone_number: null, name: name?.trim() || null, device_type: deviceTypeOf(requested, credential.authenticatorAttachment, transports) });
  }

  /** Verifies an assertion by `device` for a spent challenge and moves its counter; false when it fails. */
  async function assertionValid(device: MfaDeviceRow, challenge: string, credential: PasskeyAuthenticationCredential): Promise<boolean> {
    if (credential.rawId !== credential.id || credential.id !== device.credential_id) return false;
    const { verifyAuthenticationResponse } = await simpleWebAuthn();
    let newCounter: number;
    try {
      const result = await verifyAuthenticationResponse({
        response: credential as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: origins,
        expectedRPID: rpId,
        credential: { id: device.credential_id, publicKey: new Uint8Array(Buffer.from(device.public_key ?? '', 'base64url')), counter: device.counter ?? 0, transports: JSON.parse(device.transports ?? '[]') as string[] },
        requireUserVerification: false,
      });
      if (!result.verified) return false;
      newCounter = result.authenticationInfo.newCounter;
    } catch {
      // Includes a counter that did not grow: a sign of a cloned authenticator.
      return false;
    }
    return advanceMfaDeviceCounter(db, device.id, device.counter ?? 0, newCounter);
  }

  async function requestOptions(keys: MfaDeviceRow[], challenge: Uint8Array<ArrayBuffer>): Promise<PasskeyAuthenticationOptions> {
    const { generateAuthenticationOptions } = await simpleWebAuthn();
    const options = await generateAuthenticationOptions({
      rpID: rpId,
      challenge,
      timeout: WEBAUTHN_CHALLENGE_TTL_MS,
      allowCredentials: keys.map((d) => ({ id: d.credential_id!, transports: JSON.parse(d.transports ?? '[]') as string[] })),
      userVerification: 'preferred',
    });
    return options as PasskeyAuthenticationOptions;
  }

  /** Spends the challenge of a sign-in ceremony; it must have been issued for this mfaToken. */
  async function spendForToken(token: MfaTokenRow, clientDataJSON: string, purpose: Purpose): Promise<{ challenge: string; row: WebauthnChallengeRow }> {
    const spent = await spend(clientDataJSON, purpose);
    if (spent.row.mfa_token_hash !== token.token_hash || spent.row.user_id !== token.user_id) throw challengeInvalid();
    return spent;
  }

  /** Spends the challenge of a signed-in ceremony; it must have been issued to this session. */
  async function spendForSession(ctx: AuthContext, clientDataJSON: string, purpose: Purpose): Promise<{ challenge: string; row: WebauthnChallengeRow }> {
    const spent = await spend(clientDataJSON, purpose);
    if (spent.row.user_id !== ctx.userId || spent.row.session_id !== ctx.sessionId || spent.row.mfa_token_hash !== null) throw challengeInvalid();
    return spent;
  }

  return {
    async loginOptions(mfaToken) {
      const token = await core.liveToken(mfaToken, ['login', 'step-up']);
      const keys = await usableKeys(token.user_id);
      if (keys.length === 0) {
        const any = (await listMfaDevices(db, token.user_id, 'active')).some((d) => d.type === 'webauthn');
        if (any) throw new AppError(ErrorCodes.mfaStrategyNotActive, 403, 'This two-factor method is turned off');
        throw notEnrolled();
      }
      return requestOptions(keys, await newChallenge('mfa-authentication', { userId: token.user_id, mfaTokenHash: token.token_hash }));
    },

    async verifyLogin({ mfaToken, credential, rememberDevice }, client) {
      const token = await core.liveToken(mfaToken, ['login', 'step-up']);
      await core.beginAttempt(token);
      const { challenge } = await spendForToken(token, credential.response.clientDataJSON, 'mfa-authentication');
      const device = (await usableKeys(token.user_id)).find((d) => d.credential_id === credential.id);
      if (!device || !(await assertionValid(device, challenge, credential))) return core.wrongCode(token, verificationFailed(), client);
      return core.complete(token, [AuthMethods.hardwareKey], client, rememberDevice);
    },

    async loginEnrollOptions({ mfaToken, deviceType }) {
      const token = await core.liveToken(mfaToken, ['enroll']);
      requireActiveStrategy(core.active, strategyFor(deviceType));
      const user = await findUserById(db, token.user_id);
      if (!user) throw Errors.unauthorized();
      return creationOptions(user, deviceType, await newChallenge('mfa-registration', { userId: user.id, mfaTokenHash: token.token_hash, attachment: deviceType }));
    },

    async loginEnrollVerify({ mfaToken, credential, name }, client) {
      const token = await core.liveToken(mfaToken, ['enroll']);
      await core.beginAttempt(token);
      const { challenge, row } = await spendForToken(token, credential.response.clientDataJSON, 'mfa-registration');
      requireActiveStrategy(core.active, strategyFor(row.attachment === WebAuthnAttachments.platform ? WebAuthnAttachments.platform : WebAuthnAttachments.crossPlatform));
      // Loaded before the try: a server fault is not the user's wrong attempt.
      await simpleWebAuthn();
      let stored: string;
      try {
        stored = await store(token.user_id, row, challenge, credential, name);
      } catch (err) {
        return core.wrongCode(token, err as AppError, client);
      }
      await core.factorAdded(token.user_id, stored, client);
      const done = await core.complete(token, [AuthMethods.hardwareKey], client);
      return { ...done, response: { ...done.response, recoveryCodes: await core.newRecoveryCodes(token.user_id) } };
    },

    async enrollOptions(ctx, deviceType) {
      requireActiveStrategy(core.active, strategyFor(deviceType));
      const user = await findUserById(db, ctx.userId);
      if (!user) throw Errors.unauthorized();
      requireFreshAuthForNewFactor(ctx, clock.now(), await core.hasActiveFactor(ctx.userId));
      return creationOptions(user, deviceType, await newChallenge('mfa-registration', { userId: user.id, sessionId: ctx.sessionId, attachment: deviceType }));
    },

    async verifyEnrollment(ctx, credential, name) {
      const hadFactor = await core.hasActiveFactor(ctx.userId);
      requireFreshAuthForNewFactor(ctx, clock.now(), hadFactor);
      const { challenge, row } = await spendForSession(ctx, credential.response.clientDataJSON, 'mfa-registration');
      requireActiveStrategy(core.active, strategyFor(row.attachment === WebAuthnAttachments.platform ? WebAuthnAttachments.platform : WebAuthnAttachments.crossPlatform));
      const stored = await store(ctx.userId, row, challenge, credential, name);
      await core.factorAdded(ctx.userId, stored, ctx.client ?? { ip: null, userAgent: null }, ctx.tenantId);
      // Only the first factor brings recovery codes; a second one must not silently replace saved codes.
      return { recoveryCodes: hadFactor ? [] : await core.newRecoveryCodes(ctx.userId) };
    },

    async disableOptions(ctx, deviceId) {
      requireRecentAuth(ctx, clock.now());
      const device = (await listMfaDevices(db, ctx.userId, 'active')).find((d) => d.id === deviceId && d.type === 'webauthn');
      if (!device) throw Errors.notFound('MFA device not found');
      return requestOptions([device], await newChallenge('mfa-disable', { userId: ctx.userId, sessionId: ctx.sessionId }));
    },

    async disable(ctx, deviceId, credential) {
      requireRecentAuth(ctx, clock.now());
      const devices = await listMfaDevices(db, ctx.userId, 'active');
      const device = devices.find((d) => d.id === deviceId && d.type === 'webauthn');
      if (!device) throw Errors.notFound('MFA device not found');
      // Counted like every other proof given to remove a factor, and cleared by a valid one.
      await limiter.consume(MFA_ATTEMPTS_BUCKET, ctx.userId);
      const { challenge } = await spendForSession(ctx, credential.response.clientDataJSON, 'mfa-disable');
      if (!(await assertionValid(device, challenge, credential))) throw verificationFailed();
      await limiter.reset(MFA_ATTEMPTS_BUCKET, ctx.userId);
      await core.removeFactor(ctx.userId, devices, deviceId, ctx);
    },
  };
}
