import type { ColumnType } from 'kysely';

/** The tables of migration 029 (SCIM provisioning), merged into `Database` (schema.ts); see the migration. */

export interface ScimConnectionsTable {
  id: string;
  tenant_id: string;
  /** frontegg, okta, azure-ad or other. */
  source: string;
  /** SHA-256 of the bearer token's secret part; the token itself is shown once. */
  token_hash: string;
  created_by: string | null;
  created_at: number;
  rotated_at: number | null;
}

export interface ScimResourcesTable {
  connection_id: string;
  tenant_id: string;
  /** 'User' (resource_id = users.id) or 'Group' (resource_id = groups.id). */
  resource_type: string;
  resource_id: string;
  /** userName or displayName, lower-cased: unique per tenant and type. */
  name_key: string;
  external_id: string | null;
  /** JSON of the SCIM resource's attributes Gatehouse has no column for. */
  attributes: string;
  /** Bumped on every change: the ETag. */
  version: number;
  created_at: number;
  updated_at: number;
  /** 1 when SCIM created the account (a User it may edit and delete), 0 for a linked existing account or a Group (migration 032). */
  created_account: ColumnType<number, number | undefined, number>;
}

export interface ScimRequestsTable {
  id: string;
  connection_id: string;
  method: string;
  path: string;
  status: number;
  created_at: number;
  duration_ms: number;
  resource_type: string | null;
  resource_id: string | null;
  /** JSON: attribute -> [before, after]. */
  diff: string | null;
  error: string | null;
}

export interface ScimTables {
  scim_connections: ScimConnectionsTable;
  scim_resources: ScimResourcesTable;
  scim_requests: ScimRequestsTable;
}
