/**
 * Passkeys (WebAuthn) with @simplewebauthn/server: registration for the signed-in user, and
 * passkey sign-in that ends in a normal session (the same LoginResponse and refresh cookie as a
 * password sign-in, with amr ['hwk']). Challenges are random, stored only as SHA-256, single-use
 * and expire after WEBAUTHN_CHALLENGE_TTL_MS; registration challenges are bound to the session.
 */
import { getRandomValues } from 'node:crypto';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  AuthMethods,
  ErrorCodes,
  type PasskeyAuthenticationCredential,
  type PasskeyAuthenticationOptions,
  type PasskeyDevice,
  type PasskeyPreLoginRequest,
  type PasskeyRegistrationCredential,
  type PasskeyRegistrationOptions,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId, sha256 } from '../../crypto';
import type { Db } from '../../db';
import { listMfaDevices } from '../../db/queries/mfa-devices';
import { findUserByEmail, findUserById } from '../../db/queries/users';
import {
  advanceCounter,
  consumeChallenge,
  deleteCredential,
  deleteExpiredChallenges,
  findCredentialByCredentialId,
  insertChallenge,
  insertCredential,
  listCredentials,
  type WebauthnChallengeRow,
  type WebauthnCredentialRow,
} from '../../db/queries/webauthn';
import { AppError } from '../../errors';
import type { AuthContext, AuthService, ClientInfo, IssuedSession } from '../auth/auth';
import { UNKNOWN_CLIENT, type RateLimiter } from '../platform/rate-limit';
import { requireFreshAuthForNewFactor } from '../auth/recent-auth';
import { AuditActions, recordUserAudit } from '../admin/audit-log';

/** @simplewebauthn/server, loaded on the first ceremony (passkey or security key), not at start: it costs ~0.4 s of every server start. */
export const simpleWebAuthn = () => import('@simplewebauthn/server');

/** How long a ceremony may take: the challenge and the browser prompt both expire after it. */
export const WEBAUTHN_CHALLENGE_TTL_MS = 5 * 60_000;

type Purpose = 'registration' | 'authentication';

export interface WebauthnService {
  /** Creation options for a new passkey of the signed-in user. */
  registrationOptions(ctx: AuthContext): Promise<PasskeyRegistrationOptions>;
  /** Verifies the attestation and stores the passkey. */
  verifyRegistration(ctx: AuthContext, credential: PasskeyRegistrationCredential, name?: string): Promise<PasskeyDevice>;
  /**
   * Request options for discoverable credentials only (no allowCredentials, with or without an email),
   * so the answer never tells whether an account exists or has passkeys.
   */
  preLogin(body: PasskeyPreLoginRequest, client: ClientInfo): Promise<PasskeyAuthenticationOptions>;
  /** Verifies the assertion and starts a session. */
  postLogin(credential: PasskeyAuthenticationCredential, client: ClientInfo): Promise<IssuedSession>;
  listDevices(userId: string): Promise<PasskeyDevice[]>;
  /** Removes one of the caller's passkeys (recorded in the audit log). */
  removeDevice(ctx: AuthContext, id: string): Promise<void>;
}

const challengeInvalid = () => new AppError(ErrorCodes.passkeyChallengeInvalid, 400, 'The passkey request expired or was already used, please try again');
const verificationFailed = (status: 400 | 401) => new AppError(ErrorCodes.passkeyVerificationFailed, status, 'Passkey verification failed');
const unknownPasskey = () => new AppError(ErrorCodes.passkeyNotFound, 401, 'This passkey is not registered');

/** The challenge the browser signed, read from clientDataJSON (verification re-checks all of it). */
export function signedChallenge(clientDataJSON: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    if (typeof parsed.challenge === 'string' && parsed.challenge) return parsed.challenge;
  } catch {
    // fall through
  }
  throw challengeInvalid();
}

function toDevice(row: WebauthnCredentialRow): PasskeyDevice {
  return {
    id: row.id,
    name: row.name,
    deviceType: row.device_type === 'multiDevice' ? 'multiDevice' : 'singleDevice',
    backedUp: row.backed_up === 1,
    transports: JSON.parse(row.transports) as string[],
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
  };
}

