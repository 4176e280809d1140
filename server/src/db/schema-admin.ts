/** Tables of tenant administration of people (migration 016); see the migration for what each one holds. */

export interface GroupsTable {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  color: string | null;
  metadata: string | null;
  /** Set when an identity provider (e.g. scim2) owns the group: then it is read-only here. */
  managed_by: string | null;
  created_at: number;
  updated_at: number;
}

export interface GroupRolesTable {
  group_id: string;
  role_id: string;
}

export interface GroupUsersTable {
  group_id: string;
  user_id: string;
  created_at: number;
}

export interface PermissionCategoriesTable {
  id: string;
  name: string;
  description: string | null;
  created_at: number;
}

/** A tenant's invite link: the token by SHA-256 for lookups, and sealed so the admin can see the link again. */
export interface InviteLinksTable {
  id: string;
  tenant_id: string;
  token_hash: string;
  token_sealed: string;
  created_by: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
}

/** One audit record (seed 001 section 3 "Audit log"). */
export interface AuditsTable {
  id: string;
  tenant_id: string;
  /** Who acted (null for the system); `email` is theirs at that moment. */
  user_id: string | null;
  email: string | null;
  action: string;
  description: string;
  ip: string | null;
  user_agent: string | null;
  /** 'Info' or 'High'. */
  severity: string;
  /** JSON of the details (ids, fields changed); never a secret. */
  json: string | null;
  created_at: number;
}

/** Migration 023: a tenant's count of audit records, kept exact by triggers on `audits`. */
export interface AuditCountsTable {
  tenant_id: string;
  /** bigint: PostgreSQL returns it as a string. */
  n: number | string;
}

/** Migration 041: how many records each (tenant, action, severity, hour since the epoch) has, kept exact by triggers on `audits`. */
export interface AuditHoursTable {
  tenant_id: string;
  action: string;
  severity: string;
  hour: number;
  /** bigint: PostgreSQL returns it as a string. */
  n: number | string;
}

/** Migration 040: a tenant's counts of memberships (all, without an active second factor, with a breached password), kept exact by triggers on `user_tenants`. */
export interface MemberCountsTable {
  tenant_id: string;
  /** bigint: PostgreSQL returns them as strings. */
  n: number | string;
  mfa_unenrolled: number | string;
  breached: number | string;
  /** Migration 045: changes whenever the order of the tenant's users list may have changed (services/admin/member-marks.ts). */
  list_version: number | string;
}

/** The tables of migrations 016, 023, 040 and 041, merged into `Database` (schema.ts). */
export interface AdminTables {
  groups: GroupsTable;
  group_roles: GroupRolesTable;
  group_users: GroupUsersTable;
  permission_categories: PermissionCategoriesTable;
  invite_links: InviteLinksTable;
  audits: AuditsTable;
  audit_counts: AuditCountsTable;
  audit_hours: AuditHoursTable;
  member_counts: MemberCountsTable;
}
