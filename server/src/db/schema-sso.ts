/** Tables of enterprise SSO (migration 015); see the migration for what each one holds. */

export interface SsoConfigurationsTable {
  id: string;
  tenant_id: string;
  /** 'saml' or 'oidc'. */
  type: string;
  enabled: number;
  /** SAML: whether AuthnRequests are signed with the SP key (SSO_SAML_SP_KEY_FILE). */
  sign_request: number;
  idp_entity_id: string | null;
  idp_sso_url: string | null;
  /** JSON array of base64 DER certificates the IdP signs with. */
  idp_certificates: string | null;
  idp_metadata_url: string | null;
  oidc_issuer: string | null;
  oidc_client_id: string | null;
  /** Encrypted (enc:v1:...) when GATEHOUSE_KEY_ENCRYPTION_KEY is set. Never served. */
  oidc_client_secret: string | null;
  oidc_scopes: string | null;
  /** JSON array of role ids. */
  default_role_ids: string;
  created_at: number;
  updated_at: number;
}

export interface SsoDomainsTable {
  id: string;
  config_id: string;
  domain: string;
  validated: number;
  /** The value a DNS TXT record of the domain must hold. */
  verification: string;
  created_at: number;
  validated_at: number | null;
}

export interface SsoGroupMappingsTable {
  id: string;
  config_id: string;
  group_name: string;
  /** JSON array of role ids. */
  role_ids: string;
}

export interface SsoRequestsTable {
  id: string;
  config_id: string;
  kind: string;
  /** OIDC: SHA-256 of the state. */
  state_hash: string | null;
  nonce: string | null;
  code_verifier: string | null;
  /** SHA-256 of the browser-binding cookie of the browser that started the sign-in. */
  binding_hash: string;
  redirect_uri: string;
  /** SAML: the proven identity (JSON) once the ACS accepted the response. */
  result: string | null;
  result_code_hash: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  completed_at: number | null;
}

export interface SsoAssertionsTable {
  config_id: string;
  assertion_id: string;
  created_at: number;
  expires_at: number;
}

export interface SsoIdentitiesTable {
  config_id: string;
  subject: string;
  user_id: string;
  /** JSON array of the role ids the last SSO sign-in granted. */
  granted_role_ids: string;
  created_at: number;
  last_login_at: number;
}

/** The SSO tables, merged into `Database` (schema.ts). */
export interface SsoTables {
  sso_configurations: SsoConfigurationsTable;
  sso_domains: SsoDomainsTable;
  sso_group_mappings: SsoGroupMappingsTable;
  sso_requests: SsoRequestsTable;
  sso_assertions: SsoAssertionsTable;
  sso_identities: SsoIdentitiesTable;
}
