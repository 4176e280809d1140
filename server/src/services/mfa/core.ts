/**
 * What the SMS and WebAuthn second factors (sms.ts, webauthn.ts) share with the MFA service
 * (mfa.ts), which implements it: the mfaToken checks, the shared attempt limits, finishing a
 * sign-in or step-up, recovery codes and removal.
 */
import type { MfaStrategy } from '@gatehouse/shared/wire';
import type { MfaDeviceRow } from '../../db/queries/mfa-devices';
import type { MfaTokenRow } from '../../db/queries/mfa-tokens';
import type { AppError } from '../../errors';
import type { Db } from '../../db';
import type { AuthContext, ClientInfo } from '../auth/auth';
import type { MfaCompletion } from './mfa';

/** The steps every second factor shares. */
export interface MfaCore {
  /** Methods on in the config (MFA_STRATEGIES; SMS only when texts can be sent). */
  readonly active: ReadonlySet<MfaStrategy>;
  /** A live (unused, unexpired) mfaToken of one of the purposes; else 401. */
  liveToken(mfaToken: string, purposes: MfaTokenPurpose[]): Promise<MfaTokenRow>;
  /** Reserve-first: one hit on the per-user limiter (429 over it) and one attempt on the token (401 when spent). */
  beginAttempt(row: MfaTokenRow): Promise<void>;
  /** After a wrong proof: spends an exhausted token and throws (invalid code unless `error` is given). */
  /** Also records the refused sign-in or step-up in the audit log, from `client`. */
  wrongCode(row: MfaTokenRow, error?: AppError, client?: Pick<ClientInfo, 'ip' | 'userAgent'>): Promise<never>;
  /** Spends the token; a new session (sign-in) or an upgraded one (step-up) with `methods` in amr. */
  complete(row: MfaTokenRow, methods: string[], client: ClientInfo, remember?: boolean): Promise<MfaCompletion>;
  /** A new set of recovery codes replacing the old ones; `executor` may be a transaction. */
  newRecoveryCodes(userId: string, executor?: Db): Promise<string[]>;
  hasActiveFactor(userId: string): Promise<boolean>;
  /**
   * Removes one of `devices` (all of them, with recovery codes and remembered browsers, when it is the
   * last one), and records it in the audit log of the tenant `ctx` acts in, in one transaction.
   */
  removeFactor(userId: string, devices: MfaDeviceRow[], deviceId: string | null, ctx: AuthContext): Promise<void>;
  /** Records an added second factor (`factor`: its name, see factorName) in the audit log. */
  factorAdded(userId: string, factor: string, client: Pick<ClientInfo, 'ip' | 'userAgent'>, tenantId?: string): Promise<void>;
}

export type MfaTokenPurpose = 'login' | 'enroll' | 'step-up';

/** The per-user brake on second-factor guessing, across all of the user's mfaTokens. */
export const MFA_ATTEMPTS_BUCKET = 'mfaAttemptsPerUser';

