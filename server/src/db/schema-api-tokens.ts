/** The tables of migration 019 (API tokens), merged into `Database` (schema.ts). */
export interface ApiTokensTable {
  id: string;
  /** Public: CLIENT_ID_ plus 32 hex digits. */
  client_id: string;
  /** 'user' (personal) or 'tenant'. */
  kind: string;
  /** 'ClientCredentials' or 'AccessToken'. */
  type: string;
  tenant_id: string;
  /** The owner of a personal token; the creator of a tenant token. */
  user_id: string;
  description: string;
  /** SHA-256 of the secret; the secret itself is shown once, at creation. */
  secret_hash: string;
  created_at: number;
  /** Null: never expires. */
  expires_at: number | null;
}

export interface ApiTokenRolesTable {
  token_id: string;
  role_id: string;
}

export interface ApiTokenTables {
  api_tokens: ApiTokensTable;
  api_token_roles: ApiTokenRolesTable;
}
