/** Tables of hosted login, the OAuth 2.0 / OIDC authorization server (migration 013); see the migration. */

export interface OAuthClientsTable {
  client_id: string;
  name: string;
  /** SHA-256 (hex) of a confidential client's secret; null for a public client. */
  secret_hash: string | null;
  /** JSON array of exact redirect URIs. */
  redirect_uris: string;
  /** JSON array of exact post-logout redirect URIs. */
  post_logout_redirect_uris: string;
  created_at: number;
  updated_at: number;
}

export interface OAuthCodesTable {
  code_hash: string;
  client_id: string;
  redirect_uri: string;
  /** BASE64URL(SHA-256(code_verifier)): only S256 is accepted. */
  code_challenge: string;
  scope: string;
  nonce: string | null;
  user_id: string;
  browser_session_id: string;
  tenant_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  reused_at: number | null;
  issued_session_id: string | null;
}

export interface OAuthGrantsTable {
  /** The grant's own row of `sessions`: the `sid` of its tokens. */
  session_id: string;
  client_id: string;
  browser_session_id: string;
  user_id: string;
  scope: string;
  created_at: number;
}

export interface OAuthRefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface OAuthBrowserSessionsTable {
  token_hash: string;
  session_id: string;
  created_at: number;
  expires_at: number;
}

export interface OAuthTables {
  oauth_clients: OAuthClientsTable;
  oauth_codes: OAuthCodesTable;
  oauth_grants: OAuthGrantsTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
  oauth_browser_sessions: OAuthBrowserSessionsTable;
}
