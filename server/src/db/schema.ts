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
}
