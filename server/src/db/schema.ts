import type { ColumnType } from 'kysely';

/**
 * Table shapes as Kysely sees them. Timestamps are epoch milliseconds (bigint; the pg pool parses
 * int8 to number), booleans are integers 0/1, ids are text: one representation for both dialects.
 */
export interface TenantsTable {
  id: string;
  name: string;
  is_reseller: number;
  application_url: string | null;
  metadata: string | null;
  created_at: number;
}

export interface UsersTable {
  id: string;
  email: string;
  username: string | null;
  name: string;
  password_hash: string | null;
  verified: number;
  super_user: number;
  disabled: number;
  phone_number: string | null;
  address: string | null;
  job_title: string | null;
  profile_picture_id: string | null;
  metadata: string | null;
  last_tenant_id: string | null;
  created_at: number;
  last_login: number | null;
  /** Migration 007 (password policies). */
  password_changed_at: number | null;
  failed_logins: ColumnType<number, number | undefined, number>;
  locked_at: number | null;
  is_breached_password: ColumnType<number, number | undefined, number>;
}

export interface UserTenantsTable {
  user_id: string;
  tenant_id: string;
  created_at: number;
}

export interface PermissionsTable {
  id: string;
  key: string;
  name: string;
  description: string | null;
  category_id: string | null;
}

export interface RolesTable {
  id: string;
  tenant_id: string;
  key: string;
  name: string;
  description: string | null;
  is_default: number;
  created_at: number;
}

export interface RolePermissionsTable {
  role_id: string;
  permission_id: string;
}

export interface UserRolesTable {
  user_id: string;
  tenant_id: string;
  role_id: string;
}

export interface SigningKeysTable {
  kid: string;
  alg: string;
  public_jwk: string;
  private_jwk: string;
  status: string;
  created_at: number;
  not_after: number | null;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  tenant_id: string;
  user_agent: string | null;
  ip: string | null;
  created_at: number;
  last_used_at: number;
  expires_at: number;
  revoked_at: number | null;
  auth_time: number;
  amr: string;
}

export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface OneTimeTokensTable {
  token_hash: string;
  user_id: string;
  purpose: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** SHA-256 (hex) of the `gatehouse-signup` cookie of the browser that made the sign-up (migration 002). */
  binding_hash: string | null;
  /** argon2id hash of the password chosen at that sign-up; becomes the user's only via the bound browser. */
  pending_password_hash: string | null;
  /** JSON of that sign-up's profile fields, applied under the same condition. */
  pending_profile: string | null;
}

export interface OutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: number;
  /** 'email' or 'sms' (migration 005; existing rows are email). */
  channel: ColumnType<string, string | undefined, string>;
}

export interface ProfilePicturesTable {
  id: string;
  user_id: string;
  mime: string;
  bytes: Buffer;
  created_at: number;
}

export interface MetadataTable {
  entity_name: string;
  configuration: string;
  updated_at: number;
}

/** One fixed-window counter (migration 003); `key` is `<bucket>:<sha-256 of the identifier>`. */
export interface RateLimitsTable {
  key: string;
  window_start: number;
  count: number;
}

/** One SMS password-recovery attempt (migration 005); hashes only, never the session id or code. */
export interface SmsResetSessionsTable {
  session_hash: string;
  user_id: string;
  code_hash: string;
  attempts: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A registered passkey (migration 006); `public_key` is the COSE key, base64url. */
export interface WebauthnCredentialsTable {
  id: string;
  credential_id: string;
  user_id: string;
  public_key: string;
  counter: number;
  /** JSON array of AuthenticatorTransport names. */
  transports: string;
  device_type: string;
  backed_up: number;
  name: string | null;
  created_at: number;
  last_used_at: number | null;
}

/** An outstanding WebAuthn challenge (migration 006), by SHA-256 only; `purpose` is registration or authentication. */
export interface WebauthnChallengesTable {
  challenge_hash: string;
  purpose: string;
  user_id: string | null;
  session_id: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** MFA tables (migration 004); see server/src/db/queries/mfa-*.ts. */
export interface MfaDevicesTable {
  id: string;
  user_id: string;
  /** 'authenticator' | 'email' */
  type: string;
  /** 'pending' until the first code proves the enrolment, then 'active'. */
  status: string;
  /** Base32 TOTP secret (encrypted when a key-encryption key is configured). */
  secret: string | null;
  email: string | null;
  /** TOTP time step of the last accepted code: a code of that step or older is a replay. */
  last_used_step: number | null;
  created_at: number;
  verified_at: number | null;
}

export interface MfaRecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

export interface MfaTokensTable {
  token_hash: string;
  user_id: string;
  /** 'login' | 'enroll' (forced enrolment at sign-in) | 'step-up' */
  purpose: string;
  /** The session a step-up token upgrades. */
  session_id: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  failed_attempts: number;
}

export interface MfaEmailCodesTable {
  id: string;
  user_id: string;
  purpose: string;
  mfa_token_hash: string | null;
  code_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  failed_attempts: number;
}

export interface MfaRememberedDevicesTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

export interface MfaPoliciesTable {
  tenant_id: string;
  enforce: string;
  allow_remember_device: number;
  remember_device_days: number;
  updated_at: number;
}

/** A magic link or emailed sign-in code (migration 008). */
export interface PasswordlessCodesTable {
  id: string;
  user_id: string;
  /** 'magiclink' or 'code'. */
  kind: string;
  /** SHA-256 of the link token, or of `<id>:<code>` for a code. */
  secret_hash: string;
  attempts: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface Database {
  tenants: TenantsTable;
  users: UsersTable;
  user_tenants: UserTenantsTable;
  permissions: PermissionsTable;
  roles: RolesTable;
  role_permissions: RolePermissionsTable;
  user_roles: UserRolesTable;
  signing_keys: SigningKeysTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  one_time_tokens: OneTimeTokensTable;
  outbox: OutboxTable;
  profile_pictures: ProfilePicturesTable;
  metadata: MetadataTable;
  rate_limits: RateLimitsTable;
  mfa_devices: MfaDevicesTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  mfa_tokens: MfaTokensTable;
  mfa_email_codes: MfaEmailCodesTable;
  mfa_remembered_devices: MfaRememberedDevicesTable;
  mfa_policies: MfaPoliciesTable;
  sms_reset_sessions: SmsResetSessionsTable;
  webauthn_credentials: WebauthnCredentialsTable;
  passwordless_codes: PasswordlessCodesTable;
  webauthn_challenges: WebauthnChallengesTable;
}
