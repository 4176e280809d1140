import type { ColumnType } from 'kysely';
import type { SsoTables } from './schema-sso';
import type { SocialTables } from './schema-social';
import type { OAuthTables } from './schema-oauth';
import type { AdminTables } from './schema-admin';
import type { ApiTokenTables } from './schema-api-tokens';
import type { AccountTables } from './schema-account';
import type { SecurityTables } from './schema-security';
import type { SelfServiceTables } from './schema-self-service';
import type { BillingTables } from './schema-billing';
import type { ApplicationTables } from './schema-applications';
import type { ScimTables } from './schema-scim';
import type { ConnectivityTables } from './schema-connectivity';
import type { WebhookTables } from './schema-webhooks';
import type { ChannelTables } from './schema-channels';
import type { NotificationTables } from './schema-notifications';
import type { ReportTables } from './schema-reports';
import type { CdnTables } from './schema-cdn';

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
  /** Migration 021 (sub-accounts): the parent account, its users' reach into descendants, and the tenant type. */
  parent_tenant_id: OptionalColumn<string>;
  sub_account_access_type: ColumnType<string, string | undefined, string>;
  tenant_type: ColumnType<string, string | undefined, string>;
}

export interface UsersTable {
  id: string;
  /** Null for an account made by phone sign-up (migration 009). */
  email: string | null;
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
  /** Migration 009: 1 once a texted code proved `phone_number` (E.164); only such a number signs in, and it is unique among them. */
  phone_verified: ColumnType<number, number | undefined, number>;
  /** Migration 024: the language of the user's emails (en, de, es, he); null: the request's. */
  locale: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface UserTenantsTable {
  user_id: string;
  tenant_id: string;
  created_at: number;
  /** Migration 016: the membership's own state (see schema-admin.ts); set, it suspends the membership. */
  disabled_at: OptionalColumn<number>;
  admin_locked_at: OptionalColumn<number>;
  expires_at: OptionalColumn<number>;
  managed_by: ColumnType<string, string | undefined, string>;
  /** Migration 016: the users-table read model, filled and kept in step by triggers (never written by hand). */
  sort_name: ColumnType<string, never, never>;
  email: ColumnType<string | null, never, never>;
  user_created_at: ColumnType<number, never, never>;
  verified: ColumnType<number, never, never>;
  locked: ColumnType<number, never, number>;
  breached: ColumnType<number, never, never>;
  mfa_enrolled: ColumnType<number, never, never>;
  provider: ColumnType<string, never, never>;
  active_at: ColumnType<number, never, never>;
  /** Migration 021: per-user override of the tenant's sub-account access type (null: follow it; 1 granted; 0 revoked). */
  sub_account_access: OptionalColumn<number>;
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
  /** Migration 014: social-login, custom-social-login or direct (seed 000 section 2.2). */
  login_origin: ColumnType<string, string | undefined, string>;
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
  /** SHA-256 (hex) of the `gatehouse-signup` cookie of the browser that made the sign-up (migration 002); on a change-phone token, the token_hash of the password sign-in's mfaToken that may replace the SMS factor. */
  binding_hash: string | null;
  /** argon2id hash of the password chosen at that sign-up; becomes the user's only via the bound browser. */
  pending_password_hash: string | null;
  /** JSON of that sign-up's profile fields, applied under the same condition. */
  pending_profile: string | null;
  /** Migration 024: SHA-256 of `<user id>:<code>`, the code printed in an activation email (activation by code). */
  code_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 024: wrong codes tried against this token; reserved before each comparison. */
  code_attempts: ColumnType<number, number | undefined, number>;
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
  /** Migration 010: a second-factor ceremony of a sign-in, bound to its mfaToken (SHA-256). */
  mfa_token_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 010: the new-device session's deviceType, platform or cross-platform. */
  attachment: ColumnType<string | null, string | null | undefined, string | null>;
}

/** MFA tables (migration 004); see server/src/db/queries/mfa-*.ts. */
export interface MfaDevicesTable {
  id: string;
  user_id: string;
  /** 'authenticator' | 'email' | 'sms' | 'webauthn' (migration 010) */
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
  /** Migration 010: E.164 number of an 'sms' device. */
  phone_number: OptionalColumn<string>;
  /** Migration 010: a 'webauthn' device's credential (base64url id, COSE key), counter, transports (JSON), internal/usb-key/android. */
  credential_id: OptionalColumn<string>;
  public_key: OptionalColumn<string>;
  counter: OptionalColumn<number>;
  transports: OptionalColumn<string>;
  device_type: OptionalColumn<string>;
  name: OptionalColumn<string>;
}

/** A nullable column inserts may leave out (added by a later migration). */
type OptionalColumn<T> = ColumnType<T | null, T | null | undefined, T | null>;

/** A texted MFA code (migration 010); `code_hash` is SHA-256 of `<id>:<code>`. */
export interface MfaSmsCodesTable {
  id: string;
  user_id: string;
  /** 'login' (sign-in or step-up), 'enroll', 'disable' */
  purpose: string;
  mfa_token_hash: string | null;
  device_id: string;
  code_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  failed_attempts: number;
}

/** A reset-phone request or a new phone number waiting for its code (migration 010); hashes only. */
export interface PhoneVerificationsTable {
  id_hash: string;
  user_id: string;
  /** 'reset' (code emailed), 'reset-change' or 'change' (code texted to `phone_number`) */
  purpose: string;
  phone_number: string | null;
  code_hash: string;
  attempts: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
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
  /** Migration 014: the login origin of the sign-in waiting for this second factor (null: direct). */
  login_origin: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 017: how the sign-in proved the user before this second factor ('pwd': the password; null: another way). */
  primary_method: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 024: how the sign-in began, for its audit record ('password', 'magic link', 'social', ...). */
  sign_in_method: ColumnType<string | null, string | null | undefined, string | null>;
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

export interface Database extends SsoTables, SocialTables, OAuthTables, AdminTables, ApiTokenTables, AccountTables, SelfServiceTables, SecurityTables, BillingTables, ScimTables, ApplicationTables, ConnectivityTables, ChannelTables, NotificationTables, WebhookTables, ReportTables, CdnTables {
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
  mfa_sms_codes: MfaSmsCodesTable;
  phone_verifications: PhoneVerificationsTable;
  invitations: InvitationsTable;
  impersonations: ImpersonationsTable;
}

/** An invitation of a user into a tenant (migration 011); hashes only, never the token or code. */
export interface InvitationsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  invited_by: string | null;
  /** JSON array of the role ids the inviter granted. */
  role_ids: string;
  token_hash: string;
  /** SHA-256 of `<id>:<code>` under the code strategy, else null. */
  code_hash: string | null;
  attempts: number;
  created_at: number;
  sent_at: number;
  expires_at: number;
  accepted_at: number | null;
}

/** One impersonation token and, once exchanged, the session it became (migration 011): the audit record. */
export interface ImpersonationsTable {
  id: string;
  tenant_id: string;
  impersonator_id: string;
  target_user_id: string;
  token_hash: string;
  reason: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  session_id: string | null;
  ip: string | null;
  user_agent: string | null;
}
