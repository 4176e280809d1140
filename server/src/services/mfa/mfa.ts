/**
 * MFA and step-up rules (seed 000 sections 4.2, 4.8, 4.9): the gate after a password, verification
 * of a second factor (authenticator app, emailed code, recovery code), forced enrolment at sign-in,
 * remember-this-device, step-up of a running session, and the user's own factor management.
 * No HTTP and no SQL here: routes call this, queries do the storage.
 */
import {
  AuthMethods, ErrorCodes, MfaAuthMethods, MfaStrategies, type AuthenticatorEnrollResponse, type LoginEnrollResponse, type LoginResponse, type MfaDevices,
  type MfaRequiredResponse, type MfaRememberDeviceResponse, type MfaStatusResponse, type StepUpGenerateResponse,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { decrypt, encrypt, newId, newSecret, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import {
  activateMfaDevice, claimTotpStep, deleteAllMfaDevices, deleteMfaDevice, deletePendingDevices, deleteRecoveryCodes, insertMfaDevice,
  listMfaDevices, listUnusedRecoveryCodes, replaceRecoveryCodes, useRecoveryCode, type MfaDeviceRow,
} from '../../db/queries/mfa-devices';
import {
  consumeEmailCode, consumeMfaToken, findEmailCode, findMfaToken, forgetRememberedDevices, insertEmailCode, insertMfaToken,
  insertRememberedDevice, invalidateEmailCodes, isRememberedDevice, reserveEmailCodeAttempt, reserveMfaTokenAttempt, spendExhaustedEmailCode,
  spendExhaustedMfaToken, upgradeSessionAuth, type MfaTokenRow,
} from '../../db/queries/mfa-tokens';
import { findSession } from '../../db/queries/sessions';
import { listUserTenants } from '../../db/queries/tenants';
import { findUserById, type UserRow } from '../../db/queries/users';
import { AppError, Errors } from '../../errors';
import { AMR_PASSWORD, type AuthContext, type AuthService, type ClientInfo, type IssuedSession } from '../auth/auth';
import type { Mailer, MailMessage } from '../messaging/mail';
import type { EmailService } from '../messaging/emails/email-service';
import { AuditActions, recordUserAudit } from '../admin/audit-log';
import type { SecurityPolicyService } from '../security/policies';
import { factorName, recordFactorAdded, recordFactorRemoved } from './factor-audit';
import { createMfaSelfService, type MfaSelfService } from './self-service';
import { SignInMethods } from '../auth/sign-in-methods';
import { findTenant } from '../../db/queries/tenants';
import {
  devicesView, EMAIL_CODE_TTL_MS, findMatchingHash, hashRecoveryCode, MFA_MAX_ATTEMPTS, MFA_TOKEN_TTL_MS, newEmailCode, newRecoveryCode,
  RECOVERY_CODE_COUNT, strategiesView,
} from './factors';
import { MFA_ATTEMPTS_BUCKET, type MfaCore, type MfaTokenPurpose } from './core';
import { activeMfaStrategies, requireActiveStrategy } from './strategies';
import type { RateLimiter } from '../platform/rate-limit';
import { requireFreshAuthForNewFactor, requireRecentAuth } from '../auth/recent-auth';
import { matchTotp, newTotpSecret, qrCodeDataUrl, totpUri } from './totp';

/** What finishing a second factor yields; the HTTP layer sets the cookies it names. */
export interface MfaCompletion {
  response: LoginResponse;
  /** Set for a sign-in (new session); absent for a step-up (the session and its cookie live on). */
  refreshToken?: string;
  /** Set when the user asked to remember this device and the policy allows it. */
  rememberDevice?: { token: string; maxAgeSeconds: number };
}

export interface MfaService extends MfaSelfService {
  /** The steps the SMS and WebAuthn factors share with this service (core.ts). */
  readonly core: MfaCore;
  /** After the first factor: the pending-MFA answer, or null when no second factor is due. `primaryMethod`: AMR_PASSWORD after the password (kept on the mfaToken). */
  gateLogin(user: UserRow, client: ClientInfo, primaryMethod?: string): Promise<IssuedSession | null>;
  verifyTotp(input: { mfaToken: string; value: string; rememberDevice?: boolean }, client: ClientInfo): Promise<MfaCompletion>;
  recover(input: { mfaToken: string; recoveryCode: string }, client: ClientInfo): Promise<MfaCompletion>;
  sendEmailCode(input: { mfaToken: string }): Promise<{ otcToken: string }>;
  verifyEmailCode(input: { mfaToken: string; otcToken: string; code: string; rememberDevice?: boolean }, client: ClientInfo): Promise<MfaCompletion>;
  rememberDeviceInfo(mfaToken: string): Promise<MfaRememberDeviceResponse>;
  /** forceTwoFactor: enrolment with the mfaToken of a sign-in, ending signed in. */
  loginEnrollAuthenticator(mfaToken: string): Promise<AuthenticatorEnrollResponse>;
  loginVerifyAuthenticator(input: { mfaToken: string; token: string }, client: ClientInfo): Promise<MfaCompletion & { response: LoginEnrollResponse }>;
  stepUpGenerate(ctx: AuthContext): Promise<StepUpGenerateResponse>;
}

const invalidToken = () => new AppError(ErrorCodes.invalidMfaToken, 401, 'The verification session expired, please sign in again');
const invalidCode = () => new AppError(ErrorCodes.invalidMfaCode, 400, 'Invalid code, please try again');
const notEnrolled = () => new AppError(ErrorCodes.noMfaEnrolled, 400, 'MFA is not enrolled');

const USER_ATTEMPTS = MFA_ATTEMPTS_BUCKET;

export function createMfaService(deps: {
  db: Db;
  clock: Clock;
  auth: AuthService;
  mail: Mailer;
  emails: EmailService;
  limiter: RateLimiter;
  config: Pick<Config, 'mfa' | 'keyEncryptionKey' | 'mfaStrategies' | 'smsHttpUrl' | 'dev' | 'appName'>;
  /** The tenant's MFA policy (issue 12): enforcement and remember-this-device, read at each sign-in. */
  security: Pick<SecurityPolicyService, 'effectiveForUser'>;
}): MfaService {
  const { db, clock, auth, mail, emails, limiter, config, security } = deps;
  const activeStrategies = activeMfaStrategies(config);

  const sealSecret = (secret: string) => (config.keyEncryptionKey ? encrypt(secret, config.keyEncryptionKey) : secret);
  const openSecret = (stored: string) => decrypt(stored, config.keyEncryptionKey);

  /**
   * The MFA policy of the tenant the user signs in to (services/security/policies.ts): ForceExceptSAML
   * forces every sign-in but a SAML SSO one. `rememberSeconds` is 0 when devices may not be remembered;
   * `rememberDeviceDays` is the same, rounded up, for the wire.
   */
  async function policyFor(user: UserRow, client?: Pick<ClientInfo, 'signInMethod' | 'ssoProtocol'>): Promise<{ enforce: 'optional' | 'force'; rememberDeviceDays: number; rememberSeconds: number }> {
    const { mfa } = await security.effectiveForUser(user);
    const saml = client?.signInMethod === SignInMethods.sso && client.ssoProtocol === 'saml';
    const forced = mfa.enforceMFAType === 'Force' || (mfa.enforceMFAType === 'ForceExceptSAML' && !saml);
    const rememberSeconds = mfa.allowRememberMyDevice ? mfa.mfaDeviceExpiration : 0;
    return { enforce: forced ? 'force' : 'optional', rememberSeconds, rememberDeviceDays: Math.ceil(rememberSeconds / 86_400) };
  }

  async function issueToken(
    userId: string,
    purpose: MfaTokenPurpose,
    sessionId: string | null = null,
    loginOrigin: string | null = null,
    primaryMethod: string | null = null,
    signInMethod: string | null = null,
  ): Promise<string> {
    const token = newSecret();
    const now = clock.now();
    await insertMfaToken(db, {
      token_hash: sha256(token), user_id: userId, purpose, session_id: sessionId, created_at: now, expires_at: now + MFA_TOKEN_TTL_MS, used_at: null, failed_attempts: 0,
      login_origin: loginOrigin, primary_method: primaryMethod, sign_in_method: signInMethod,
    });
    return token;
  }

  /** A live (unused, unexpired) token of one of the purposes. */
  async function liveToken(mfaToken: string, purposes: MfaTokenPurpose[]): Promise<MfaTokenRow> {
    const row = await findMfaToken(db, sha256(mfaToken));
    const now = clock.now();
    if (!row || row.used_at !== null || row.expires_at <= now || !(purposes as string[]).includes(row.purpose)) throw invalidToken();
    return row;
  }

  /**
   * Reserve-first, before any code is compared: one hit on the user's limiter (429 over it) and one
   * atomic attempt on the token (spent or exhausted: 401). Parallel requests cannot all pass a check
   * that is only written after a wrong guess.
   */
  async function beginAttempt(row: MfaTokenRow): Promise<void> {
    await limiter.consume(USER_ATTEMPTS, row.user_id);
    if (!(await reserveMfaTokenAttempt(db, row.token_hash, clock.now(), MFA_MAX_ATTEMPTS))) throw invalidToken();
  }

  /** The attempt was already counted; a token out of attempts is spent now. A sign-in's failure is recorded. */
  async function wrongCode(row: MfaTokenRow, error: AppError = invalidCode(), client: Pick<ClientInfo, 'ip' | 'userAgent'> = { ip: null, userAgent: null }): Promise<never> {
    await spendExhaustedMfaToken(db, row.token_hash, clock.now(), MFA_MAX_ATTEMPTS);
    const user = await findUserById(db, row.user_id);
    if (user) {
      const method = row.sign_in_method ?? (row.purpose === 'step-up' ? 'step-up' : 'sign-in');
      const reason = row.purpose === 'enroll' ? 'the new second factor was not confirmed' : 'wrong second factor';
      await recordUserAudit(db, user, client, { action: AuditActions.signInFailed, description: `Sign-in with ${method} failed: ${reason}`, json: { method, reason, purpose: row.purpose } }, clock.now());
    }
    throw error;
  }

  /** True when the user has an active second factor (authenticator or email). */
  async function hasActiveFactor(userId: string): Promise<boolean> {
    return (await listMfaDevices(db, userId, 'active')).length > 0;
  }

  /** The accepted step of a code for one of the user's authenticators (replay refused), or null. */
  async function acceptTotp(devices: MfaDeviceRow[], code: string): Promise<MfaDeviceRow | null> {
    const now = clock.now();
    for (const device of devices) {
      if (device.type !== 'authenticator' || !device.secret) continue;
      const step = matchTotp(openSecret(device.secret), code, now);
      if (step !== null && (await claimTotpStep(db, device.id, step))) return device;
    }
    return null;
  }

  async function newRecoveryCodes(userId: string, executor: Db = db): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const now = clock.now();
    await replaceRecoveryCodes(executor, userId, codes.map((code) => ({ id: newId(), user_id: userId, code_hash: hashRecoveryCode(code), created_at: now, used_at: null })));
    return codes;
  }

  /** Spends the token and turns the proven factor into a session (sign-in) or an upgraded session (step-up). */
  async function complete(row: MfaTokenRow, methods: string[], client: ClientInfo, remember = false): Promise<MfaCompletion> {
    const now = clock.now();
    if (!(await consumeMfaToken(db, row.token_hash, now))) throw invalidToken();
    // A right code: the user's guessing count starts over.
    await limiter.reset(USER_ATTEMPTS, row.user_id);
    const user = await findUserById(db, row.user_id);
    if (!user || user.disabled === 1) throw invalidToken();
    if (row.purpose === 'step-up') {
      const session = row.session_id ? await findSession(db, row.session_id) : undefined;
      if (!session || session.revoked_at !== null || session.expires_at <= now) throw Errors.unauthorized();
      const amr = [...new Set([...(JSON.parse(session.amr) as string[]), AuthMethods.mfa, ...methods])];
      await upgradeSessionAuth(db, session.id, amr, now);
      return { response: await auth.sessionToken(session.id) };
    }
    // The session keeps how the sign-in began (social login), not only that it ended with a second factor.
    const began: ClientInfo = { ...client, ...(row.login_origin ? { loginOrigin: row.login_origin } : {}), ...(row.sign_in_method ? { signInMethod: row.sign_in_method } : {}) };
    const issued = await auth.startSession(user, began, [...(row.primary_method ? [row.primary_method] : []), AuthMethods.mfa, ...methods]);
    const completion: MfaCompletion = { response: issued.response, refreshToken: issued.refreshToken };
    const seconds = (await policyFor(user)).rememberSeconds;
    if (remember && seconds > 0) {
      const token = newSecret();
      await insertRememberedDevice(db, { token_hash: sha256(token), user_id: user.id, created_at: now, expires_at: now + seconds * 1000 });
      completion.rememberDevice = { token, maxAgeSeconds: seconds };
    }
    return completion;
  }

  /** The name the authenticator app files the entry under: the tenant's (its account name), else the application's. */
  async function issuerFor(user: UserRow, tenantId?: string): Promise<string> {
    const id = tenantId ?? user.last_tenant_id ?? (await listUserTenants(db, user.id))[0]?.id;
    const tenant = id ? await findTenant(db, id) : undefined;
    return tenant?.name.trim() || config.appName;
  }

  async function pendingAuthenticator(user: UserRow, tenantId?: string): Promise<AuthenticatorEnrollResponse> {
    await deletePendingDevices(db, user.id, 'authenticator');
    const secret = newTotpSecret();
    await insertMfaDevice(db, { id: newId(), user_id: user.id, type: 'authenticator', status: 'pending', secret: sealSecret(secret), email: null, last_used_step: null, created_at: clock.now(), verified_at: null });
    // A phone sign-up account has no email: the authenticator app shows its phone number instead.
    const uri = totpUri(secret, user.email ?? user.phone_number ?? user.id, await issuerFor(user, tenantId));
    return { qrCode: await qrCodeDataUrl(uri), uri, secret };
  }

  /** Confirms the newest pending authenticator with its first code; returns false for a wrong code. */
  async function confirmAuthenticator(userId: string, code: string): Promise<boolean> {
    const pending = (await listMfaDevices(db, userId, 'pending')).filter((d) => d.type === 'authenticator').at(-1);
    if (!pending?.secret) throw new AppError(ErrorCodes.validation, 400, 'Start the authenticator enrolment first');
    const now = clock.now();
    const step = matchTotp(openSecret(pending.secret), code, now);
    if (step === null) return false;
    await activateMfaDevice(db, pending.id, now, step);
    return true;
  }

  async function removeFactor(userId: string, devices: MfaDeviceRow[], deviceId: string | null, ctx: AuthContext): Promise<void> {
    const all = !deviceId || devices.length === 1;
    const removed = all ? devices : devices.filter((d) => d.id === deviceId);
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      if (all) {
        // Seed 4.8: disabling clears the devices; recovery codes and remembered browsers go with them.
        await deleteAllMfaDevices(trx, userId);
        await deleteRecoveryCodes(trx, userId);
        await forgetRememberedDevices(trx, userId);
      } else {
        await deleteMfaDevice(trx, userId, deviceId);
      }
      await recordFactorRemoved(trx, userId, removed.map(factorName).join(', ') || 'every factor', all, ctx.client ?? { ip: null }, now, ctx.tenantId);
    });
  }

  async function factorAdded(userId: string, factor: string, client: Pick<ClientInfo, 'ip' | 'userAgent'>, tenantId?: string): Promise<void> {
    await recordFactorAdded(db, userId, factor, client, clock.now(), tenantId);
  }

  /** The email that carries a sign-in or enrolment code, in the user's language and the tenant's look. */
  async function codeEmail(user: UserRow, code: string, tenantId?: string): Promise<MailMessage> {
    return emails.render('mfaCode', user, { code, lifetime: { minutes: EMAIL_CODE_TTL_MS / 60_000 } }, { tenantId });
  }

  const core: MfaCore = { active: activeStrategies, liveToken, beginAttempt, wrongCode, complete, newRecoveryCodes, hasActiveFactor, removeFactor, factorAdded };

  return {
    core,
    ...createMfaSelfService({ db, clock, mail, limiter, active: activeStrategies }, { core, policyFor, pendingAuthenticator, confirmAuthenticator, acceptTotp, codeEmail }),

    async gateLogin(user, client, primaryMethod) {
      const devices = await listMfaDevices(db, user.id, 'active');
      const policy = await policyFor(user, client);
      if (devices.length === 0 && policy.enforce !== 'force') return null;
      // A remembered browser counts only while the policy still allows remembering devices, and only
      // within the policy's expiry now (a tenant that shortened it shortens browsers remembered before).
      const mayRemember = policy.rememberSeconds > 0;
      const now = clock.now();
      if (devices.length > 0 && mayRemember && client.mfaRememberToken && (await isRememberedDevice(db, sha256(client.mfaRememberToken), user.id, now, now - policy.rememberSeconds * 1000))) return null;
      const enrolled = devices.length > 0;
      const response: MfaRequiredResponse = {
        accessToken: '',
        expiresIn: 0,
        expires: '',
        mfaRequired: true,
        mfaToken: await issueToken(
          user.id, enrolled ? 'login' : 'enroll', null, client.loginOrigin ?? null, primaryMethod ?? null,
          client.signInMethod ?? (primaryMethod === AMR_PASSWORD ? SignInMethods.password : null),
        ),
        mfaEnrolled: enrolled,
        mfaStrategies: strategiesView(devices, activeStrategies, !enrolled),
        mfaDevices: devicesView(devices),
        allowRememberDevice: policy.rememberSeconds > 0,
        rememberDeviceDays: policy.rememberDeviceDays,
        userId: user.id,
      };
      return { response, refreshToken: '' };
    },

    async verifyTotp({ mfaToken, value, rememberDevice }, client) {
      const row = await liveToken(mfaToken, ['login', 'step-up']);
      requireActiveStrategy(activeStrategies, MfaStrategies.authenticatorApp);
      await beginAttempt(row);
      const device = await acceptTotp(await listMfaDevices(db, row.user_id, 'active'), value);
      if (!device) return wrongCode(row, undefined, client);
      return complete(row, [AuthMethods.otp], client, rememberDevice);
    },

    async recover({ mfaToken, recoveryCode }, client) {
      const row = await liveToken(mfaToken, ['login']);
      await beginAttempt(row);
      const match = findMatchingHash(await listUnusedRecoveryCodes(db, row.user_id), recoveryCode);
      if (!match || !(await useRecoveryCode(db, match.id, clock.now()))) {
        return wrongCode(row, new AppError(ErrorCodes.invalidRecoveryCode, 400, 'Invalid recovery code'), client);
      }
      return complete(row, [MfaAuthMethods.recoveryCode], client);
    },

    async sendEmailCode({ mfaToken }) {
      const row = await liveToken(mfaToken, ['login', 'step-up']);
      requireActiveStrategy(activeStrategies, MfaStrategies.emailCode);
      const device = (await listMfaDevices(db, row.user_id, 'active')).find((d) => d.type === 'email' && d.email);
      if (!device?.email) throw notEnrolled();
      const now = clock.now();
      await invalidateEmailCodes(db, row.user_id, 'login', now);
      const code = newEmailCode();
      const id = newId();
      await insertEmailCode(db, { id, user_id: row.user_id, purpose: 'login', mfa_token_hash: row.token_hash, code_hash: sha256(code), created_at: now, expires_at: now + EMAIL_CODE_TTL_MS, used_at: null, failed_attempts: 0 });
      const owner = await findUserById(db, row.user_id);
      if (!owner) throw invalidToken();
      await mail.send({ ...(await codeEmail(owner, code)), to: device.email });
      return { otcToken: id };
    },

    async verifyEmailCode({ mfaToken, otcToken, code, rememberDevice }, client) {
      const row = await liveToken(mfaToken, ['login', 'step-up']);
      requireActiveStrategy(activeStrategies, MfaStrategies.emailCode);
      await beginAttempt(row);
      const sent = await findEmailCode(db, otcToken, row.user_id, 'login');
      const now = clock.now();
      // Reserve-first on the emailed code too: its own attempt limit holds under parallel calls.
      if (!sent || sent.mfa_token_hash !== row.token_hash || !(await reserveEmailCodeAttempt(db, sent.id, now, MFA_MAX_ATTEMPTS))) return wrongCode(row, undefined, client);
      if (!safeEqual(sent.code_hash, sha256(code)) || !(await consumeEmailCode(db, sent.id, now))) {
        await spendExhaustedEmailCode(db, sent.id, now, MFA_MAX_ATTEMPTS);
        return wrongCode(row, undefined, client);
      }
      return complete(row, [MfaAuthMethods.email], client, rememberDevice);
    },

    async rememberDeviceInfo(mfaToken) {
      const row = await liveToken(mfaToken, ['login']);
      const user = await findUserById(db, row.user_id);
      const seconds = user ? (await policyFor(user)).rememberSeconds : 0;
      return { isAllowedToRemember: seconds > 0, mfaDeviceExpiration: seconds };
    },

    async loginEnrollAuthenticator(mfaToken) {
      const row = await liveToken(mfaToken, ['enroll']);
      requireActiveStrategy(activeStrategies, MfaStrategies.authenticatorApp);
      const user = await findUserById(db, row.user_id);
      if (!user) throw invalidToken();
      return pendingAuthenticator(user);
    },

    async loginVerifyAuthenticator({ mfaToken, token }, client) {
      const row = await liveToken(mfaToken, ['enroll']);
      await beginAttempt(row);
      if (!(await confirmAuthenticator(row.user_id, token))) return wrongCode(row, undefined, client);
      await factorAdded(row.user_id, 'authenticator app', client);
      const done = await complete(row, [AuthMethods.otp], client);
      return { ...done, response: { ...done.response, recoveryCodes: await newRecoveryCodes(row.user_id) } };
    },

    async stepUpGenerate(ctx) {
      const devices = await listMfaDevices(db, ctx.userId, 'active');
      if (devices.length === 0) throw notEnrolled();
      return { mfaToken: await issueToken(ctx.userId, 'step-up', ctx.sessionId), mfaStrategies: strategiesView(devices, activeStrategies), mfaDevices: devicesView(devices) };
    },
  };
}