export function createWebauthnService(deps: { db: Db; clock: Clock; auth: AuthService; limiter: RateLimiter; config: Pick<Config, 'webauthn'> }): WebauthnService {
  const { db, clock, auth, limiter } = deps;
  const { rpId, rpName, origins } = deps.config.webauthn;

  /** A fresh 256-bit challenge, stored hashed with what it is bound to; returns it base64url. */
  async function newChallenge(purpose: Purpose, userId: string | null, sessionId: string | null): Promise<Uint8Array<ArrayBuffer>> {
    const bytes = new Uint8Array(32);
    getRandomValues(bytes);
    const now = clock.now();
    await deleteExpiredChallenges(db, now);
    await insertChallenge(db, {
      challenge_hash: sha256(Buffer.from(bytes).toString('base64url')),
      purpose,
      user_id: userId,
      session_id: sessionId,
      created_at: now,
      expires_at: now + WEBAUTHN_CHALLENGE_TTL_MS,
      used_at: null,
    });
    return bytes;
  }

  /**
   * A passkey signs in on its own, so adding one is a security change: it needs a recent sign-in, or a
   * recent step-up when the account has a second factor (else a session alone could bypass that factor).
   */
  async function requireFreshAuth(ctx: AuthContext): Promise<void> {
    requireFreshAuthForNewFactor(ctx, clock.now(), (await listMfaDevices(db, ctx.userId, 'active')).length > 0);
  }

  /** Spends the challenge the browser signed; it is gone whatever the verification says next. */
  async function spendChallenge(clientDataJSON: string, purpose: Purpose): Promise<{ challenge: string; row: WebauthnChallengeRow }> {
    const challenge = signedChallenge(clientDataJSON);
    const row = await consumeChallenge(db, sha256(challenge), purpose, clock.now());
    if (!row) throw challengeInvalid();
    return { challenge, row };
  }

  return {
    async registrationOptions(ctx) {
      const user = await findUserById(db, ctx.userId);
      if (!user) throw verificationFailed(401);
      await requireFreshAuth(ctx);
      const existing = await listCredentials(db, user.id);
      const challenge = await newChallenge('registration', user.id, ctx.sessionId);
      const { generateRegistrationOptions } = await simpleWebAuthn();
      const options = await generateRegistrationOptions({
        rpName,
        rpID: rpId,
        // A phone sign-up account has no email: its phone number names the passkey instead.
        userName: user.email ?? user.phone_number ?? user.id,
        userDisplayName: user.name || (user.email ?? user.phone_number ?? user.id),
        userID: new TextEncoder().encode(user.id),
        challenge,
        timeout: WEBAUTHN_CHALLENGE_TTL_MS,
        attestationType: 'none',
        // The same authenticator is not registered twice.
        excludeCredentials: existing.map((c) => ({ id: c.credential_id, transports: JSON.parse(c.transports) as string[] })),
        // A passkey: discoverable (sign-in needs no identifier) and user-verified.
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      });
      return options as PasskeyRegistrationOptions;
    },

    async verifyRegistration(ctx, credential, name) {
      await requireFreshAuth(ctx);
      const { challenge, row } = await spendChallenge(credential.response.clientDataJSON, 'registration');
      // Bound to the session that asked for it: another session (or user) cannot finish it.
      if (row.user_id !== ctx.userId || row.session_id !== ctx.sessionId) throw challengeInvalid();
      const { verifyRegistrationResponse } = await simpleWebAuthn();
      let info;
      try {
        const result = await verifyRegistrationResponse({
          response: credential as RegistrationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: origins,
          expectedRPID: rpId,
          requireUserVerification: true,
        });
        if (!result.verified) throw verificationFailed(400);
        info = result.registrationInfo;
      } catch {
        throw verificationFailed(400);
      }
      if (await findCredentialByCredentialId(db, info.credential.id)) {
        throw new AppError(ErrorCodes.validation, 409, 'This passkey is already registered');
      }
      const now = clock.now();
      const stored = {
        id: newId(),
        credential_id: info.credential.id,
        user_id: ctx.userId,
        public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: JSON.stringify(info.credential.transports ?? credential.response.transports ?? []),
        device_type: info.credentialDeviceType,
        backed_up: info.credentialBackedUp ? 1 : 0,
        name: name?.trim() || null,
        created_at: now,
        last_used_at: null,
      };
      await insertCredential(db, stored);
      const owner = await findUserById(db, ctx.userId);
      if (owner) {
        const label = stored.name ? `"${stored.name}"` : 'unnamed';
        await recordUserAudit(db, owner, ctx.client ?? { ip: null }, { action: AuditActions.passkeyAdded, description: `Passkey added: ${label}`, json: { passkeyId: stored.id, name: stored.name } }, now, ctx.tenantId);
      }
      return toDevice(stored);
    },

    async preLogin(body, client) {
      await limiter.consume('loginPerIp', client.ip ?? UNKNOWN_CLIENT);
      // The email only binds the challenge server-side (that user's passkeys alone may answer it);
      // the options are the same for known, unknown and passkey-less accounts.
      const user = body.email ? await findUserByEmail(db, body.email) : undefined;
      const challenge = await newChallenge('authentication', user?.id ?? null, null);
      const { generateAuthenticationOptions } = await simpleWebAuthn();
      const options = await generateAuthenticationOptions({
        rpID: rpId,
        challenge,
        timeout: WEBAUTHN_CHALLENGE_TTL_MS,
        userVerification: 'required',
      });
      return options as PasskeyAuthenticationOptions;
    },

    async postLogin(credential, client) {
      await limiter.consume('loginPerIp', client.ip ?? UNKNOWN_CLIENT);
      const { challenge, row } = await spendChallenge(credential.response.clientDataJSON, 'authentication');
      if (credential.rawId !== credential.id) throw verificationFailed(401);
      const stored = await findCredentialByCredentialId(db, credential.id);
      if (!stored) throw unknownPasskey();
      // A prelogin that named a user only accepts that user's passkeys.
      if (row.user_id !== null && row.user_id !== stored.user_id) throw verificationFailed(401);
      const userHandle = credential.response.userHandle;
      if (userHandle && Buffer.from(userHandle, 'base64url').toString('utf8') !== stored.user_id) throw verificationFailed(401);
      const { verifyAuthenticationResponse } = await simpleWebAuthn();
      let newCounter: number;
      try {
        const result = await verifyAuthenticationResponse({
          response: credential as AuthenticationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: origins,
          expectedRPID: rpId,
          credential: { id: stored.credential_id, publicKey: new Uint8Array(Buffer.from(stored.public_key, 'base64url')), counter: stored.counter, transports: JSON.parse(stored.transports) as string[] },
          requireUserVerification: true,
        });
        if (!result.verified) throw verificationFailed(401);
        newCounter = result.authenticationInfo.newCounter;
      } catch {
        // Includes a counter that did not grow: a sign of a cloned authenticator.
        throw verificationFailed(401);
      }
      if (!(await advanceCounter(db, stored.id, stored.counter, newCounter, clock.now()))) throw verificationFailed(401);
      const user = await findUserById(db, stored.user_id);
      if (!user) throw unknownPasskey();
      if (user.verified !== 1) throw new AppError(ErrorCodes.userNotVerified, 400, 'User is not verified');
      if (user.disabled === 1) throw new AppError(ErrorCodes.userDisabled, 403, 'User is disabled');
      return auth.startSession(user, client, [AuthMethods.hardwareKey]);
    },

    async listDevices(userId) {
      return (await listCredentials(db, userId)).map(toDevice);
    },

    async removeDevice(ctx, id) {
      const passkey = (await listCredentials(db, ctx.userId)).find((c) => c.id === id);
      if (!(await deleteCredential(db, ctx.userId, id))) throw new AppError(ErrorCodes.passkeyNotFound, 404, 'Passkey not found');
      const owner = await findUserById(db, ctx.userId);
      if (owner) {
        const label = passkey?.name ? `"${passkey.name}"` : 'unnamed';
        await recordUserAudit(db, owner, ctx.client ?? { ip: null }, { action: AuditActions.passkeyRemoved, description: `Passkey removed: ${label}`, json: { passkeyId: id, name: passkey?.name ?? null } }, clock.now(), ctx.tenantId);
      }
    },
  };
}
